/**
 * Google Gemini `streamGenerateContent?alt=sse` (Gemini API and Vertex AI, including Vertex streamed
 * function-call arguments).
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { wireFormat, type WireFormat } from '../format';
import { GeminiDecoder } from './decoder';
import { geminiUsage, normalizeGeminiFinishReason } from './mapping';

/** A Gemini stream: chunks with `candidates`, `usageMetadata` or `promptFeedback`. */
function detect(_event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  return payload !== undefined && ('candidates' in payload || 'usageMetadata' in payload || 'promptFeedback' in payload);
}

/**
 * Read Gemini `streamGenerateContent?alt=sse` chunks (Gemini API and Vertex AI) as {@link StreamEvent}s.
 *
 * <span class="informal">SSE chunks in; one normalised event per text piece, thought piece,
 * function call, finish reason and usage change out.</span>
 *
 * ```text
 * --a---------b--------------c----------|       a: text part, b: two functionCall parts, c: finishReason STOP
 *   gemini()
 * --(mt)------(xexe)---------(fu)-------(d|)    m: metadata, t: text-delta, x: tool-call-delta (replace),
 *                                                e: tool-call-end, f: finish, u: usage, d: done
 * ```
 *
 * 1. Emits `text-delta`, `reasoning-delta` (parts with `thought: true`), each with the part's
 *    `thoughtSignature` as `signature` (a signature on an empty text part is a `text-delta` with
 *    `text: ''`), `finish` per candidate, `usage` (once per change) and `metadata` (`responseId`,
 *    `modelVersion`). The choice is the candidate `index` (0 when absent).
 * 2. A whole `functionCall` part (`{ name, args }`) is one `replace: true` delta with the full JSON
 *    arguments (`{}` when absent), followed at once by `tool-call-end`. The wire has no call index,
 *    so `index` is the call's ordinal position within its candidate; the id is absent unless the
 *    part has one (the accumulator generates ids). `thoughtSignature` goes into `metadata`.
 * 3. Vertex streamed arguments: `{ name, willContinue: true }` opens a call (an empty delta with its
 *    name); `partialArgs[]` entries build the arguments (`stringValue` appended at its `jsonPath`,
 *    number/bool/null values replace); `functionCall: {}`, the next named call or the candidate's
 *    `finishReason` closes it with one `replace: true` delta of the rebuilt JSON and `tool-call-end`
 *    (`incomplete: true` when a non-STOP finish reason cut it).
 * 4. There is no terminator event: the stream is complete when every candidate sent a
 *    `finishReason` (then `done` is emitted as the source completes); otherwise it ends with
 *    `truncated`. `{ error: { code, message, status } }` ends it with a `provider-error` (429, 5xx,
 *    `UNAVAILABLE`, `RESOURCE_EXHAUSTED` are retryable); data that is not a JSON object, or an
 *    unusable `jsonPath`, with `invalid-event`. A blocked prompt finishes choice 0 as `content-filter`.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, gemini } from 'rxjs-tool-calls';
 *
 * declare const base: string; // https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash
 * declare const init: RequestInit;
 *
 * fromResponse(await fetch(`${base}:streamGenerateContent?alt=sse`, init)).pipe(decodeSse(), gemini()).subscribe(console.log);
 * // displays: { type: 'metadata', … }, { type: 'tool-call-delta', choice: 0, index: 0, name: 'get_capital', argumentsDelta: '{"country":"France"}', replace: true }, …
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: gemini })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const gemini: WireFormat<'gemini'> = /* @__PURE__ */ wireFormat({
  format: 'gemini',
  detect,
  decoder: () => new GeminiDecoder(),
  finishReason: normalizeGeminiFinishReason,
  usage: geminiUsage,
});
