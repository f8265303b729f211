// Seeded, deterministic tool-call arguments for bench/partial-json.mjs.

/** The seeded generator the marble helpers ship (mulberry32), so every random input here is replayable. */
import { seededRandom as rng } from '../dist/marbles.js';

export { rng };

const WORDS = [
  'the',
  'weather',
  'in',
  'San Francisco',
  'is',
  'mild',
  'données',
  'naïve',
  'café',
  'über',
  '東京',
  '温度',
  'ok',
  '✓',
  '😀',
  'forecast',
  'wind',
  'speed',
  'km/h',
  'precipitation',
  'humidity',
  'and',
  'with',
  'a',
  'chance',
  'of',
  'rain',
];
const PUNCT = [' ', ' ', ' ', ' ', ', ', '. ', '\n', '\n\n', ' "quoted" ', ' \\ ', '\t', ' / '];

function text(r, length) {
  let out = '';
  while (out.length < length) out += WORDS[Math.floor(r() * WORDS.length)] + PUNCT[Math.floor(r() * PUNCT.length)];
  return out;
}

/**
 * A "write a report" tool call: a few scalar fields, nested objects, small arrays, a numeric table,
 * and sections whose bodies are long strings with escapes and non-ASCII (incl. astral) characters.
 * Grows until its compact JSON is about `targetBytes` characters long.
 */
export function documentArguments(targetBytes, seed = 42) {
  const r = rng(seed);
  const doc = {
    title: text(r, 60),
    author: { name: 'Ada Lovelace', email: 'ada@example.com', id: 1815, verified: true },
    tags: ['weather', 'report', 'daily'],
    options: { format: 'markdown', toc: true, maxDepth: 3, ratio: 0.75, locale: null },
    sections: [],
    table: { columns: ['day', 'min', 'max', 'summary', 'rain'], rows: [] },
  };
  let size = JSON.stringify(doc).length;
  while (size < targetBytes) {
    if (r() < 0.7) {
      const section = {
        heading: text(r, 20 + Math.floor(r() * 40)),
        body: text(r, 200 + Math.floor(r() * 3000)),
        order: doc.sections.length,
        meta: { words: Math.floor(r() * 5000), score: Math.round(r() * 1e6) / 1e3, draft: r() < 0.5, reviewer: r() < 0.3 ? null : 'grace' },
        links: Array.from({ length: Math.floor(r() * 4) }, (_, i) => `https://example.com/${doc.sections.length}/${i}`),
      };
      doc.sections.push(section);
      size += JSON.stringify(section).length + 1;
    } else {
      for (let i = 0; i < 10; i++) {
        const row = [doc.table.rows.length, Math.round(r() * 300) / 10 - 5, Math.round(r() * 400) / 10, text(r, 10 + Math.floor(r() * 30)), r() < 0.4];
        doc.table.rows.push(row);
        size += JSON.stringify(row).length + 1;
      }
    }
  }
  return doc;
}

/** Arguments whose {@link serialise}d text is about `chars` characters long. */
export function argumentsText(chars, seed = 42) {
  const first = serialise(documentArguments(chars, seed));
  return serialise(documentArguments(Math.round((chars * chars) / first.length), seed));
}

/** JSON text with some whitespace, as models often send (2-space indentation). */
export function serialise(value) {
  return JSON.stringify(value, null, 2);
}

/** Cut `text` into fragments of 1–8 characters (seeded). */
export function fragments(text, seed = 7) {
  const r = rng(seed);
  const out = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(r() * 8);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

// ----- the four adversarial shapes (each the arguments of one tool call) -------------------------

/** `{"rows": [...]}` with `n` numbers (mostly small integers, some decimals and negatives). */
export function wideArrayText(n, seed = 42) {
  const r = rng(seed);
  const rows = Array.from({ length: n }, () => (r() < 0.8 ? Math.floor(r() * 1000) : Math.round((r() - 0.5) * 1e5) / 100));
  return JSON.stringify({ rows });
}

/** An object with `n` keys (`"key_00042"`), values small integers, short strings, booleans and null. */
export function wideObjectText(n, seed = 42) {
  const r = rng(seed);
  const object = {};
  for (let i = 0; i < n; i++) {
    const pick = r();
    object[`key_${String(i).padStart(5, '0')}`] = pick < 0.5 ? Math.floor(r() * 10_000) : pick < 0.8 ? text(r, 4 + Math.floor(r() * 12)) : pick < 0.95 ? r() < 0.5 : null;
  }
  return JSON.stringify(object, null, 1);
}

/** `{"content": "…"}` whose string is about `chars` characters of text with escapes and non-ASCII. */
export function longStringText(chars, seed = 42) {
  return JSON.stringify({ content: text(rng(seed), chars) });
}

/** `[` × depth then `]` × depth. */
export function deepText(depth) {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** Deep equality of two JSON values, without recursion (JSON.stringify overflows on deep nesting). */
export function sameJson(a, b) {
  const stack = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop();
    if (Object.is(x, y)) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || Array.isArray(x) !== Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.prototype.hasOwnProperty.call(y, key)) return false;
      stack.push([x[key], y[key]]);
    }
  }
  return true;
}
