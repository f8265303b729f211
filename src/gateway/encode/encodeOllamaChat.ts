/**
 * `encodeOllamaChat()`: any provider's {@link StreamEvent}s → Ollama `/api/chat` NDJSON.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../../events';
import { OllamaChatEncoder, type OllamaEncoderOptions } from '../../providers/ollama/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeOllamaChat}. */
export interface EncodeOllamaChatOptions extends OllamaEncoderOptions, EncodeOptions {}

/**
 * Write any provider's stream as Ollama's native `/api/chat` NDJSON, live: what a gateway sends to
 * clients of the Ollama API (the `ollama` npm client, Open WebUI, …).
 *
 * <span class="informal">Normalised events in, `{"model":…,"message":{…},"done":false}\n` lines
 * out, one string per event that has something to say, ready for `response.write()`.</span>
 *
 * ```text
 * --m--t--r--x--x--e--f--u--d|     m: metadata, t: text-delta, r: reasoning-delta, x: fragments of call X,
 *                                  e: X's end, f: finish (tool-calls), u: usage, d: done
 *   encodeOllamaChat()
 * -----a--b--------c--------g|     a: message.content, b: message.thinking, c: message.tool_calls (X whole,
 *                                  arguments as an object), g: done: true, done_reason "stop", counts
 *
 * --t--x--#                        #: a provider error (`provider-error` error)
 *   encodeOllamaChat()
 * --a--(e|)                        e: {"error":"<the provider's message>"}, then complete
 * ```
 *
 * 1. Every line has `model` (the option, else the source's, else `'unknown'`), `created_at` (the
 *    `createdAt` option, else the time of the first line), `message` (`role: "assistant"`) and
 *    `done`. Text goes in `message.content`, reasoning in `message.thinking` (signatures and
 *    redacted parts have no Ollama form; `reasoning: 'drop'` leaves reasoning out).
 * 2. Calls are whole: each is written when it completes, as one `message.tool_calls` entry with
 *    `function.name` and `function.arguments` (the parsed object; `id` only when the source sent
 *    one). A call that failed or was cut is left out, as Ollama cannot express it.
 * 3. The last line: `"done": true`, `done_reason` (`stop`, also for a turn that called tools;
 *    `length`; the source's own string otherwise), `prompt_eval_count` and `eval_count` from the
 *    usage when known. Written at the source's `done`, or when it completes after sending anything.
 * 4. Errors: a `provider-error` error becomes `{"error":"…"}` (what Ollama's clients throw) and the
 *    output completes; any other error is passed on without the last line (destroy the response: a
 *    client sees a cut). Only `choice` (default 0) is written.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { encodeOllamaChat } from 'rxjs-tool-calls/gateway';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
 *   { type: 'done' },
 * ];
 * from(events).pipe(encodeOllamaChat({ model: 'qwen3', createdAt: '2025-01-01T00:00:00.000Z' })).subscribe((ndjson) => console.log(ndjson));
 * // displays: {"model":"qwen3","created_at":"2025-01-01T00:00:00.000Z","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}
 * //           {"model":"qwen3","created_at":"2025-01-01T00:00:00.000Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}
 * ```
 *
 * @param options `model`, `createdAt`, `choice`, `reasoning`, and the tracker's `generateId`,
 *   `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to NDJSON text (one or more whole lines per string).
 */
export function encodeOllamaChat(options: EncodeOllamaChatOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith(() => new OllamaChatEncoder(options), options);
}
