/**
 * Validate parsed tool-call arguments with any Standard Schema v1 validator (Zod 4, Valibot,
 * ArkType, …). Nothing here imports a schema library: users who pass no schemas never load one.
 *
 * A validator may answer synchronously or with a Promise (async refinements); the functions here
 * stay synchronous when it does. A validator that throws (or rejects) is a bug in that validator:
 * the exception is not caught.
 *
 * @module
 */
import { ToolStreamError, type ToolCallContext, type ValidationIssue } from '../errors';
import { fail, ok, type CustomToolCall, type Result, type ToolCall, type ToolCallResult } from '../result';
import type { StandardSchemaV1 } from './standardSchema';

export type { StandardSchemaV1 } from './standardSchema';

/** A value, or a Promise of it when a validator is asynchronous. */
export type MaybePromise<T> = T | Promise<T>;

/** A tool's schema by tool name. */
export type ToolSchemas = Record<string, StandardSchemaV1>;

/**
 * What the readers need of a tool defined as a record (`tool()` from `rxjs-tool-calls/tools` makes
 * one): the `schema` that validates its calls (absent: its arguments pass as parsed) and, in an
 * array, its `name`. Its other fields (`execute`, …) are not read here.
 */
export interface ToolShape {
  /** The name the model calls the tool by: required in an array, and equal to its key in a record. */
  readonly name?: string | undefined;
  /** Validates (and may transform) the parsed arguments; absent: the arguments are passed as parsed. */
  readonly schema?: StandardSchemaV1 | undefined;
  /** What the tool does, for the model (not read by the readers). */
  readonly description?: string | undefined;
  /**
   * `'custom'` for a custom (freeform) tool (`customTool()` from `rxjs-tool-calls/tools`): its calls
   * carry text, not JSON (`kind: 'custom'`, `input`); `schema`, when given, validates that text. A
   * call of it that came as JSON `{ "input": "…" }` (the wrapping `toolSpecs()` declares for formats
   * without custom tools) is read as that text.
   */
  readonly kind?: 'custom' | undefined;
}

/**
 * Tools as every `tools` option takes them: by name, each a Standard Schema or a tool record
 * (`{ get_weather: z.object(…) }`, `{ get_weather: tool({ schema, execute }) }`), or an array of
 * named tool records (`[tool({ name: 'get_weather', schema })]`). The same object (or array) goes
 * to `readToolCalls({ tools })`, `runTools(tools)` and `toolSpecs(tools, format)`.
 */
export type ToolsInput =
  | Readonly<Record<string, StandardSchemaV1 | ToolShape>>
  | ReadonlyArray<
      ToolShape & {
        /** The tool's name (its calls' `name`). */
        readonly name: string;
      }
    >;

/** Tools by name: a record as it is, an array keyed by each tool's `name` (a literal name narrows, as `tool()` keeps it). */
export type ToolsByName<T> =
  T extends ReadonlyArray<infer E>
    ? {
        [
          Name in E extends {
            /** The tool's name. */
            readonly name: infer N extends string;
          }
            ? N
            : never
        ]: Extract<
          E,
          {
            /** The tool's name. */
            readonly name: Name;
          }
        >;
      }
    : T;

/** The schema of a tool entry: the entry itself when it is a Standard Schema, else its `schema` (`never` without one). */
export type SchemaOfTool<E> = E extends StandardSchemaV1
  ? E
  : E extends {
        /** The tool's schema, when it has one. */
        readonly schema?: infer S;
      }
    ? Exclude<S, undefined>
    : never;

/** Whether a tool entry is a custom tool's (`kind: 'custom'`). */
type IsCustom<E> = E extends { readonly kind: 'custom' } ? true : false;

/**
 * The validated arguments of a tool entry: its schema's output, or `unknown` for a tool without a
 * schema (a custom tool's: its validator's output, else its input text, a `string`).
 */
export type ToolArguments<E> = [SchemaOfTool<E>] extends [never] ? (IsCustom<E> extends true ? string : unknown) : StandardSchemaV1.InferOutput<SchemaOfTool<E> & StandardSchemaV1>;

/** The names of a set of tools (a record's keys, or an array's `name`s). */
export type ToolName<T extends ToolsInput> = keyof ToolsByName<T> & string;

/**
 * The completed calls of a set of tools: a union discriminated by `name`, whose `arguments` are
 * each schema's output type (a custom tool's: its text, see {@link CustomToolCall}).
 * `if (call.name === 'get_weather') call.arguments.city` type-checks.
 */
export type InferToolCall<T extends ToolsInput> = {
  [Name in ToolName<T>]: IsCustom<ToolsByName<T>[Name]> extends true ? CustomToolCall<Name, ToolArguments<ToolsByName<T>[Name]>> : ToolCall<Name, ToolArguments<ToolsByName<T>[Name]>>;
}[ToolName<T>];

/** Whether a `tools` entry is a custom tool's (`kind: 'custom'`, see {@link ToolShape.kind}). */
export function isCustomTool(entry: unknown): entry is ToolShape & {
  /** A custom tool. */
  readonly kind: 'custom';
} {
  return typeof entry === 'object' && entry !== null && (entry as { readonly kind?: unknown }).kind === 'custom';
}

/**
 * The text of a call of a custom tool: its input (`kind: 'custom'`), or the one string member
 * `input` of JSON arguments (the wrapping of formats without custom tools); `undefined` otherwise.
 */
export function customInputOf(call: ToolCall): string | undefined {
  if (call.kind === 'custom') return call.input ?? (typeof call.arguments === 'string' ? call.arguments : undefined);
  const args = call.arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const keys = Object.keys(args);
  const input = (args as Record<string, unknown>)['input'];
  return keys.length === 1 && typeof input === 'string' ? input : undefined;
}

/** The result of one call of a set of typed tools. */
export type TypedToolCallResult<T extends ToolsInput> = ToolCallResult<InferToolCall<T>>;

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null;

/** Whether a tool entry is itself a Standard Schema (it has `~standard`), not a tool record holding one. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && isRecord((value as { readonly '~standard'?: unknown })['~standard']);
}

/**
 * Check a `tools` option once, when the operator is made: each entry must be a Standard Schema or
 * a tool record whose `schema`, if any, is a Standard Schema (any other object is a tool without
 * a schema); an array's tools each need a non-empty `name` no other has, a record's tool records a
 * `name` equal to their key, or none.
 * Anything else is an `invalid-option` error naming `fn` and the entry (`options.tools[1]`,
 * `options.tools.get_weather`).
 *
 * @param tools The option as given.
 * @param fn The function it was given to (for the error).
 * @return `tools`, unchanged.
 */
export function checkTools<T extends ToolsInput>(tools: T, fn: string): T {
  const list = Array.isArray(tools);
  Object.entries(tools as Readonly<Record<string, unknown>>).forEach(([key, tool], i, all) => {
    const { schema, name = list ? '' : key } = isRecord(tool) && !isStandardSchema(tool) ? (tool as ToolShape) : { schema: tool };
    const own = list ? name !== '' && all.findIndex(([, t]) => (t as ToolShape | null)?.name === name) === i : name === key;
    if (!own || (schema !== undefined && !isStandardSchema(schema)))
      throw new ToolStreamError('invalid-option', {
        function: fn,
        option: `options.tools${list ? `[${key}]` : `.${key}`}`,
        value: tool,
        expected: list ? 'a tool with a name of its own' : `a schema, or a tool named '${key}' or unnamed`,
      });
  });
  return tools;
}

/** A tool found by name: its schema (`undefined`: none) and whether it is a custom tool. */
export interface FoundTool {
  /** Validates its calls (a custom tool's: its input text); `undefined`: none. */
  readonly schema: StandardSchemaV1 | undefined;
  /** Whether it is a custom (freeform) tool. */
  readonly custom: boolean;
}

/**
 * Find tool `name` in `tools`: `{ schema }` (`undefined`: a tool without a schema, whose
 * arguments pass as parsed), or `undefined` when `tools` has no such tool.
 */
export function findTool(tools: ToolsInput, name: string): FoundTool | undefined {
  const tool: unknown = Array.isArray(tools)
    ? (tools as ReadonlyArray<ToolShape>).find((t) => t.name === name)
    : Object.prototype.hasOwnProperty.call(tools, name)
      ? (tools as Readonly<Record<string, unknown>>)[name]
      : undefined;
  if (tool === undefined) return undefined;
  return isStandardSchema(tool) ? { schema: tool, custom: false } : { schema: (tool as ToolShape).schema, custom: isCustomTool(tool) };
}

/** The names of `tools`, in order (for `unknown-tool` errors). */
export function toolNames(tools: ToolsInput): string[] {
  return Array.isArray(tools) ? (tools as ReadonlyArray<ToolShape>).map((t) => String(t.name)) : Object.keys(tools);
}

/** Standard Schema issues as the library's {@link ValidationIssue}s (`{ key }` path segments become keys). */
export function toValidationIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>): ValidationIssue[] {
  return issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((segment) => (typeof segment === 'object' && segment !== null ? segment.key : segment)),
  }));
}

/**
 * Validate `value` (the parsed arguments of `toolCall`) with `schema`: the schema's output, or an
 * `invalid-arguments` error listing the issues. Synchronous when the validator is; a Promise
 * when it answers with one. Never throws or rejects: a validator that throws (or rejects) is an
 * `invalid-arguments` failure of that call, with the thrown message as the issue — the one policy
 * of `toolCalls({ tools })`, `validateResults()` and `runTools()`.
 */
export function validateArguments<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
  toolCall: ToolCallContext,
): MaybePromise<Result<StandardSchemaV1.InferOutput<S>, ToolStreamError<'invalid-arguments'>>> {
  let outcome: ReturnType<StandardSchemaV1['~standard']['validate']>;
  try {
    outcome = schema['~standard'].validate(value);
  } catch (error) {
    return threw(error, value, toolCall);
  }
  return isPromiseLike(outcome)
    ? Promise.resolve(outcome).then(
        (o) => settle<S>(o, value, toolCall),
        (error: unknown) => threw(error, value, toolCall),
      )
    : settle<S>(outcome, value, toolCall);
}

/** A validator that threw: an `invalid-arguments` failure naming what it threw. */
function threw(error: unknown, value: unknown, toolCall: ToolCallContext): Result<never, ToolStreamError<'invalid-arguments'>> {
  const message = `the validator threw: ${error instanceof Error ? error.message : String(error)}`;
  return fail(new ToolStreamError('invalid-arguments', { toolCall, issues: [{ message, path: [] }], value }));
}

/** {@link validateArguments}, always as a Promise. */
export async function validateArgumentsAsync<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
  toolCall: ToolCallContext,
): Promise<Result<StandardSchemaV1.InferOutput<S>, ToolStreamError<'invalid-arguments'>>> {
  return validateArguments(schema, value, toolCall);
}

/**
 * Check a completed call against its tool's schema: the call with typed `arguments` (as parsed for
 * a tool without a schema), an `unknown-tool` error when `tools` has no tool of its name, or an
 * `invalid-arguments` error. `tools` is any {@link ToolsInput} (schemas, `tool()` records, an
 * array of named tools). Synchronous when the validator is.
 */
export function validateToolCall<T extends ToolsInput>(tools: T, call: ToolCall): MaybePromise<TypedToolCallResult<T>> {
  const context = contextOf(call);
  const tool = findTool(tools, call.name);
  if (tool === undefined) return fail(new ToolStreamError('unknown-tool', { toolCall: context, availableTools: toolNames(tools) }));
  if (tool.custom) return validateCustomCall(tool, call) as MaybePromise<TypedToolCallResult<T>>;
  if (tool.schema === undefined) return ok(call as InferToolCall<T>);
  const schema = tool.schema;
  const typed = (result: Result<unknown, ToolStreamError<'invalid-arguments'>>): TypedToolCallResult<T> => (result.success ? ok({ ...call, arguments: result.data } as InferToolCall<T>) : result);
  const result = validateArguments(schema, call.arguments, context);
  return isPromiseLike(result) ? result.then(typed) : typed(result);
}

/**
 * A call of a custom tool, checked: its text ({@link customInputOf}) through the tool's validator
 * when it has one; `invalid-arguments` when the call carries no text (JSON arguments of another shape).
 */
export function validateCustomCall(
  tool: { readonly schema?: StandardSchemaV1 | undefined },
  call: ToolCall,
): MaybePromise<Result<CustomToolCall<string, unknown>, ToolStreamError<'invalid-arguments'>>> {
  const context = contextOf(call);
  const input = customInputOf(call);
  if (input === undefined)
    return fail(new ToolStreamError('invalid-arguments', { toolCall: context, issues: [{ message: 'a custom tool is called with text (or JSON {"input": "…"})', path: [] }], value: call.arguments }));
  const custom = (args: unknown): CustomToolCall<string, unknown> => ({ ...call, kind: 'custom', input, arguments: args });
  if (tool.schema === undefined) return ok(custom(input));
  const result = validateArguments(tool.schema, input, context);
  const typed = (r: Result<unknown, ToolStreamError<'invalid-arguments'>>): Result<CustomToolCall<string, unknown>, ToolStreamError<'invalid-arguments'>> => (r.success ? ok(custom(r.data)) : r);
  return isPromiseLike(result) ? result.then(typed) : typed(result);
}

/** The identity of a call, for errors. */
export function contextOf(call: ToolCall): ToolCallContext {
  return { id: call.id, name: call.name, index: call.index, choice: call.choice, rawArguments: call.rawArguments };
}

function settle<S extends StandardSchemaV1>(
  outcome: StandardSchemaV1.Result<unknown>,
  value: unknown,
  toolCall: ToolCallContext,
): Result<StandardSchemaV1.InferOutput<S>, ToolStreamError<'invalid-arguments'>> {
  if (outcome.issues !== undefined) return fail(new ToolStreamError('invalid-arguments', { toolCall, issues: toValidationIssues(outcome.issues), value }));
  return ok(outcome.value as StandardSchemaV1.InferOutput<S>);
}

/** Whether `value` is a promise (or any thenable). */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
