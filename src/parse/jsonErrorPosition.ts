/**
 * Find where JSON text first goes wrong, for engines whose `JSON.parse` messages carry no position
 * (V8 says only "Unexpected token 'C', … is not valid JSON"). One left-to-right pass with an
 * explicit stack of open containers: no recursion, so any nesting depth is fine (100,000 `[` cost
 * a 100,000-entry array, not 100,000 stack frames).
 *
 * The position is the one {@link PartialJsonParser} reports for the same text (the first character
 * that cannot continue valid JSON, or the text's length when it ends too early); the two are
 * property-tested against each other.
 *
 * @module
 */

// What the next non-whitespace character may be.
const VALUE = 0; // a value (the root, after ':' or after ',' in an array)
const ARR_FIRST = 1; // a value or ']'
const OBJ_FIRST = 2; // a key or '}'
const OBJ_KEY = 3; // a key
const COLON = 4; // ':'
const AFTER = 5; // ',' or the closing bracket
const END = 6; // nothing (the root value is complete)

// Number grammar states; the terminal ones are ZERO, INT, FRAC and EXP.
const N_SIGN = 0;
const N_ZERO = 1;
const N_INT = 2;
const N_DOT = 3;
const N_FRAC = 4;
const N_E = 5;
const N_ESIGN = 6;
const N_EXP = 7;

const LITERALS: Record<number, string> = { 116: 'true', 102: 'false', 110: 'null' };

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);
}

/** Errors are returned as `-(position + 1)` by the token readers below. */
const failAt = (position: number): number => -position - 1;

/** Read the string whose opening quote is at `i`; the position after its closing quote, or a failure. */
function readString(s: string, i: number): number {
  const n = s.length;
  let j = i + 1;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c === 34) return j + 1;
    if (c < 32) return failAt(j);
    if (c !== 92) {
      j++;
      continue;
    }
    if (j + 1 >= n) return failAt(n);
    const e = s.charCodeAt(j + 1);
    if (e === 117) {
      for (let k = j + 2; k < j + 6; k++) {
        if (k >= n) return failAt(n);
        if (!isHex(s.charCodeAt(k))) return failAt(k);
      }
      j += 6;
    } else if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) j += 2;
    else return failAt(j + 1);
  }
  return failAt(n);
}

/** Read the number starting at `i` (a '-' or a digit); the position after it, or a failure. */
function readNumber(s: string, i: number): number {
  const n = s.length;
  const first = s.charCodeAt(i);
  let st = first === 45 ? N_SIGN : first === 48 ? N_ZERO : N_INT;
  let j = i + 1;
  for (; j < n; j++) {
    const c = s.charCodeAt(j);
    if (c >= 48 && c <= 57) {
      if (st === N_SIGN) st = c === 48 ? N_ZERO : N_INT;
      else if (st === N_ZERO) break;
      else if (st === N_DOT) st = N_FRAC;
      else if (st === N_E || st === N_ESIGN) st = N_EXP;
    } else if (c === 46 && (st === N_ZERO || st === N_INT)) st = N_DOT;
    else if ((c === 101 || c === 69) && (st === N_ZERO || st === N_INT || st === N_FRAC)) st = N_E;
    else if ((c === 43 || c === 45) && st === N_E) st = N_ESIGN;
    else break;
  }
  return st === N_ZERO || st === N_INT || st === N_FRAC || st === N_EXP ? j : failAt(j);
}

/** Read `true`, `false` or `null` starting at `i`; the position after it, or a failure. */
function readLiteral(s: string, i: number, word: string): number {
  for (let k = 1; k < word.length; k++) {
    if (i + k >= s.length) return failAt(s.length);
    if (s.charCodeAt(i + k) !== word.charCodeAt(k)) return failAt(i + k);
  }
  return i + word.length;
}

/** The character offset of the first JSON syntax error in `text`, or `undefined` when it is valid. */
export function jsonErrorPosition(text: string): number | undefined {
  const n = text.length;
  const open: boolean[] = []; // true: an array, false: an object
  let state = VALUE;
  let i = 0;
  for (;;) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) return state === END ? undefined : n;
    const c = text.charCodeAt(i);
    let next: number; // where the token read below ends (or a failure)
    switch (state) {
      case END:
        return i;
      case COLON:
        if (c !== 58) return i;
        i++;
        state = VALUE;
        continue;
      case AFTER: {
        const arr = open[open.length - 1] as boolean;
        if (c === 44) {
          i++;
          state = arr ? VALUE : OBJ_KEY;
          continue;
        }
        if (c !== (arr ? 93 : 125)) return i;
        open.pop();
        i++;
        state = open.length > 0 ? AFTER : END;
        continue;
      }
      case OBJ_FIRST:
      case OBJ_KEY:
        if (c === 125 && state === OBJ_FIRST) {
          open.pop();
          i++;
          state = open.length > 0 ? AFTER : END;
          continue;
        }
        if (c !== 34) return i;
        next = readString(text, i);
        if (next < 0) return -next - 1;
        i = next;
        state = COLON;
        continue;
      default: // VALUE or ARR_FIRST
        if (c === 93 && state === ARR_FIRST) {
          open.pop();
          i++;
          state = open.length > 0 ? AFTER : END;
          continue;
        }
        if (c === 91 || c === 123) {
          open.push(c === 91);
          i++;
          state = c === 91 ? ARR_FIRST : OBJ_FIRST;
          continue;
        }
        if (c === 34) next = readString(text, i);
        else if (c === 45 || (c >= 48 && c <= 57)) next = readNumber(text, i);
        else if (LITERALS[c] !== undefined) next = readLiteral(text, i, LITERALS[c]);
        else return i;
        if (next < 0) return -next - 1;
        i = next;
        state = open.length > 0 ? AFTER : END;
    }
  }
}
