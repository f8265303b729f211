import fc from 'fast-check';
import type { Usage } from 'rxjs-tool-calls';
import { costOf, type TokenPrice } from 'rxjs-tool-calls/gateway';

/** A decimal string as an exact fraction `numerator / 10^scale` (the test's own reading, independent of the library's). */
function fraction(text: string): { numerator: bigint; scale: number } {
  const [whole = '0', frac = ''] = text.split('.');
  return { numerator: BigInt(whole + frac), scale: frac.length };
}

/** `a == b` for two fractions, by cross-multiplying. */
function sameValue(a: { numerator: bigint; scale: number }, b: { numerator: bigint; scale: number }): boolean {
  return a.numerator * 10n ** BigInt(b.scale) === b.numerator * 10n ** BigInt(a.scale);
}

describe('costOf', () => {
  it('costs 1,234,567 input and 7,654,321 output tokens at 2.50 / 10.00 per million × 1.3 exactly 103.51851575', () => {
    expect(costOf({ inputTokens: 1_234_567, outputTokens: 7_654_321 }, { input: 2.5, output: 10 }, { multiplier: 1.3 })).toEqual({
      total: '103.51851575',
      input: '4.01234275',
      cachedInput: '0',
      cacheWrite: '0',
      output: '99.506173',
      reasoning: '0',
    });
    expect(costOf({ inputTokens: 1_234_567, outputTokens: 7_654_321 }, { input: '2.50', output: '10.00' }, { multiplier: '1.3' }).total).toBe('103.51851575');
  });

  it('has no float drift: 0.1 + 0.2 per million is 0.3, and 2.5 × 1.3 is 3.25', () => {
    expect(costOf({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, { input: 0.1, output: 0.2 }).total).toBe('0.3');
    expect(costOf({ inputTokens: 1_000_000 }, { input: 2.5, output: 0 }, { multiplier: 1.3 }).total).toBe('3.25');
    expect(costOf({ outputTokens: 3 }, { input: 0, output: 0.07 }, { multiplier: 1.1 }).total).toBe('0.000000231');
  });

  it('prices cached input at the cached price and cache writes at the write price, the rest at the input price', () => {
    const usage: Usage = { inputTokens: 1_060_000, cachedInputTokens: 1_000_000, cacheWriteInputTokens: 50_000, outputTokens: 20_000 };
    expect(costOf(usage, { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 })).toEqual({
      total: '0.8175',
      input: '0.03',
      cachedInput: '0.3',
      cacheWrite: '0.1875',
      output: '0.3',
      reasoning: '0',
    });
    expect(costOf(usage, { input: 3, output: 15 }).total).toBe('3.48'); // without cache prices: all input at 3
  });

  it('prices reasoning apart only when asked (reasoning is part of the output)', () => {
    const usage: Usage = { inputTokens: 0, outputTokens: 1_000_000, reasoningTokens: 400_000 };
    expect(costOf(usage, { input: 1, output: 10 })).toMatchObject({ total: '10', output: '10', reasoning: '0' });
    expect(costOf(usage, { input: 1, output: 10, reasoning: 5 })).toMatchObject({ total: '8', output: '6', reasoning: '2' });
  });

  it('reads absent counts as 0 (a usage event works as it is)', () => {
    expect(costOf({}, { input: 1, output: 1 }).total).toBe('0');
    expect(costOf({ type: 'usage', outputTokens: 2_000_000, raw: {} } as Usage, { input: '1', output: '0.5' }).total).toBe('1');
  });

  describe('rounding', () => {
    const cases: Array<[string, number, 'half-even' | 'half-up' | 'down' | 'up', string]> = [
      ['0.125', 2, 'half-even', '0.12'],
      ['0.135', 2, 'half-even', '0.14'],
      ['0.125', 2, 'half-up', '0.13'],
      ['0.1251', 2, 'half-even', '0.13'],
      ['0.129', 2, 'down', '0.12'],
      ['0.121', 2, 'up', '0.13'],
      ['0.12', 2, 'up', '0.12'],
      ['2.5', 0, 'half-even', '2'],
      ['3.5', 0, 'half-even', '4'],
      ['7', 3, 'half-even', '7.000'],
    ];
    it.each(cases)('%s to %d places %s is %s', (price, places, mode, expected) => {
      expect(costOf({ outputTokens: 1_000_000 }, { input: 0, output: price }, { round: { places, mode } }).total).toBe(expected);
    });

    it('rounds every line and the total from their exact values (half-even by default)', () => {
      expect(costOf({ inputTokens: 1_234_567, outputTokens: 7_654_321 }, { input: 2.5, output: 10 }, { multiplier: 1.3, round: { places: 2 } })).toEqual({
        total: '103.52',
        input: '4.01',
        cachedInput: '0.00',
        cacheWrite: '0.00',
        output: '99.51',
        reasoning: '0.00',
      });
    });
  });

  describe('bad arguments are programmer errors (TypeError / RangeError)', () => {
    const cases: Array<[string, Usage, TokenPrice, object, ErrorConstructor, string]> = [
      ['a negative price', {}, { input: -1, output: 1 }, {}, RangeError, 'price.input must not be negative'],
      ['a negative string price', {}, { input: '1', output: '-0.5' }, {}, RangeError, 'price.output must not be negative'],
      ['an infinite price', {}, { input: Infinity, output: 1 }, {}, TypeError, 'price.input must be a finite number'],
      ['NaN', {}, { input: NaN, output: 1 }, {}, TypeError, 'price.input must be a finite number'],
      ['a price that is not a decimal', {}, { input: '2,50', output: 1 }, {}, TypeError, "price.input must be a decimal like '2.50'"],
      ['a price of the wrong type', {}, { input: null as unknown as number, output: 1 }, {}, TypeError, 'price.input must be a number or a decimal string'],
      ['a too precise price', {}, { input: `0.${'1'.repeat(31)}`, output: 1 }, {}, RangeError, 'price.input has more than 30 decimal places'],
      ['a huge exponent', {}, { input: '1e999', output: 1 }, {}, RangeError, 'price.input has more than 60 digits'],
      ['a negative multiplier', {}, { input: 1, output: 1 }, { multiplier: -1.3 }, RangeError, 'options.multiplier must not be negative'],
      ['fractional tokens', { inputTokens: 1.5 }, { input: 1, output: 1 }, {}, TypeError, 'usage.inputTokens must be a whole number of tokens'],
      ['negative tokens', { outputTokens: -1 }, { input: 1, output: 1 }, {}, RangeError, 'usage.outputTokens must not be negative'],
      ['more cached than input tokens', { inputTokens: 5, cachedInputTokens: 6 }, { input: 1, output: 1 }, {}, RangeError, 'exceed usage.inputTokens'],
      ['more reasoning than output tokens', { outputTokens: 1, reasoningTokens: 2 }, { input: 1, output: 1, reasoning: 1 }, {}, RangeError, 'exceed usage.outputTokens'],
      ['bad rounding places', {}, { input: 1, output: 1 }, { round: { places: 1.5 } }, RangeError, 'options.round.places'],
    ];
    it.each(cases)('%s', (_name, usage, price, options, type, message) => {
      expect(() => costOf(usage, price, options)).toThrow(type);
      expect(() => costOf(usage, price, options)).toThrow(message);
    });

    it('reads numbers in exponent form exactly', () => {
      expect(costOf({ inputTokens: 1_000_000 }, { input: 1e-7, output: 0 }).total).toBe('0.0000001');
      expect(costOf({ inputTokens: 1 }, { input: 1.5e21, output: 0 }).total).toBe('1500000000000000');
    });
  });

  it('equals a BigInt reference for random decimal prices, counts and multipliers (property)', () => {
    const decimal = fc.tuple(fc.nat(10_000), fc.stringMatching(/^\d{0,9}$/)).map(([whole, frac]) => (frac === '' ? String(whole) : `${whole}.${frac}`));
    const count = fc.nat(2_000_000_000);
    fc.assert(
      fc.property(count, count, count, count, count, decimal, decimal, decimal, decimal, decimal, (a, b, c, out, reasoningPart, input, cached, write, output, multiplier) => {
        const inputTokens = a + b + c;
        const reasoningTokens = Math.min(reasoningPart, out);
        const usage: Usage = { inputTokens, cachedInputTokens: b, cacheWriteInputTokens: c, outputTokens: out, reasoningTokens };
        const cost = costOf(usage, { input, cachedInput: cached, cacheWrite: write, output }, { multiplier });
        // Reference: every amount over the common denominator 10^(9 + 9 + 6).
        const SCALE = 24;
        const at = (price: string, tokens: number): bigint => {
          const p = fraction(price);
          const m = fraction(multiplier);
          return BigInt(tokens) * p.numerator * m.numerator * 10n ** BigInt(SCALE - 6 - p.scale - m.scale);
        };
        const expected = at(input, a) + at(cached, b) + at(write, c) + at(output, out);
        expect(sameValue(fraction(cost.total), { numerator: expected, scale: SCALE })).toBe(true);
        expect(sameValue(fraction(cost.input), { numerator: at(input, a), scale: SCALE })).toBe(true);
        expect(cost.total).toMatch(/^\d+(\.\d*[1-9])?$/); // no trailing zeros, no exponent
      }),
      { numRuns: 500 },
    );
  });

  it('rounds within half a unit of the last place, in the direction of its mode (property)', () => {
    const decimal = fc.tuple(fc.nat(1000), fc.stringMatching(/^\d{1,9}$/)).map(([whole, frac]) => `${whole}.${frac}`);
    const mode = fc.constantFrom('half-even' as const, 'half-up' as const, 'down' as const, 'up' as const);
    fc.assert(
      fc.property(fc.nat(100_000_000), decimal, fc.integer({ min: 0, max: 6 }), mode, (tokens, price, places, m) => {
        const exact = fraction(costOf({ outputTokens: tokens }, { input: 0, output: price }).total);
        const rounded = fraction(costOf({ outputTokens: tokens }, { input: 0, output: price }, { round: { places, mode: m } }).total);
        expect(rounded.scale).toBe(places);
        const scale = Math.max(exact.scale, places) + 1;
        const diff = rounded.numerator * 10n ** BigInt(scale - places) - exact.numerator * 10n ** BigInt(scale - exact.scale); // rounded − exact, at `scale`
        const unit = 10n ** BigInt(scale - places);
        if (m === 'down') expect(diff <= 0n && -diff < unit).toBe(true);
        else if (m === 'up') expect(diff >= 0n && diff < unit).toBe(true);
        else expect(2n * (diff < 0n ? -diff : diff) <= unit).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
