// The JavaScript readers bench/partial-json-bound.mjs measures against the floor: a character scan
// that builds nothing, a whole-text recursive-descent JSON parser, and the least live reader of the
// one-string shape. Each is checked against JSON.parse there before it is timed.

/** Read every character once, tracking strings, escapes and nesting; build nothing. */
export function scan(text) {
  let inString = false;
  let escaped = false;
  let depth = 0;
  let tokens = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 92) escaped = true;
      else if (c === 34) {
        inString = false;
        tokens++;
      }
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      tokens++;
    } else if (c === 44) tokens++;
  }
  return tokens + depth;
}

const ESCAPES = { 34: '"', 92: '\\', 47: '/', 98: '\b', 102: '\f', 110: '\n', 114: '\r', 116: '\t' };

/** Whole-text recursive descent; an explicit stack would be needed only for the deep input (see below). */
class WholeTextParser {
  constructor(text) {
    this.s = text;
    this.i = 0;
  }
  space() {
    const s = this.s;
    let i = this.i;
    for (let c = s.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = s.charCodeAt(++i));
    this.i = i;
  }
  value() {
    this.space();
    const c = this.s.charCodeAt(this.i);
    if (c === 34) return this.string();
    if (c === 123) return this.object();
    if (c === 91) return this.array();
    if (c === 116) return this.word('true', true);
    if (c === 102) return this.word('false', false);
    if (c === 110) return this.word('null', null);
    return this.number();
  }
  word(w, v) {
    if (!this.s.startsWith(w, this.i)) throw new SyntaxError(`bad literal at ${this.i}`);
    this.i += w.length;
    return v;
  }
  number() {
    const s = this.s;
    const start = this.i;
    let i = start;
    let c = s.charCodeAt(i);
    const negative = c === 45;
    if (negative) c = s.charCodeAt(++i);
    let magnitude = 0;
    let digits = 0;
    while (c >= 48 && c <= 57) {
      magnitude = magnitude * 10 + (c - 48);
      digits++;
      c = s.charCodeAt(++i);
    }
    if (digits === 0) throw new SyntaxError(`bad number at ${start}`);
    if (c !== 46 && c !== 101 && c !== 69 && digits <= 15) {
      this.i = i;
      return negative ? -magnitude : magnitude;
    }
    while ((c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45) c = s.charCodeAt(++i);
    this.i = i;
    return Number(s.slice(start, i));
  }
  string() {
    const s = this.s;
    let i = this.i + 1;
    let start = i;
    let out = '';
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 34) {
        this.i = i + 1;
        return out === '' ? s.slice(start, i) : out + s.slice(start, i);
      }
      if (c === 92) {
        out += s.slice(start, i);
        const e = s.charCodeAt(i + 1);
        if (e === 117) {
          out += String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          out += ESCAPES[e];
          i += 2;
        }
        start = i;
      } else if (c !== c || c < 32) throw new SyntaxError(`bad string at ${i}`);
      else i++;
    }
  }
  array() {
    this.i++;
    const out = [];
    this.space();
    if (this.s.charCodeAt(this.i) === 93) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.space();
      const c = this.s.charCodeAt(this.i++);
      if (c === 93) return out;
      if (c !== 44) throw new SyntaxError(`expected , or ] at ${this.i - 1}`);
    }
  }
  object() {
    this.i++;
    const out = {};
    this.space();
    if (this.s.charCodeAt(this.i) === 125) {
      this.i++;
      return out;
    }
    for (;;) {
      this.space();
      const key = this.string();
      this.space();
      if (this.s.charCodeAt(this.i++) !== 58) throw new SyntaxError(`expected : at ${this.i - 1}`);
      const value = this.value();
      if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
      else out[key] = value;
      this.space();
      const c = this.s.charCodeAt(this.i++);
      if (c === 125) return out;
      if (c !== 44) throw new SyntaxError(`expected , or } at ${this.i - 1}`);
    }
  }
}

/**
 * The least live reader of `{"key":"<string>"}` (the 1 MB string input): the string grows by the
 * decoded text of each fragment and is stored in the object after every fragment, as a live
 * partial value is; long strings are flattened every 4,096 characters, and once at the end.
 */
export function leastLiveString(frags) {
  const object = {};
  let quotes = 0; // quotes seen before the value string starts: 3 (the key's two, the value's first)
  let key = '';
  let head = '';
  let tail = '';
  let escape = 0; // 0: none; 1: after a backslash; 2–5: reading the digits of \uXXXX
  let hex = 0;
  let done = false;
  for (const f of frags) {
    const n = f.length;
    let i = 0;
    for (; quotes < 3 && i < n; i++) {
      if (f.charCodeAt(i) === 34) quotes++;
      else if (quotes === 1) key += f[i];
    }
    if (quotes < 3 || done) continue;
    if (object[key] === undefined) key = Object.keys({ [key]: 0 })[0]; // the key as an internalized string
    let start = i;
    for (; i < n; i++) {
      const c = f.charCodeAt(i);
      if (escape === 0) {
        if (c === 92) {
          if (i > start) tail += f.slice(start, i);
          escape = 1;
        } else if (c === 34) {
          done = true;
          break;
        }
        continue;
      }
      if (escape === 1) {
        if (c === 117) {
          escape = 2;
          hex = 0;
        } else {
          tail += ESCAPES[c];
          escape = 0;
        }
      } else {
        hex = hex * 16 + parseInt(f[i], 16);
        if (++escape === 6) {
          tail += String.fromCharCode(hex);
          escape = 0;
        }
      }
      start = i + 1;
    }
    if (escape === 0 && i > start) tail += start === 0 && i === n ? f : f.slice(start, i);
    if (tail.length >= 4096) {
      head += (' ' + tail).slice(1);
      tail = '';
    }
    object[key] = head === '' ? tail : head + tail;
  }
  object[key] = (' ' + (head + tail)).slice(1);
  return object;
}

/** Nesting this deep overflows the recursion: read `[`…`]` runs with a counter instead (the least any parser can do on them). */
export function jsParse(text) {
  if (text.startsWith('[[[[')) {
    let depth = 0;
    let i = 0;
    for (; text.charCodeAt(i) === 91; i++) depth++;
    let value = [];
    for (let k = 1; k < depth; k++) value = [value];
    for (; text.charCodeAt(i) === 93; i++) depth--;
    if (depth !== 0 || i !== text.length) throw new SyntaxError('unbalanced');
    return value;
  }
  const parser = new WholeTextParser(text);
  const value = parser.value();
  parser.space();
  if (parser.i !== text.length) throw new SyntaxError(`trailing text at ${parser.i}`);
  return value;
}
