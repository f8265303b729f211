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
import { fail, ok, type Result, type ToolCall, type ToolCallResult } from '../result';
import type { StandardSchemaV1 } from './standardSchema';

export type { StandardSchemaV1 } from './standardSchema';

/** A value, or a Promise of it when a validator is asynchronous. */
export type MaybePromise<T> = T | Promise<T>;

/** A tool's schema by tool name. */
export type ToolSchemas = Record<string, StandardSchemaV1>;

/**
 * The completed calls of a set of tools: a union discriminated by `name`, whose `arguments` are
 * each schema's output type. `if (call.name === 'get_weather') call.arguments.city` type-checks.
 */
export type InferToolCall<T extends ToolSchemas> = {
  [Name in keyof T & string]: ToolCall<Name, StandardSchemaV1.InferOutput<T[Name]>>;
}[keyof T & string];

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
  const schema = tools[call.name] as StandardSchemaV1;
  const typed = (result: Result<unknown, ToolStreamError<'invalid-arguments'>>): TypedToolCallResult<T> => (result.success ? ok({ ...call, arguments: result.data } as InferToolCall<T>) : result);
  const result = validateArguments(schema, call.arguments, context);
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
