/**
 * `encodeOpenAIResponses()`: any provider's {@link StreamEvent}s → OpenAI Responses API SSE.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../../events';
import { OpenAIResponsesEncoder, type OpenAIResponsesEncoderOptions } from '../../providers/openaiResponses/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeOpenAIResponses}. */
export interface EncodeOpenAIResponsesOptions extends OpenAIResponsesEncoderOptions, EncodeOptions {}

/**
 * Write any provider's stream as OpenAI Responses API SSE, live: output items with their
 * `output_index`, item ids, `call_id`s and a `sequence_number` on every event.
 *
 * <span class="informal">Normalised events in, `event: response.…` strings out, from
 * `response.created` to `response.completed` with the final `output` array.</span>
 *
 * ```text
 * --m--t--x--x--e--f--u--d|      m: metadata, t: text-delta, x: fragments of call X, e: X's end,
 *                                f: finish, u: usage, d: done
 *   encodeOpenAIResponses()
 * --c--a--b--g--h--------k|      c: response.created + response.in_progress, a: a message item
 *                                (output_item.added, content_part.added, output_text.delta), b: the message
 *                                closed (…done events) + X's function_call item added (call_id, name) +
 *                                its first arguments.delta, g: the next delta, h: arguments.done +
 *                                output_item.done, k: response.completed (final output, usage)
 *
 * --t--x--#                      #: a provider error (`provider-error` error)
 *   encodeOpenAIResponses()
 * --a--b--(e|)                   e: event: error (code, message) + response.failed, then complete
 *
 * --t--x--#                      #: truncated, or any other error
 *   encodeOpenAIResponses()
 * --a--b--#                      the same error: no response.completed is ever written
 * ```
 *
 * 1. Live: text, reasoning and argument fragments are written as they arrive
 *    (`response.output_text.delta`, `response.reasoning_text.delta` or, with `reasoningAs: 'summary'`,
 *    `response.reasoning_summary_text.delta`, `response.function_call_arguments.delta`). A
 *    `function_call` item is added once its name is known (or its first arguments arrive).
 * 2. Identity: calls are resolved by the readers' tracker (see `encodeOpenAIChat()`); each call, text
 *    run and reasoning run is one output item, numbered by `output_index` in the order added; text
 *    after a call (or reasoning) starts a new message item. Item ids are the source's `fc_…` when it
 *    is a Responses stream, else `fc_…`, `msg_…`, `rs_…` built from the response id; `call_id` is the
 *    source's call id (or the generated one).
 * 3. A call ends with `function_call_arguments.done` (the whole arguments: they are restated, so a
 *    source's `replace` is always carried) and `output_item.done`. A call the source cut gets
 *    neither: it stays `incomplete` in the final output.
 * 4. The end: open items are closed, then `response.completed` (finish `stop`, `tool-calls`, `error`,
 *    `other`) or `response.incomplete` with `incomplete_details.reason` `max_output_tokens` (`length`)
 *    or `content_filter`, carrying the final `output` and `usage` (`input_tokens`, `output_tokens`,
 *    `total_tokens` (input + output when the source sent none), `input_tokens_details.cached_tokens`,
 *    `output_tokens_details.reasoning_tokens` when known). Written at the source's `done`, or when
 *    it completes after sending anything.
 * 5. Errors: a `provider-error` error becomes an `error` event (its code and message) then
 *    `response.failed`, and the output completes; any other error is passed on without
 *    `response.completed` (destroy the response: a client sees a cut). Signatures have no place in a
 *    Responses stream and are left out. Only `choice` (default 0) is written: a response has one.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { encodeOpenAIResponses, type StreamEvent } from 'rxjs-tool-calls';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 0, id: 'toolu_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' },
 *   { type: 'done' },
 * ];
 * from(events).pipe(encodeOpenAIResponses({ id: 'resp_1', model: 'gpt-4.1', created: 0 })).subscribe((sse) => console.log(sse));
 * // displays: event: response.created … event: response.output_item.added
 * //           data: {"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1_0","type":"function_call","status":"in_progress","arguments":"","call_id":"toolu_1","name":"get_weather"},"sequence_number":2} …
 * //           event: response.completed …
 * ```
 *
 * @param options `model`, `id`, `created` (seconds), `choice`, `reasoning`, `reasoningAs`, and the
 *   tracker's `generateId`, `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeOpenAIResponses(options: EncodeOpenAIResponsesOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith(() => new OpenAIResponsesEncoder(options), options);
}
