/**
 * `readToolCalls()`: the composition most users want, bytes → one result per tool call.
 *
 * @module
 */
import { catchError, EMPTY, identity, ignoreElements, Observable, tap, throwError, type OperatorFunction } from 'rxjs';
import { idleTimeout } from './reliability/idleTimeout';
import { resultOf } from './accumulate/results';
import { incompleteReasonOf, stepTracker } from './accumulate/toolCalls';
import { ToolCallTracker, type CallEnding, type TrackedCall } from './accumulate/tracker';
import type { SseEvent, StreamEvent } from './events';
import { decoderFor } from './providers/registry';
import { SseParser } from './sse/parser';
import type { ToolCallsOptions } from './accumulate/toolCalls';
import { validateResults } from './parse/validateResults';
import type { ToolSchemas, TypedToolCallResult } from './parse/validate';
import type { ToolCallResult } from './result';
import { RawStart, type ReadStreamEventsOptions } from './readStreamEvents';

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
  const tools = options.tools;
  return (source) => {
    const results = source.pipe(fusedToolCalls(options));
    return tools === undefined ? results : results.pipe(validateResults(tools));
  };
}

/**
 * `readStreamEvents()` + `toolCalls()` as one operator with no stage boundaries: the SSE parser,
 * the wire decoder and the tracker call each other directly, so an event costs a few function
 * calls instead of a trip through five operators and a `groupBy`. It gives exactly the results
 * of the composition (`spec/readToolCalls.equivalence.spec.ts` checks it on every stream).
 */
function fusedToolCalls(options: ReadToolCallsOptions): OperatorFunction<Uint8Array | string, ToolCallResult> {
  const provider = options.provider ?? 'auto';
  const watch: OperatorFunction<Uint8Array | string, Uint8Array | string> = options.idleTimeoutMs === undefined ? identity : idleTimeout(options.idleTimeoutMs);
  return (source) =>
    new Observable<ToolCallResult>((subscriber) => {
      const raw = new RawStart();
      const parser = new SseParser(options);
      const decoder = decoderFor(provider, raw.get)();
      const tracker = new ToolCallTracker(options);
      const repair = options.repairArguments !== false;
      const onClose = (call: TrackedCall): void => subscriber.next(resultOf(call, undefined, repair));
      const onEvent = (event: StreamEvent): void => stepTracker(tracker, event, onClose);
      const onSse = (event: SseEvent): void => decoder.sse(event, onEvent);
      const closeAll = (ending: CallEnding): void => {
        for (const call of tracker.closeAll(ending)) onClose(call);
      };
      const guard = (work: () => void): void => {
        try {
          work();
        } catch (error) {
          closeAll({ kind: 'incomplete', reason: incompleteReasonOf(error) });
          throw error;
        }
      };
      const auto = provider === 'auto';
      let sourceFailed = false;
      return source
        .pipe(
          watch,
          tap({
            next: (chunk) =>
              guard(() => {
                if (auto) raw.record(chunk);
                parser.push(chunk, onSse);
              }),
            error: () => (sourceFailed = true),
            complete: () =>
              guard(() => {
                parser.end(onSse);
                decoder.end(onEvent);
                closeAll({ kind: 'complete', finishReason: undefined });
              }),
          }),
          ignoreElements(),
          catchError((error: unknown) => {
            if (sourceFailed) {
              let complete = false;
              guard(() => (complete = decoder.interrupt?.(error, onEvent) === true));
              if (complete) {
                closeAll({ kind: 'complete', finishReason: undefined });
                return EMPTY;
              }
            }
            if (sourceFailed) closeAll({ kind: 'incomplete', reason: incompleteReasonOf(error) });
            return throwError(() => error);
          }),
        )
        .subscribe(subscriber);
    });
}
