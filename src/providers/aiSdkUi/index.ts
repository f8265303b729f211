/**
 * The AI SDK UI message stream: what `useChat`, AI Elements and assistant-ui read.
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { wireFormat, type WireFormat } from '../format';
import { AiSdkUiDecoder, aiSdkFinishReason, aiSdkUsage } from './decoder';

/** The chunk types of the AI SDK UI message stream (`data-*` types are the app's own). */
const TYPES = /* @__PURE__ */ new Set([
  'start',
  'start-step',
  'finish-step',
  'finish',
  'abort',
  'message-metadata',
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-available',
  'tool-input-error',
  'tool-approval-request',
  'tool-output-available',
  'tool-output-error',
  'tool-output-denied',
  'source-url',
  'source-document',
  'file',
]);

/**
 * An AI SDK UI message stream: a chunk whose `type` is one of the protocol's (an `error` chunk by its
 * `errorText`, a `data-*` chunk by its `data`).
 */
function detect(_event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  const type = payload?.['type'];
  if (typeof type !== 'string') return false;
  if (TYPES.has(type)) return true;
  if (type === 'error') return typeof payload?.['errorText'] === 'string';
  return type.startsWith('data-') && payload !== undefined && 'data' in payload;
}

/**
 * Read the AI SDK UI message stream (what `toUIMessageStreamResponse()` writes and `useChat` reads)
 * as {@link StreamEvent}s.
 *
 * <span class="informal">SSE chunks in; one normalised event per text piece, reasoning piece,
 * tool-input fragment, final input, tool output and approval out, every `tool-input-delta` the
 * moment it arrives.</span>
 *
 * ```text
 * --s--t--a--x--x--v--o--f--D|     s: start, t: text-delta, a: tool-input-start, x: tool-input-delta,
 *                                  v: tool-input-available, o: tool-output-available, f: finish, D: [DONE]
 *   aiSdkUi()
 * --m--t--x--x--x--e--r--F--d|     m: metadata, t: text-delta, x: tool-call-delta, e: tool-call-end,
 *                                  r: tool-result, F: finish, d: done
 * ```
 *
 * 1. Emits `metadata` (`start`'s `messageId`), `text-delta`, `reasoning-delta`, `tool-call-delta`
 *    (`tool-input-start` with the call's id and name, then each `tool-input-delta`), `tool-call-end`
 *    (`tool-input-available` / `tool-input-error`), `tool-result` (`tool-output-available` with its
 *    `preliminary`, `tool-output-error`, `tool-output-denied`, and a `tool-input-error`'s error),
 *    `tool-approval-request`, `finish` (`finish`'s `finishReason`: the vocabulary's own names;
 *    `abort` as `other`), `usage` (from the message metadata's `totalUsage` or `usage`, the AI SDK's
 *    convention) and `done` (`[DONE]`).
 * 2. Identity: a call is its `toolCallId`, its `index` its position (rule `ui-call-ids`); a
 *    custom tool's call (`inputEncoding: 'text'`) is `kind: 'custom'`. `tool-input-available`'s
 *    `input` is the call's arguments: it replaces the streamed text when the two differ (rule
 *    `ui-final-input`). A call the message finished before its input was complete is `incomplete`.
 * 3. A tool the provider ran (`providerExecuted: true`) is `provider-tool` events, never a call.
 * 4. An `error` chunk ends the stream with a `provider-error` (its `errorText` as the message); a
 *    chunk of a known type without the fields it needs ends it with `invalid-event`; chunks of
 *    unknown types are skipped; a stream that ends before `finish` and `[DONE]` ends with `truncated`.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, aiSdkUi } from 'rxjs-tool-calls';
 *
 * declare const init: RequestInit; // POST, the UI messages
 *
 * fromResponse(await fetch('/api/chat', init)).pipe(decodeSse(), aiSdkUi()).subscribe(console.log);
 * // displays: { type: 'metadata', … }, { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '' }, …
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: aiSdkUi })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const aiSdkUi: WireFormat<'ai-sdk-ui'> = /* @__PURE__ */ wireFormat({
  format: 'ai-sdk-ui',
  detect,
  decoder: () => new AiSdkUiDecoder(),
  finishReason: aiSdkFinishReason,
  usage: aiSdkUsage,
});
