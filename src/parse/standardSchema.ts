/**
 * The Standard Schema v1 interface: what Zod 4, Valibot, ArkType and others implement, so that a
 * library can validate with any of them without importing one. Written from the public spec; only
 * types, nothing at run time.
 *
 * @module
 */

/** A validator that follows Standard Schema v1. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

// A type-only namespace, as in the spec, so `StandardSchemaV1.InferOutput<S>` reads naturally.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace StandardSchemaV1 {
  /** The properties under `~standard`. */
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    /** The library's name (`zod`, `valibot`, …). */
    readonly vendor: string;
    /** Validate an unknown value: synchronously or with a Promise (async refinements). */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** Carries the input and output types for inference; absent at run time. */
    readonly types?: Types<Input, Output> | undefined;
  }

  type Result<Output> = SuccessResult<Output> | FailureResult;

  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }

  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }

  interface Issue {
    readonly message: string;
    /** Keys from the root to the offending value; a segment may be a key or a `{ key }` object. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }

  interface PathSegment {
    readonly key: PropertyKey;
  }

  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }

  /** The type a schema accepts. */
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input'];
  /** The type a schema produces. */
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output'];
}
