/**
 * Incremental JSON lexing for `textToolCalls()`: where one JSON value ends (without building it),
 * and the decoded content of a JSON string, both fed in pieces of any size.
 *
 * @module
 * @internal
 */

const QUOTE = 34;
const BACKSLASH = 92;

/** Whether `c` is JSON whitespace (space, tab, line feed, carriage return). */
export function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** The index of the first `c` (a character code) in `text[from..to)`, or `to`: never looks past `to`. */
export function indexIn(text: string, c: number, from: number, to: number): number {
  let i = from;
  while (i < to && text.charCodeAt(i) !== c) i++;
  return i;
}

/** The index of the first non-whitespace character in `text[from..to)`, or `to`. */
export function skipWs(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isWs(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The index of the quote that ends a JSON string whose content starts at `from` (after the
 * opening quote), or -1 when `text[from..to)` does not contain it. `escaped`: the content so far
 * ended with an unfinished backslash escape. Returns the new `escaped` state through `state`.
 */
export function stringEnd(text: string, from: number, to: number, state: { escaped: boolean }): number {
  let escaped = state.escaped;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (escaped) escaped = false;
    else if (c === BACKSLASH) escaped = true;
    else if (c === QUOTE) {
      state.escaped = false;
      return i;
    }
  }
  state.escaped = escaped;
  return -1;
}

/** Decode the raw content of a JSON string (between its quotes); invalid escapes stay as written. */
export function decodeJsonString(raw: string): string {
  if (raw.indexOf('\\') === -1) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

const CONTAINER = 1;
const STRING = 2;
const SCALAR = 3;

/**
 * Finds where one JSON value ends: an object or array (brackets balanced outside strings), a
 * string (its closing quote) or a number / literal (the first delimiter after it). It checks no
 * grammar: the text is passed on as it is and parsed downstream.
 */
export class JsonValueEnd {
  private kind = 0;
  private depth = 0;
  private readonly str = { escaped: false };
  private inString = false;

  /** Forget the previous value. */
  reset(): void {
    this.kind = 0;
    this.depth = 0;
    this.inString = false;
    this.str.escaped = false;
  }

  /**
   * Read `text[from..to)`, starting with the value's first character on the first call. Returns
   * the index just past the value (for a number or literal: the delimiter's index), or -1 when the
   * value goes on.
   */
  scan(text: string, from: number, to: number): number {
    let i = from;
    if (this.kind === 0) {
      if (i >= to) return -1;
      const c = text.charCodeAt(i);
      this.kind = c === 123 || c === 91 ? CONTAINER : c === QUOTE ? STRING : SCALAR;
      if (this.kind === STRING) i++;
    }
    if (this.kind === STRING) {
      const end = stringEnd(text, i, to, this.str);
      return end === -1 ? -1 : end + 1;
    }
    if (this.kind === SCALAR) {
      for (; i < to; i++) {
        const c = text.charCodeAt(i);
        if (c === 44 || c === 125 || c === 93 || c === 59 || isWs(c)) return i;
      }
      return -1;
    }
    for (; i < to; i++) {
      if (this.inString) {
        const end = stringEnd(text, i, to, this.str);
        if (end === -1) return -1;
        i = end;
        this.inString = false;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if ((c === 125 || c === 93) && --this.depth === 0) return i + 1;
    }
    return -1;
  }
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Decodes the content of a JSON string as it arrives (after its opening quote), handing decoded
 * pieces to `emit`: runs without escapes as slices, each escape as its character.
 */
export class JsonStringStream {
  private escaped = false;
  private hex = -1; // digits of a \uXXXX read so far, -1 outside one
  private code = 0;

  /** Forget the previous string. */
  reset(): void {
    this.escaped = false;
    this.hex = -1;
    this.code = 0;
  }

  /** Read `text[from..to)`; returns the index past the closing quote, or -1 when the string goes on. */
  push(text: string, from: number, to: number, emit: (text: string, from: number, to: number) => void): number {
    let run = from;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (this.hex >= 0) {
        const digit = parseInt(text[i] ?? '', 16);
        this.code = this.code * 16 + (Number.isNaN(digit) ? 0 : digit);
        if (++this.hex === 4) {
          const ch = String.fromCharCode(this.code);
          emit(ch, 0, 1);
          this.hex = -1;
        }
        run = i + 1;
      } else if (this.escaped) {
        this.escaped = false;
        if (c === 117) {
          this.hex = 0;
          this.code = 0;
        } else {
          const ch = text[i] ?? '';
          const out = ESCAPES[ch] ?? ch;
          emit(out, 0, out.length);
        }
        run = i + 1;
      } else if (c === BACKSLASH || c === QUOTE) {
        if (i > run) emit(text, run, i);
        if (c === QUOTE) return i + 1;
        this.escaped = true;
        run = i + 1;
      }
    }
    if (to > run) emit(text, run, to);
    return -1;
  }
}
