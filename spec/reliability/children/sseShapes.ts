/**
 * Shapes of one huge SSE event, made lazily chunk by chunk (so the input never sits in memory as a
 * whole), with the data each must dispatch. Shared by the child process that parses them under a
 * heap limit and the spec that checks its report.
 */

/** One event shape: its chunks for a size `n`, and its expected data (built in the parent only). */
export interface SseShape {
  /** The chunks of one event of size `n` (units: see each shape), ended by a blank line. */
  chunks(n: number): Iterable<Uint8Array | string>;
  /** The event's data, in pieces (so that the parent does not build huge arrays to check it). */
  expected(n: number): Iterable<string>;
}

const encoder = new TextEncoder();
const CHUNK_LINES = 8192;

/** `text` in byte chunks of exactly `size` bytes (the last may be shorter): cuts multi-byte chars and CRLFs anywhere. */
function* rechunk(texts: Iterable<string>, size: number): Generator<Uint8Array> {
  let carry = new Uint8Array(0);
  for (const text of texts) {
    const bytes = encoder.encode(text);
    const joined = new Uint8Array(carry.length + bytes.length);
    joined.set(carry);
    joined.set(bytes, carry.length);
    let at = 0;
    for (; at + size <= joined.length; at += size) yield joined.subarray(at, at + size);
    carry = joined.slice(at);
  }
  if (carry.length > 0) yield carry;
}

const MIXED = ['é', '€', '😀', 'x'];
const EOLS = ['\n', '\r', '\r\n'];
const cycle = 'aé€😀'; // 1 + 2 + 3 + 4 bytes, 1 + 1 + 1 + 2 chars

/** 16 chars, different per line `i`. */
const label = (i: number): string => `line-${String(i).padStart(11, '0')}`;

export const SSE_SHAPES = {
  /** `n` lines `data:x` (LF), in 64 KB byte chunks: `x\nx\n…x`. */
  lines: {
    *chunks(n) {
      const full = encoder.encode('data:x\n'.repeat(CHUNK_LINES));
      let left = n;
      for (; left >= CHUNK_LINES; left -= CHUNK_LINES) yield full;
      yield 'data:x\n'.repeat(left) + '\n';
    },
    *expected(n) {
      for (let i = 0; i < n; i++) yield i === 0 ? 'x' : '\nx';
    },
  },
  /** `n` lines `data:<é|€|😀|x>` ended by LF, CR and CRLF in turn, in byte chunks of 4,093 bytes (chars and CRLFs split). */
  mixedLineEnds: {
    *chunks(n) {
      function* texts(): Generator<string> {
        for (let from = 0; from < n; from += CHUNK_LINES) {
          let text = '';
          for (let i = from; i < Math.min(n, from + CHUNK_LINES); i++) text += `data:${MIXED[i % 4] as string}${EOLS[i % 3] as string}`;
          yield text;
        }
        yield n % 3 === 2 ? '\n\r\n' : '\n'; // after a lone CR, the LF of a CRLF would end the same line
      }
      yield* rechunk(texts(), 4093);
    },
    *expected(n) {
      for (let i = 0; i < n; i++) yield `${i === 0 ? '' : '\n'}${MIXED[i % 4] as string}`;
    },
  },
  /** One line `data:` + `n` times `aé€😀` (10 bytes, 5 chars) in 1-byte chunks. */
  longLineBytes: {
    *chunks(n) {
      yield encoder.encode('data:');
      const bytes = Array.from(encoder.encode(cycle), (b) => new Uint8Array([b]));
      for (let i = 0; i < n; i++) yield* bytes;
      yield encoder.encode('\n\n');
    },
    *expected(n) {
      yield cycle.repeat(n);
    },
  },
  /** One line `data:` + `n` times `x` in 1-char string chunks. */
  longLineChars: {
    *chunks(n) {
      yield 'data:';
      for (let i = 0; i < n; i++) yield 'x';
      yield '\n\n';
    },
    *expected(n) {
      yield 'x'.repeat(n);
    },
  },
  /** `n` lines `data:line-…` (16 chars each), each in its own 64 KB text chunk padded with a comment. */
  commentPadded: {
    *chunks(n) {
      const comment = `:${'c'.repeat(64 * 1024)}\n`;
      for (let i = 0; i < n; i++) yield `data:${label(i)}\n${comment}`;
      yield '\n';
    },
    *expected(n) {
      for (let i = 0; i < n; i++) yield `${i === 0 ? '' : '\n'}${label(i)}`;
    },
  },
} satisfies Record<string, SseShape>;

/** The name of a shape. */
export type SseShapeName = keyof typeof SSE_SHAPES;

/** FNV-1a over the UTF-16 code units of the pieces' text, and its length: the child reports these instead of the data. */
export function digest(pieces: Iterable<string>): { length: number; digest: number } {
  let h = 0x811c9dc5;
  let length = 0;
  for (const text of pieces) {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    length += text.length;
  }
  return { length, digest: h >>> 0 };
}
