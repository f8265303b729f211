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
