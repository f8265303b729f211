// The bytes side of bench/partial-object.mjs: the answer's text deltas as an OpenAI Chat
// Completions stream (one `data:` chunk per delta, then the finish chunk and `[DONE]`), cut into
// network chunks of 1–16,384 bytes (seeded), and the floor that reads it. (The AI SDK gets the same
// bytes through bench/impl/replay.mjs.)
import { eachData } from './impl/floor.mjs';
import { createRng, rechunk } from './scenarios.mjs';

const CREATED = 1764460800;

/** The SSE bytes of a chat completion whose content arrives as `deltas`, in network chunks. */
export function chatContentChunks(deltas, seed = 20251201) {
  const head = `{"id":"chatcmpl-structured","object":"chat.completion.chunk","created":${CREATED},"model":"gpt-4o-2024-08-06","choices":[{"index":0,"delta":`;
  const parts = [`data: ${head}{"role":"assistant","content":""},"finish_reason":null}]}\n\n`];
  for (const delta of deltas) parts.push(`data: ${head}{"content":${JSON.stringify(delta)}},"finish_reason":null}]}\n\n`);
  parts.push(`data: ${head}{},"finish_reason":"stop"}]}\n\n`, 'data: [DONE]\n\n');
  return rechunk(new TextEncoder().encode(parts.join('')), createRng(seed));
}

/**
 * The floor from the bytes: the hand-written loop of bench/impl/floor.mjs (streaming TextDecoder,
 * split on blank lines, `JSON.parse` of each event), appending each delta's content, and one
 * `JSON.parse` of the text at the end (no partial values).
 */
export function floorFromBytes(chunks) {
  let text = '';
  eachData(chunks, (data) => {
    if (data === '[DONE]') return;
    const content = JSON.parse(data).choices[0]?.delta?.content;
    if (typeof content === 'string') text += content;
  });
  return JSON.parse(text);
}
