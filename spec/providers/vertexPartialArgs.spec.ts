import fc from 'fast-check';
import { PartialJsonParser } from 'rxjs-tool-calls/advanced';
import { PartialArgsBuilder, parseJsonPath } from '../../src/providers/gemini/vertexPartialArgs';

describe('parseJsonPath()', () => {
  it.each([
    ['$', []],
    ['$.a', ['a']],
    ['$.a.b[0].c', ['a', 'b', 0, 'c']],
    ['$.ops[12]', ['ops', 12]],
    ["$['a.b'][1]", ['a.b', 1]],
    ['$["q\\"x"]', ['q"x']],
  ])('%s', (path, segments) => {
    expect(parseJsonPath(path)).toEqual({ segments, array: false });
  });

  it.each([
    ['$.tags[]', ['tags']],
    ['$.a[2].b[]', ['a', 2, 'b']],
  ])('%s names an array (rule `vertex-partial-args`)', (path, segments) => {
    expect(parseJsonPath(path)).toEqual({ segments, array: true });
  });

  it.each(['a.b', '$.', '$..a', '$[x]', '$[1', "$['a'", '$a', '$[]', '$.a[].b'])('rejects %s', (path) => {
    expect(parseJsonPath(path)).toBeUndefined();
  });
});

describe('PartialArgsBuilder', () => {
  it('appends strings and replaces numbers, booleans and nulls', () => {
    const builder = new PartialArgsBuilder({ keep: 1 });
    for (const entry of [
      { jsonPath: '$.s', stringValue: 'ab' },
      { jsonPath: '$.s', stringValue: 'cd' },
      { jsonPath: '$.n', numberValue: 1 },
      { jsonPath: '$.n', numberValue: 2 },
      { jsonPath: '$.b', boolValue: true },
      { jsonPath: '$.z', nullValue: null },
      { jsonPath: '$.list[0][0]', stringValue: 'x' },
      { jsonPath: '$.list[0][1]', numberValue: 0 },
      { jsonPath: '$.only', willContinue: true },
    ]) {
      expect(builder.apply(entry)).toBeUndefined();
    }
    expect(JSON.parse(builder.json())).toEqual({ keep: 1, s: 'abcd', n: 2, b: true, z: null, list: [['x', 0]] });
  });

  it('an entry with no value and no willContinue creates the empty container its path names (rule `vertex-partial-args`)', () => {
    const builder = new PartialArgsBuilder();
    for (const entry of [
      { jsonPath: '$.tags[]' },
      { jsonPath: '$.opts' },
      { jsonPath: '$.a[0].x', numberValue: 1 },
      { jsonPath: '$.a[1].b[]' },
      { jsonPath: '$.a[1].c' },
      { jsonPath: '$.s', stringValue: 'kept' },
      { jsonPath: '$.s' }, // already there: left as it is
      { jsonPath: '$.l', listValue: [1, 'two'] },
      { jsonPath: '$.o', structValue: { k: [true] } },
    ]) {
      expect(builder.apply(entry)).toBeUndefined();
    }
    expect(JSON.parse(builder.json())).toEqual({ tags: [], opts: {}, a: [{ x: 1 }, { b: [], c: {} }], s: 'kept', l: [1, 'two'], o: { k: [true] } });
  });

  it('serialises arguments nested deeper than JSON.stringify can', () => {
    const builder = new PartialArgsBuilder();
    const path = '$' + '.a'.repeat(20_000);
    expect(builder.apply({ jsonPath: path, numberValue: 1 })).toBeUndefined();
    expect(builder.json()).toBe('{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000));
  });

  it('reports paths that skip array positions or contradict the shape, and wrong value types', () => {
    const builder = new PartialArgsBuilder();
    expect(builder.apply({ jsonPath: '$.a[1]', stringValue: 'x' })).toMatch(/skips/);
    expect(builder.apply({ jsonPath: '$.a', stringValue: 'x' })).toBeUndefined();
    expect(builder.apply({ jsonPath: '$.a.b', stringValue: 'x' })).toMatch(/shape/);
    expect(builder.apply({ jsonPath: '$[0]', stringValue: 'x' })).toMatch(/shape/);
    expect(builder.apply({ jsonPath: '$.n', numberValue: 'NaN' })).toMatch(/wrong type/);
    expect(builder.apply({ jsonPath: '$', stringValue: 'x' })).toMatch(/jsonPath/);
    expect(builder.apply('nope')).toMatch(/object/);
  });

  it('never touches prototypes and does not mutate the initial args', () => {
    const initial = { a: 'x' };
    const builder = new PartialArgsBuilder(initial);
    builder.apply({ jsonPath: '$.__proto__.polluted', stringValue: 'yes' });
    builder.apply({ jsonPath: '$.a', stringValue: 'y' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(initial).toEqual({ a: 'x' });
    expect(JSON.parse(builder.json())).toEqual(JSON.parse('{"a":"xy","__proto__":{"polluted":"yes"}}'));
  });
});

/** The text a builder wrote (appends and restatements applied), after each step. */
class Written {
  text = '';
  constructor(readonly builder: PartialArgsBuilder) {
    this.text = builder.start();
  }
  take(): void {
    const { text, restated } = this.builder.take();
    this.text = restated ? text : this.text + text;
  }
  /** What a reader shows of the text so far. */
  shown(): unknown {
    const parser = new PartialJsonParser();
    parser.push(this.text);
    expect(parser.error).toBeUndefined();
    return parser.value;
  }
}

describe('PartialArgsBuilder: the arguments as JSON text while they arrive (rule `vertex-partial-args`)', () => {
  it('appends each entry: strings as they grow, numbers and booleans whole, containers as their paths create them', () => {
    const w = new Written(new PartialArgsBuilder());
    const steps: Array<[Record<string, unknown>, string, unknown]> = [
      [{ jsonPath: '$.city', stringValue: 'Par', willContinue: true }, '{"city":"Par', { city: 'Par' }],
      [{ jsonPath: '$.city', stringValue: 'is', willContinue: true }, '{"city":"Paris', { city: 'Paris' }],
      [{ jsonPath: '$.city', stringValue: '' }, '{"city":"Paris', { city: 'Paris' }], // the quote waits: a piece may still follow
      [{ jsonPath: '$.days', numberValue: 3 }, '{"city":"Paris","days":3 ', { city: 'Paris', days: 3 }],
      [{ jsonPath: '$.tags[]' }, '{"city":"Paris","days":3 ,"tags":[', { city: 'Paris', days: 3, tags: [] }],
      [{ jsonPath: '$.tags[0]', stringValue: 'a"b' }, '{"city":"Paris","days":3 ,"tags":["a\\"b', { city: 'Paris', days: 3, tags: ['a"b'] }],
      [
        { jsonPath: '$.opts.deep[0].ok', boolValue: true },
        '{"city":"Paris","days":3 ,"tags":["a\\"b"],"opts":{"deep":[{"ok":true',
        { city: 'Paris', days: 3, tags: ['a"b'], opts: { deep: [{ ok: true }] } },
      ],
    ];
    for (const [entry, text, shown] of steps) {
      expect(w.builder.apply(entry)).toBeUndefined();
      w.take();
      expect(w.text).toBe(text);
      expect(w.shown()).toEqual(shown);
    }
    w.text += w.builder.end();
    expect(w.text).toBe('{"city":"Paris","days":3 ,"tags":["a\\"b"],"opts":{"deep":[{"ok":true}]}}');
    expect(JSON.parse(w.text)).toEqual(JSON.parse(w.builder.json()));
  });

  it.each([
    [
      'a key written before',
      [
        { jsonPath: '$.a.x', numberValue: 1 },
        { jsonPath: '$.b', numberValue: 2 },
        { jsonPath: '$.a.y', numberValue: 3 },
      ],
      '{"b":2,"a":{"x":1,"y":3 ',
      { b: 2, a: { x: 1, y: 3 } },
    ],
    [
      'a string whose closing quote was written',
      [
        { jsonPath: '$.s', stringValue: 'ab' },
        { jsonPath: '$.t', numberValue: 1 },
        { jsonPath: '$.s', stringValue: 'cd' },
      ],
      '{"t":1,"s":"abcd',
      { t: 1, s: 'abcd' },
    ],
    [
      'a value replaced',
      [
        { jsonPath: '$.n', numberValue: 1 },
        { jsonPath: '$.n', boolValue: false },
      ],
      '{"n":false',
      { n: false },
    ],
    [
      'an array element left before',
      [
        { jsonPath: '$.l[0].x', numberValue: 1 },
        { jsonPath: '$.l[1].x', numberValue: 2 },
        { jsonPath: '$.l[0].y', numberValue: 3 },
      ],
      '{"l":[{"x":1,"y":3},{"x":2}',
      { l: [{ x: 1, y: 3 }, { x: 2 }] },
    ],
    [
      'a null that becomes a container',
      [
        { jsonPath: '$.o', nullValue: 'NULL_VALUE' },
        { jsonPath: '$.o.k', stringValue: 'v', willContinue: true },
      ],
      '{"o":{"k":"v',
      { o: { k: 'v' } },
    ],
  ])('an entry that changes %s restates the whole object, its path left open, and the next entries append again', (_what, entries, restated, shown) => {
    const w = new Written(new PartialArgsBuilder());
    for (const entry of entries.slice(0, -1)) {
      expect(w.builder.apply(entry)).toBeUndefined();
      w.take();
    }
    expect(w.builder.apply(entries[entries.length - 1])).toBeUndefined();
    const out = w.builder.take();
    expect(out).toEqual({ text: restated, restated: true });
    w.text = out.text;
    expect(w.shown()).toEqual(shown);
    expect(w.builder.apply({ jsonPath: '$.z', numberValue: 9 })).toBeUndefined();
    expect(w.builder.take().restated).toBe(false);
  });

  it('a piece that comes after an entry without willContinue still continues the string: no restatement', () => {
    const w = new Written(new PartialArgsBuilder());
    for (const entry of [
      { jsonPath: '$.location', stringValue: 'Boston' },
      { jsonPath: '$.location', stringValue: ', MA' },
    ]) {
      w.builder.apply(entry);
      const out = w.builder.take();
      expect(out.restated).toBe(false);
      w.text += out.text;
    }
    expect(w.text + w.builder.end()).toBe('{"location":"Boston, MA"}');
  });

  it('starts from the args of the opening part, the root left open', () => {
    const w = new Written(new PartialArgsBuilder({ unit: 'C', n: 2 }));
    expect(w.text).toBe('{"unit":"C","n":2 ');
    expect(w.shown()).toEqual({ unit: 'C', n: 2 });
    w.builder.apply({ jsonPath: '$.city', stringValue: 'Oslo' });
    w.take();
    expect(JSON.parse(w.text + w.builder.end())).toEqual({ unit: 'C', n: 2, city: 'Oslo' });
  });

  it('writes paths nested deeper than JSON.stringify can, without recursion', () => {
    const w = new Written(new PartialArgsBuilder());
    expect(w.builder.apply({ jsonPath: '$' + '.a'.repeat(20_000), numberValue: 1 })).toBeUndefined();
    w.take();
    expect(w.text + w.builder.end()).toBe('{"a":'.repeat(20_000) + '1 ' + '}'.repeat(20_000));
    const again = new Written(new PartialArgsBuilder());
    again.builder.apply({ jsonPath: '$' + '.a'.repeat(20_000), numberValue: 1 });
    again.builder.apply({ jsonPath: '$' + '.a'.repeat(20_000), numberValue: 2 }); // replaced: restated along the path
    again.take();
    expect(again.text + again.builder.end()).toBe('{"a":'.repeat(20_000) + '2 ' + '}'.repeat(20_000));
  });

  it('property: after every chunk of entries the text shows the object built so far, and its end is that object', () => {
    const segment = fc.oneof(fc.constantFrom('a', 'b', 'c', 'x y', '"q"'), fc.integer({ min: 0, max: 2 }));
    const path = fc
      .array(segment, { minLength: 1, maxLength: 3 })
      .map((segments) => '$' + segments.map((s) => (typeof s === 'number' ? `[${s}]` : /^[a-z]+$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join(''));
    const value = fc.oneof(
      fc.record({ stringValue: fc.string({ maxLength: 4 }), willContinue: fc.boolean() }),
      fc.record({ numberValue: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })) }),
      fc.record({ boolValue: fc.boolean() }),
      fc.constant({ nullValue: 'NULL_VALUE' }),
      fc.constant({}),
      fc.constant({ listValue: [1, 'two'] }),
    );
    const entry = fc.tuple(path, value, fc.boolean()).map(([jsonPath, v, array]) => ({ jsonPath: Object.keys(v).length === 0 && array ? `${jsonPath}[]` : jsonPath, ...v }));
    fc.assert(
      fc.property(fc.array(fc.array(entry, { minLength: 1, maxLength: 3 }), { maxLength: 12 }), (chunks) => {
        const w = new Written(new PartialArgsBuilder());
        for (const chunk of chunks) {
          let problem: string | undefined;
          for (const e of chunk) if ((problem = w.builder.apply(e)) !== undefined) break;
          if (problem !== undefined) return; // the decoder ends the stream there
          w.take();
          expect(w.shown()).toEqual(JSON.parse(w.builder.json()));
        }
        expect(JSON.parse(w.text + w.builder.end())).toEqual(JSON.parse(w.builder.json()));
      }),
      { numRuns: 500 },
    );
  });
});
