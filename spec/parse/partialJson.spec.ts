import { type PartialJsonOptions, PartialJsonParser } from 'rxjs-tool-calls/advanced';
import { isPrefixValue, prefixMismatch } from '../helpers/isPrefixValue';

/** Push `text` in fragments of `size` characters and collect the value after each. */
function feed(text: string, size = 1, options?: PartialJsonOptions): { parser: PartialJsonParser; values: unknown[] } {
  const parser = new PartialJsonParser(options);
  const values: unknown[] = [];
  for (let i = 0; i < text.length; i += size) {
    parser.push(text.slice(i, i + size));
    values.push(parser.value);
  }
  return { parser, values };
}

/** Push `text` split at the given offsets. */
function split(text: string, at: number[]): PartialJsonParser {
  const parser = new PartialJsonParser();
  let from = 0;
  for (const cut of [...at, text.length]) {
    parser.push(text.slice(from, cut));
    from = cut;
  }
  return parser;
}

const endsWithHighSurrogate = (s: string): boolean => /[\uD800-\uDBFF]$/.test(s);

describe('PartialJsonParser', () => {
  it('shows a string as it grows and equals JSON.parse at the end', () => {
    const text = '{"city": "San Francisco", "unit": "celsius"}';
    const { parser, values } = feed(text);
    expect(values).toContainEqual({ city: 'San' });
    expect(values).toContainEqual({ city: 'San Francisco', unit: 'cel' });
    expect(parser.end()).toEqual(JSON.parse(text));
    expect(parser.done).toBe(true);
  });

  describe('escapes', () => {
    const text = String.raw`{"s": "a\n\"\\\/\b\f\r\t\u00e9\ud83d\ude00z\u0041"}`;
    const final = (JSON.parse(text) as { s: string }).s;

    it.each(Array.from({ length: text.length - 1 }, (_, i) => i + 1))('decodes every escape when split at %i', (cut) => {
      const parser = new PartialJsonParser();
      parser.push(text.slice(0, cut));
      const first = parser.value as { s?: string } | undefined;
      if (first?.s !== undefined) {
        expect(final.startsWith(first.s)).toBe(true);
        expect(endsWithHighSurrogate(first.s)).toBe(false);
      }
      parser.push(text.slice(cut));
      expect(parser.end()).toEqual({ s: final });
    });

    it('never shows half an escape or a lone high surrogate, char by char', () => {
      const { values } = feed(text);
      for (const value of values) {
        const s = (value as { s?: string } | undefined)?.s;
        if (s === undefined) continue;
        expect(final.startsWith(s)).toBe(true);
        expect(endsWithHighSurrogate(s)).toBe(false);
      }
      const strings = values.map((v) => (v as { s?: string } | undefined)?.s).filter((s) => s !== undefined);
      expect(strings).toContain('a\n"\\/\b\f\r\té');
      expect(strings).toContain('a\n"\\/\b\f\r\té😀');
    });

    it('holds a raw surrogate pair split across fragments', () => {
      const parser = split('["x😀y"]', [4]); // between the two halves of 😀
      expect(parser.end()).toEqual(['x😀y']);
      const p2 = new PartialJsonParser();
      p2.push('["x\uD83D');
      expect(p2.value).toEqual(['x']);
      p2.push('\uDE00');
      expect(p2.value).toEqual(['x😀']);
    });

    it('keeps a lone surrogate like JSON.parse does once the next character shows it is lone', () => {
      expect(split(String.raw`["\ud83dA"]`, [8]).end()).toEqual(JSON.parse(String.raw`["\ud83dA"]`));
      expect(split('["\uD83D"]', [3]).end()).toEqual(['\uD83D']);
    });

    it('decodes escapes inside keys', () => {
      expect(feed(String.raw`{"a\"b\u0063": 1}`).parser.end()).toEqual({ 'a"bc': 1 });
    });
  });

  describe('numbers and literals', () => {
    it('does not show a number until a delimiter follows', () => {
      const { values } = feed('{"a": 123, "b": -4.5e2}');
      expect(values).not.toContainEqual({ a: 1 });
      expect(values).not.toContainEqual({ a: 12 });
      const firstA = values.findIndex((v) => (v as { a?: number }).a !== undefined);
      expect(values[firstA]).toEqual({ a: 123 });
      expect(values.at(-1)).toEqual({ a: 123, b: -450 });
    });

    it('does not show tr as true', () => {
      const { values } = feed('[true, false, null]');
      expect(values).toEqual(expect.arrayContaining([[], [true], [true, false], [true, false, null]]));
      for (const v of values) expect(isPrefixValue(v, [true, false, null])).toBe(true);
      expect(values.filter((v) => JSON.stringify(v) === '[]').length).toBe(4); // '[', 't', 'r', 'u'
    });

    it('completes a root number at whitespace or at end()', () => {
      const p = new PartialJsonParser();
      p.push('12');
      expect(p.value).toBeUndefined();
      p.push('3');
      expect(p.done).toBe(false);
      expect(p.end()).toBe(123);
      const q = new PartialJsonParser();
      q.push('-0.5e-3 ');
      expect(q.done).toBe(true);
      expect(q.value).toBe(-0.0005);
    });

    it('shows partial numbers and literals with allowPartialLiterals', () => {
      const { values } = feed('[123, tru', 1, { allowPartialLiterals: true });
      expect(values).toContainEqual([1]);
      expect(values).toContainEqual([12]);
      expect(values.at(-1)).toEqual([123, true]);
      expect(feed('[-', 1, { allowPartialLiterals: true }).values.at(-1)).toEqual([]);
      expect(feed('[1.', 1, { allowPartialLiterals: true }).values.at(-1)).toEqual([1]);
      expect(feed('{"a": n', 1, { allowPartialLiterals: true }).values.at(-1)).toEqual({ a: null });
    });
  });

  describe('keys and containers', () => {
    it('shows a key only once its name is complete and its value has started', () => {
      const { values } = feed('{"city": "x", "n": 5, "o": {}}');
      const shown = values.map((v) => JSON.stringify(v));
      expect(shown.slice(0, 9).every((s) => s === '{}')).toBe(true); // up to and including ': '
      expect(shown[9]).toBe('{"city":""}');
      expect(shown).not.toContain('{"city":"x","n":""}');
      expect(shown).toContain('{"city":"x","n":5,"o":{}}');
      for (const s of shown) expect(s).not.toMatch(/"c(i|it)?"/);
    });

    it('shows nested objects and arrays as soon as they open', () => {
      const { values } = feed('{"a": [[{"b": [1]}]]}');
      expect(values).toContainEqual({ a: [] });
      expect(values).toContainEqual({ a: [[]] });
      expect(values).toContainEqual({ a: [[{}]] });
      expect(values).toContainEqual({ a: [[{ b: [] }]] });
      expect(values.at(-1)).toEqual({ a: [[{ b: [1] }]] });
    });

    it('parses top-level values of every kind', () => {
      for (const text of ['"str"', '42', 'true', 'false', 'null', '[1, "a"]', '  {"a" : { } }  ', '""', '[]', '-0']) {
        expect(split(text, [1]).end()).toEqual(JSON.parse(text));
      }
      expect(feed('"abc"').values).toEqual(['', 'a', 'ab', 'abc', 'abc']);
    });

    it('keeps "__proto__" as an own key, like JSON.parse', () => {
      const value = feed('{"__proto__": {"x": 1}, "y": "__proto__"}').parser.end() as Record<string, unknown>;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).toEqual(['__proto__', 'y']);
      expect(JSON.stringify(value)).toBe('{"__proto__":{"x":1},"y":"__proto__"}');
    });
  });

  describe('snapshots', () => {
    it('never mutates a value it handed out, and shares completed subtrees', () => {
      const parser = new PartialJsonParser();
      parser.push('{"done": {"x": [1, 2]}, "s": "ab');
      const first = parser.value as { done: object; s: string };
      const copy = structuredClone(first);
      expect(parser.value).toBe(first); // nothing changed: the same object
      parser.push('cd", "more": [3');
      const second = parser.value as { done: object; s: string };
      expect(first).toEqual(copy);
      expect(second).not.toBe(first);
      expect(second.done).toBe(first.done);
      expect(second).toEqual({ done: { x: [1, 2] }, s: 'abcd', more: [] });
    });

    it('returns one tree mutated in place in live mode', () => {
      const parser = new PartialJsonParser({ snapshots: 'live' });
      parser.push('{"s": "ab');
      const first = parser.value;
      parser.push('cd", "n": [1, 2]}');
      expect(parser.value).toBe(first);
      expect(first).toEqual({ s: 'abcd', n: [1, 2] });
    });
  });

  describe('isComplete', () => {
    it('reports completed fields and not the open ones', () => {
      const parser = new PartialJsonParser();
      parser.push('{"a": 1, "b": "x", "c": [{"d": true}, {"e": "y');
      expect(parser.isComplete(['a'])).toBe(true);
      expect(parser.isComplete(['b'])).toBe(true);
      expect(parser.isComplete(['c', 0])).toBe(true);
      expect(parser.isComplete(['c', 0, 'd'])).toBe(true);
      expect(parser.isComplete(['c'])).toBe(false);
      expect(parser.isComplete(['c', 1])).toBe(false);
      expect(parser.isComplete(['c', 1, 'e'])).toBe(false);
      expect(parser.isComplete(['c', 2])).toBe(false);
      expect(parser.isComplete(['zzz'])).toBe(false);
      expect(parser.isComplete([])).toBe(false);
      parser.push('"}]}');
      expect(parser.isComplete(['c', 1, 'e'])).toBe(true);
      expect(parser.isComplete([])).toBe(true);
    });

    it('does not report a number before it is complete', () => {
      const parser = new PartialJsonParser();
      parser.push('{"a": 12');
      expect(parser.isComplete(['a'])).toBe(false);
      parser.push(',');
      expect(parser.isComplete(['a'])).toBe(true);
    });
  });

  describe('errors', () => {
    it.each([
      ['{"a":}', 5],
      ['{"a" 1}', 5],
      ['{} x', 3],
      ['[1,]', 3],
      ['{"a":1,}', 7],
      ['{"a":1]', 6],
      ['[01]', 2],
      ['[1.]', 3],
      ['[-]', 2],
      ['[tru]', 4],
      ['"a\\x"', 3],
      ['"\\u12G4"', 5],
      ['"a\u0001"', 2],
      ['x', 0],
    ])('reports %j at position %i, whatever the fragments', (text, position) => {
      expect(() => JSON.parse(text)).toThrow();
      for (const size of [1, 2, 3, 100]) {
        const { parser } = feed(text, size);
        expect(parser.error).toMatchObject({ name: 'ToolStreamError', code: 'malformed-json' });
        expect(parser.error?.position).toBe(position);
        expect(() => parser.end()).toThrow(parser.error);
      }
    });

    it('reports unterminated input at end()', () => {
      for (const text of ['{"a": 1', '"abc', '[1, 2', '{"a"', 'tru', '-', '{"a": "x\\']) {
        const parser = new PartialJsonParser();
        parser.push(text);
        expect(parser.error).toBeUndefined();
        expect(() => parser.end()).toThrow(expect.objectContaining({ name: 'ToolStreamError', code: 'malformed-json' }));
        expect(parser.error?.position).toBe(text.length);
      }
    });

    it('rejects empty and whitespace-only input at end()', () => {
      for (const text of ['', '  \n\t ']) {
        const parser = new PartialJsonParser();
        parser.push(text);
        expect(parser.value).toBeUndefined();
        expect(() => parser.end()).toThrow(/Unexpected end of JSON input/);
      }
    });

    it('ignores pushes after an error and keeps the last good value', () => {
      const parser = new PartialJsonParser();
      parser.push('{"a": [1, 2} "b": 3');
      expect(parser.error?.position).toBe(11);
      expect(parser.value).toEqual({ a: [1, 2] });
      expect(() => parser.push('}')).not.toThrow();
      expect(parser.error?.position).toBe(11);
    });
  });

  it('handles a 1 MB string in 1-8 character fragments', () => {
    const big = 'x\\"é😀\\n'.repeat(150_000);
    const text = `{"content": "${big}", "n": 1}`;
    const parser = new PartialJsonParser();
    let step = 0;
    for (let i = 0; i < text.length;) {
      const size = 1 + (step++ % 8);
      parser.push(text.slice(i, i + size));
      i += size;
      if (step % 1000 === 0) expect(prefixMismatch(parser.value, JSON.parse(text))).toBeUndefined();
    }
    expect(parser.end()).toEqual(JSON.parse(text));
  });
});
