/**
 * The Standard Schema v1 interface: what Zod 4, Valibot, ArkType and others implement, so that a
 * library can validate with any of them without importing one. Written from the public spec; only
 * types, nothing at run time.
 *
 * @module
 */

/** A validator that follows Standard Schema v1. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The standard interface, under a key that does not clash with the library's own API (and sorts last in autocomplete). */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

// A type-only namespace, as in the spec, so `StandardSchemaV1.InferOutput<S>` reads naturally.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace StandardSchemaV1 {
  /** The properties under `~standard`. */
  interface Props<Input = unknown, Output = Input> {
    /** The version of the Standard Schema spec: always `1`. */
    readonly version: 1;
    /** The library's name (`zod`, `valibot`, …). */
    readonly vendor: string;
    /** Validate an unknown value: synchronously or with a Promise (async refinements). */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** Carries the input and output types for inference; absent at run time. */
    readonly types?: Types<Input, Output> | undefined;
  }

  /** What `validate` returns: the output value, or the issues found. */
  type Result<Output> = SuccessResult<Output> | FailureResult;

  /** The value passed validation. */
  interface SuccessResult<Output> {
    /** The validated (and possibly transformed) value. */
    readonly value: Output;
    /** Absent (or `undefined`) on success: test `issues === undefined` to tell the two results apart. */
    readonly issues?: undefined;
  }

  /** The value failed validation. */
  interface FailureResult {
    /** Every problem found (at least one). */
    readonly issues: ReadonlyArray<Issue>;
  }

  /** One problem the validator found. */
  interface Issue {
    /** The validator's message (e.g. `'Invalid input: expected string, received number'`). */
    readonly message: string;
    /** Keys from the root to the offending value; a segment may be a key or a `{ key }` object. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }

  /** One step of an issue's path, as an object (some libraries add more fields). */
  interface PathSegment {
    /** The object key or array index of this step. */
    readonly key: PropertyKey;
  }

  /** The input and output types a schema carries, for inference only. */
  interface Types<Input = unknown, Output = Input> {
    /** The type the schema accepts. */
    readonly input: Input;
    /** The type the schema produces after validation (and transforms). */
    readonly output: Output;
  }

  /** The type a schema accepts. */
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input'];
  /** The type a schema produces. */
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output'];
}
