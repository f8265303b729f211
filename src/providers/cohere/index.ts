/**
 * Cohere v2 Chat streaming.
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { asString } from '../../internal/json';
import { wireFormat, type WireFormat } from '../format';
import { COHERE_EVENTS as EVENTS, CohereChatDecoder, cohereUsage, normalizeCohereFinishReason } from './decoder';

/** A Cohere v2 stream: its event names (as `event:` or the payload's `type`). */
function detect(event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  if (EVENTS.has(event.event)) return true;
  const type = payload === undefined ? undefined : asString(payload['type']);
  return type !== undefined && EVENTS.has(type);
}

/**
 * Read Cohere v2 Chat stream events as {@link StreamEvent}s.
 *
 * <span class="informal">SSE events in; one normalised event per text piece, tool-plan piece,
 * tool-call fragment, call end, finish reason and usage report out.</span>
 *
 * ```text
 * --s----p----a----x----e----E--|      s: message-start, p: tool-plan-delta, a: tool-call-start,
 *                                      x: tool-call-delta, e: tool-call-end, E: message-end
 *   cohereChat()
 * --m----r----x----x----e----(fud)--|  m: metadata, r: reasoning-delta, x: tool-call-delta,
 *                                      e: tool-call-end, f: finish, u: usage, d: done
 * ```
 *
 * 1. Emits `metadata` (`message-start` id), `text-delta` (`content-delta` text), `reasoning-delta`
 *    (`tool-plan-delta`, and `thinking` content), `tool-call-delta` (`tool-call-start` with id and
 *    name, then `tool-call-delta` fragments), `tool-call-end`, and on `message-end` `finish`
 *    (`COMPLETE` → stop, `TOOL_CALL` → tool-calls, `MAX_TOKENS` → length, `ERROR` → error), `usage`
 *    (`tokens`, else `billed_units`) and `done`.
 * 2. Call identity: `index` is the wire's `index`, `id` the call id. A call started but not ended by
 *    `message-end` ends with `tool-call-end` `incomplete: true`.
 * 3. `event: error` ends the stream with a `provider-error`; data that is not a JSON object ends it
 *    with `invalid-event`; a stream that ends without `message-end` ends with `truncated`.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, cohereChat } from 'rxjs-tool-calls';
 *
 * declare const init: RequestInit; // POST, the API key, a v2 chat request with `stream: true`
 *
 * fromResponse(await fetch('https://api.cohere.com/v2/chat', init)).pipe(decodeSse(), cohereChat()).subscribe(console.log);
 * // displays: { type: 'metadata', … }, { type: 'tool-call-delta', choice: 0, index: 0, id: 'weather_1', name: 'weather', argumentsDelta: '' }, …
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: cohereChat })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const cohereChat: WireFormat<'cohere'> = /* @__PURE__ */ wireFormat({
  format: 'cohere',
  detect,
  decoder: () => new CohereChatDecoder(),
  finishReason: normalizeCohereFinishReason,
  usage: cohereUsage,
});
