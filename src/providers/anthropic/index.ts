/**
 * Anthropic Messages streaming (also via Bedrock / Vertex passthrough and Anthropic-compatible
 * servers).
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { asRecord, asString } from '../../internal/json';
import { wireFormat, type WireFormat } from '../format';
import { AnthropicMessagesDecoder, anthropicUsage, normalizeAnthropicStopReason } from './decoder';

const EVENTS = /* @__PURE__ */ new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping']);

/** An Anthropic stream: its event names (as `event:` or the payload's `type`), or an error event nesting an error object. */
function detect(event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  if (EVENTS.has(event.event)) return true;
  const type = payload === undefined ? undefined : asString(payload['type']);
  if (type === undefined) return false;
  return EVENTS.has(type) || (type === 'error' && asRecord(payload?.['error']) !== undefined);
}

/** A whole Messages response (`type: "message"`) as the events a stream of it carries. */
function whole(payload: Record<string, unknown>): FramedRecord[] | undefined {
  if (payload['type'] !== 'message' || !Array.isArray(payload['content'])) return undefined;
  const record = (event: string, data: Record<string, unknown>): FramedRecord => ({ event, data: JSON.stringify({ type: event, ...data }), id: undefined, retry: undefined });
  const { content, stop_reason: stopReason, stop_sequence: stopSequence, usage, ...message } = payload;
  const events = [record('message_start', { message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage } })];
  (content as unknown[]).forEach((block, index) => {
    events.push(record('content_block_start', { index, content_block: block }), record('content_block_stop', { index }));
  });
  events.push(record('message_delta', { delta: { stop_reason: stopReason ?? null, stop_sequence: stopSequence ?? null }, usage: usage ?? {} }), record('message_stop', {}));
  return events;
}

/**
 * Read Anthropic Messages stream events as {@link StreamEvent}s.
 *
 * <span class="informal">SSE events in; one normalised event per text piece, thinking piece,
 * signature, tool-input fragment, block stop, stop reason and usage report out.</span>
 *
 * ```text
 * --s----b----j----j----e----D----S--|      s: message_start, b: content_block_start (tool_use),
 *                                           j: input_json_delta, e: content_block_stop, D: message_delta, S: message_stop
 *   anthropicMessages()
 * --(mu)-x----x----x----e----(fu)-d--|      m: metadata, u: usage, x: tool-call-delta, e: tool-call-end, f: finish, d: done
 * ```
 *
 * 1. Emits `metadata` and `usage` (`message_start`), `text-delta`, `reasoning-delta` (thinking, and
 *    `signature_delta` as an empty-text delta with `signature`), `reasoning-end` at the stop of each
 *    `thinking` block (its whole text and signature) and `redacted_thinking` block (its `data` as
 *    `redacted`), with the block `index`, `tool-call-delta` / `tool-call-end`
 *    for `tool_use`, `server_tool_use` and `mcp_tool_use` blocks, `finish` and merged `usage`
 *    (`message_delta`), and `done` (`message_stop`). `ping` is ignored.
 * 2. Call identity: `index` is the content-block index, `id` the `tool_use` id; `metadata` keeps the
 *    block `type` and its `caller` when present. The choice is always 0.
 * 3. A non-empty `input` in the block start (programmatic tool calls send it with no deltas) is
 *    emitted as a `replace: true` delta; if `input_json_delta` fragments follow anyway, the first
 *    non-empty one replaces it and the rest append. An empty `{}` placeholder emits nothing.
 * 4. A tool block without `content_block_stop` when `message_delta` / `message_stop` arrives (e.g.
 *    `max_tokens` cut it) ends with `tool-call-end` `incomplete: true`.
 * 5. `event: error` (`overloaded_error`, `rate_limit_error`, `api_error`, … retryable; others not)
 *    ends the stream with a `provider-error`; data that is not a JSON object ends it with
 *    `invalid-event`; a stream that ends without `message_stop` ends with `truncated`.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, anthropicMessages } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * fromResponse(await fetch(url, init)).pipe(decodeSse(), anthropicMessages()).subscribe(console.log);
 * // displays: { type: 'metadata', … }, { type: 'tool-call-delta', choice: 0, index: 1, id: 'toolu_1', name: 'get_weather', argumentsDelta: '', metadata: { type: 'tool_use' } }, …
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: anthropicMessages })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const anthropicMessages: WireFormat<'anthropic'> = /* @__PURE__ */ wireFormat({
  format: 'anthropic',
  detect,
  whole,
  decoder: () => new AnthropicMessagesDecoder(),
  finishReason: normalizeAnthropicStopReason,
  usage: anthropicUsage,
});
