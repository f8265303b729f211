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

// Number grammar states; the terminal ones are ZERO, INT, FRAC and EXP.
const N_SIGN = 1;
const N_ZERO = 2;
const N_INT = 3;
const N_DOT = 4;
const N_FRAC = 5;
const N_E = 6;
const N_ESIGN = 7;
const N_EXP = 8;
/**
 * Numbers without an exponent and with at most this many digits are computed as they arrive: the
 * digits as an integer m < 2^53 (exact), then m / 10^k for k fraction digits, one correctly
 * rounded division of two exact doubles (the fast path of Clinger's algorithm, which `Number()`
 * uses too), so the result is the same as `Number(text)`.
 */
const FAST_DIGITS = 15;
/** Powers of ten up to 10^15 (all exact doubles). */
const POWERS = Array.from({ length: FAST_DIGITS + 1 }, (_, k) => 10 ** k);

/**
 * Reads one JSON number across fragments: checks the grammar, keeps the text only when the number
 * spans fragments, and computes plain integers (`-42`) without building a string or calling
 * `Number()`.
 */
export class NumberReader {
  /** The value so far, kept only with `allowPartialLiterals` (see {@link NumberPreview}). */
  readonly preview = new NumberPreview();
  private st = N_SIGN;
  /** The text from earlier fragments. */
  private text = '';
  /** Where the number starts in the current fragment (0 when it began in an earlier one). */
  private from = 0;
  private negative = false;
  /** The digits so far as an integer (exact while `digits` ≤ {@link FAST_DIGITS}). */
  private magnitude = 0;
  private digits = 0;
  /** How many of them are after the point. */
  private fraction = 0;

  /**
   * Start at `s[at]`, a '-' or a digit.
   *
   * @param s The fragment.
   * @param at The position of the number's first character.
   * @param preview Whether to keep {@link preview} up to date.
   */
  start(s: string, at: number, preview: boolean): void {
    const c = s.charCodeAt(at);
    this.st = c === 45 ? N_SIGN : c === 48 ? N_ZERO : N_INT;
    this.text = at + 1 === s.length ? s.slice(at) : ''; // the fragment ends here: keep the text now
    this.from = at + 1 === s.length ? 0 : at;
    this.negative = c === 45;
    this.magnitude = c === 45 ? 0 : c - 48;
    this.digits = c === 45 ? 0 : 1;
    this.fraction = 0;
    if (preview) {
      this.preview.reset();
      this.preview.feed(s, at, at + 1);
    }
  }

  /**
   * Read characters from `s[i]` while they fit the grammar.
   *
   * @return The position of the first character that does not (`n` when all did).
   */
  scan(s: string, i: number, n: number, preview: boolean): number {
    let st = this.st;
    let j = i;
    for (; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c >= 48 && c <= 57) {
        if (st === N_INT || st === N_SIGN) {
          if (st === N_SIGN) st = c === 48 ? N_ZERO : N_INT;
          this.magnitude = this.magnitude * 10 + (c - 48);
          this.digits++;
        } else if (st === N_DOT || st === N_FRAC) {
          st = N_FRAC;
          this.magnitude = this.magnitude * 10 + (c - 48);
          this.digits++;
          this.fraction++;
        } else if (st === N_ZERO) break;
        else if (st === N_E || st === N_ESIGN) st = N_EXP;
      } else if (c === 46 && (st === N_ZERO || st === N_INT)) st = N_DOT;
      else if ((c === 101 || c === 69) && (st === N_ZERO || st === N_INT || st === N_FRAC)) st = N_E;
      else if ((c === 43 || c === 45) && st === N_E) st = N_ESIGN;
      else break;
    }
    this.st = st;
    if (preview && j > i) this.preview.feed(s, i, j);
    if (j === n) {
      this.text += this.from === 0 ? s : s.slice(this.from);
      this.from = 0;
    }
    return j;
  }

  /** Whether the characters so far form a complete number (`-` and `1.` do not). */
  get complete(): boolean {
    const st = this.st;
    return st === N_ZERO || st === N_INT || st === N_FRAC || st === N_EXP;
  }

  /**
   * The value of the number, which ends before `s[at]`.
   *
   * @param s The current fragment ('' at the end of the input).
   * @param at Where the number ends in it.
   */
  value(s: string, at: number): number {
    if (this.digits <= FAST_DIGITS && this.st !== N_EXP) {
      const magnitude = this.fraction === 0 ? this.magnitude : this.magnitude / (POWERS[this.fraction] as number);
      return this.negative ? -magnitude : magnitude;
    }
    const text = this.text + s.slice(this.from, at);
    this.text = '';
    return Number(text);
  }
}
