/**
 * `costOf()`: what a usage costs at a caller's prices, in exact decimal arithmetic.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { Usage } from '../../events';
import { anObject, anything, checkOptions, checkOptionsAt, type OptionChecks } from '../../internal/options';
import { addDecimal, formatDecimal, integerDecimal, MAX_PLACES, multiplyDecimal, parseDecimal, roundDecimal, ROUNDING_MODES, shiftDecimal, type Decimal, type RoundingMode } from './decimal';

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
const MODES_TEXT = "one of 'half-even', 'half-up', 'down', 'up'";

/** The checks of {@link CostOptions}' keys (the values are read where they are used: `multiplier` as a decimal, `round` below). */
const COST_OPTION_CHECKS: OptionChecks = { multiplier: anything, round: (value) => (anObject(value) === undefined ? undefined : 'an object { places, mode? }') };

/** The checks of `round`'s keys (`places` is required, and read below). */
const ROUND_OPTION_CHECKS: OptionChecks = { places: anything, mode: anything };

/** Throw `invalid-option` for the value at `option` among `costOf()`'s arguments. */
function invalid(option: string, value: unknown, expected: string): never {
  throw new ToolStreamError('invalid-option', { function: 'costOf', option, value, expected });
}

function tokens(usage: Usage, field: keyof Usage): number {
  const value = (usage as Record<string, unknown>)[field];
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) invalid(`usage.${field}`, value, 'a whole number of tokens ≥ 0');
  return value;
}

/** `options.round`, checked: `places` a whole number from 0 to 30, `mode` one of the four modes (exactly). */
function roundOption(options: CostOptions): { readonly places: number; readonly mode: RoundingMode } | undefined {
  const round = options.round as Readonly<Record<string, unknown>> | undefined;
  if (round === undefined) return undefined;
  checkOptionsAt('costOf', 'options.round', round, [ROUND_OPTION_CHECKS]);
  const places = round['places'];
  if (typeof places !== 'number' || !Number.isSafeInteger(places) || places < 0 || places > MAX_PLACES) invalid('options.round.places', places, `a whole number from 0 to ${MAX_PLACES}`);
  const mode = round['mode'] === undefined ? 'half-even' : round['mode'];
  if (typeof mode !== 'string' || !ROUNDING_MODES.has(mode)) invalid('options.round.mode', mode, MODES_TEXT);
  return { places, mode: mode as RoundingMode };
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
 * 3. Absent counts are 0. Every bad argument or option throws a `ToolStreamError` of code
 *    `invalid-option` whose `option` names it (`'options.round.mode'`, `'price.input'`,
 *    `'usage.inputTokens'`), with `value` (what was given) and `expected`: a price or multiplier
 *    that is not a finite non-negative decimal (at most 30 places, 60 digits), a count that is not a
 *    whole number ≥ 0, more cached (and cache-write) tokens than input tokens, more reasoning than
 *    output tokens, `round.places` not a whole number from 0 to 30, a `round.mode` that is not
 *    exactly one of the four (`'half_up'`, `'HALF-UP'`, `'ceil'`, `''` are refused, never rounded
 *    half-even), an option key that does not exist (`{ round: { mod: 'up' } }`: the error names
 *    the keys it takes, and the closest one).
 *
 * @example
 * ```ts
 * import { costOf } from 'rxjs-tool-calls/gateway';
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
 * @throws {ToolStreamError} `invalid-option`, for an argument or option it cannot take.
 */
export function costOf(usage: Usage, price: TokenPrice, options: CostOptions = {}): Cost {
  checkOptions('costOf', options, COST_OPTION_CHECKS);
  const round = roundOption(options);
  if (typeof usage !== 'object' || usage === null) invalid('usage', usage, 'a usage object');
  if (typeof price !== 'object' || price === null) invalid('price', price, 'a price object { input, output, … }');
  const input = parseDecimal(price.input, 'price.input');
  const rates = {
    input,
    output: parseDecimal(price.output, 'price.output'),
    cachedInput: price.cachedInput === undefined ? input : parseDecimal(price.cachedInput, 'price.cachedInput'),
    cacheWrite: price.cacheWrite === undefined ? input : parseDecimal(price.cacheWrite, 'price.cacheWrite'),
    reasoning: price.reasoning === undefined ? undefined : parseDecimal(price.reasoning, 'price.reasoning'),
  };
  const multiplier = options.multiplier === undefined ? integerDecimal(1) : parseDecimal(options.multiplier, 'options.multiplier');
  const inputTokens = tokens(usage, 'inputTokens');
  const cached = tokens(usage, 'cachedInputTokens');
  const written = tokens(usage, 'cacheWriteInputTokens');
  if (cached + written > inputTokens) invalid('usage.cachedInputTokens', cached, `at most usage.inputTokens − usage.cacheWriteInputTokens (${inputTokens} − ${written})`);
  const outputTokens = tokens(usage, 'outputTokens');
  const reasoningTokens = rates.reasoning === undefined ? 0 : tokens(usage, 'reasoningTokens');
  if (reasoningTokens > outputTokens) invalid('usage.reasoningTokens', reasoningTokens, `at most usage.outputTokens (${outputTokens})`);

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
  const text = (amount: Decimal): string => (round === undefined ? formatDecimal(amount) : formatDecimal(roundDecimal(amount, round.places, round.mode), true));
  return {
    total: text(total),
    input: text(lines.input),
    cachedInput: text(lines.cachedInput),
    cacheWrite: text(lines.cacheWrite),
    output: text(lines.output),
    reasoning: text(lines.reasoning),
  };
}
