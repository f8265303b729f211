// What the docs promise about costOf's rounding: `round.mode` defaults to half-even (banker's
// rounding), shown on real ties (an exact half at the rounded place), and from a second angle, a
// property over random ties.
import fc from 'fast-check';
import { costOf } from 'rxjs-tool-calls/gateway';

/** The total of `amount` (a decimal string) as the output price of one million tokens, rounded with `round`. */
const total = (amount: string, round: { places: number; mode?: 'half-even' | 'half-up' | 'down' | 'up' }): string => costOf({ outputTokens: 1_000_000 }, { input: 0, output: amount }, { round }).total;

describe('costOf: half-even is the default rounding', () => {
  it.each([
    ['0.125', 2, '0.12', '0.13'], // a tie, the kept digit even: stays (half-up goes up)
    ['0.135', 2, '0.14', '0.14'], // a tie, the kept digit odd: up to even
    ['2.5', 0, '2', '3'],
    ['3.5', 0, '4', '4'],
    ['0.0000000005', 9, '0.000000000', '0.000000001'],
    ['0.0000000015', 9, '0.000000002', '0.000000002'],
  ])('the tie %s to %i places is %s without a mode, as with half-even (half-up: %s)', (amount, places, expected, halfUp) => {
    expect(total(amount, { places })).toBe(expected);
    expect(total(amount, { places, mode: 'half-even' })).toBe(expected);
    expect(total(amount, { places, mode: 'half-up' })).toBe(halfUp);
  });

  it('a tie in the total of several lines, rounded once from the exact sum', () => {
    // 0.0625 + 0.0625 = 0.125 exactly: half-even gives 0.12 (half-up would give 0.13).
    const cost = costOf({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, { input: '0.0625', output: '0.0625' }, { round: { places: 2 } });
    expect(cost).toMatchObject({ total: '0.12', input: '0.06', output: '0.06' });
  });

  it('on any tie, the default is half-even: to the even neighbour (property)', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.integer({ min: 0, max: 12 }), (kept, places) => {
        // `kept` followed by a 5 one place further: exactly halfway between kept and kept + 1 (in units of 10^-places).
        const digits = `${kept}5`.padStart(places + 2, '0');
        const amount = `${digits.slice(0, digits.length - places - 1) || '0'}.${digits.slice(digits.length - places - 1)}`;
        const rounded = total(amount, { places });
        const even = kept % 2 === 0 ? kept : kept + 1;
        const expected = String(even).padStart(places + 1, '0');
        const text = places === 0 ? expected : `${expected.slice(0, expected.length - places)}.${expected.slice(expected.length - places)}`;
        expect(rounded).toBe(text);
        expect(total(amount, { places, mode: 'half-even' })).toBe(rounded);
      }),
      { numRuns: 500 },
    );
  });
});
