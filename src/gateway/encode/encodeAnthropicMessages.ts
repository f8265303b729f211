/**
 * `encodeAnthropicMessages()`: any provider's {@link StreamEvent}s → Anthropic Messages SSE.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../../events';
import { AnthropicMessagesEncoder, type AnthropicEncoderOptions } from '../../providers/anthropic/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeAnthropicMessages}. */
export interface EncodeAnthropicMessagesOptions extends AnthropicEncoderOptions, EncodeOptions {}

/**
 * Write any provider's stream as Anthropic Messages SSE, live: content blocks numbered in order,
 * `content_block_start` / `content_block_stop` around each.
 *
 * <span class="informal">Normalised events in, `event: message_start` … `event: message_stop`
 * strings out; text, thinking and tool_use blocks share one sequence of indices.</span>
 *
 * ```text
 * --m--u--r--t--x--x--e--t--f--d|     m: metadata, u: usage, r: reasoning, t: text-delta,
 *                                     x: fragments of call X, e: X's end, f: finish, d: done
 *   encodeAnthropicMessages()
 * --------a--b--c--g--h--i-----k|     a: message_start (input usage) + thinking block 0 + thinking_delta,
 *                                     b: block 0 stopped + text block 1 + text_delta, c: block 1 stopped +
 *                                     tool_use block 2 (id, name) + input_json_delta, g: input_json_delta,
 *                                     h: block 2 stopped, i: text block 3 + text_delta,
 *                                     k: block 3 stopped + message_delta (stop_reason, usage) + message_stop
 *
 * --t--x--#                           #: a provider error (`provider-error` error)
 *   encodeAnthropicMessages()
 * --a--b--(e|)                        e: event: error {"type":"error","error":{"type","message"}}, then complete
 *
 * --t--x--#                           #: truncated, or any other error
 *   encodeAnthropicMessages()
 * --a--b--#                           the same error: no message_stop is ever written
 * ```
 *
 * 1. Live: text (`text_delta`), thinking (`thinking_delta`, signatures as `signature_delta`) and
 *    argument fragments (`input_json_delta`) are written as they arrive. A tool_use block starts once
 *    its name is known (or its first arguments arrive), with `input: {}`; a whole value (`replace`) is
 *    written with the call's next event.
 * 2. Identity: calls are resolved by the readers' tracker (see `encodeOpenAIChat()`). Blocks are
 *    numbered 0, 1, 2, … in the order they start, text, thinking and tool_use alike; a text or
 *    thinking block is stopped when another block starts, so text after a tool block opens a new
 *    text block; calls may stay open side by side (interleaved fragments keep their own block index).
 *    The `tool_use` id is the source's (`call_…`, `toolu_…`: any string is accepted), or the
 *    generated one; an Anthropic source's `server_tool_use` / `mcp_tool_use` type and `caller` are kept.
 * 3. A call ends with `content_block_stop`; a call the source cut gets none (as Anthropic does at
 *    `max_tokens`), so readers report it `incomplete`.
 * 4. `message_start` is written before the first block, with the input usage known by then (an
 *    Anthropic source's), else 0. The end writes `message_delta` with `stop_reason` (`end_turn`,
 *    `tool_use`, `max_tokens`, `refusal`; the source's own string for `error` and `other`; a choice
 *    the source never finished gets `tool_use` or `end_turn`) and the whole-message usage
 *    (`output_tokens`, and `input_tokens`, `cache_read_input_tokens`, `output_tokens_details.thinking_tokens`
 *    when known), then `message_stop`: at the source's `done`, or when it completes after sending anything.
 * 5. Errors: a `provider-error` error becomes `event: error` with `{"type":"error","error":{"type","message"}}`
 *    (its own Anthropic type, else one from its status: `overloaded_error`, `rate_limit_error`,
 *    `api_error`, `invalid_request_error`, …) and the output completes; any other error is passed on
 *    without `message_stop` (destroy the response: a client sees a cut). Arguments a source replaces
 *    after others were written cannot be taken back: that ends the output with `invalid-event`. Only
 *    `choice` (default 0) is written: a message has one.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { encodeAnthropicMessages, type StreamEvent } from 'rxjs-tool-calls';
 *
 * const events: StreamEvent[] = [
 *   { type: 'text-delta', choice: 0, text: 'Checking.' },
 *   { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
 *   { type: 'done' },
 * ];
 * from(events).pipe(encodeAnthropicMessages({ id: 'msg_1', model: 'claude-sonnet-4-5' })).subscribe((sse) => console.log(sse));
 * // displays: event: message_start … event: content_block_start
 * //           data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}} …
 * //           data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call_1","name":"get_weather","input":{}}} …
 * //           data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":0}} …
 * ```
 *
 * @param options `model`, `id`, `choice`, `reasoning`, and the tracker's `generateId`,
 *   `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeAnthropicMessages(options: EncodeAnthropicMessagesOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith(() => new AnthropicMessagesEncoder(options), options);
}
