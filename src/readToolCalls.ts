/**
 * `readToolCalls()`: the composition most users want, bytes → one result per tool call.
 *
 * @module
 */
import type { Observer, OperatorFunction } from 'rxjs';
import { ResultsStage, type ToolCallsOptions } from './parse/toolCalls';
import type { ToolSchemas, TypedToolCallResult } from './parse/validate';
import { validateResults } from './parse/validateResults';
import type { ToolCallResult } from './result';
import { eventsStage, idleWatch, lazyEventsOperator, type ReadStreamEventsOptions } from './readStreamEvents';

/** The stages of `readToolCalls()` around `out` (one function for every subscription). */
function resultsStage(out: Observer<ToolCallResult>, options: ReadToolCallsOptions): Observer<Uint8Array | string> {
  return eventsStage(new ResultsStage(out, options), options);
}

/** Options of {@link readToolCalls}. */
export type ReadToolCallsOptions = ToolCallsOptions & ReadStreamEventsOptions;

/**
 * Read the tool calls of a streamed response, straight from its bytes.
 *
 * <span class="informal">`decodeSse()` → the wire adapter (auto-detected by default) → `toolCalls()`,
 * in one operator.</span>
 *
 * ```text
 * --c1--c2------c3-----|           c: network chunks (Uint8Array or string), split anywhere
 *   readToolCalls()
 * --------------(AB)---|           A, B: ToolCallResult, each the moment its call completes
 * ```
 *
 * 1. Chunk boundaries never matter: bytes may be split anywhere, even inside a UTF-8 character.
 * 2. Emits one `{ success: true, data }` or `{ success: false, error }` per tool call.
 * 3. Ends with a typed error (`provider-error`, `truncated`, `event-too-large`, `invalid-event`, …)
 *    after every complete call was emitted and every open call was emitted as `incomplete`.
 * 4. `idleTimeoutMs`: a connection silent for that long ends with `idle-timeout`; open calls are
 *    reported `incomplete` with reason `idle-timeout` (the same as `bytes$.pipe(idleTimeout(ms), readToolCalls())`).
 *
 * @example
 * ```ts
 * import { fromResponse, readToolCalls } from 'rxjs-tool-calls';
 *
 * fromResponse(fetch(url, init)).pipe(readToolCalls()).subscribe((result) => {
 *   if (result.success) console.log(result.data.name, result.data.arguments);
 *   else console.error(result.error.code, result.error.message);
 * });
 * // displays: get_weather { city: 'Paris' }
 * ```
 *
 * @param options The wire format (`provider`, default `auto`), SSE limits, `idleTimeoutMs`, tool-call
 *   limits, the id generator, and typed `tools` (see `toolCalls()`).
 * @return An operator from byte (or text) chunks to {@link ToolCallResult}s.
 */
export function readToolCalls(options?: ReadToolCallsOptions): OperatorFunction<Uint8Array | string, ToolCallResult>;
export function readToolCalls<T extends ToolSchemas>(options: ReadToolCallsOptions & { readonly tools: T }): OperatorFunction<Uint8Array | string, TypedToolCallResult<T>>;
export function readToolCalls(options: ReadToolCallsOptions & { readonly tools?: ToolSchemas } = {}): OperatorFunction<Uint8Array | string, ToolCallResult> {
  // readStreamEvents() + toolCalls(): the same stages, chained in one subscription.
  const read = lazyEventsOperator<ToolCallResult, ReadToolCallsOptions>(options, resultsStage);
  const tools = options.tools;
  if (tools === undefined && options.idleTimeoutMs === undefined) return read;
  const watch = idleWatch(options);
  return (source) => (tools === undefined ? source.pipe(watch, read) : source.pipe(watch, read, validateResults(tools)));
}
