/**
 * `encodeOpenAIChat()`: any provider's {@link StreamEvent}s → OpenAI Chat Completions SSE.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../../events';
import { OpenAIChatEncoder, type OpenAIChatEncoderOptions } from '../../providers/openaiChat/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeOpenAIChat}. */
export interface EncodeOpenAIChatOptions extends OpenAIChatEncoderOptions, EncodeOptions {}

/**
 * Write any provider's stream as OpenAI Chat Completions SSE, live: what a gateway sends to clients
 * of the OpenAI API (or of any OpenAI-compatible one).
 *
 * <span class="informal">Normalised events in, `data: {"object":"chat.completion.chunk",…}` strings
 * out, one per event that has something to say, ready for `response.write()`.</span>
 *
 * ```text
 * --m--t--x--y--x--f--u--d|      m: metadata, t: text-delta, x, y: fragments of calls X and Y,
 *                                f: finish (tool-calls), u: usage, d: done
 *   encodeOpenAIChat()
 * -----a--b--c--e--g-----h|      a: role and content, b: X's first delta (index 0, id, type, name),
 *                                c: Y's first delta (index 1), e: X's next fragment (index 0 only),
 *                                g: finish_reason "tool_calls", h: usage chunk (choices: []) and [DONE]
 *
 * --t--x--#                      #: a provider error (`provider-error` error)
 *   encodeOpenAIChat()
 * --a--b--(e|)                   e: data: {"error":{"message","type","param","code"}}, then complete
 *
 * --t--x--#                      #: truncated, or any other error
 *   encodeOpenAIChat()
 * --a--b--#                      the same error: no [DONE] is ever written
 * ```
 *
 * 1. Live: text, reasoning and argument fragments are written as they arrive. A whole value
 *    (`replace`: Gemini parts, Anthropic `input`) is written with the call's next event.
 * 2. Identity: which call a fragment belongs to is decided by the same tracker the readers use
 *    (wire index, then id, then continuation), so streams without an index (Mistral) or reusing one
 *    (Copilot) come out right. `tool_calls[].index` is 0, 1, 2, … per choice in order of first
 *    sight; `id`, `type: "function"` and the name go on a call's first delta only (a name that arrives
 *    later goes on the delta where it arrives). The id is the source's (`toolu_…`, `call_…`), or the
 *    tracker's generated one when the source has none (Gemini).
 * 3. Reasoning goes in `reasoning_content` (or `reasoning`, with `reasoningField`); signatures have
 *    no place in a chat delta and are left out; `reasoning: 'drop'` leaves reasoning out.
 *    A Gemini thought signature of a call goes in `extra_content.google.thought_signature`.
 * 4. Finish: `stop`, `tool_calls`, `length`, `content_filter`, `error`; for `other` the source's own
 *    string. A choice the source never finished gets `tool_calls` (it had calls) or `stop` when the
 *    stream ends, as clients require one. The first delta of each choice carries `role: "assistant"`.
 * 5. Usage: at the end, a chunk with `choices: []` and `usage` (`prompt_tokens`, `completion_tokens`,
 *    `total_tokens` (input + output when the source sent no total), `prompt_tokens_details.cached_tokens`,
 *    `completion_tokens_details.reasoning_tokens` when known); `includeUsage: false` leaves it out.
 *    Then `data: [DONE]`. The end is written at the source's `done`, or when it completes after
 *    sending anything.
 * 6. Errors: a `provider-error` error from the source becomes a `data: {"error":{…}}` event (the provider's
 *    message, type and code) and the output completes. Any other error (`truncated`,
 *    `idle-timeout`, …) is passed on without writing `[DONE]`: destroy the response then (a
 *    client sees a cut, never a clean end). Arguments a source replaces after others were written
 *    cannot be taken back in chat: that ends the output with `invalid-event`.
 * 7. Chat has no end of a single call: a call the source cut reads back `incomplete` only when its
 *    choice finishes with `length`, `content_filter` or `error`.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { fromResponse, readStreamEvents, encodeOpenAIChat } from 'rxjs-tool-calls';
 *
 * http.createServer(async (req, res) => {
 *   const upstream = await fetch('https://api.anthropic.com/v1/messages', anthropicInit);
 *   res.writeHead(200, { 'content-type': 'text/event-stream' });
 *   const subscription = fromResponse(upstream)
 *     .pipe(readStreamEvents(), encodeOpenAIChat({ model: 'claude-sonnet-4-5' }))
 *     .subscribe({ next: (sse) => res.write(sse), complete: () => res.end(), error: () => res.destroy() });
 *   res.on('close', () => subscription.unsubscribe()); // a client that goes away aborts the upstream
 * }).listen(8080);
 * ```
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { encodeOpenAIChat, type StreamEvent } from 'rxjs-tool-calls';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 1, id: 'toolu_1', name: 'get_weather', argumentsDelta: '{"city":' },
 *   { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '"Paris"}' },
 * ];
 * from(events).pipe(encodeOpenAIChat({ id: 'chatcmpl-1', model: 'gpt-4o', created: 0 })).subscribe((sse) => console.log(sse));
 * // displays: data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"toolu_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]},"finish_reason":null}]}
 * //           data: {"id":"chatcmpl-1",…,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]},"finish_reason":null}]}
 * //           data: {"id":"chatcmpl-1",…,"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
 * //           data: [DONE]
 * ```
 *
 * @param options `model`, `id`, `created` (seconds), `reasoning`, `reasoningField`, `includeUsage`,
 *   and the tracker's `generateId`, `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeOpenAIChat(options: EncodeOpenAIChatOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith(() => new OpenAIChatEncoder(options), options);
}
