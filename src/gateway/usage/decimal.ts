/**
 * Exact non-negative decimals on `BigInt` (value = `digits / 10^scale`), for `costOf()`: no
 * floating-point step anywhere, so `2.5 × 1.3` is `3.25`, never `3.2500000000000004`.
 *
 * @module
 */

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
const MAX_DIGITS = 60;

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A price or multiplier as an exact decimal: a finite non-negative number (read through its
 * shortest round-trip text, `0.1` is exactly 0.1) or a decimal string (`'2.50'`, `'1e-6'`).
 *
 * @throws {TypeError} Not a number or string, not finite, or not a decimal.
 * @throws {RangeError} Negative, or more than {@link MAX_PLACES} decimal places.
 */
export function parseDecimal(value: unknown, name: string): Decimal {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`${name} must be a finite number, got ${value}`);
  if (typeof value !== 'number' && typeof value !== 'string') throw new TypeError(`${name} must be a number or a decimal string, got ${typeof value}`);
  const text = typeof value === 'number' ? String(value) : value;
  if (text.startsWith('-') && text !== '-0') throw new RangeError(`${name} must not be negative, got ${text}`);
  const match = DECIMAL.exec(text === '-0' ? '0' : text);
  if (match === null) throw new TypeError(`${name} must be a decimal like '2.50' or '1e-6', got ${JSON.stringify(text)}`);
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const shift = Number(exponent);
  const scale = Math.max(0, fraction.length - shift);
  if (scale > MAX_PLACES) throw new RangeError(`${name} has more than ${MAX_PLACES} decimal places: ${text}`);
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  const zeros = shift - fraction.length > 0 ? shift - fraction.length : 0;
  if (digits.length + zeros > MAX_DIGITS) throw new RangeError(`${name} has more than ${MAX_DIGITS} digits: ${text}`);
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
