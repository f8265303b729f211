/**
 * The lexical half of the streaming parser in `partialJson.ts`: strings (with escapes and
 * surrogate pairs split across fragments), numbers (read by `NumberReader`) and literals, and the
 * state constants. Containers and the open path are in `PartialJsonTree`, which extends this, and
 * snapshots in {@link PartialJsonParser}, which extends that.
 *
 * @module
 * @internal
 */
import { NumberReader } from './partialJsonNumber';
import { ToolStreamError } from '../errors';
import { escapeFor, hexValue } from './partialJsonSupport';

// Parser states.
export const VALUE = 0; // a value is expected (the root, after ':' or after ',' in an array)
export const ARR_FIRST = 1; // after '[': a value or ']'
export const OBJ_FIRST = 2; // after '{': a key or '}'
export const OBJ_KEY = 3; // after ',' in an object: a key
export const COLON = 4; // after a key
export const AFTER = 5; // after a value inside a container: ',' or the closing bracket
export const END = 6; // the root value is complete: only whitespace may follow
export const STR = 7; // inside a string (key or value)
export const ESC = 8; // after a backslash in a string
export const HEX = 9; // inside \uXXXX
export const NUM = 10; // inside a number
export const LIT = 11; // inside true / false / null
export const DEEP = 12; // inside a value nested deeper than maxPartialDepth (collected raw)
export const ERR = 13;

// What is being received at the top of the stack (a "leaf"), visible or not.
export const LEAF_NONE = 0;
const LEAF_STR = 1;
const LEAF_NUM = 2;
const LEAF_LIT = 3;
/** A value nested deeper than `maxPartialDepth`: shown as an empty container until it is complete. */
export const LEAF_DEEP = 4;

const CHUNK = 4096;

/** `text` as one flat string: V8 flattens a rope before it slices it (short strings are never ropes). */
function flatten(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}
const LITERALS = ['true', 'false', 'null'] as const;
const LITERAL_VALUES = [true, false, null] as const;

/** Strings, numbers and literals; the subclass handles what a completed token means. */
export abstract class PartialJsonScanner {
  /** Whether numbers and literals are shown before they are complete (the `allowPartialLiterals` option). */
  protected readonly partialLiterals: boolean;
  /** The parser state: one of the state constants of this module (`VALUE`, `STR`, `NUM`, …, `ERR` after a syntax error). */
  protected state = VALUE;
  /** Characters pushed before the current fragment. */
  protected offset = 0;
  /** The kind of token being received at the top of the stack (none, string, number or literal). */
  protected leaf = LEAF_NONE;
  /** Whether the string being received is an object key (keys are never shown before they are complete). */
  protected inKey = false;
  /**
   * The string being received is `head + tail`: `tail` collects the small pieces (a V8 rope) and
   * is flattened into `head` every {@link CHUNK} characters, so the rope's cells die young instead
   * of surviving garbage collections (which costs more than the appends themselves).
   */
  private head = '';
  private tail = '';
  /** A high surrogate held back until the next character shows whether a low one follows. */
  private pend = '';
  private hex = 0;
  private hexCount = 0;
  /** The number being received. */
  private readonly number = new NumberReader();
  /** The literal being received: 0 for `true`, 1 for `false`, 2 for `null`. */
  protected lit = 0;
  private litIndex = 0;
  /** The syntax error, once one was found (then `state` is `ERR` and further input is ignored). */
  protected failure: ToolStreamError<'malformed-json'> | undefined = undefined;

  protected constructor(partialLiterals: boolean) {
    this.partialLiterals = partialLiterals;
  }

  /** A value (not a key) was completed. */
  protected abstract complete(value: unknown): void;
  /** An object key was completed. */
  protected abstract keyDone(key: string): void;
  /** Something visible changed at the top of the stack. */
  protected abstract touch(): void;

  /**
   * Record a syntax error and stop: later input is ignored.
   *
   * @param detail What was wrong (e.g. `'Invalid number'`).
   * @param at The offending character's position in the current fragment.
   */
  protected fail(detail: string, at: number): void {
    this.failAbsolute(detail, this.offset + at);
  }

  /** {@link fail} at a position in the whole input. */
  protected failAbsolute(detail: string, position: number): void {
    this.failure = new ToolStreamError('malformed-json', { detail, position });
    this.state = ERR;
  }

  /** Start a number or a literal at `s[at]` (a '-' or a digit; 't', 'f' or 'n'). */
  protected startScalar(s: string, at: number): void {
    const c = s.charCodeAt(at);
    if (c === 116 || c === 102 || c === 110) {
      this.state = LIT;
      this.leaf = LEAF_LIT;
      this.lit = c === 116 ? 0 : c === 102 ? 1 : 2;
      this.litIndex = 1;
    } else {
      this.state = NUM;
      this.leaf = LEAF_NUM;
      this.number.start(s, at, this.partialLiterals);
    }
    if (this.partialLiterals) this.touch();
  }

  /** The visible value of the token being received, if any. */
  protected leafValue(): unknown {
    switch (this.leaf) {
      case LEAF_STR:
        return this.head === '' ? this.tail : this.head + this.tail;
      case LEAF_NUM:
        return this.partialLiterals ? this.number.preview.value() : undefined;
      case LEAF_LIT:
        return this.partialLiterals ? LITERAL_VALUES[this.lit] : undefined;
      default:
        return undefined;
    }
  }

  // --- strings -------------------------------------------------------------------------------

  /**
   * An opening quote was read: start receiving a string.
   *
   * @param inKey Whether the string is an object key.
   */
  protected startString(inKey: boolean): void {
    this.state = STR;
    this.inKey = inKey;
    this.head = this.tail = this.pend = '';
    if (!inKey) {
      this.leaf = LEAF_STR;
      this.touch();
    }
  }

  /**
   * Read string characters from `s[i]` (before `n`) up to the next quote, backslash or control
   * character, and handle that one: the quote completes the string, the backslash starts an escape,
   * a control character is a syntax error. A high surrogate that ends the fragment is held back.
   *
   * @return The position after the last character consumed.
   */
  protected scanString(s: string, i: number, n: number): number {
    let j = i;
    let c = 0;
    for (; j < n; j++) {
      c = s.charCodeAt(j);
      if (c === 34 || c === 92 || c < 32) break;
    }
    if (c === 34 && j < n && this.tail === '' && this.head === '' && this.pend === '') {
      this.tail = s.slice(i, j); // the whole string (or all of it but escapes before) is here: no rope
      this.finishString();
      return j + 1;
    }
    if (j > i) {
      if (this.pend !== '') this.flushPending();
      // A fragment that ends inside a surrogate pair: hold the high half back.
      const last = s.charCodeAt(j - 1);
      if (j === n && last >= 0xd800 && last <= 0xdbff) {
        if (j - 1 > i) this.append(s.slice(i, j - 1));
        this.pend = s[j - 1] as string;
      } else this.append(i === 0 && j === n ? s : s.slice(i, j));
      if (!this.inKey) this.touch();
    }
    if (j === n) return n;
    if (c === 92) this.state = ESC;
    else if (c === 34) this.finishString();
    else this.fail('Bad control character in string literal', j);
    return j + 1;
  }

  private append(piece: string): void {
    const tail = this.tail + piece;
    if (tail.length < CHUNK) this.tail = tail;
    else {
      const flat = flatten(tail);
      this.head = this.head === '' ? flat : this.head + flat;
      this.tail = '';
    }
  }

  private flushPending(): void {
    this.append(this.pend);
    this.pend = '';
    if (!this.inKey) this.touch();
  }

  /**
   * Read one character after a backslash, or one hex digit of a `\uXXXX` escape (joining
   * surrogate pairs that were split across escapes or fragments).
   *
   * @param c The character code.
   * @param at Its position in the current fragment (for errors).
   */
  protected escape(c: number, at: number): void {
    if (this.state === ESC) {
      const decoded = escapeFor(c);
      if (decoded === 'u') {
        this.state = HEX;
        this.hex = 0;
        this.hexCount = 0;
      } else if (decoded !== '') {
        if (this.pend !== '') this.flushPending();
        this.append(decoded);
        this.state = STR;
        if (!this.inKey) this.touch();
      } else this.fail('Bad escaped character in string literal', at);
      return;
    }
    const digit = hexValue(c);
    if (digit < 0) return this.fail('Bad Unicode escape in string literal', at);
    this.hex = this.hex * 16 + digit;
    if (++this.hexCount < 4) return;
    this.state = STR;
    const code = this.hex;
    const isLow = code >= 0xdc00 && code <= 0xdfff;
    if (this.pend !== '' && !isLow) this.flushPending();
    if (code >= 0xd800 && code <= 0xdbff) {
      this.pend = String.fromCharCode(code);
      return;
    }
    this.append(this.pend + String.fromCharCode(code));
    this.pend = '';
    if (!this.inKey) this.touch();
  }

  private finishString(): void {
    if (this.pend !== '') this.flushPending();
    // The tail is a rope of the pieces received: keep one flat string in the tree (a rope of
    // 1–8 character pieces takes several times the memory, all of it for the GC to trace).
    const text = flatten(this.head === '' ? this.tail : this.head + this.tail);
    this.head = this.tail = '';
    if (this.inKey) {
      this.keyDone(text);
      this.state = COLON;
    } else this.complete(text);
  }

  // --- numbers and literals ------------------------------------------------------------------

  /**
   * Read number characters from `s[i]` while they fit the JSON number grammar; at the first one that
   * does not, complete the number (or fail when it is not a valid number yet).
   *
   * @return The position of the first character not consumed (the delimiter is read in the next state).
   */
  protected scanNumber(s: string, i: number, n: number): number {
    const j = this.number.scan(s, i, n, this.partialLiterals);
    if (this.partialLiterals && j > i) this.touch();
    if (j === n) return n;
    this.finishNumber(s, j);
    return j; // the delimiter is read in the next state
  }

  /** The number ended before `s[at]` (`s` is '' at the end of the input). */
  protected finishNumber(s: string, at: number): void {
    if (!this.number.complete) return this.fail('Invalid number', at);
    this.complete(this.number.value(s, at));
  }

  /**
   * Read the next character of `true`, `false` or `null`; complete the literal after its last one.
   *
   * @param c The character code.
   * @param at Its position in the current fragment (for errors).
   */
  protected literal(c: number, at: number): void {
    const word = LITERALS[this.lit] as string;
    if (c !== word.charCodeAt(this.litIndex)) return this.fail(`Unexpected character ${JSON.stringify(String.fromCharCode(c))} in literal ${word}`, at);
    if (++this.litIndex === word.length) this.complete(LITERAL_VALUES[this.lit]);
  }
}
