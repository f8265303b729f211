import fc from 'fast-check';
import { PartialJsonParser } from 'rxjs-tool-calls/advanced';
import { allPaths, deepEqual, getPath, prefixMismatch } from '../helpers/isPrefixValue';
import { cutAt } from '../helpers/chunking';

const WHITESPACE = ['', '', '', ' ', '\n', '\t', '\r\n  ', '  '];

/** Serialise like JSON.stringify, with seeded whitespace between tokens and some characters written as \u escapes. */
function serialise(value: unknown, seed: number): string {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const ws = (): string => WHITESPACE[Math.floor(next() * WHITESPACE.length)] as string;
  const str = (s: string): string => {
    const plain = JSON.stringify(s);
    if (next() < 0.5) return plain;
    // Write some characters (astral ones as two \u escapes) in the \uXXXX form.
    let out = '"';
    for (const ch of plain.slice(1, -1).match(/\\u[0-9a-f]{4}|\\.|[\s\S]/g) ?? []) {
      if (ch.length === 1 && next() < 0.3) out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
      else out += ch;
    }
    return `${out}"`;
  };
  const write = (v: unknown): string => {
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return `[${ws()}${v.map((x) => `${write(x)}${ws()}`).join(`,${ws()}`)}]`;
    if (v !== null && typeof v === 'object')
      return `{${ws()}${Object.entries(v)
        .map(([k, x]) => `${str(k)}${ws()}:${ws()}${write(x)}${ws()}`)
        .join(`,${ws()}`)}}`;
    return JSON.stringify(v);
  };
  return `${ws()}${write(value)}${ws()}`;
}

const cut = cutAt;

const longText = fc.string({ unit: 'binary', minLength: 50, maxLength: 400 });
const textual = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), longText, fc.constantFrom('\\', '"', '\u2028', '😀🎉', 'a\\nb'));
const documents = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.string(),
    fc.oneof(textual, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(textual, { maxLength: 4 }), fc.jsonValue({ maxDepth: 3 })),
  ),
);
const splits = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 60 });

describe('PartialJsonParser (properties)', () => {
  it('shows only prefixes of the final value, never changes what it showed, and ends equal to JSON.parse', () => {
    fc.assert(
      fc.property(documents, fc.integer(), splits, (doc, seed, points) => {
        const text = serialise(doc, seed);
        const final: unknown = JSON.parse(text);
        const parser = new PartialJsonParser();
        let previous: unknown;
        let previousCopy: unknown;
        for (const fragment of cut(text, points)) {
          parser.push(fragment);
          expect(parser.error).toBeUndefined();
          const value = parser.value;
          expect(prefixMismatch(value, final)).toBeUndefined();
          expect(prefixMismatch(previous, value)).toBeUndefined();
          // What was handed out before was not mutated since.
          expect(deepEqual(previous, previousCopy)).toBe(true);
          for (const path of allPaths(value)) {
            if (parser.isComplete(path)) expect(deepEqual(getPath(value, path), getPath(final, path))).toBe(true);
          }
          previous = value;
          previousCopy = value === undefined ? undefined : structuredClone(value);
        }
        expect(parser.end()).toStrictEqual(final);
        expect(deepEqual(parser.value, final)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same final value in live mode, one character at a time', () => {
    fc.assert(
      fc.property(documents, fc.integer(), (doc, seed) => {
        const text = serialise(doc, seed);
        const final: unknown = JSON.parse(text);
        const parser = new PartialJsonParser({ snapshots: 'live' });
        for (const ch of text) {
          parser.push(ch);
          expect(prefixMismatch(parser.value, final)).toBeUndefined();
        }
        expect(parser.end()).toStrictEqual(final);
      }),
      { numRuns: 100 },
    );
  });

  it('fails exactly when JSON.parse fails, on damaged JSON', () => {
    const damage = fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom('delete', 'insert', 'replace'), fc.constantFrom(...'{}[]":,\\ 0-.eEtfnu"a1'.split('')));
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.integer(), damage, splits, (doc, seed, [where, how, ch], points) => {
        const valid = serialise(doc, seed);
        const at = Math.floor(where * valid.length);
        const text = how === 'delete' ? valid.slice(0, at) + valid.slice(at + 1) : how === 'insert' ? valid.slice(0, at) + ch + valid.slice(at) : valid.slice(0, at) + ch + valid.slice(at + 1);
        let expected: unknown;
        let valid2 = true;
        try {
          expected = JSON.parse(text);
        } catch {
          valid2 = false;
        }
        const parser = new PartialJsonParser();
        for (const fragment of cut(text, points)) parser.push(fragment);
        if (valid2) expect(parser.end()).toStrictEqual(expected);
        else expect(() => parser.end()).toThrow(expect.objectContaining({ name: 'ToolStreamError', code: 'malformed-json' }));
      }),
      { numRuns: 1000 },
    );
  });
});
