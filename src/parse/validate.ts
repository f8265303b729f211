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

/**
 * A custom (freeform) tool among `tools`: its calls carry text, not JSON (`kind: 'custom'`, `input`).
 * `schema`, when given, validates that text (a Standard Schema whose input is a string); the call's
 * `arguments` are then its output. A call of it that came as JSON `{ "input": "…" }` (the wrapping
 * `toolSpecs()` declares for formats without custom tools) is read as that text.
 */
export interface CustomToolSchema<S extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined> {
  /** Always `'custom'`. */
  readonly kind: 'custom';
  /** Validates (and may transform) the input text. */
  readonly schema?: S;
}

/** A tool's schema by tool name (a custom tool's entry is a {@link CustomToolSchema}). */
export type ToolSchemas = Record<string, StandardSchemaV1 | CustomToolSchema>;

/** The `arguments` type of a custom tool's calls: its validator's output, else the text. */
type CustomArgs<T> = T extends { readonly schema?: infer S } ? (S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : string) : string;

/** The `arguments` type of the calls of one `tools` entry: its schema's output (a custom tool's: its text, or its validator's output). */
export type ToolArgumentsOf<E> = E extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<E> : CustomArgs<E>;

/**
 * The completed calls of a set of tools: a union discriminated by `name`, whose `arguments` are
 * each schema's output type (a custom tool's: its text, see {@link CustomToolCall}).
 * `if (call.name === 'get_weather') call.arguments.city` type-checks.
 */
export type InferToolCall<T extends ToolSchemas> = {
  [Name in keyof T & string]: T[Name] extends StandardSchemaV1 ? ToolCall<Name, StandardSchemaV1.InferOutput<T[Name]>> : CustomToolCall<Name, CustomArgs<T[Name]>>;
}[keyof T & string];

/** Whether a `tools` entry is a custom tool's ({@link CustomToolSchema}). */
export function isCustomTool(entry: unknown): entry is CustomToolSchema {
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
export type TypedToolCallResult<T extends ToolSchemas> = ToolCallResult<InferToolCall<T>>;

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
 * Check a completed call against its tool's schema: the call with typed `arguments`, an
 * `unknown-tool` error when `tools` has no schema for its name, or an
 * `invalid-arguments` error. Synchronous when the validator is.
 */
export function validateToolCall<T extends ToolSchemas>(tools: T, call: ToolCall): MaybePromise<TypedToolCallResult<T>> {
  const context = contextOf(call);
  if (!Object.prototype.hasOwnProperty.call(tools, call.name)) return fail(new ToolStreamError('unknown-tool', { toolCall: context, availableTools: Object.keys(tools) }));
  const entry = tools[call.name];
  if (isCustomTool(entry)) return validateCustomCall(entry, call) as MaybePromise<TypedToolCallResult<T>>;
  const schema = entry as StandardSchemaV1;
  const typed = (result: Result<unknown, ToolStreamError<'invalid-arguments'>>): TypedToolCallResult<T> => (result.success ? ok({ ...call, arguments: result.data } as InferToolCall<T>) : result);
  const result = validateArguments(schema, call.arguments, context);
  return isPromiseLike(result) ? result.then(typed) : typed(result);
}

/**
 * A call of a custom tool, checked: its text ({@link customInputOf}) through the tool's validator
 * when it has one; `invalid-arguments` when the call carries no text (JSON arguments of another shape).
 */
export function validateCustomCall(tool: CustomToolSchema, call: ToolCall): MaybePromise<Result<CustomToolCall<string, unknown>, ToolStreamError<'invalid-arguments'>>> {
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
