/**
 * One JSON document read from streamed text, incrementally: the reader behind `partialObject()`.
 *
 * @module
 */
import { parseArguments } from './arguments';
import { PartialJsonParser, type JsonPath, type PartialJsonOptions } from './partialJson';
import { isToolStreamError } from '../errors';

/** Where the reader is in the text. */
const enum At {
  /** Before the document: leading whitespace. */
  Lead,
  /** Inside the opening fence line (```` ```json ````). */
  Fence,
  /** Inside the document. */
  Body,
  /** After the document: whitespace and, when fenced, the closing fence. */
  Trail,
  /** The text is not one JSON document. */
  Bad,
}

/** How reading the whole text ended. */
export type DocumentOutcome =
  | {
      /** The text held one complete JSON document. */
      readonly kind: 'ok';
      /** Its value (deep-equal to `JSON.parse` of the document). */
      readonly value: unknown;
    }
  | {
      /** The text is not one JSON document (or more than one). */
      readonly kind: 'malformed';
      /** What is wrong. */
      readonly message: string;
      /** Where, in characters of the whole text. */
      readonly position: number | undefined;
    }
  | {
      /** The text stopped before the document was complete (or before it started). */
      readonly kind: 'cut';
      /** What is missing (e.g. `'Unexpected end of JSON input'`). */
      readonly message: string;
      /** The length of the text. */
      readonly position: number;
    };

const FENCE_LINE = /^```(?:json)?[ \t]*\r?$/i;
const FENCE_PREFIX = /^(?:`{0,3}|```[a-z]{0,4}|```(?:json)?[ \t]*\r?)$/i;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * Reads text as one JSON document: leading whitespace and one ```` ```json ```` fence around the
 * document are stripped; anything else before or after it makes the text malformed (no guessing).
 * With `fence: false` (tool-call arguments) only whitespace may surround the document.
 */
export class JsonDocument {
  /** Every character received, as it arrived. */
  text = '';
  private at: At = At.Lead;
  private fenced = false;
  private fenceLine = '';
  /** Where the document starts in {@link text}. */
  private start = 0;
  /** Where the document ends in {@link text} (`Trail` only). */
  private end = 0;
  /** Backticks of the closing fence read so far (0 to 3). */
  private ticks = 0;
  /** The value of a root number that only ended at a character JSON does not allow after it. */
  private cutNumber: { value: unknown } | undefined;
  private failure: { message: string; position: number | undefined } | undefined;
  /** The incremental parser of the document. */
  readonly parser: PartialJsonParser;

  /**
   * @param options The parser's options.
   * @param fence Whether one Markdown code fence around the document is allowed.
   */
  constructor(
    options: PartialJsonOptions,
    private readonly fence: boolean,
  ) {
    this.parser = new PartialJsonParser(options);
  }

  /** True once the text can no longer be one JSON document. */
  get malformed(): boolean {
    return this.at === At.Bad;
  }

  /** True once the document is complete (text may still follow it). */
  get complete(): boolean {
    return this.at === At.Trail;
  }

  /** The value received so far (see `PartialJsonParser.value`); `undefined` before the document starts. */
  get value(): unknown {
    return this.cutNumber === undefined ? this.parser.value : this.cutNumber.value;
  }

  /** The path of the value being received, `undefined` once the document is complete. */
  get openPath(): JsonPath | undefined {
    return this.at === At.Trail ? undefined : this.parser.openPath;
  }

  /** Read the next piece of text. */
  push(delta: string): void {
    const from = this.text.length;
    this.text += delta;
    let i = 0;
    if (this.at === At.Lead) {
      while (i < delta.length && isSpace(delta.charCodeAt(i))) i++;
      if (i === delta.length) return;
      if (this.fence && delta.charCodeAt(i) === 0x60) {
        this.at = At.Fence;
        this.fenced = true;
      } else {
        this.at = At.Body;
        this.start = from + i;
      }
    }
    if (this.at === At.Fence) {
      const newline = delta.indexOf('\n', i);
      this.fenceLine += delta.slice(i, newline < 0 ? delta.length : newline);
      if (newline < 0) {
        if (!FENCE_PREFIX.test(this.fenceLine)) this.bad('text before the JSON document', from + i);
        return;
      }
      if (!FENCE_LINE.test(this.fenceLine)) return this.bad('text before the JSON document', this.text.indexOf('`'));
      this.at = At.Body;
      i = newline + 1;
      this.start = from + i;
    }
    if (this.at === At.Body) {
      this.parser.push(i === 0 ? delta : delta.slice(i));
      const error = this.parser.error;
      if (error === undefined) return;
      if (!this.ended(error.position)) return this.bad(error.detail, this.start + error.position);
      i = this.end - from;
    }
    if (this.at === At.Trail) this.trail(delta, i, from);
  }

  /**
   * The parser stopped at `position` of the document: true when the document ended there (it was
   * complete, or it is a root number ended by a character JSON does not allow after it).
   */
  private ended(position: number): boolean {
    if (!this.parser.done) {
      const head = parseArguments(this.text.slice(this.start, this.start + position));
      if (!head.ok || typeof head.value !== 'number') return false;
      this.cutNumber = { value: head.value };
    }
    this.at = At.Trail;
    this.end = this.start + position;
    return true;
  }

  /** Read text after the document: whitespace, and one closing fence when the document was fenced. */
  private trail(delta: string, from: number, offset: number): void {
    for (let i = from; i < delta.length; i++) {
      const c = delta.charCodeAt(i);
      if (isSpace(c)) {
        if (this.ticks === 0 || this.ticks === 3) continue;
      } else if (c === 0x60 && this.fenced && this.ticks < 3) {
        this.ticks++;
        continue;
      }
      return this.bad('text after the JSON document', offset + i - (this.ticks === 3 ? 0 : this.ticks));
    }
  }

  private bad(message: string, position: number | undefined): void {
    this.at = At.Bad;
    this.failure = { message, position };
  }

  /**
   * How the text ends: the document's value, `malformed` (with the reason and its position in the
   * text), or `cut` (the text stopped inside the document, or before it started).
   */
  finish(): DocumentOutcome {
    switch (this.at) {
      case At.Bad: {
        const failure = this.failure as { message: string; position: number | undefined };
        return { kind: 'malformed', message: failure.message, position: failure.position };
      }
      case At.Trail:
        if (this.ticks === 1 || this.ticks === 2) return { kind: 'malformed', message: 'text after the JSON document', position: this.text.lastIndexOf('`') - this.ticks + 1 };
        return { kind: 'ok', value: this.value };
      case At.Body:
        try {
          const value = this.parser.end();
          this.at = At.Trail;
          this.end = this.text.length;
          return { kind: 'ok', value };
        } catch (error) {
          return { kind: 'cut', message: isToolStreamError(error, 'malformed-json') ? error.detail : String(error), position: this.text.length };
        }
      default:
        return { kind: 'cut', message: 'no JSON document in the text', position: this.text.length };
    }
  }
}
