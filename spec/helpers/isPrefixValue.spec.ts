import { isPrefixValue } from './isPrefixValue';

describe('isPrefixValue', () => {
  it.each([
    [undefined, { a: 1 }],
    ['ab', 'abc'],
    [{}, { a: 1 }],
    [{ a: 'x' }, { a: 'xy', b: 2 }],
    [
      [1, [2]],
      [1, [2, 3], 4],
    ],
    [null, null],
  ])('accepts %j as a prefix of %j', (partial, full) => expect(isPrefixValue(partial, full)).toBe(true));

  it.each([
    ['abd', 'abc'],
    [12, 123],
    [{ a: 'x' }, { a: 1 }],
    [{ c: 1 }, { a: 1 }],
    [
      [1, 2, 3],
      [1, 2],
    ],
    [
      [[1], 2],
      [[1, 5], 2],
    ],
    [
      { a: 'x', b: 'y' },
      { a: 'xz', b: 'yz' },
    ],
    [[], {}],
  ])('rejects %j as a prefix of %j', (partial, full) => expect(isPrefixValue(partial, full)).toBe(false));
});
