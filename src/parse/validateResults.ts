/**
 * `validateResults(tools)`: the validation step of `toolCalls({ tools })` as an operator of its own.
 *
 * @module
 */
import { mergeMap, type ObservableInput, type OperatorFunction } from 'rxjs';
import { InvalidArgumentsError } from '../errors';
import { fail, type ToolCall, type ToolCallResult } from '../result';
import { contextOf, isPromiseLike, validateToolCall, type MaybePromise, type ToolSchemas, type TypedToolCallResult } from './validate';

/**
 * Validate each successful result against its tool's schema; failures pass through unchanged.
 *
 * <span class="informal">What `toolCalls({ tools })` does after `toolCalls()`, as an operator of
 * its own for results from any source.</span>
 *
 * ```text
 * --A----B----M--|          A: get_weather {city:'Paris'}  B: get_weather {city:5}  M: malformed-arguments
 *   validateResults({ get_weather: z.object({ city: z.string() }) })
 * --a----b----M--|          a: success, typed  b: invalid-arguments (issues: city)  M: unchanged
 * ```
 *
 * 1. Synchronous validators keep the results in order and in time; asynchronous ones emit when they
 *    settle.
 * 2. A name not in `tools` is `unknown-tool`; a validator that throws gives `invalid-arguments`
 *    with the thrown message.
 *
 * @param tools Tool names mapped to Standard Schema validators.
 * @return An operator from {@link ToolCallResult}s to typed results.
 */
export function validateResults<T extends ToolSchemas>(tools: T): OperatorFunction<ToolCallResult, TypedToolCallResult<T>> {
  return mergeMap((result): ObservableInput<TypedToolCallResult<T>> => {
    const validated = validateResult(tools, result);
    return isPromiseLike(validated) ? validated : [validated];
  });
}

/**
 * Validate one result as {@link validateResults} does: a failure unchanged, a success checked
 * against its tool's schema (`unknown-tool`, `invalid-arguments`; a validator that throws or rejects
 * gives `invalid-arguments` with the thrown message). Synchronous when the validator is.
 *
 * @param tools Tool names mapped to Standard Schema validators.
 * @param result The result to check.
 * @return The typed result, or a Promise of it when the validator is asynchronous.
 */
export function validateResult<T extends ToolSchemas>(tools: T, result: ToolCallResult): TypedToolCallResult<T> | Promise<TypedToolCallResult<T>> {
  if (!result.success) return result;
  let validated: MaybePromise<TypedToolCallResult<T>>;
  try {
    validated = validateToolCall(tools, result.data);
  } catch (error) {
    return thrownByValidator(result.data, error);
  }
  return isPromiseLike(validated) ? Promise.resolve(validated).catch((error: unknown) => thrownByValidator(result.data, error)) : validated;
}

function thrownByValidator<T extends ToolSchemas>(call: ToolCall, error: unknown): TypedToolCallResult<T> {
  const message = `the validator threw: ${error instanceof Error ? error.message : String(error)}`;
  return fail(new InvalidArgumentsError({ toolCall: contextOf(call), issues: [{ message, path: [] }], value: call.arguments }));
}
