// Deterministic benchmark scenarios: SSE byte streams for OpenAI Chat Completions, Anthropic
// Messages and OpenAI Responses, each with the final tool calls it must decode to.
//
// Everything here is derived from a seed through `createRng`, so the same scenario name always
// yields the same bytes, the same network chunking and the same expected calls.

import { makeArguments, sentence } from './scenario-text.mjs';
import { anthropicSse, openaiChatSse, randomId, responsesSse } from './scenario-wire.mjs';

export { makeArguments };

const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// PRNG: a Weyl sequence (golden-ratio increment) whitened by the murmur3 32-bit finaliser.
// Small, fast, good enough for shaping test data; not for anything cryptographic.
// ---------------------------------------------------------------------------------------------

/** @param {number} seed */
export function createRng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  return {
    /** uint32 */
    next,
    /** [0, 1) */
    float: () => next() / 4294967296,
    /** integer in [lo, hi] */
    int: (lo, hi) => lo + Math.floor((next() / 4294967296) * (hi - lo + 1)),
    pick: (items) => items[Math.floor((next() / 4294967296) * items.length)],
    chance: (p) => next() / 4294967296 < p,
  };
}

/** A seed from a name, so every scenario has its own stream of randomness. */
export function seedFromName(name, salt = 0) {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Cut `text` into fragments of [min, max] UTF-16 units, never between the halves of a surrogate pair. */
export function splitFragments(text, rng, min, max) {
  const out = [];
  let pos = 0;
  while (pos < text.length) {
    let end = Math.min(text.length, pos + rng.int(min, max));
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    out.push(text.slice(pos, end));
    pos = end;
  }
  return out;
}

/** Cut bytes into network chunks of [min, max] bytes (multi-byte UTF-8 sequences are split freely). */
export function rechunk(bytes, rng, min = 1, max = 16384) {
  const chunks = [];
  let pos = 0;
  while (pos < bytes.length) {
    const end = Math.min(bytes.length, pos + rng.int(min, max));
    chunks.push(bytes.slice(pos, end));
    pos = end;
  }
  return chunks;
}

const TOOL_NAMES = ['search_records', 'get_weather', 'write_file', 'run_query', 'lookup_user', 'create_ticket', 'send_email', 'translate_text'];

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

function makeCalls(rng, count, argChars, fragMin, fragMax, { exotic = false, idPrefix = 'call_' } = {}) {
  const calls = [];
  for (let i = 0; i < count; i++) {
    const args = makeArguments(rng, argChars, { exotic });
    calls.push({
      id: idPrefix + randomId(rng, 24),
      name: TOOL_NAMES[i % TOOL_NAMES.length],
      text: args.text,
      value: args.value,
      fragments: splitFragments(args.text, rng, fragMin, fragMax),
    });
  }
  return calls;
}

const DEFINITIONS = {
  chatty: { format: 'openai-chat', description: '1 call, ~20 KB arguments in 1-8 char fragments', build: (rng) => chatty(rng, 1) },
  parallel: {
    format: 'openai-chat',
    description: '8 interleaved calls x ~250 KB, escapes/\\n/\\"/\\u00e9/surrogates/raw UTF-8, 16-128 char fragments',
    build: (rng) => {
      const calls = makeCalls(rng, 8, 250_000, 16, 128, { exotic: true });
      return { calls, sse: openaiChatSse(rng, calls, { interleave: true }) };
    },
  },
  bulk: {
    format: 'openai-chat',
    description: '1 call, ~5 MB arguments in 64 KB fragments',
    build: (rng) => {
      const calls = makeCalls(rng, 1, 5_000_000, 65_536, 65_536, { exotic: true });
      return { calls, sse: openaiChatSse(rng, calls, { interleave: false }) };
    },
  },
  anthropic: {
    format: 'anthropic',
    description: 'Anthropic Messages: text block + 4 tool_use blocks x ~100 KB, 4-64 char partial_json',
    build: (rng) => {
      const calls = makeCalls(rng, 4, 100_000, 4, 64, { exotic: true, idPrefix: 'toolu_' });
      const preamble = splitFragments(sentence(rng, true, 60), rng, 1, 12);
      return { calls, sse: anthropicSse(rng, calls, preamble) };
    },
  },
  responses: {
    format: 'openai-responses',
    description: 'OpenAI Responses: 4 function_call items x ~100 KB, 4-64 char deltas (+ .done/item.done/completed)',
    build: (rng) => {
      const calls = makeCalls(rng, 4, 100_000, 4, 64, { exotic: true });
      return { calls, sse: responsesSse(rng, calls) };
    },
  },
  'chatty-4x': { format: 'openai-chat', description: 'chatty at 4x (~80 KB arguments)', build: (rng) => chatty(rng, 4) },
  'chatty-16x': { format: 'openai-chat', description: 'chatty at 16x (~320 KB arguments)', build: (rng) => chatty(rng, 16) },
};

function chatty(rng, factor) {
  const calls = makeCalls(rng, 1, 20_000 * factor, 1, 8);
  return { calls, sse: openaiChatSse(rng, calls, { interleave: false }) };
}

export const SCENARIO_NAMES = Object.keys(DEFINITIONS);
/** The scenarios that form the scaling series (size factor per name). */
export const SCALING = [
  { name: 'chatty', factor: 1 },
  { name: 'chatty-4x', factor: 4 },
  { name: 'chatty-16x', factor: 16 },
];

/**
 * @typedef {{ id: string, name: string, arguments: unknown }} ExpectedCall
 * @typedef {{
 *   name: string, format: 'openai-chat' | 'anthropic' | 'openai-responses', description: string,
 *   bytes: Uint8Array, chunks: Uint8Array[], expected: ExpectedCall[], sseText: string
 * }} Scenario
 */

/** @returns {Scenario} */
export function buildScenario(name, { seed = 20251130 } = {}) {
  const def = DEFINITIONS[name];
  if (!def) throw new Error(`unknown scenario ${name}; known: ${SCENARIO_NAMES.join(', ')}`);
  const rng = createRng(seedFromName(name, seed));
  const { calls, sse } = def.build(rng);
  const bytes = encoder.encode(sse);
  const chunks = rechunk(bytes, createRng(seedFromName(name + '/net', seed)));
  return {
    name,
    format: def.format,
    description: def.description,
    bytes,
    chunks,
    sseText: sse,
    expected: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.value })),
  };
}
