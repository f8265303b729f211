/**
 * The value of a number while it is being received (`allowPartialLiterals`), kept up to date one
 * character at a time in O(1) amortized work, however long the number grows.
 *
 * Re-reading the whole text on every value (`Number('1234…')`) is quadratic on a long number. A
 * decimal's nearest double depends only on its sign, its first {@link MAX_DIGITS} significant
 * digits, whether any later digit is non-zero, and its decimal exponent: every double and every
 * midpoint between two doubles has fewer significant digits than that, so truncating there and
 * keeping a non-zero "sticky" digit compares the same way against all of them. So this keeps just
 * those, and evaluates `Number()` on at most ~800 characters, only when the value can change.
 *
 * @module
 * @internal
 */

/** Enough significant digits for correct rounding of any decimal (double midpoints have at most 767). */
const MAX_DIGITS = 800;
/** A decimal exponent beyond this in magnitude gives ±Infinity or ±0 whatever the digits. */
const MAX_EXPONENT = 1e9;

const INT = 0;
const FRAC = 1;
const EXP = 2;

/** The running value of the longest complete prefix of a number (`-12.` → -12, `3e` → 3, `-` → none). */
export class NumberPreview {
  private negative = false;
  /** Significant digits (from the first non-zero one), at most {@link MAX_DIGITS}. */
  private digits = '';
  /** A non-zero digit was dropped after the first {@link MAX_DIGITS}. */
  private sticky = false;
  /** Whether any mantissa digit arrived (`-` alone has no value). */
  private hasDigit = false;
  /** Integer digits from the first significant one on (dropped ones included). */
  private intDigits = 0;
  /** Zeros after the point before the first significant digit (when the integer part is 0). */
  private leadingZeros = 0;
  private part = INT;
  private exponentNegative = false;
  private exponent = 0;
  private cached: number | undefined = undefined;
  private stale = false;

  /** Start a new number. */
  reset(): void {
    this.negative = this.sticky = this.hasDigit = this.exponentNegative = this.stale = false;
    this.digits = '';
    this.intDigits = this.leadingZeros = this.exponent = 0;
    this.part = INT;
    this.cached = undefined;
  }

  /**
   * Take the characters `s[from..to)`, which the caller has checked against the number grammar.
   *
   * @param s The fragment.
   * @param from The first character of the number in it.
   * @param to The position after the last one.
   */
  feed(s: string, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      if (c >= 48 && c <= 57) this.digit(c - 48);
      else if (c === 46) this.part = FRAC;
      else if (c === 101 || c === 69) this.part = EXP;
      else if (c === 45) {
        if (this.part === EXP) this.exponentNegative = true;
        else this.negative = true;
      } // '+' (only in an exponent) changes nothing
    }
  }

  private digit(d: number): void {
    if (this.part === EXP) {
      const exponent = Math.min(this.exponent * 10 + d, MAX_EXPONENT);
      if (exponent !== this.exponent && this.digits !== '') this.stale = true;
      this.exponent = exponent;
      return;
    }
    if (!this.hasDigit) {
      this.hasDigit = true;
      this.stale = true; // from "no value" to a value
    }
    if (this.digits === '') {
      if (d === 0) {
        if (this.part === FRAC) this.leadingZeros++;
        return; // still ±0
      }
      this.digits = String(d);
      if (this.part === INT) this.intDigits = 1;
      this.stale = true;
      return;
    }
    let changed = false;
    if (this.part === INT) {
      this.intDigits++; // × 10
      changed = true;
    }
    if (this.digits.length < MAX_DIGITS) {
      this.digits += String(d);
      changed = true;
    } else if (d !== 0 && !this.sticky) {
      this.sticky = true;
      changed = true;
    }
    // More mantissa digits never shrink the magnitude: ±Infinity stays.
    if (changed && (this.cached === undefined || Number.isFinite(this.cached))) this.stale = true;
  }

  /** The value of the longest complete prefix, or `undefined` before the first digit. */
  value(): number | undefined {
    if (!this.stale) return this.cached;
    this.stale = false;
    if (!this.hasDigit) this.cached = undefined;
    else if (this.digits === '') this.cached = this.negative ? -0 : 0;
    else {
      const exponent = this.intDigits - this.leadingZeros + (this.exponentNegative ? -this.exponent : this.exponent);
      this.cached = Number(`${this.negative ? '-' : ''}0.${this.digits}${this.sticky ? '1' : ''}e${exponent}`);
    }
    return this.cached;
  }
}
