import fc from 'fast-check';
import { isToolStreamError, type Usage } from 'rxjs-tool-calls';
import { costOf, type CostOptions, type TokenPrice } from 'rxjs-tool-calls/gateway';

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

  describe('a bad argument or option is a typed invalid-option error naming it', () => {
    const cases: Array<[string, Usage, TokenPrice, object, string, unknown, string]> = [
      ['a negative price', {}, { input: -1, output: 1 }, {}, 'price.input', -1, '≥ 0'],
      ['a negative string price', {}, { input: '1', output: '-0.5' }, {}, 'price.output', '-0.5', '≥ 0'],
      ['an infinite price', {}, { input: Infinity, output: 1 }, {}, 'price.input', Infinity, 'a finite number'],
      ['NaN', {}, { input: NaN, output: 1 }, {}, 'price.input', NaN, 'a finite number'],
      ['a price that is not a decimal', {}, { input: '2,50', output: 1 }, {}, 'price.input', '2,50', "a decimal like '2.50' or '1e-6'"],
      ['a price of the wrong type', {}, { input: null as unknown as number, output: 1 }, {}, 'price.input', null, 'a number or a decimal string'],
      ['a too precise price', {}, { input: `0.${'1'.repeat(31)}`, output: 1 }, {}, 'price.input', `0.${'1'.repeat(31)}`, 'a decimal of at most 30 decimal places'],
      ['a huge exponent', {}, { input: '1e999', output: 1 }, {}, 'price.input', '1e999', 'a decimal of at most 60 digits'],
      ['a negative multiplier', {}, { input: 1, output: 1 }, { multiplier: -1.3 }, 'options.multiplier', -1.3, '≥ 0'],
      ['fractional tokens', { inputTokens: 1.5 }, { input: 1, output: 1 }, {}, 'usage.inputTokens', 1.5, 'a whole number of tokens ≥ 0'],
      ['negative tokens', { outputTokens: -1 }, { input: 1, output: 1 }, {}, 'usage.outputTokens', -1, 'a whole number of tokens ≥ 0'],
      [
        'more cached than input tokens',
        { inputTokens: 5, cachedInputTokens: 6 },
        { input: 1, output: 1 },
        {},
        'usage.cachedInputTokens',
        6,
        'at most usage.inputTokens − usage.cacheWriteInputTokens (5 − 0)',
      ],
      ['more reasoning than output tokens', { outputTokens: 1, reasoningTokens: 2 }, { input: 1, output: 1, reasoning: 1 }, {}, 'usage.reasoningTokens', 2, 'at most usage.outputTokens (1)'],
      ['bad rounding places', {}, { input: 1, output: 1 }, { round: { places: 1.5 } }, 'options.round.places', 1.5, 'a whole number from 0 to 30'],
      ['31 rounding places', {}, { input: 1, output: 1 }, { round: { places: 31 } }, 'options.round.places', 31, 'a whole number from 0 to 30'],
      ['no rounding places', {}, { input: 1, output: 1 }, { round: { mode: 'up' } }, 'options.round.places', undefined, 'a whole number from 0 to 30'],
      ['a round that is not an object', {}, { input: 1, output: 1 }, { round: 2 }, 'options.round', 2, 'an object { places, mode? }'],
      ['a misspelt round key', {}, { input: 1, output: 1 }, { round: { places: 2, mod: 'up' } }, 'options.round.mod', 'up', "an option costOf() takes (did you mean 'mode'?): places, mode"],
      ['a misspelt option', {}, { input: 1, output: 1 }, { rounding: { places: 2 } }, 'options.rounding', { places: 2 }, 'an option costOf() takes: multiplier, round'],
    ];
    it.each(cases)('%s', (_name, usage, price, options, option, value, expected) => {
      let caught: unknown;
      try {
        costOf(usage, price, options);
      } catch (error) {
        caught = error;
      }
      expect(isToolStreamError(caught, 'invalid-option')).toBe(true);
      expect(caught).toMatchObject({ function: 'costOf', option, expected });
      expect((caught as { value: unknown }).value).toEqual(value);
      expect((caught as Error).message).toContain(`costOf: ${option} must be ${expected}, got `);
    });

    it.each(['half_up', 'HALF-UP', 'Half-Even', 'ceil', 'floor', '', ' half-up', 'half-up ', 'constructor', '__proto__', 'toString'])('round.mode %p is refused, not rounded half-even', (mode) => {
      expect(() => costOf({ outputTokens: 1_000_000 }, { input: 0, output: '0.125' }, { round: { places: 2, mode: mode as 'up' } })).toThrow(
        expect.objectContaining({ code: 'invalid-option', option: 'options.round.mode', value: mode, expected: "one of 'half-even', 'half-up', 'down', 'up'" }),
      );
    });

    it.each([null, 0, ['up'], { mode: 'up' }])('a round.mode of the wrong type (%p) is refused', (mode) => {
      expect(() => costOf({}, { input: 1, output: 1 }, { round: { places: 2, mode: mode as unknown as 'up' } })).toThrow(
        expect.objectContaining({ code: 'invalid-option', option: 'options.round.mode' }),
      );
    });

    it('the four modes, and mode left out, are accepted', () => {
      for (const mode of ['half-even', 'half-up', 'down', 'up'] as const) expect(costOf({}, { input: 1, output: 1 }, { round: { places: 2, mode } }).total).toBe('0.00');
      expect(costOf({}, { input: 1, output: 1 }, { round: { places: 2 } }).total).toBe('0.00');
      expect(costOf({}, { input: 1, output: 1 }, { round: { places: 2, mode: undefined } } as unknown as CostOptions).total).toBe('0.00');
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
