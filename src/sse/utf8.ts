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
    else if (c >= 0xd800 && c <= 0xdfff) bytes += 1; // each half of a pair: 4 bytes for 2 chars
    else bytes += 2;
  }
  return bytes;
}

/**
 * Tracks the last bytes fed to a streaming `TextDecoder` to know how many of them it holds back as
 * the start of a character that is not complete yet. Exact for well-formed UTF-8.
 */
export class Utf8Tail {
  /** The last three bytes fed, most recent in `b2`; -1 = none. */
  private b0 = -1;
  private b1 = -1;
  private b2 = -1;

  /** Remember the end of `chunk` and return how many trailing bytes form an incomplete character. */
  feed(chunk: Uint8Array): number {
    const n = chunk.length;
    for (let i = n > 3 ? n - 3 : 0; i < n; i++) {
      this.b0 = this.b1;
      this.b1 = this.b2;
      this.b2 = chunk[i] ?? -1;
    }
    return this.pending();
  }

  /** Forget the tail (the decoder was flushed). */
  clear(): void {
    this.b0 = this.b1 = this.b2 = -1;
  }

  private pending(): number {
    const bytes = [this.b2, this.b1, this.b0];
    let continuation = 0;
    for (const b of bytes) {
      if (b === -1) return 0;
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
}
