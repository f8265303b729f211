/**
 * `validateResults(tools)`: the validation step of `toolCalls({ tools })` as an operator of its own.
 *
 * @module
 */
import { mergeMap, type ObservableInput, type OperatorFunction } from 'rxjs';
import type { ToolCallResult } from '../result';
import { anything, type OptionChecks } from '../internal/options';
import { checkTools, isPromiseLike, validateToolCall, type MaybePromise, type ToolsInput, type TypedToolCallResult } from '../parse/validate';

/** The `tools` option of the operators that validate (its value is checked by `checkTools()`). */
export const TOOLS_OPTION: OptionChecks = { tools: anything };

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
 *    with the thrown message; a tool record without a schema passes its calls as they are.
 * 3. `tools` is checked when the operator is made: an array's tools need distinct names, a record's
 *    entries must be schemas or tool records (`invalid-option` otherwise).
 *
 * @param tools Tool names mapped to Standard Schema validators or `tool()` records, or an array of named `tool()` records.
 * @return An operator from {@link ToolCallResult}s to typed results.
 */
export function validateResults<T extends ToolsInput>(tools: T): OperatorFunction<ToolCallResult, TypedToolCallResult<T>> {
  return validating<ToolCallResult, TypedToolCallResult<T>>(
    checkTools(tools, 'validateResults'),
    (result) => result,
    (_result, validated) => validated as TypedToolCallResult<T>,
  );
}

/**
 * Validate the results inside a stream of other values (e.g. events and results): `resultOf` finds
 * a value's result (`undefined`: the value passes through), `withResult` puts the validated result
 * back. A throwing validator is an `invalid-arguments` result, as in `validateResults()`.
 */
export function validating<I, O>(
  tools: ToolsInput,
  resultOf: (value: I) => ToolCallResult | undefined,
  withResult: (value: I, validated: TypedToolCallResult<ToolsInput>) => O,
): OperatorFunction<I, O> {
  return mergeMap((value): ObservableInput<O> => {
    const result = resultOf(value);
    if (result === undefined) return [value as unknown as O];
    if (!result.success) return [withResult(value, result)];
    // validateToolCall never throws or rejects: a throwing validator is an invalid-arguments result.
    const validated = validateToolCall(tools, result.data);
    return isPromiseLike(validated) ? Promise.resolve(validated).then((v) => withResult(value, v)) : [withResult(value, validated)];
  });
}

/**
 * Validate one result as {@link validateResults} does: a failure unchanged, a success checked
 * against its tool's schema (`unknown-tool`, `invalid-arguments`; a validator that throws or
 * rejects gives `invalid-arguments` with the thrown message). Synchronous when the validator is.
 *
 * @param tools Tool names mapped to Standard Schema validators.
 * @param result The result to check.
 * @return The typed result, or a Promise of it when the validator is asynchronous.
 */
export function validateResult<T extends ToolsInput>(tools: T, result: ToolCallResult): MaybePromise<TypedToolCallResult<T>> {
  if (!result.success) return result;
  return validateToolCall(tools, result.data) as MaybePromise<TypedToolCallResult<T>>;
}
