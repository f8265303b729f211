/**
 * One JSON array streamed element by element (Gemini's `streamGenerateContent` without `alt=sse`:
 * `[{…}\n,\r\n{…}]`), free of RxJS: each element read into an `FramedRecord` as soon as it is
 * complete, so that the wire decoders read it as they read SSE.
 *
 * @module
 */
import { ToolStreamError } from '../errors';
import { aBoolean, aCount, checkOptions } from '../internal/options';
import { TextBuffer } from '../sse/textBuffer';
import { StreamText, utf8Length } from '../sse/utf8';
import { deliver, type RecordSink } from '../sse/recordSink';

/** The default {@link DecodeJsonArrayOptions.maxElementSize}: 16 MiB (chars), as SSE's `maxEventSize`. */
export const DEFAULT_MAX_ELEMENT_SIZE = 16 * 1024 * 1024;

/** How much of an oversized element an `event-too-large` error keeps (at most). */
const HEAD_CHARS = 200;
const BOM = 0xfeff;
const FRAMING = 'json-array';

const QUOTE = 34;
const COMMA = 44;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** Before the `[`. */
const START = 0;
/** After the `[`: an element or `]`. */
const OPEN = 1;
/** Inside an element. */
const ELEMENT = 2;
/** After an element: `,` or `]`. */
const AFTER = 3;
/** After a `,`: an element. */
const COMMA_SEEN = 4;
/** After the `]`: only whitespace. */
const DONE = 5;
/** A sequence of JSON values (`sequence: true`): a value, or whitespace, or the end. */
const SEQUENCE = 6;

/** Options of {@link JsonArrayParser} and `decodeJsonArray()`. */
export interface DecodeJsonArrayOptions {
  /** The largest element accepted, in chars of its JSON text. Default 16 MiB (16,777,216 chars). */
  readonly maxElementSize?: number;
  /**
   * Read JSON values one after another instead of one array (`{…}\n{…}`, or one whole document
   * pretty-printed over many lines): NDJSON and a JSON body alike, each value a record. Errors then
   * name the `json-sequence` framing. Default `false`.
   */
  readonly sequence?: boolean;
}

/** JSON whitespace: space, tab, LF, CR. */
const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * A streamed-JSON-array parser for one stream: bytes or text cut anywhere in, one record per
 * element out. Feed it with {@link JsonArrayParser.push} and finish with {@link JsonArrayParser.end}.
 *
 * 1. Byte chunks are decoded as streaming UTF-8 (invalid bytes become U+FFFD); string chunks are
 *    taken as decoded text. One leading BOM is dropped.
 * 2. The input is one array: `[`, elements separated by `,`, `]`, with any JSON whitespace (CRLF
 *    included) around each. Each element is `{ event: 'message', data: <its JSON text, without the
 *    whitespace around it>, id: undefined, retry: undefined }`, handed over as soon as its last char
 *    arrives (a scalar element when the `,` or `]` after it does).
 * 3. The framing finds where an element ends (strings with brackets, commas and escapes inside
 *    them, nested objects and arrays); it does not check the rest of the element's JSON: the wire
 *    decoder does (`invalid-event`).
 * 4. `invalid-frame` (`framing: 'json-array'`, the `byteOffset` of the unexpected character): text
 *    before the `[` or after the `]`, an empty element (`[,`, `,,`, `,]`), a missing `,` between
 *    elements, a `}` or `]` that closes nothing or the wrong bracket.
 * 5. `truncated` (`provider: 'json-array'`, `byteOffset` of the element, or of the end of input):
 *    the input ended inside an element or before the `]`. An input of only whitespace is no array
 *    and no error: nothing is handed over (the wire decoder decides what an empty body means).
 * 6. `event-too-large` (`framing: 'json-array'`): an element longer than `maxElementSize` chars,
 *    as soon as that many chars of it arrived, the same however the input was cut.
 *
 * After an error, every call throws it again until {@link JsonArrayParser.reset}.
 */
export class JsonArrayParser {
  /** The size limit in use, in chars of one element's JSON text. */
  readonly maxElementSize: number;

  private readonly input = new StreamText();
  private bomChecked = false;
  /** Values one after another, not one array. */
  private readonly sequence: boolean;
  private readonly framing: 'json-array' | 'json-sequence';
  private state: number;
  /** The element's text from earlier texts, in pieces. */
  private readonly pending = new TextBuffer('');
  /** The byte offset where the current element started. */
  private elementStart = 0;
  /** Its first chars (at most 200), for an `event-too-large` error. */
  private head = '';
  /** The closers the open brackets of the current element expect, innermost last. */
  private stack: number[] = [];
  private inString = false;
  private escaped = false;
  /** The current element is a number or a literal (it ends at whitespace, `,` or `]`). */
  private scalar = false;
  private failure: ToolStreamError | undefined;

  /**
   * A parser for one stream (reusable for the next after {@link JsonArrayParser.end}).
   *
   * @param options `maxElementSize`, `sequence`.
   * @throws {ToolStreamError} `invalid-option` for an option it does not take or a value it cannot use.
   */
  constructor(options: DecodeJsonArrayOptions = {}) {
    checkOptions('JsonArrayParser', options, { maxElementSize: /* @__PURE__ */ aCount(1), sequence: aBoolean });
    this.maxElementSize = options.maxElementSize ?? DEFAULT_MAX_ELEMENT_SIZE;
    this.sequence = options.sequence === true;
    this.framing = this.sequence ? 'json-sequence' : FRAMING;
    this.state = this.sequence ? SEQUENCE : START;
  }

  /** How many bytes of input this stream took so far (string chunks count as their UTF-8 encoding). */
  get bytesRead(): number {
    return this.input.bytesIn;
  }

  /** Read the next chunk, handing `out` one `FramedRecord` per element it completes. */
  push(chunk: Uint8Array | string, out: RecordSink): void {
    if (this.failure !== undefined) throw this.failure;
    const input = this.input;
    if (typeof chunk !== 'string') return this.scan(input.bytes(chunk), input.start, out);
    if (input.decoding) this.scan(input.flush(), input.start, out);
    this.scan(input.string(chunk), input.start, out);
  }

  /** The input ended: throw `truncated` unless the array was closed (or never opened), else reset for a new stream. */
  end(out: RecordSink): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.input.decoding) this.scan(this.input.flush(), this.input.start, out);
    const state = this.state;
    if (state === ELEMENT) {
      throw this.fail(
        new ToolStreamError('truncated', { provider: this.framing, detail: `the input ended inside an element that started at byte ${this.elementStart}`, byteOffset: this.elementStart }),
      );
    }
    if (state !== START && state !== DONE && state !== SEQUENCE) {
      const at = this.input.bytesIn;
      throw this.fail(new ToolStreamError('truncated', { provider: FRAMING, detail: `the input ended at byte ${at}, before the "]" that closes the array`, byteOffset: at }));
    }
    this.reset();
  }

  /** Forget all state, including a failure. */
  reset(): void {
    this.input.reset();
    this.pending.clear();
    this.bomChecked = this.inString = this.escaped = this.scalar = false;
    this.state = this.sequence ? SEQUENCE : START;
    this.elementStart = 0;
    this.head = '';
    this.stack = [];
    this.failure = undefined;
  }

  /** Read `text` (whose first char is at byte `start`). */
  private scan(text: string, start: number, out: RecordSink): void {
    const length = text.length;
    if (length === 0) return;
    let i = 0;
    if (!this.bomChecked) {
      this.bomChecked = true;
      if (text.charCodeAt(0) === BOM) i = 1;
    }
    /** Where the current element's text begins in `text`. */
    let from = 0;
    /** A position in `text` and its byte offset, moved forward as elements start (byte offsets without rescanning). */
    let mark = 0;
    let markByte = start;
    while (i < length) {
      if (this.state === ELEMENT) {
        const room = this.maxElementSize - this.pending.length - (i - from);
        const stop = Math.min(length, i + room + 1);
        const end = this.element(text, i, stop, start);
        if (end === -1) {
          if (stop < length || this.pending.length + (length - from) > this.maxElementSize) this.tooLarge(text, from);
          this.keep(text, from);
          return;
        }
        if (this.pending.length + (end - from) > this.maxElementSize) this.tooLarge(text, from);
        const data = this.pending.count === 0 ? text.slice(from, end) : (this.pending.add(text.slice(from, end)), this.pending.take());
        this.state = this.sequence ? SEQUENCE : AFTER;
        this.head = '';
        i = end;
        deliver(out, { event: 'message', data, id: undefined, retry: undefined });
        continue;
      }
      const c = text.charCodeAt(i);
      if (isSpace(c)) {
        i++;
        continue;
      }
      switch (this.state) {
        case START:
          if (c !== OPEN_BRACKET) throw this.unexpected(text, i, start, 'expected "[" to open the array');
          this.state = OPEN;
          i++;
          break;
        case OPEN:
        case COMMA_SEEN:
        case SEQUENCE:
          if (c === CLOSE_BRACKET && this.state === OPEN) {
            this.state = DONE;
            i++;
            break;
          }
          if (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE)
            throw this.unexpected(text, i, start, this.state === OPEN ? 'expected an element or "]"' : this.state === SEQUENCE ? 'expected a JSON value' : 'expected an element after ","');
          this.state = ELEMENT;
          this.scalar = c !== QUOTE && c !== OPEN_BRACE && c !== OPEN_BRACKET;
          markByte += utf8Length(text, mark, i);
          mark = i;
          this.elementStart = markByte;
          from = i;
          break;
        case AFTER:
          if (c === COMMA) this.state = COMMA_SEEN;
          else if (c === CLOSE_BRACKET) this.state = DONE;
          else throw this.unexpected(text, i, start, 'expected "," or "]" after an element');
          i++;
          break;
        default:
          throw this.unexpected(text, i, start, 'text after the "]" that closed the array');
      }
    }
  }

  /**
   * Scan the current element in `text[i, stop)`: the index just after its end, or -1 when it goes
   * on past `stop` (a scalar ends before the whitespace, `,` or `]` after it).
   */
  private element(text: string, i: number, stop: number, start: number): number {
    if (this.scalar) {
      for (; i < stop; i++) {
        const c = text.charCodeAt(i);
        if (c === COMMA || c === CLOSE_BRACKET || isSpace(c)) return i;
      }
      return -1;
    }
    const stack = this.stack;
    let inString = this.inString;
    let escaped = this.escaped;
    for (; i < stop; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (stack.length === 0) {
            this.inString = this.escaped = false;
            return i + 1;
          }
        }
        continue;
      }
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE) stack.push(CLOSE_BRACE);
      else if (c === OPEN_BRACKET) stack.push(CLOSE_BRACKET);
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        const expected = stack.pop();
        if (expected !== c) throw this.unexpected(text, i, start, expected === undefined ? 'a bracket that closes nothing' : `expected ${JSON.stringify(String.fromCharCode(expected))}`);
        if (stack.length === 0) {
          this.inString = this.escaped = false;
          return i + 1;
        }
      }
    }
    this.inString = inString;
    this.escaped = escaped;
    return -1;
  }

  /** Keep `text[from…]` as more of the current element. */
  private keep(text: string, from: number): void {
    if (from === text.length) return;
    const piece = from === 0 ? text : text.slice(from);
    if (this.head.length < HEAD_CHARS) this.head += piece.slice(0, HEAD_CHARS - this.head.length);
    this.pending.add(piece);
  }

  private tooLarge(text: string, from: number): never {
    const head = (this.head + text.slice(from, from + HEAD_CHARS)).slice(0, Math.min(HEAD_CHARS, this.maxElementSize + 1));
    throw this.fail(new ToolStreamError('event-too-large', { limit: this.maxElementSize, byteOffset: this.elementStart, start: head, framing: this.framing }));
  }

  private unexpected(text: string, i: number, start: number, expected: string): ToolStreamError {
    const found = text.codePointAt(i) ?? 0;
    return this.fail(
      new ToolStreamError('invalid-frame', { framing: this.framing, byteOffset: start + utf8Length(text, 0, i), detail: `${expected}, found ${JSON.stringify(String.fromCodePoint(found))}` }),
    );
  }

  private fail(error: ToolStreamError): ToolStreamError {
    this.pending.clear();
    this.stack = [];
    this.failure = error;
    return error;
  }
}
