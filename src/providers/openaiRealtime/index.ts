/**
 * The OpenAI Realtime API's server events, as a session's WebSocket messages carry them.
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { asRecord, asString } from '../../internal/json';
import { wireFormat, type WireFormat } from '../format';
import { OpenAIRealtimeDecoder, realtimeFinishReason, realtimeUsage } from './decoder';

/** The families of the Realtime API's server events. */
const FAMILIES = /^(session|conversation|response|input_audio_buffer|output_audio_buffer|rate_limits|transcription_session|mcp_list_tools)\./;

/**
 * A Realtime server event: a `type` of one of its families (or `error` with an `error` object), and
 * an `event_id`, which every Realtime server event has and no Responses event does (their shared
 * `response.*` names tell them apart by it).
 */
function detect(_event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  if (payload === undefined || typeof payload['event_id'] !== 'string') return false;
  const type = asString(payload['type']);
  if (type === undefined) return false;
  return FAMILIES.test(type) || type === 'rate_limits.updated' || (type === 'error' && asRecord(payload['error']) !== undefined);
}

/**
 * Read an OpenAI Realtime session's server events (`gpt-realtime`, also over Azure) as
 * {@link StreamEvent}s: its function calls, text and transcripts, response after response.
 *
 * <span class="informal">A session's WebSocket messages in (`fromWebSocket()` of
 * `rxjs-tool-calls/websocket`); one normalised event per text piece, function-call fragment, call
 * end, and each response's usage and finish out, for as long as the session lasts.</span>
 *
 * ```text
 * --s--c--a--x--x--X--o--D----c--t--D--|     s: session.created, c: response.created, a: output_item.added (function_call),
 *                                           x: function_call_arguments.delta, X: .done, o: output_item.done,
 *                                           D: response.done, t: output_audio_transcript.delta, |: the socket closed
 *   openaiRealtime()
 * -----m--x--x--x--e--(uf)-m--t--(uf)-d|    m: metadata, x: tool-call-delta, e: tool-call-end, u: usage, f: finish, t: text-delta, d: done
 * ```
 *
 * 1. Emits `metadata` at each `response.created` (its id; the session's model), `tool-call-delta`
 *    and `tool-call-end` for `function_call` items, `text-delta` for the response's text and the
 *    transcript of its audio (`response.output_text.delta`, `response.output_audio_transcript.delta`,
 *    and the beta's `response.text.delta`, `response.audio_transcript.delta`), and at each
 *    `response.done` its usage and its `finish`: `tool-calls` when it called functions, `stop`,
 *    `length` or `content-filter` when it was cut, `other` when it was cancelled (a user who spoke
 *    over it). Every call of a response that did not complete ends `incomplete`.
 * 2. Call identity: `index` is the item's `output_index` in its response, `id` its `call_id`; the
 *    item id and the response id are in `metadata` (`itemId`, `responseId`). Every fragment names
 *    its call by id, so calls of responses that overlap (out-of-band responses) stay apart.
 * 3. The full arguments of `function_call_arguments.done`, of the item and of `response.done`'s
 *    output are authoritative (rule `final-arguments-win`).
 * 4. A session is many responses: `done` comes when the socket closes, not at a `response.done`. A
 *    socket that closes while a response runs ends with `truncated`.
 * 5. An `error` event ends the stream with a `provider-error` (its `code`, `type` and `message`),
 *    except `conversation_already_has_active_response` and `response_cancel_not_active`, which a
 *    session outlives with nothing lost; a `response.done` whose status is `failed` ends it with a
 *    `provider-error` too. MCP calls (`mcp_call` items) are `provider-tool` events.
 *
 * @example
 * ```ts
 * import { openaiRealtime, toolCalls, type FramedRecord } from 'rxjs-tool-calls';
 * import type { Observable } from 'rxjs';
 *
 * declare const session$: Observable<FramedRecord>; // fromWebSocket(…) of rxjs-tool-calls/websocket
 *
 * session$.pipe(openaiRealtime(), toolCalls()).subscribe((result) => console.log(result.success ? result.data.name : result.error.code));
 * // displays: get_weather, as each call's item is done
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: openaiRealtime })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const openaiRealtime: WireFormat<'openai-realtime'> = /* @__PURE__ */ wireFormat({
  format: 'openai-realtime',
  detect,
  decoder: () => new OpenAIRealtimeDecoder(),
  finishReason: realtimeFinishReason,
  usage: realtimeUsage,
});
