/**
 * OpenAI Chat Completions streaming (and every OpenAI-compatible server: Azure, Groq, DeepSeek,
 * xAI, Mistral, Qwen, OpenRouter, vLLM, LM Studio, Ollama, Copilot, Gemini's compatibility
 * endpoint, …).
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { wireFormat, type WireFormat } from '../format';
import { OpenAIChatDecoder } from './decoder';
import { chatUsage, normalizeChatFinishReason } from './mapping';

/** A chat stream: `[DONE]`, or a chunk with `choices` / `object: "chat.completion.chunk"`. */
function detect(event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  if (event.data === '[DONE]') return true;
  return payload !== undefined && ('choices' in payload || payload['object'] === 'chat.completion.chunk');
}

/**
 * Read OpenAI Chat Completions chunks (and every OpenAI-compatible server's) as {@link StreamEvent}s.
 *
 * <span class="informal">SSE events in, one normalised event per text piece, reasoning piece,
 * tool-call fragment, finish reason and usage report out.</span>
 *
 * ```text
 * --a---------b---------c----------D--|      a,b,c: chat.completion.chunk (c: finish_reason + usage), D: [DONE]
 *   openaiChat()
 * --t---------x---------u----------(fd)|     t: text-delta, x: tool-call-delta, u: usage, f: finish (held until [DONE]), d: done
 * ```
 *
 * 1. Emits `text-delta`, `reasoning-delta` (`reasoning_content`; `reasoning` and Mistral `thinking`
 *    parts with `metadata.field` saying so, since servers that stream those refuse them back), `tool-call-delta`
 *    (`tool_calls[]` and legacy `function_call`; object arguments are serialised), `finish`, `usage`
 *    (once per change), `metadata` (response id and model) and `done` (`[DONE]`).
 * 2. Ignores chunks with `choices: []` or no `choices` (Azure `prompt_filter_results`), choices without
 *    `delta`, `tool_calls: null` and placeholder `error` objects with only empty fields.
 * 3. An error envelope (`{"error": {…}}` in a data line or `event: error`) ends the stream with a
 *    `provider-error`; data that is not JSON or not an object ends it with `invalid-event`.
 * 4. A choice's `finish` is held until `[DONE]` or the end of the stream (the last `finish_reason`
 *    seen wins; OpenRouter's `native_finish_reason` when it reports an error): proxies send it on
 *    every chunk, or more fragments after it, so it must not close calls that still grow. A stream
 *    that completes, goes idle or is cut after every choice finished is complete (`done` is
 *    emitted); one that completes while a choice has not finished (or before any finished) ends
 *    with `truncated`.
 * 5. Tool-call identity is not resolved here: deltas carry the wire's `index`, `id` and `name`.
 * 6. A call's `extra_content` (Gemini's compatibility endpoint) becomes the delta's `metadata`:
 *    `{ extraContent, thoughtSignature? }` (from `extra_content.google.thought_signature`).
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, openaiChat } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * fromResponse(await fetch(url, init)).pipe(decodeSse(), openaiChat()).subscribe(console.log);
 * // displays: { type: 'metadata', … }, { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '' }, …
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: openaiChat })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const openaiChat: WireFormat<'openai-chat'> = /* @__PURE__ */ wireFormat({
  format: 'openai-chat',
  detect,
  decoder: () => new OpenAIChatDecoder(),
  finishReason: normalizeChatFinishReason,
  usage: chatUsage,
});
