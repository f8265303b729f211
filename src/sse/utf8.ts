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

const STREAM: TextDecodeOptions = { stream: true };

/**
 * Decodes chunks that end on a whole character when nothing is pending, for every stream: a call
 * without `{ stream: true }` keeps no state. In Node 20 it takes the engine's fast path for ASCII,
 * cheaper than the streaming call (which goes through ICU); for text with many multi-byte
 * characters it is slower than the streaming call, so it is used only after a chunk that decoded
 * to one char per byte.
 */
const WHOLE = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * One stream's chunks as text, with byte offsets: byte chunks are decoded as streaming UTF-8
 * (invalid bytes become U+FFFD, a BOM is kept for the parser to strip), string chunks are taken as
 * decoded text and counted as their UTF-8 encoding. After each call, `start` is the byte offset of
 * the text it returned and `end` the offset just after it.
 */
export class StreamText {
  /** Byte offset of the first char of the text last returned. */
  start = 0;
  /** Byte offset just after the text decoded so far. */
  end = 0;
  /** Bytes went into the decoder since it was last flushed. */
  decoding = false;
  /** The stream's own streaming decoder, made at the first chunk that {@link WHOLE} cannot take. */
  private decoder: TextDecoder | undefined;
  /** The last bytes fed (up to three, the most recent in the low byte) and how many there are: for {@link StreamText.held}. */
  private tail = 0;
  private tailBytes = 0;
  /** Bytes taken so far (string chunks counted as their UTF-8 encoding). */
  bytesIn = 0;
  /** The last chunk decoded to one char per byte (ASCII): try {@link WHOLE} on the next. */
  private ascii = true;

  /** The text of a byte chunk (without the bytes of a character that is not complete yet). */
  bytes(chunk: Uint8Array): string {
    const held = this.held(chunk);
    // The whole-chunk decoder only when no character is cut on either side of this chunk
    // (`end < bytesIn`: the streaming decoder holds the start of one from the last chunk).
    const text = this.ascii && this.end === this.bytesIn && held === 0 ? WHOLE.decode(chunk) : (this.decoder ??= new TextDecoder('utf-8', { ignoreBOM: true })).decode(chunk, STREAM);
    this.ascii = text.length === chunk.length;
    this.decoding = true;
    this.bytesIn += chunk.length;
    this.start = this.end;
    this.end = this.bytesIn - held;
    return text;
  }

  /** A text chunk (call {@link StreamText.flush} first while `decoding`). */
  string(chunk: string): string {
    this.start = this.end;
    this.end += utf8Length(chunk, 0, chunk.length);
    this.bytesIn = this.end;
    return chunk;
  }

  /**
   * Remember the end of `chunk` and return how many trailing bytes the streaming decoder holds back
   * as the start of a character that is not complete yet. Exact for well-formed UTF-8.
   */
  private held(chunk: Uint8Array): number {
    const n = chunk.length;
    let tail = this.tail;
    let count = this.tailBytes;
    for (let i = n > 3 ? n - 3 : 0; i < n; i++) {
      tail = ((tail << 8) | (chunk[i] as number)) & 0xffffff;
      if (count < 3) count++;
    }
    this.tail = tail;
    this.tailBytes = count;
    let continuation = 0;
    for (let k = 0; k < count; k++) {
      const b = (tail >>> (8 * k)) & 0xff;
      if ((b & 0xc0) === 0x80) {
        continuation++;
        continue;
      }
      if (b < 0xc2 || b > 0xf4) return 0; // ASCII, or a byte that can never start a sequence
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      const have = continuation + 1;
      return have < need ? have : 0;
    }
    return 0;
  }

  /** What the decoder still holds (an incomplete character becomes U+FFFD). */
  flush(): string {
    const text = this.decoder === undefined ? '' : this.decoder.decode();
    this.decoding = false;
    this.tail = this.tailBytes = 0;
    this.start = this.end;
    this.end = this.bytesIn;
    return text;
  }

  /** Forget everything: a new stream. */
  reset(): void {
    this.decoder = undefined;
    this.decoding = false;
    this.ascii = true;
    this.tail = this.tailBytes = 0;
    this.bytesIn = this.start = this.end = 0;
  }
}
