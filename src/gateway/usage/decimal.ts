/**
 * Exact non-negative decimals on `BigInt` (value = `digits / 10^scale`), for `costOf()`: no
 * floating-point step anywhere, so `2.5 × 1.3` is `3.25`, never `3.2500000000000004`.
 *
 * @module
 */

import { ToolStreamError } from '../../errors';

/** A non-negative decimal: `digits / 10^scale`. */
export interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

/** How amounts are rounded: to the nearest (`half-even`: ties to even; `half-up`: ties away from zero), toward zero (`down`), or away from zero (`up`). */
export type RoundingMode = 'half-even' | 'half-up' | 'down' | 'up';

/** The most decimal places a price or multiplier may have. */
export const MAX_PLACES = 30;
/** The most digits a price or multiplier may have. */
export const MAX_DIGITS = 60;

/** Every rounding mode (a `Set`: only these exact strings). */
export const ROUNDING_MODES: ReadonlySet<string> = /* @__PURE__ */ new Set<RoundingMode>(['half-even', 'half-up', 'down', 'up']);

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A price or multiplier as an exact decimal: a finite non-negative number (read through its
 * shortest round-trip text, `0.1` is exactly 0.1) or a decimal string (`'2.50'`, `'1e-6'`).
 *
 * @param value What `costOf()` was given.
 * @param name Its path among `costOf()`'s arguments (`'price.input'`), for the error.
 * @throws {ToolStreamError} `invalid-option`: not a number or string, not finite, not a decimal,
 *   negative, more than {@link MAX_PLACES} decimal places or {@link MAX_DIGITS} digits.
 */
export function parseDecimal(value: unknown, name: string): Decimal {
  const invalid = (expected: string): never => {
    throw new ToolStreamError('invalid-option', { function: 'costOf', option: name, value, expected });
  };
  if (typeof value === 'number' && !Number.isFinite(value)) invalid('a finite number');
  if (typeof value !== 'number' && typeof value !== 'string') invalid('a number or a decimal string');
  const text = typeof value === 'number' ? String(value) : (value as string);
  if (text.startsWith('-') && text !== '-0') invalid('≥ 0');
  const match = DECIMAL.exec(text === '-0' ? '0' : text);
  if (match === null) return invalid("a decimal like '2.50' or '1e-6'");
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const shift = Number(exponent);
  const scale = Math.max(0, fraction.length - shift);
  if (scale > MAX_PLACES) invalid(`a decimal of at most ${MAX_PLACES} decimal places`);
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  const zeros = shift - fraction.length > 0 ? shift - fraction.length : 0;
  if (digits.length + zeros > MAX_DIGITS) invalid(`a decimal of at most ${MAX_DIGITS} digits`);
  return { digits: BigInt(digits) * 10n ** BigInt(zeros), scale };
}

/** A whole number of tokens as a decimal. */
export function integerDecimal(value: number): Decimal {
  return { digits: BigInt(value), scale: 0 };
}

/** `a × b`, exact. */
export function multiplyDecimal(a: Decimal, b: Decimal): Decimal {
  return { digits: a.digits * b.digits, scale: a.scale + b.scale };
}

/** `a + b`, exact. */
export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { digits: a.digits * 10n ** BigInt(scale - a.scale) + b.digits * 10n ** BigInt(scale - b.scale), scale };
}

/** `a / 10^places`, exact. */
export function shiftDecimal(a: Decimal, places: number): Decimal {
  return { digits: a.digits, scale: a.scale + places };
}

/** `a` rounded to `places` decimal places (the result's scale is `places`). */
export function roundDecimal(a: Decimal, places: number, mode: RoundingMode): Decimal {
  if (a.scale <= places) return { digits: a.digits * 10n ** BigInt(places - a.scale), scale: places };
  const divisor = 10n ** BigInt(a.scale - places);
  const quotient = a.digits / divisor;
  const remainder = a.digits % divisor;
  if (remainder === 0n) return { digits: quotient, scale: places };
  const twice = remainder * 2n;
  let up: boolean;
  if (mode === 'down') up = false;
  else if (mode === 'up') up = true;
  else if (twice !== divisor) up = twice > divisor;
  else up = mode === 'half-up' || quotient % 2n === 1n;
  return { digits: up ? quotient + 1n : quotient, scale: places };
}

/** The decimal text of `a`: every digit of its scale (`fixed`), or without trailing zeros. */
export function formatDecimal(a: Decimal, fixed = false): string {
  const text = a.digits.toString().padStart(a.scale + 1, '0');
  const whole = text.slice(0, text.length - a.scale);
  let fraction = text.slice(text.length - a.scale);
  if (!fixed) fraction = fraction.replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
