/**
 * One parameter value of the XML syntaxes (Qwen3-Coder `<parameter=k>v</parameter>`, GLM 4.5
 * `<arg_key>k</arg_key><arg_value>v</arg_value>`), written out as a JSON member while it arrives.
 *
 * @module
 * @internal
 */
import type { CallSink } from './block';
import { isWs } from './jsonScan';
import type { ParamTypes } from './schemaTypes';

/**
 * How a value is trimmed: `newline` drops one line feed at each end (Qwen3-Coder writes the value
 * on its own line); `whitespace` drops all surrounding whitespace (GLM).
 */
export type Trim = 'newline' | 'whitespace';

/** What an untyped value (no schema for it) becomes: always a string, or JSON when it parses (GLM). */
export type Untyped = 'string' | 'auto';

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const STRING = 0;
const TYPED = 1; // buffered to the end, then converted by its schema types
const AUTO = 2; // buffered while it may still be a JSON number / literal / container

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}

/** The JSON text of a buffered value, by its schema types; a string when it fits none of them. */
function typedJson(raw: string, types: ParamTypes): string {
  const v = raw.trim();
  if (types.has('null') && v === 'null') return 'null';
  if (types.has('boolean') && /^(?:true|false)$/i.test(v)) return v.toLowerCase();
  if ((types.has('number') || types.has('integer')) && NUMBER.test(v)) return v;
  if (types.has('object') || types.has('array')) {
    try {
      const parsed: unknown = JSON.parse(v);
      if (typeof parsed === 'object' && parsed !== null && types.has(Array.isArray(parsed) ? 'array' : 'object')) return v;
    } catch {
      // not JSON: a string
    }
  }
  return JSON.stringify(raw);
}

/**
 * Writes one value: a string value streams as JSON-escaped fragments as it arrives (its quote
 * first); a typed one (number, boolean, object, …) is kept until its closing tag and then written
 * once, as JSON when it fits its type and as a string otherwise.
 */
export class XmlValue {
  private mode = STRING;
  private types: ParamTypes | undefined;
  private trim: Trim = 'newline';
  private started = false;
  private held = ''; // trailing whitespace not written yet: it may end the value
  private raw = '';
  private auto = 0; // AUTO: 0 undecided, 1 container or string, 2 number, 3 literal
  private autoWs = false;

  /** @param sink Where the JSON text goes. */
  constructor(private readonly sink: CallSink) {}

  private write(text: string): void {
    this.sink.args(text, 0, text.length);
  }

  private writeEscaped(text: string): void {
    if (text === '') return;
    const json = JSON.stringify(text);
    this.sink.args(json, 1, json.length - 1);
  }

  /** Start a member: `{"key": ` (or `, "key": ` after the first). */
  begin(key: string, first: boolean, types: ParamTypes | undefined, untyped: Untyped, trim: Trim): void {
    this.write(`${first ? '{' : ', '}${JSON.stringify(key)}: `);
    this.types = types;
    this.trim = trim;
    this.started = false;
    this.held = '';
    this.raw = '';
    this.auto = 0;
    this.autoWs = false;
    this.mode = types === undefined ? (untyped === 'auto' ? AUTO : STRING) : types.has('string') ? STRING : TYPED;
    if (this.mode === STRING) this.write('"');
  }

  /** The next piece of the value's text. */
  push(text: string, from: number, to: number): void {
    if (this.mode === STRING) return this.pushString(text, from, to);
    this.raw += text.slice(from, to);
    if (this.mode === AUTO && !this.plausible(text, from, to)) {
      this.mode = STRING;
      this.write('"');
      const raw = this.raw;
      this.raw = '';
      this.pushString(raw, 0, raw.length);
    }
  }

  /** Whether the AUTO value may still be JSON other than a bare string, after `text[from..to)`. */
  private plausible(text: string, from: number, to: number): boolean {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (this.auto === 1) return true;
      if (isWs(c)) {
        if (this.auto !== 0) this.autoWs = true;
        continue;
      }
      if (this.autoWs) return false; // more text after a number or literal and a space
      if (this.auto === 0) this.auto = c === 123 || c === 91 || c === 34 ? 1 : isNumberChar(c) ? 2 : 3;
      if (this.auto === 2 && !isNumberChar(c)) return false;
    }
    if (this.auto === 3) {
      const v = this.raw.trim();
      return v.length <= 5 && ('true'.startsWith(v) || 'false'.startsWith(v) || 'null'.startsWith(v));
    }
    return true;
  }

  private pushString(text: string, from: number, to: number): void {
    let i = from;
    if (!this.started) {
      if (this.trim === 'newline') {
        if (i < to && text.charCodeAt(i) === 10) i++;
        if (i > from || i < to) this.started = true;
      } else {
        while (i < to && isWs(text.charCodeAt(i))) i++;
        if (i < to) this.started = true;
      }
    }
    if (i >= to) return;
    let end = to;
    if (this.trim === 'newline') {
      if (text.charCodeAt(to - 1) === 10) end = to - 1;
    } else {
      while (end > i && isWs(text.charCodeAt(end - 1))) end--;
      if (end === i) {
        this.held += text.slice(i, to);
        return;
      }
    }
    if (end > i) {
      this.writeEscaped(this.held);
      this.writeEscaped(text.slice(i, end));
      this.held = text.slice(end, to);
    } else {
      // only a line feed: it replaces the held one, which is content after all
      this.writeEscaped(this.held);
      this.held = '\n';
    }
  }

  /** The value's closing tag (or what stands for it) arrived: write the rest. */
  finish(): void {
    if (this.mode === STRING) {
      this.write('"');
      return;
    }
    let raw = this.raw;
    if (this.trim === 'newline') {
      if (raw.startsWith('\n')) raw = raw.slice(1);
      if (raw.endsWith('\n')) raw = raw.slice(0, -1);
    } else raw = raw.trim();
    if (this.mode === TYPED && this.types !== undefined) {
      this.write(typedJson(raw, this.types));
      return;
    }
    let json: string;
    try {
      JSON.parse(raw);
      json = raw;
    } catch {
      json = JSON.stringify(raw);
    }
    this.write(json);
  }
}
