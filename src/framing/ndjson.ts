/**
 * Newline-delimited JSON (`application/x-ndjson`, Ollama's `/api/chat` stream), free of RxJS: one
 * JSON value per line, read into `FramedRecord`s so that the wire decoders read it as they read
 * SSE.
 *
 * @module
 */
import { ToolStreamError } from '../errors';
import { aCount, checkOptions } from '../internal/options';
import { TextBuffer } from '../sse/textBuffer';
import { StreamText, utf8Length } from '../sse/utf8';
import { deliver, type RecordSink } from '../sse/recordSink';

/** The default {@link DecodeNdjsonOptions.maxLineSize}: 16 MiB (chars), as SSE's `maxEventSize`. */
export const DEFAULT_MAX_LINE_SIZE = 16 * 1024 * 1024;

/** How much of an oversized line an `event-too-large` error keeps (at most). */
const HEAD_CHARS = 200;
const BOM = 0xfeff;

/** Options of {@link NdjsonParser} and `decodeNdjson()`. */
export interface DecodeNdjsonOptions {
  /** The longest line accepted, in chars (its line end not counted). Default 16 MiB (16,777,216 chars). */
  readonly maxLineSize?: number;
}

/** Whether `text[start, end)` holds only JSON whitespace (space, tab, CR, LF). */
function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) return false;
  }
  return true;
}

/**
 * An NDJSON parser for one stream: bytes or text cut anywhere in, one record per line out. Feed it
 * with {@link NdjsonParser.push} and finish with {@link NdjsonParser.end}.
 *
 * 1. Byte chunks are decoded as streaming UTF-8 (a character cut across chunks decodes once;
 *    invalid bytes become U+FFFD); string chunks are taken as decoded text. One leading BOM is
 *    dropped.
 * 2. Lines end with LF; a CR before the LF is dropped (CRLF). A line of only whitespace is
 *    skipped. The last line needs no line end: {@link NdjsonParser.end} hands it over.
 * 3. Each line is `{ event: 'message', data: <the line>, id: undefined, retry: undefined }`: the
 *    framing does not parse the JSON (the wire decoder does, and says `invalid-event` when it is
 *    not JSON).
 * 4. A line longer than `maxLineSize` chars (its CR or CRLF not counted) throws `event-too-large`
 *    (`framing: 'ndjson'`, the line's `byteOffset`, its first `min(200, maxLineSize + 1)` chars as
 *    `start`) as soon as the chars that arrived prove it, the same however the input was cut;
 *    nothing past the limit is kept. Then every call throws it again until {@link NdjsonParser.reset}.
 */
export class NdjsonParser {
  /** The length limit in use, in chars of one line. */
  readonly maxLineSize: number;

  private readonly input = new StreamText();
  private bomChecked = false;
  /** The unterminated line so far, in pieces. */
  private readonly pending = new TextBuffer('');
  /** The byte offset where the pending line started. */
  private pendingStart = 0;
  /** Its first chars (at most 200), for an `event-too-large` error. */
  private pendingHead = '';
  /** Its last char code so far. */
  private pendingLast = 0;
  private failure: ToolStreamError<'event-too-large'> | undefined;

  /**
   * A parser for one stream (reusable for the next after {@link NdjsonParser.end}).
   *
   * @param options `maxLineSize`.
   * @throws {ToolStreamError} `invalid-option` for an option it does not take or a size below 1.
   */
  constructor(options: DecodeNdjsonOptions = {}) {
    checkOptions('NdjsonParser', options, { maxLineSize: /* @__PURE__ */ aCount(1) });
    this.maxLineSize = options.maxLineSize ?? DEFAULT_MAX_LINE_SIZE;
  }

  /** How many bytes of input this stream took so far (string chunks count as their UTF-8 encoding). */
  get bytesRead(): number {
    return this.input.bytesIn;
  }

  /** Read the next chunk, handing `out` one `FramedRecord` per line it completes. */
  push(chunk: Uint8Array | string, out: RecordSink): void {
    if (this.failure !== undefined) throw this.failure;
    const input = this.input;
    if (typeof chunk !== 'string') return this.scan(input.bytes(chunk), input.start, out);
    if (input.decoding) this.scan(input.flush(), input.start, out);
    this.scan(input.string(chunk), input.start, out);
  }

  /** The input ended: hand over the last line (it needs no line end) and reset for a new stream. */
  end(out: RecordSink): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.input.decoding) this.scan(this.input.flush(), this.input.start, out);
    if (this.pending.count > 0) {
      const line = this.pending.take();
      this.line(line, 0, line.length, out);
    }
    this.reset();
  }

  /** Forget all state, including a failure. */
  reset(): void {
    this.input.reset();
    this.pending.clear();
    this.bomChecked = false;
    this.pendingStart = this.pendingLast = 0;
    this.pendingHead = '';
    this.failure = undefined;
  }

  /** Split `text` (whose first char is at byte `start`) into lines. */
  private scan(text: string, start: number, out: RecordSink): void {
    const length = text.length;
    if (length === 0) return;
    let pos = 0;
    if (!this.bomChecked) {
      this.bomChecked = true;
      if (text.charCodeAt(0) === BOM) pos = 1;
    }
    let lf = text.indexOf('\n', pos);
    const pending = this.pending;
    if (pending.count > 0) {
      // The line began in an earlier text.
      const end = lf === -1 ? length : lf;
      const last = end > pos ? text.charCodeAt(end - 1) : this.pendingLast;
      if (this.overLimit(pending.length + end - pos, last)) this.tooLong(this.pendingHead + text.slice(pos, pos + HEAD_CHARS), this.pendingStart);
      if (lf === -1) {
        this.keep(text, pos);
        return;
      }
      if (lf > pos) pending.add(text.slice(pos, lf));
      const line = pending.take();
      this.line(line, 0, line.length, out);
      pos = lf + 1;
      lf = text.indexOf('\n', pos);
    }
    while (lf !== -1) {
      if (lf > pos && this.overLimit(lf - pos, text.charCodeAt(lf - 1))) this.tooLong(text.slice(pos, pos + HEAD_CHARS), start + utf8Length(text, 0, pos));
      this.line(text, pos, lf, out);
      pos = lf + 1;
      lf = text.indexOf('\n', pos);
    }
    if (pos === length) return;
    if (this.overLimit(length - pos, text.charCodeAt(length - 1))) this.tooLong(text.slice(pos, pos + HEAD_CHARS), start + utf8Length(text, 0, pos));
    this.pendingStart = this.input.end - utf8Length(text, pos, length);
    this.pendingHead = '';
    this.keep(text, pos);
  }

  /** Keep `text[pos…]` as more of the pending line. */
  private keep(text: string, pos: number): void {
    if (pos === text.length) return;
    const piece = pos === 0 ? text : text.slice(pos);
    if (this.pendingHead.length < HEAD_CHARS) this.pendingHead += piece.slice(0, HEAD_CHARS - this.pendingHead.length);
    this.pendingLast = piece.charCodeAt(piece.length - 1);
    this.pending.add(piece);
  }

  /**
   * Whether a line of `length` chars whose last char so far is `last` is over the limit: a final CR
   * may be the start of its CRLF, so it is not counted until the next char says otherwise.
   */
  private overLimit(length: number, last: number): boolean {
    const max = this.maxLineSize;
    return length > max + 1 || (length === max + 1 && last !== 13);
  }

  /** One line `s[start, end)` (without its LF): hand it over unless it is blank. */
  private line(s: string, start: number, end: number, out: RecordSink): void {
    if (end > start && s.charCodeAt(end - 1) === 13) end--;
    if (isBlank(s, start, end)) return;
    deliver(out, { event: 'message', data: start === 0 && end === s.length ? s : s.slice(start, end), id: undefined, retry: undefined });
  }

  private tooLong(head: string, byteOffset: number): never {
    this.pending.clear();
    this.pendingHead = '';
    this.failure = new ToolStreamError('event-too-large', { limit: this.maxLineSize, byteOffset, start: head.slice(0, Math.min(HEAD_CHARS, this.maxLineSize + 1)), framing: 'ndjson' });
    throw this.failure;
  }
}
