/**
 * The Server-Sent Events parser core, free of RxJS: WHATWG "event stream interpretation" over
 * streamed bytes or text, with a bounded event size.
 *
 * @module
 */
import type { RecordSink } from './recordSink';
import { ToolStreamError } from '../errors';
import { aCount, checkOptions } from '../internal/options';
import type { FramedRecord } from '../events';
import { TextBuffer } from './textBuffer';
import { StreamText, utf8Length } from './utf8';

const LF = 10;
const CR = 13;
const SPACE = 32;
const COLON = 58;
const BOM = 0xfeff;
/** How much of an oversized event's text an `event-too-large` error keeps (at most). */
const HEAD_CHARS = 200;
/**
 * After a text this long, the event's data lines are copied out of it (see
 * {@link TextBuffer.detach}): pieces of shorter texts keep at most 1024 × this many chars alive.
 */
const DETACH_TEXT = 1024;

/** The default {@link DecodeSseOptions.maxEventSize}: 16 MiB. */
export const DEFAULT_MAX_EVENT_SIZE = 16 * 1024 * 1024;

/** Options of {@link SseParser} and `decodeSse()`. */
export interface DecodeSseOptions {
  /**
   * The largest event accepted, in chars of the pending line plus the event's data so far.
   * Default 16 MiB (16,777,216 chars).
   */
  readonly maxEventSize?: number;
}

/**
 * A WHATWG-conformant SSE parser for one stream. Feed it with {@link SseParser.push} and finish
 * with {@link SseParser.end}; after `end()` it is ready for a new stream.
 *
 * Byte chunks are decoded as streaming UTF-8 (invalid bytes become U+FFFD); string chunks are
 * taken as already-decoded text. Throws `event-too-large` error when an event outgrows
 * `maxEventSize`; after that every call throws the same error until {@link SseParser.reset}.
 * The error's `byteOffset` is where the event started in the input (exact for well-formed UTF-8;
 * string chunks count as their UTF-8 encoding), and its `start` is the event's first
 * `min(200, maxEventSize + 1)` chars of wire text, the same however the input was chunked.
 *
 * Memory for one event stays within about twice its size in chars, whatever its shape (millions
 * of one-char `data:` lines, one line in one-byte chunks, …): lines and chunks are collected in
 * arrays joined in blocks, and the data is joined once, at dispatch.
 *
 * `onEvent` runs synchronously inside `push`/`end`; the rest of the chunk is parsed after it returns.
 */
export class SseParser {
  /** The size limit in use, in chars of the pending line plus the event's data so far (from the options, or 16 MiB). */
  readonly maxEventSize: number;

  /** The chunks as text, with their byte offsets. */
  private readonly input = new StreamText();
  private bomChecked = false;
  /** The last text ended with CR: an LF at the start of the next text belongs to that line end. */
  private skipLF = false;
  /** The unterminated line so far, in pieces (joined once, when its line end arrives). */
  private pending: TextBuffer | undefined;
  /** The current event's data lines (joined once, when it is dispatched). */
  private readonly data = new TextBuffer('\n');
  private eventType = '';
  private retry: number | undefined = undefined;
  private lastId: string | undefined = undefined;

  /** The text being scanned, the byte offset of its first char and where its own lines start (for error reports). */
  private text = '';
  private textStart = 0;
  private textFrom = 0;
  /** Byte offset where the current event started; -1: at `eventStartPos` in `text`. */
  private eventStart = -1;
  private eventStartPos = 0;
  /** The first chars of the current event's text, kept when the event spans texts. */
  private head = '';
  private failure: ToolStreamError<'event-too-large'> | undefined;

  /**
   * A parser for one stream (reusable for the next after {@link SseParser.end}).
   *
   * @param options `maxEventSize`.
   * @throws {ToolStreamError} `invalid-option` for an option it does not take or a size below 1.
   */
  constructor(options: DecodeSseOptions = {}) {
    checkOptions('SseParser', options, { maxEventSize: /* @__PURE__ */ aCount(1) });
    this.maxEventSize = options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;
  }

  /** How many bytes of input this stream took so far (string chunks count as their UTF-8 encoding). */
  get bytesRead(): number {
    return this.input.bytesIn;
  }

  /** Parse the next chunk, calling `onEvent` (a handler, or an observer's `next`) for every event it completes. */
  push(chunk: Uint8Array | string, onEvent: RecordSink): void {
    if (this.failure !== undefined) throw this.failure;
    const input = this.input;
    if (typeof chunk !== 'string') return this.scan(input.bytes(chunk), input.start, onEvent);
    if (input.decoding) this.scan(input.flush(), input.start, onEvent);
    this.scan(input.string(chunk), input.start, onEvent);
  }

  /**
   * The input ended: decode what the decoder still holds, drop an unterminated line and an event
   * that no blank line completed (per spec), and reset for a new stream.
   */
  end(onEvent: RecordSink): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.input.decoding) this.scan(this.input.flush(), this.input.start, onEvent);
    this.reset();
  }

  /** Forget all state, including the last event id and a failure. */
  reset(): void {
    this.input.reset();
    this.bomChecked = this.skipLF = false;
    this.pending?.clear();
    this.data.clear();
    this.eventType = this.text = this.head = '';
    this.retry = this.lastId = this.failure = undefined;
    this.textStart = this.textFrom = this.eventStartPos = 0;
    this.eventStart = -1;
  }

  /** Split `text` (which starts at byte `start`) into lines and interpret them. */
  private scan(text: string, start: number, onEvent: RecordSink): void {
    const length = text.length;
    if (length === 0) return;
    let pos = 0;
    /** Where the text of the current event (if it started before) continues in `text`. */
    let from = 0;
    if (!this.bomChecked) {
      this.bomChecked = true;
      if (text.charCodeAt(0) === BOM) pos = from = this.eventStartPos = 1;
    }
    if (this.skipLF) {
      this.skipLF = false;
      if (text.charCodeAt(0) === LF) {
        pos = 1;
        // the LF ends the blank line before the event: the event starts after it
        if (this.eventStart === start) {
          this.eventStart++;
          from = 1;
        }
      }
    }
    this.text = text;
    this.textStart = start;
    this.textFrom = from;

    let lf = text.indexOf('\n', pos);
    let cr = text.indexOf('\r', pos);
    const pending = this.pending;
    if (pending !== undefined && pending.length > 0) {
      // The line started in an earlier text: find its end here, without rescanning the pieces.
      const end = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
      if (end === -1) {
        this.keep(pos === 0 ? text : text.slice(pos));
        this.endScan(from);
        return;
      }
      if (end > pos) pending.add(text.slice(pos, end));
      const line = pending.take();
      this.line(line, 0, line.length);
      pos = this.afterLineEnd(text, end);
    }
    for (;;) {
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
      const end = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
      if (end === -1) break;
      if (end === pos) {
        this.dispatch(onEvent);
        pos = this.afterLineEnd(text, end);
        this.eventStart = -1;
        this.eventStartPos = pos;
        this.head = '';
      } else {
        this.line(text, pos, end);
        pos = this.afterLineEnd(text, end);
      }
    }
    if (pos < length) this.keep(pos === 0 ? text : text.slice(pos));
    this.endScan(from);
  }

  /** The position after the line end at `end` (CRLF counts once, also across texts). */
  private afterLineEnd(text: string, end: number): number {
    const next = end + 1;
    if (text.charCodeAt(end) === CR) {
      if (next === text.length) this.skipLF = true;
      else if (text.charCodeAt(next) === LF) return next + 1;
    }
    return next;
  }

  /** Keep the start of an unterminated line for the next text. */
  private keep(piece: string): void {
    const pending = (this.pending ??= new TextBuffer(''));
    pending.add(piece);
    if (pending.length + this.data.length > this.maxEventSize) this.fail();
  }

  /** The text is done: pin the current event's start to a byte offset and keep its first chars. */
  private endScan(from: number): void {
    let headFrom = from;
    if (this.eventStart === -1) {
      headFrom = this.eventStartPos;
      this.eventStart = this.input.end - utf8Length(this.text, headFrom, this.text.length);
    }
    if (this.head.length < HEAD_CHARS) this.head += this.text.slice(headFrom, headFrom + HEAD_CHARS - this.head.length);
    if (this.text.length >= DETACH_TEXT) this.data.detach();
    this.text = '';
  }

  /** Interpret one non-empty line `s[start, end)`. */
  private line(s: string, start: number, end: number): void {
    if (end - start + this.data.length > this.maxEventSize) this.fail();
    const c = s.charCodeAt(start);
    if (c === COLON) return; // comment
    // Fast paths for `data:` and `event:` (the prefix chars are never line ends, so this stays in the line).
    if (c === 100 && s.charCodeAt(start + 1) === 97 && s.charCodeAt(start + 2) === 116 && s.charCodeAt(start + 3) === 97 && s.charCodeAt(start + 4) === COLON) {
      this.data.add(s.slice(start + 5 < end && s.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end));
      return;
    }
    if (c === 101 && s.charCodeAt(start + 1) === 118 && s.charCodeAt(start + 2) === 101 && s.charCodeAt(start + 3) === 110 && s.charCodeAt(start + 4) === 116 && s.charCodeAt(start + 5) === COLON) {
      this.eventType = s.slice(start + 6 < end && s.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end);
      return;
    }
    let colon = start;
    while (colon < end && s.charCodeAt(colon) !== COLON) colon++;
    const name = s.slice(start, colon);
    let value = '';
    if (colon < end) value = s.slice(colon + 1 < end && s.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1, end);
    this.field(name, value);
  }

  private field(name: string, value: string): void {
    switch (name) {
      case 'data':
        this.data.add(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (value.indexOf('\0') === -1) this.lastId = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retry = Number(value);
        break;
      default:
      // unknown fields are ignored
    }
  }

  /** A blank line: dispatch the event when its data buffer is not empty, then start a new one. */
  private dispatch(onEvent: RecordSink): void {
    const event: FramedRecord | undefined = this.data.count > 0 ? { event: this.eventType === '' ? 'message' : this.eventType, data: this.data.take(), id: this.lastId, retry: this.retry } : undefined;
    this.eventType = '';
    this.retry = undefined;
    if (event === undefined) return;
    if (typeof onEvent === 'function') onEvent(event);
    else onEvent.next(event);
  }

  private fail(): never {
    let byteOffset = this.eventStart;
    let head = this.head;
    if (byteOffset === -1) {
      byteOffset = this.textStart + utf8Length(this.text, 0, this.eventStartPos);
      head = this.text.slice(this.eventStartPos, this.eventStartPos + HEAD_CHARS);
    } else if (head.length < HEAD_CHARS) {
      head += this.text.slice(this.textFrom, this.textFrom + HEAD_CHARS - head.length);
    }
    // At least `maxEventSize + 1` chars of the event have arrived, whatever the chunking: cutting
    // there makes `start` the same for every chunking of the same input.
    head = head.slice(0, Math.min(HEAD_CHARS, this.maxEventSize + 1));
    this.pending?.clear();
    this.data.clear();
    this.failure = new ToolStreamError('event-too-large', { limit: this.maxEventSize, byteOffset, start: head });
    throw this.failure;
  }
}
