/**
 * `rxjs-tool-calls/async`: tool-call results as an `AsyncIterable`, for `for await` loops.
 *
 * Built on `eachValueFrom` from `rxjs-for-await`, an optional peer dependency: install it to use
 * this entry point (`npm install rxjs-for-await`). The main `rxjs-tool-calls` entry never loads it;
 * this one imports it statically, so it loads the same way under every runner and bundler (jest's
 * CommonJS mode included), and importing this entry without it fails at once with Node's
 * module-not-found error naming `rxjs-for-await`.
 *
 * @example
 * ```ts
 * import { fromResponse } from 'rxjs-tool-calls';
 * import { eachToolCall } from 'rxjs-tool-calls/async';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 * declare function run(name: string, args: unknown): Promise<void>;
 *
 * for await (const result of eachToolCall(fromResponse(fetch(url, init)))) {
 *   if (result.success) await run(result.data.name, result.data.arguments);
 *   else console.error(result.error.code);
 * }
 * ```
 *
 * @module
 */
import type { Observable } from 'rxjs';
import { eachValueFrom } from 'rxjs-for-await';
// From the main entry point: the build keeps this import as `rxjs-tool-calls`, so the results and
// error classes are the main entry's own (`instanceof `provider-error` error` holds), not a second copy. Types
// from their modules, so that the declaration bundle has no import cycle through the entry.
import { readToolCalls, type ToolsInput, type TypedToolCallResult } from './index';
import type { ReadToolCallsOptions } from './read/readToolCalls';
import type { ToolCallResult } from './result';
// The checks of the options: plain tables (a copy in this entry's bundle is harmless).
import { CALLS_OPTION_CHECKS } from './calls/driver';
import { checkOptions } from './internal/options';
import { TOOLS_OPTION } from './operators/validateResults';
import { checkTools } from './parse/validate';
import { READ_OPTION_CHECKS } from './read/readStreamEvents';

/**
 * Iterate the tool-call results of a streamed response with `for await`.
 *
 * <span class="informal">`eachValueFrom(bytes$.pipe(readToolCalls(options)))`: every result is
 * kept until the loop asks for it, none is dropped while the loop body awaits.</span>
 *
 * 1. The request starts when the loop starts (the observable is subscribed on the first `next()`).
 * 2. `break`, `return` or a `throw` in the loop body unsubscribes, which cancels the request
 *    (`fromResponse` cancels the body, closing the connection).
 * 3. A stream that ends with a typed error (`provider-error`, `truncated`, …) makes the loop throw
 *    it after the last result (including the `incomplete` results of calls that were open).
 * 4. Each call returns a new iterable; iterating it again subscribes again.
 *
 * @example
 * ```ts
 * import { fromResponse } from 'rxjs-tool-calls';
 * import { eachToolCall } from 'rxjs-tool-calls/async';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * for await (const result of eachToolCall(fromResponse(fetch(url, init)), { provider: 'anthropic' })) {
 *   if (result.success && result.data.name === 'stop') break; // cancels the request
 * }
 * ```
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { fromResponse } from 'rxjs-tool-calls';
 * import { eachToolCall } from 'rxjs-tool-calls/async';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * const tools = { get_weather: z.object({ city: z.string() }) };
 * for await (const result of eachToolCall(fromResponse(fetch(url, init)), { tools })) {
 *   if (result.success && result.data.name === 'get_weather') console.log(result.data.arguments.city); // typed: string
 * }
 * // displays: Paris
 * ```
 *
 * @param bytes$ The response's byte (or text) chunks, e.g. `fromResponse(fetch(…))`.
 * @param options The options of `readToolCalls()`: wire format, SSE and tool-call limits, and
 *   `tools` (validated and typed by tool name, as in `readToolCalls({ tools })`).
 * @return An async iterable of {@link ToolCallResult}s (typed by tool name with `tools`).
 * @throws {ToolStreamError} `invalid-option`, at once, for an option `readToolCalls()` does not take or a value it cannot use.
 */
export function eachToolCall<T extends ToolsInput>(bytes$: Observable<Uint8Array | string>, options: ReadToolCallsOptions & { readonly tools: T }): AsyncIterable<TypedToolCallResult<T>>;
export function eachToolCall(bytes$: Observable<Uint8Array | string>, options?: ReadToolCallsOptions): AsyncIterable<ToolCallResult>;
export function eachToolCall(bytes$: Observable<Uint8Array | string>, options: ReadToolCallsOptions & { readonly tools?: ToolsInput } = {}): AsyncIterable<ToolCallResult> {
  checkOptions('eachToolCall', options, READ_OPTION_CHECKS, CALLS_OPTION_CHECKS, TOOLS_OPTION);
  const { tools, ...rest } = options;
  if (tools !== undefined) checkTools(tools, 'eachToolCall');
  const results$ = tools === undefined ? bytes$.pipe(readToolCalls(rest)) : bytes$.pipe(readToolCalls({ ...rest, tools }));
  return { [Symbol.asyncIterator]: () => eachValueFrom(results$) };
}
