/**
 * Byte accounting for the SSE parser: how many UTF-8 bytes a piece of decoded text took on the
 * wire, without re-encoding it. Used only to report byte offsets in errors, so the hot path never
 * scans text twice.
 *
 * @module
 */

/**
 * The UTF-8 length of `text[from, to)`. Exact for well-formed text; a lone surrogate is counted as
 * 2 bytes (half a pair) instead of the 3 bytes of its U+FFFD replacement.
 */
export function utf8Length(text: string, from: number, to: number): number {
  let bytes = to - from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdfff)
      bytes += 1; // each half of a pair: 4 bytes for 2 chars
    else bytes += 2;
  }
  return bytes;
}

/**
 * One decoder for every stream, only ever called on whole characters: a call without
 * `{ stream: true }` keeps no state, and takes the engine's fast path (in Node 20 the streaming
 * call goes through ICU at about 2.5 times the cost per chunk).
 */
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * One stream's chunks as text, with byte offsets: byte chunks are decoded as UTF-8 (invalid bytes
 * become U+FFFD, a BOM is kept for the parser to strip), string chunks are taken as decoded text and
 * counted as their UTF-8 encoding. After each call, `start` is the byte offset of the text it
 * returned and `end` the offset just after it.
 *
 * The bytes of a character cut at the end of a chunk (at most three) are held back and decoded with
 * the next chunk, so each chunk is decoded whole and the text is what one streaming decoder gives.
 */
export class StreamText {
  /** Byte offset of the first char of the text last returned. */
  start = 0;
  /** Byte offset just after the text decoded so far. */
  end = 0;
  /** Bytes were fed since the last {@link StreamText.flush} (some may be held). */
  decoding = false;
  /** The start of a character the last chunk ended with, decoded with the next chunk. */
  private carry: Uint8Array | undefined = undefined;
  private bytesIn = 0;

  /** The text of a byte chunk (without the bytes of a character that is not complete yet). */
  bytes(chunk: Uint8Array): string {
    this.decoding = true;
    this.bytesIn += chunk.length;
    let whole = chunk;
    const carry = this.carry;
    if (carry !== undefined) {
      whole = new Uint8Array(carry.length + chunk.length);
      whole.set(carry);
      whole.set(chunk, carry.length);
      this.carry = undefined;
    }
    const held = heldBytes(whole);
    this.start = this.end;
    this.end = this.bytesIn - held;
    if (held === 0) return DECODER.decode(whole);
    const n = whole.length - held;
    this.carry = whole.slice(n);
    return n === 0 ? '' : DECODER.decode(whole.subarray(0, n));
  }

  /** A text chunk (call {@link StreamText.flush} first while `decoding`). */
  string(chunk: string): string {
    this.start = this.end;
    this.end += utf8Length(chunk, 0, chunk.length);
    this.bytesIn = this.end;
    return chunk;
  }

  /** What is held (an incomplete character becomes U+FFFD). */
  flush(): string {
    const carry = this.carry;
    this.carry = undefined;
    this.decoding = false;
    this.start = this.end;
    this.end = this.bytesIn;
    return carry === undefined ? '' : DECODER.decode(carry);
  }

  /** Forget everything: a new stream. */
  reset(): void {
    this.carry = undefined;
    this.decoding = false;
    this.bytesIn = this.start = this.end = 0;
  }
}

/**
 * How many bytes at the end of `bytes` start a character that is not complete yet (0–3): the
 * last lead byte among the last three, when fewer of its continuation bytes follow than it needs.
 * Holding a few bytes too many (an invalid sequence that looks like a start) is harmless: they are
 * decoded with the next chunk, as a streaming decoder would.
 */
function heldBytes(bytes: Uint8Array): number {
  const n = bytes.length;
  const stop = n > 3 ? n - 3 : 0;
  for (let i = n - 1; i >= stop; i--) {
    const b = bytes[i] as number;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte
    if (b < 0xc2 || b > 0xf4) return 0; // ASCII, or a byte that can never start a sequence
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    const have = n - i;
    return have < need ? have : 0;
  }
  return 0;
}
