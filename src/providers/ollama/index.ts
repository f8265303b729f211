/**
 * Ollama's native `/api/chat` streaming (NDJSON).
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { wireFormat, type WireFormat } from '../format';
import { normalizeOllamaDoneReason, OllamaChatDecoder, ollamaUsage } from './decoder';

/** An Ollama chat line: a `model` name and a `done` flag. */
function detect(_event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  return payload !== undefined && typeof payload['done'] === 'boolean' && typeof payload['model'] === 'string';
}

/**
 * Read Ollama's native `/api/chat` stream as {@link StreamEvent}s: after `decodeNdjson()` on the
 * HTTP body (or fed the `ollama` client's parsed chunks).
 *
 * <span class="informal">One JSON object per line in; one normalised event per content piece,
 * thinking piece and whole tool call, then the finish and the usage of the last line, out.</span>
 *
 * ```text
 * --a----b----c--------|      a: message.content, b: message.tool_calls (one call), c: done: true (done_reason, counts)
 *   ollamaChat()
 * --(mt)-(xe)-(fud)----|      m: metadata (model), t: text-delta, x: tool-call-delta (replace), e: tool-call-end,
 *                             f: finish, u: usage, d: done
 * ```
 *
 * 1. Emits `metadata` (`model`), `text-delta` (`message.content`), `reasoning-delta`
 *    (`message.thinking`) and, for each entry of `message.tool_calls`, one `replace: true` delta
 *    with the whole arguments (`function.arguments`, an object, as JSON text; `{}` when absent)
 *    followed at once by `tool-call-end`. The wire has no lasting call index: `index` is the call's
 *    position in the stream; `id` only when the line carries one. The choice is always 0.
 * 2. The line with `"done": true` gives `finish` (`done_reason`: `stop` → `stop`, or `tool-calls`
 *    when the turn called tools; `length` → `length`; `load`, `unload`, … → `other`), `usage`
 *    (`prompt_eval_count` as input, `eval_count` as output) and `done`; lines after it are ignored.
 * 3. A line `{"error": "…"}` ends the stream with a `provider-error` (retryable only when its text
 *    says so: overloaded, unavailable, timeout, …); a line that is not a JSON object with
 *    `invalid-event`; a stream that ends before `"done": true` with `truncated`.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeNdjson, ollamaChat, toolCalls } from 'rxjs-tool-calls';
 *
 * declare const messages: object[];
 * declare const tools: object[];
 *
 * const response = await fetch('http://127.0.0.1:11434/api/chat', { method: 'POST', body: JSON.stringify({ model: 'qwen3', messages, tools, stream: true }) });
 * fromResponse(response).pipe(decodeNdjson(), ollamaChat(), toolCalls()).subscribe(console.log);
 * // displays: { success: true, data: { id: 'call_…', name: 'get_weather', arguments: { city: 'Paris' }, … } }
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: ollamaChat })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const ollamaChat: WireFormat<'ollama'> = /* @__PURE__ */ wireFormat({
  format: 'ollama',
  framing: 'ndjson',
  detect,
  decoder: () => new OllamaChatDecoder(),
  finishReason: normalizeOllamaDoneReason,
  usage: ollamaUsage,
});
