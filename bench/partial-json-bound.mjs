// A yardstick for the partial-value goals (issues 17 and 19: live values ≤ 1.5× "append the
// fragments + one JSON.parse"): how fast can JavaScript read the same text at all?
//   node --expose-gc bench/partial-json-bound.mjs [runs] [--write FILE]
// For each input of bench/partial-json.mjs it times, in one process, interleaved, no forced GC:
//   floor      append the 1–8 character fragments, then one JSON.parse (the goal's reference)
//   JSON.parse JSON.parse of the whole text alone (no appends)
//   scan       a JavaScript loop that reads every character once and tracks strings, escapes and
//              nesting, building nothing (less than any parser written in JavaScript does)
//   JS parse   a whole-text recursive-descent JSON parser in JavaScript (one string, no fragments,
//              no partial values, no state kept between calls), checked against JSON.parse
//   least live (the 1 MB string only) a reader written for exactly `{"key":"…"}` that, after every
//              fragment, appends its decoded text and stores the grown string in the object: the
//              least any reader showing live values does per fragment on that shape
// An incremental parser that shows partial values does at least what "JS parse" does (every
// character, every value built), plus the fragment boundaries and the values. Median and least ms.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { argumentsText, deepText, fragments, longStringText, sameJson, wideArrayText, wideObjectText } from './partial-json-data.mjs';

const argv = process.argv.slice(2);
const writeAt = argv.indexOf('--write');
const write = writeAt === -1 ? undefined : argv.splice(writeAt, 2)[1];
const runs = Number(argv[0] ?? 15);

const INPUTS = [
  ['10 KB document', () => argumentsText(10_000)],
  ['100 KB document', () => argumentsText(100_000)],
  ['1 MB document', () => argumentsText(1_000_000)],
  ['160,000-element array', () => wideArrayText(160_000)],
  ['50,000-key object', () => wideObjectText(50_000)],
  ['1 MB string', () => longStringText(1_000_000)],
  ['100,000-deep nesting', () => deepText(100_000)],
];

function floor(frags) {
  let text = '';
  for (const f of frags) text += f;
  return JSON.parse(text);
}

function scan(text) {
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
function leastLiveString(frags) {
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
function jsParse(text) {
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

const median = (xs) => [...xs].sort((p, q) => p - q)[xs.length >> 1];
const rows = [];
for (const [label, make] of INPUTS) {
  const text = make();
  const frags = fragments(text);
  if (!sameJson(jsParse(text), JSON.parse(text))) throw new Error(`JS parse differs from JSON.parse on ${label}`);
  const cases = { floor: () => floor(frags), native: () => JSON.parse(text), scan: () => scan(text), js: () => jsParse(text) };
  if (label === '1 MB string') {
    if (!sameJson(leastLiveString(frags), JSON.parse(text))) throw new Error('the least live reader differs from JSON.parse');
    cases.live = () => leastLiveString(frags);
  }
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (const k of Object.keys(cases)) cases[k](); // warm up
  for (let r = 0; r < runs; r++) {
    const order = r % 2 === 0 ? Object.keys(cases) : Object.keys(cases).reverse();
    for (const k of order) {
      const t0 = performance.now();
      cases[k]();
      times[k].push(performance.now() - t0);
    }
  }
  const row = { label, chars: text.length, fragments: frags.length };
  for (const k of Object.keys(cases)) row[k] = { median: median(times[k]), least: Math.min(...times[k]) };
  rows.push(row);
  const f = (k) => `${row[k].median.toFixed(2)} (${row[k].least.toFixed(2)}) ${(row[k].median / row.floor.median).toFixed(2)}×`;
  console.log(`${label}: floor ${f('floor')}, JSON.parse ${f('native')}, scan ${f('scan')}, JS parse ${f('js')}${row.live ? `, least live ${f('live')}` : ''}`);
}

if (write !== undefined) {
  const cell = (row, k) => `${row[k].median.toFixed(2)} ms (${row[k].least.toFixed(2)}) **${(row[k].median / row.floor.median).toFixed(2)}×**`;
  const lines = [
    '## How fast can JavaScript parse it at all? (bench/partial-json-bound.mjs)',
    '',
    `Command: \`node --expose-gc bench/partial-json-bound.mjs ${runs} --write ${write}\`. Node ${process.version}, ${os.cpus()[0]?.model.trim() ?? 'cpu'}, ${os.cpus().length} cores; load average (1 min) ${os.loadavg()[0].toFixed(2)} at the end.`,
    '',
    "Same inputs as BENCHMARKS-partial.md, one process, interleaved, no forced GC; median ms (least in brackets), × = median ÷ the floor's median. " +
      '**scan** reads every character once in a JavaScript loop and builds nothing; **JS parse** is a whole-text recursive-descent parser in JavaScript ' +
      '(one string, no fragments, no partial values; checked equal to `JSON.parse`). An incremental parser that shows partial values does at least ' +
      'what JS parse does, plus fragment boundaries and the values it shows. **least live** (1 MB string only) is a reader written for exactly ' +
      '`{"key":"…"}` that appends each fragment\'s decoded text and stores the grown string after every fragment: the least per-fragment work of any reader showing live values there. ' +
      'JS parse and least live move by several tenths between runs (V8 optimises them differently from process to process): run the script more than once before reading much into one figure.',
    '',
    '| arguments | chars | fragments | floor: append + one `JSON.parse` | `JSON.parse` alone | scan (builds nothing) | JS parse (whole text) | least live (shape-specific) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.chars.toLocaleString('en-US')} | ${r.fragments.toLocaleString('en-US')} | ${cell(r, 'floor')} | ${cell(r, 'native')} | ${cell(r, 'scan')} | ${cell(r, 'js')} | ${r.live ? cell(r, 'live') : '—'} |`,
    ),
    '',
  ];
  writeFileSync(write, lines.join('\n'));
}
