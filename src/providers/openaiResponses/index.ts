/**
 * OpenAI Responses API streaming (also Azure OpenAI, AWS Bedrock Mantle, LM Studio and other Open
 * Responses servers).
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { asRecord, asString } from '../../internal/json';
import { wireFormat, type WireFormat } from '../format';
import { OpenAIResponsesDecoder, responsesFinishReason, responsesUsage } from './decoder';

/** A Responses stream: `response.*` events, or a flat `{"type":"error","code":…}` error event. */
function detect(event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  if (event.event.startsWith('response.')) return true;
  const type = payload === undefined ? undefined : asString(payload['type']);
  if (type === undefined) return false;
  // An error event carries its fields flat (an `error` object is Anthropic's, an `errorText` the AI SDK UI stream's).
  return type.startsWith('response.') || (type === 'error' && asRecord(payload?.['error']) === undefined && !('errorText' in (payload ?? {})));
}

/**
 * A whole Responses `response` object as the events a stream of it carries: its creation, the
 * text of its messages, then its end with the final output (calls, reasoning) the decoder reads.
 */
function whole(payload: Record<string, unknown>): FramedRecord[] | undefined {
  if (payload['object'] !== 'response' || 'type' in payload || !Array.isArray(payload['output'])) return undefined;
  const record = (event: string, data: Record<string, unknown>): FramedRecord => ({ event, data: JSON.stringify({ type: event, ...data }), id: undefined, retry: undefined });
  const output = payload['output'] as unknown[];
  const events = [record('response.created', { response: { ...payload, output: [], status: 'in_progress' } })];
  output.forEach((item, index) => {
    const message = asRecord(item);
    if (message?.['type'] !== 'message' || !Array.isArray(message['content'])) return;
    for (const part of message['content'] as unknown[]) {
      const text = asRecord(part)?.['text'];
      if (asRecord(part)?.['type'] === 'output_text' && typeof text === 'string' && text !== '') events.push(record('response.output_text.delta', { output_index: index, delta: text }));
    }
  });
  const status = payload['status'];
  events.push(record(status === 'incomplete' ? 'response.incomplete' : status === 'failed' ? 'response.failed' : 'response.completed', { response: payload }));
  return events;
}

/**
 * Read OpenAI Responses API events (OpenAI, Azure, Bedrock Mantle, LM Studio, …) as {@link StreamEvent}s.
 *
 * <span class="informal">SSE events in; one normalised event per text piece, reasoning piece,
 * function-call fragment, call end, finish and usage report out.</span>
 *
 * ```text
 * --c----a----x----X----o----C--|      c: response.created, a: output_item.added (function_call),
 *                                      x: arguments.delta, X: arguments.done, o: output_item.done, C: response.completed
 *   openaiResponses()
 * --m----x----x---------e----(ufd)--|  m: metadata, x: tool-call-delta, e: tool-call-end, u: usage, f: finish, d: done
 * ```
 *
 * 1. Emits `metadata` (response id and model), `text-delta` (`output_text.delta`), `reasoning-delta`
 *    (`reasoning_text.delta`, `reasoning_summary_text.delta`), `reasoning-end` when a `reasoning`
 *    item is done (its `output_index`, `id` as `itemId`, `encrypted_content`, summary texts and
 *    `reasoning_text` content, whole), `tool-call-delta` and `tool-call-end` for `function_call`
 *    items, then `usage`, `finish` and `done` on `response.completed` / `response.incomplete`.
 * 2. Call identity: `index` is the item's `output_index`, `id` its `call_id`; the `fc_…` item id is
 *    in `metadata.itemId`.
 * 3. The full arguments of `function_call_arguments.done` (or of the item in `output_item.done`) are
 *    authoritative: one `replace: true` delta carries them (LM Studio sends no deltas at all; other
 *    servers send the same text again, which then replaces the streamed pieces with one flat string).
 * 4. The event type is the `event:` field, or the payload's `type` when the field is absent
 *    (Bedrock Mantle writes `data:` before `event:`). `sequence_number` is not used: events are
 *    taken in arrival order.
 * 5. `finish` is `completed` (`tool-calls` when the output had a function call, else `stop`) or
 *    `incomplete` (`length`, or `content-filter`); calls still open on `response.incomplete` end
 *    `incomplete: true`.
 * 6. `error` events and `response.failed` end the stream with a `provider-error`; data that is not a
 *    JSON object ends it with `invalid-event`; a stream that ends without `response.completed`,
 *    `response.incomplete` or `response.failed` ends with `truncated`.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, openaiResponses } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * fromResponse(await fetch(url, init)).pipe(decodeSse(), openaiResponses()).subscribe(console.log);
 * // displays: { type: 'metadata', … }, { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '', metadata: { itemId: 'fc_1' } }, …
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: openaiResponses })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const openaiResponses: WireFormat<'openai-responses'> = /* @__PURE__ */ wireFormat({
  format: 'openai-responses',
  detect,
  whole,
  decoder: () => new OpenAIResponsesDecoder(),
  finishReason: responsesFinishReason,
  usage: responsesUsage,
});
