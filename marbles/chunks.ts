/**
 * Turning wire text into the byte chunks a network delivers: marble value maps and split helpers.
 *
 * @module
 */
import { checkOptions, oneOf, type OptionChecks } from '../src/internal/options';

const encoder = new TextEncoder();

/** UTF-8 bytes of `text` (a `Uint8Array` is returned as it is). */
export function toBytes(text: string | Uint8Array): Uint8Array {
  return typeof text === 'string' ? encoder.encode(text) : text;
}

/** A value given for a marble: text, bytes, or pieces to join (`[openaiChunk(…), openaiDone()]`). */
export type WireValue = string | Uint8Array | ReadonlyArray<string | Uint8Array>;

function join(value: WireValue): Uint8Array {
  if (typeof value === 'string' || value instanceof Uint8Array) return toBytes(value);
  const parts = value.map(toBytes);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Encode every value of a marble value map to UTF-8 bytes, so a test feeds bytes, as a network does.
 *
 * ```ts
 * cold('-a-b|', encodeChunks({ a: openaiChunk({ content: 'hi' }), b: openaiDone() }))
 * ```
 */
export function encodeChunks<K extends string>(values: Readonly<Record<K, WireValue>>): Record<K, Uint8Array> {
  const out = {} as Record<K, Uint8Array>;
  for (const key of Object.keys(values) as K[]) out[key] = join(values[key]);
  return out;
}

/** The arguments for `TestScheduler`'s `cold()` / `hot()`. */
export interface WireChunks<T> {
  /** The marble diagram, unchanged (e.g. `'-a-b|'`). */
  readonly marbles: string;
  /** One chunk per value letter: UTF-8 bytes, or text with `as: 'text'` (pieces given as an array are joined). */
  readonly values: Record<string, T>;
}

/** Options of {@link wireChunks}. */
export interface WireChunksOptions {
  /** `'bytes'` (default) encodes the values to UTF-8; `'text'` keeps strings. */
  readonly as?: 'bytes' | 'text';
}

/** The checks of {@link WireChunksOptions}' keys. */
const WIRE_CHUNKS_CHECKS: OptionChecks = { as: oneOf(['bytes', 'text']) };

/** The value keys a marble diagram uses (time progressions such as `10ms ` are skipped). */
export function marbleKeys(marbles: string): Set<string> {
  const keys = new Set<string>();
  for (let i = 0; i < marbles.length; i++) {
    const char = marbles[i] as string;
    if (/[0-9]/.test(char) && (i === 0 || marbles[i - 1] === ' ')) {
      const progression = /^[0-9]+(?:\.[0-9]+)?(?:ms|s|m) /.exec(marbles.slice(i));
      if (progression !== null) {
        i += progression[0].length - 1;
        continue;
      }
    }
    if (!' -|#()^!'.includes(char)) keys.add(char);
  }
  return keys;
}

/**
 * A cold-observable spec for `TestScheduler` whose values are wire chunks. It checks that every
 * value letter in the diagram has a value (otherwise `TestScheduler` silently emits the letter).
 *
 * ```ts
 * const { marbles, values } = wireChunks('-a--b|', { a: openaiChunk({ content: 'hi' }), b: openaiDone() });
 * const bytes$ = cold(marbles, values);
 * ```
 *
 * @throws {Error} When a letter in `marbles` has no value; `ToolStreamError` `invalid-option` for an option it does not take.
 */
export function wireChunks(marbles: string, values: Readonly<Record<string, WireValue>>, options: { readonly as: 'text' }): WireChunks<string>;
export function wireChunks(marbles: string, values: Readonly<Record<string, WireValue>>, options?: WireChunksOptions): WireChunks<Uint8Array>;
export function wireChunks(marbles: string, values: Readonly<Record<string, WireValue>>, options: WireChunksOptions = {}): WireChunks<Uint8Array | string> {
  checkOptions('wireChunks', options, WIRE_CHUNKS_CHECKS);
  const missing = [...marbleKeys(marbles)].filter((key) => !Object.prototype.hasOwnProperty.call(values, key));
  if (missing.length > 0) throw new Error(`wireChunks: no value for ${missing.map((k) => JSON.stringify(k)).join(', ')} in ${JSON.stringify(marbles)}`);
  if (options.as === 'text') {
    const decoder = new TextDecoder();
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) out[key] = typeof value === 'string' ? value : decoder.decode(join(value));
    return { marbles, values: out };
  }
  return { marbles, values: encodeChunks(values) };
}

/** Split at the given sorted byte offsets (0 < offset < length); copies, so chunks are independent. */
function splitAt(bytes: Uint8Array, offsets: Iterable<number>): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of offsets) {
    if (offset <= start || offset >= bytes.length) continue;
    chunks.push(bytes.slice(start, offset));
    start = offset;
  }
  if (start < bytes.length) chunks.push(bytes.slice(start));
  return chunks;
}

/** One chunk per byte (text is UTF-8 encoded first): the harshest split a network can do. */
export function splitEveryByte(input: string | Uint8Array): Uint8Array[] {
  const bytes = toBytes(input);
  return Array.from(bytes, (byte) => Uint8Array.of(byte));
}

/**
 * A small seeded random generator (mulberry32), numbers in [0, 1): the same seed gives the same
 * sequence on every platform, so a failing randomized case can be replayed from its seed.
 *
 * ```ts
 * const random = seededRandom(42);
 * const cuts = Array.from({ length: 5 }, () => Math.floor(random() * 100));
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Split into chunks of 1..`maxChunk` bytes with lengths drawn from a seeded generator: the same
 * `seed` always gives the same split, so a failing case can be replayed.
 *
 * @param maxChunk The largest chunk, at least 1. Default 16.
 */
export function splitRandom(input: string | Uint8Array, seed: number, maxChunk = 16): Uint8Array[] {
  if (!Number.isInteger(maxChunk) || maxChunk < 1) throw new RangeError(`splitRandom: maxChunk must be a positive integer, got ${maxChunk}`);
  const bytes = toBytes(input);
  const next = seededRandom(seed);
  const offsets: number[] = [];
  for (let at = 0; at < bytes.length;) {
    at += 1 + Math.floor(next() * maxChunk);
    offsets.push(at);
  }
  return splitAt(bytes, offsets);
}

/**
 * Split inside every multi-byte UTF-8 character, between each of its bytes (a 2-byte `é` is cut
 * once, a 4-byte emoji three times); single-byte runs stay whole. Checks that a decoder keeps
 * partial characters across chunks.
 */
export function splitInsideMultibyte(input: string | Uint8Array): Uint8Array[] {
  const bytes = toBytes(input);
  const offsets: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    // A continuation byte (10xxxxxx) that follows a lead or another continuation byte: cut before it.
    if ((byte & 0xc0) === 0x80 && i > 0 && ((bytes[i - 1] as number) & 0x80) !== 0) offsets.push(i);
  }
  return splitAt(bytes, offsets);
}
