/**
 * `encodeGemini()`: any provider's {@link StreamEvent}s → Gemini `streamGenerateContent?alt=sse`.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../../events';
import { GeminiEncoder, type GeminiEncoderOptions } from '../../providers/gemini/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeGemini}. */
export interface EncodeGeminiOptions extends GeminiEncoderOptions, EncodeOptions {}

/**
 * Write any provider's stream as Gemini `streamGenerateContent?alt=sse` chunks: text and thoughts
 * live, each function call whole when it completes.
 *
 * <span class="informal">Normalised events in, `data: {"candidates":[…],"modelVersion":…}`
 * strings out; Gemini's public `functionCall` parts only carry whole values.</span>
 *
 * ```text
 * --m--t--x--x--y--y--f--u--d|     m: metadata, t: text-delta, x, y: fragments of calls X and Y,
 *                                  f: finish (tool-calls), u: usage, d: done
 *   encodeGemini()
 * -----a--------------b-----h|     a: a text part, b: X and Y as whole functionCall parts (the finish
 *                                  closed them) + a chunk with finishReason STOP, h: usageMetadata
 *
 * --t--x--#                        #: a provider error (`provider-error` error)
 *   encodeGemini()
 * --a-----(e|)                     e: data: {"error":{"code","message","status"}}, then complete
 *
 * --t--x--#                        #: truncated, or any other error
 *   encodeGemini()
 * --a-----#                        the same error
 * ```
 *
 * 1. Live: text parts (`{ text }`) and thought parts (`{ text, thought: true }`, with the
 *    `thoughtSignature` of the reasoning) are written as they arrive. A call is written whole
 *    (`{ functionCall: { name, args } }`) when it completes: at its end, its choice's finish or the end
 *    of the stream. Nothing of a call is written before (argument fragments have no place in a part).
 * 2. Identity: calls are resolved by the readers' tracker (see `encodeOpenAIChat()`). Parts come in
 *    the order calls complete. `functionCall.id` is written only when the source sent an id (Gemini
 *    itself sends none: none is invented); a call's `thoughtSignature` (Gemini 3) stays on its part.
 *    Each choice is a candidate (`index` written when not 0).
 * 3. Only a call that can run is written: arguments that are not a JSON object, a call without a
 *    name or a call the source cut are left out (the candidate's `finishReason`, e.g. `MAX_TOKENS`,
 *    says why).
 * 4. Finish: a chunk with `finishReason` when the source finishes a choice: `STOP` (also for tool
 *    calls, as Gemini does), `MAX_TOKENS`, `SAFETY`; the source's own string for `error` and `other`.
 *    A choice the source never finished gets `STOP` at the end. The end writes a last chunk with
 *    `usageMetadata` (`promptTokenCount`, `candidatesTokenCount`, `totalTokenCount` (input +
 *    output when the source sent none), `thoughtsTokenCount`, `cachedContentTokenCount`). Gemini
 *    has no terminator.
 * 5. Errors: a `provider-error` error becomes `data: {"error":{"code","message","status"}}` (its HTTP status,
 *    else 503 when retryable or 400, and the matching Google status) and the output completes; any
 *    other error is passed on (destroy the response: a client sees a cut).
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { encodeGemini, type StreamEvent } from 'rxjs-tool-calls';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 0, name: 'get_capital', argumentsDelta: '{"country":' },
 *   { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"France"}' },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
 * ];
 * from(events).pipe(encodeGemini({ id: 'r1', model: 'gemini-2.5-flash' })).subscribe((sse) => console.log(sse));
 * // displays: data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_capital","args":{"country":"France"}}}]}}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}
 * //
 * //           data: {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP"}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}
 * ```
 *
 * @param options `model`, `id` (the `responseId`), `reasoning`, and the tracker's `generateId`,
 *   `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeGemini(options: EncodeGeminiOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith(() => new GeminiEncoder(options), options);
}
