/**
 * `costOf()`: what a usage costs at a caller's prices, in exact decimal arithmetic.
 *
 * @module
 */
import { addDecimal, formatDecimal, integerDecimal, multiplyDecimal, parseDecimal, roundDecimal, shiftDecimal, type Decimal, type RoundingMode } from './decimal';
import type { Usage } from '../../events';

/** A decimal amount: a number (read exactly as written, `2.5`) or a decimal string (`'2.50'`, `'1e-6'`). */
export type DecimalInput = number | string;

/** Prices per million tokens, in the caller's currency. */
export interface TokenPrice {
  /** Per million uncached input tokens. */
  readonly input: DecimalInput;
  /** Per million generated tokens (reasoning included, unless `reasoning` is given). */
  readonly output: DecimalInput;
  /** Per million input tokens read from the cache (`cachedInputTokens`). Default: `input`. */
  readonly cachedInput?: DecimalInput;
  /** Per million input tokens written to the cache (`cacheWriteInputTokens`, Anthropic). Default: `input`. */
  readonly cacheWrite?: DecimalInput;
  /**
   * Per million reasoning tokens, for a price list that prices them apart. Default: none, they
   * are output tokens (OpenAI, Anthropic and Gemini all bill reasoning at the output price, and
   * every format's normalized `outputTokens` includes them).
   */
  readonly reasoning?: DecimalInput;
}

/** Options of {@link costOf}. */
export interface CostOptions {
  /** A factor applied to every price (an aggregator's `1.3`, a contributor's `'1.1'`). Default `1`. */
  readonly multiplier?: DecimalInput;
  /** Round every amount to `places` decimal places (`mode` default `'half-even'`). Default: no rounding, every digit exact. */
  readonly round?: {
    /** Decimal places, 0 to 30 (`2` for cents). */
    readonly places: number;
    /** How to round. Default `'half-even'` (banker's rounding). */
    readonly mode?: RoundingMode;
  };
}

/** A cost, as decimal strings (exact unless `round` was asked), each line already multiplied. */
export interface Cost {
  /** The sum of the lines (rounded from the exact sum, not summed from rounded lines). */
  readonly total: string;
  /** Uncached input tokens: `inputTokens - cachedInputTokens - cacheWriteInputTokens`, at `input`. */
  readonly input: string;
  /** Cache reads, at `cachedInput`. */
  readonly cachedInput: string;
  /** Cache writes, at `cacheWrite`. */
  readonly cacheWrite: string;
  /** Output tokens at `output` (without the reasoning tokens when `reasoning` is priced apart). */
  readonly output: string;
  /** Reasoning tokens at `reasoning`; `'0'` when they are priced as output. */
  readonly reasoning: string;
}

const MILLION_PLACES = 6;

function tokens(usage: Usage, field: keyof Usage): number {
  const value = usage[field];
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new TypeError(`usage.${field} must be a whole number of tokens, got ${String(value)}`);
  if (value < 0) throw new RangeError(`usage.${field} must not be negative, got ${value}`);
  return value;
}

/**
 * What `usage` costs at `price` (per million tokens) × `multiplier`, exactly.
 *
 * 1. `inputTokens` counts every input token: the cached ones (`cachedInputTokens`) are priced at
 *    `cachedInput`, the cache writes (`cacheWriteInputTokens`) at `cacheWrite`, the rest at
 *    `input`. `outputTokens` are priced at `output` (their reasoning part at `reasoning` when given).
 * 2. Arithmetic is exact (`BigInt` scaled integers): prices and the multiplier may be numbers or
 *    decimal strings; nothing is rounded unless `round` asks, and then each amount is rounded once
 *    from its exact value (`half-even`, `half-up`, `down` or `up`).
 * 3. Absent counts are 0. Bad arguments are programmer errors, thrown as the built-in `TypeError`
 *    (not a number / string, not finite, not a decimal, not whole) or `RangeError` (negative,
 *    more than 30 decimal places, more cached than input tokens) — not as a `ToolStreamError`.
 *
 * @example
 * ```ts
 * import { costOf } from 'rxjs-tool-calls';
 *
 * const cost = costOf({ inputTokens: 1_234_567, outputTokens: 7_654_321 }, { input: 2.5, output: '10.00' }, { multiplier: 1.3 });
 * console.log(cost.total);
 * // displays: 103.51851575
 * console.log(costOf({ inputTokens: 1_234_567, outputTokens: 7_654_321 }, { input: 2.5, output: 10 }, { multiplier: 1.3, round: { places: 2 } }).total);
 * // displays: 103.52
 * ```
 *
 * @param usage Normalized token counts (a `usage` event, a `totalUsage()` result, …).
 * @param price Prices per million tokens.
 * @param options `multiplier` and `round`.
 * @return The cost, line by line, as decimal strings.
 * @throws {TypeError} For an argument of the wrong kind.
 * @throws {RangeError} For an argument out of range.
 */
export function costOf(usage: Usage, price: TokenPrice, options: CostOptions = {}): Cost {
  const input = parseDecimal(price.input, 'price.input');
  const rates = {
    input,
    output: parseDecimal(price.output, 'price.output'),
    cachedInput: price.cachedInput === undefined ? input : parseDecimal(price.cachedInput, 'price.cachedInput'),
    cacheWrite: price.cacheWrite === undefined ? input : parseDecimal(price.cacheWrite, 'price.cacheWrite'),
    reasoning: price.reasoning === undefined ? undefined : parseDecimal(price.reasoning, 'price.reasoning'),
  };
  const multiplier = options.multiplier === undefined ? integerDecimal(1) : parseDecimal(options.multiplier, 'options.multiplier');
  const round = options.round;
  if (round !== undefined && (!Number.isSafeInteger(round.places) || round.places < 0 || round.places > 30))
    throw new RangeError(`options.round.places must be a whole number from 0 to 30, got ${String(round.places)}`);
  const inputTokens = tokens(usage, 'inputTokens');
  const cached = tokens(usage, 'cachedInputTokens');
  const written = tokens(usage, 'cacheWriteInputTokens');
  if (cached + written > inputTokens) throw new RangeError(`usage.cachedInputTokens + usage.cacheWriteInputTokens (${cached + written}) exceed usage.inputTokens (${inputTokens})`);
  const outputTokens = tokens(usage, 'outputTokens');
  const reasoningTokens = rates.reasoning === undefined ? 0 : tokens(usage, 'reasoningTokens');
  if (reasoningTokens > outputTokens) throw new RangeError(`usage.reasoningTokens (${reasoningTokens}) exceed usage.outputTokens (${outputTokens})`);

  const line = (count: number, rate: Decimal | undefined): Decimal =>
    rate === undefined ? integerDecimal(0) : shiftDecimal(multiplyDecimal(multiplyDecimal(integerDecimal(count), rate), multiplier), MILLION_PLACES);
  const lines = {
    input: line(inputTokens - cached - written, rates.input),
    cachedInput: line(cached, rates.cachedInput),
    cacheWrite: line(written, rates.cacheWrite),
    output: line(outputTokens - reasoningTokens, rates.output),
    reasoning: line(reasoningTokens, rates.reasoning),
  };
  const total = Object.values(lines).reduce(addDecimal);
  const text = (amount: Decimal): string => (round === undefined ? formatDecimal(amount) : formatDecimal(roundDecimal(amount, round.places, round.mode ?? 'half-even'), true));
  return {
    total: text(total),
    input: text(lines.input),
    cachedInput: text(lines.cachedInput),
    cacheWrite: text(lines.cacheWrite),
    output: text(lines.output),
    reasoning: text(lines.reasoning),
  };
}
