/**
 * Checking a public function's options when it is made: a key it does not take (a typo such as
 * `tool` for `tools`) and a value it cannot use (`maxToolCalls: -1`, `provider: 'openai'`) are a
 * typed `invalid-option` error at once, instead of a default taken silently or a plain `TypeError`
 * at subscription.
 *
 * @module
 */
import { ToolStreamError } from '../errors';

/** What a value must be: `undefined` when `value` is fine, else what it should be (the error's `expected`). */
export type OptionCheck = (value: unknown) => string | undefined;

/** The checks of a function's options, by key: every key it takes is listed. */
export type OptionChecks = Readonly<Record<string, OptionCheck>>;

/** Any value (a key taken as it is, or checked where it is used). */
export const anything: OptionCheck = () => undefined;

/** `true` or `false`. */
export const aBoolean: OptionCheck = (value) => (typeof value === 'boolean' ? undefined : 'true or false');

/** A function. */
export const aFunction: OptionCheck = (value) => (typeof value === 'function' ? undefined : 'a function');

/** A string. */
export const aString: OptionCheck = (value) => (typeof value === 'string' ? undefined : 'a string');

/** An object (not `null`, not an array). */
export const anObject: OptionCheck = (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'an object');

/** A whole number of at least `min` (`Infinity` allowed when `infinite`). */
export function aCount(min: number, infinite = true): OptionCheck {
  const expected = `a whole number of at least ${min}${infinite ? ' (or Infinity)' : ''}`;
  return (value) => (typeof value === 'number' && value >= min && (Number.isInteger(value) || (infinite && value === Infinity)) ? undefined : expected);
}

/** A number of milliseconds, 0 or more (`Infinity` allowed). */
export const aWait: OptionCheck = (value) => (typeof value === 'number' && value >= 0 ? undefined : 'a number of milliseconds, 0 or more');

/** A number of milliseconds: finite and above 0. */
export const aDuration: OptionCheck = (value) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? undefined : 'a number of milliseconds above 0');

/** One of `values`. */
export function oneOf(values: ReadonlyArray<string | number | boolean>): OptionCheck {
  const expected = `one of ${values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ')}`;
  return (value) => (values.includes(value as string) ? undefined : expected);
}

/** Either check passes. */
export function either(a: OptionCheck, b: OptionCheck): OptionCheck {
  return (value) => {
    const first = a(value);
    if (first === undefined) return undefined;
    const second = b(value);
    return second === undefined ? undefined : `${first}, or ${second}`;
  };
}

/** The edit distance of two short strings (for "did you mean"). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** The known key closest to `key`, when it is close enough to be a typo of it. */
export function closest(key: string, known: ReadonlyArray<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = candidate.toLowerCase() === key.toLowerCase() ? 0 : distance(key, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

/**
 * Check a function's options: every key must be one the tables list and every value that is not
 * `undefined` must pass its check.
 *
 * @param fn The function's name, for the error (`'readToolCalls'`).
 * @param options What it was given (`undefined`: nothing to check).
 * @param tables Every key it takes, with its check (several tables: the options of the stages it is made of).
 * @throws {ToolStreamError} `invalid-option` naming the key, with the keys it takes (and the closest
 *   one, for a typo) or what the value must be.
 */
export function checkOptions(fn: string, options: object | undefined, ...tables: ReadonlyArray<OptionChecks>): void {
  checkOptionsAt(fn, 'options', options, tables);
}

/** {@link checkOptions} for options at `path` among the function's arguments (`'options.read'`). */
export function checkOptionsAt(fn: string, path: string, options: object | undefined, tables: ReadonlyArray<OptionChecks>): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ToolStreamError('invalid-option', { function: fn, option: path, value: options, expected: 'an object of options' });
  }
  for (const key in options) {
    if (!Object.prototype.hasOwnProperty.call(options, key)) continue;
    const value = (options as Record<string, unknown>)[key];
    const check = checkOf(tables, key);
    if (check === undefined) {
      const known = tables.flatMap((table) => Object.keys(table));
      const near = closest(key, known);
      const expected = `an option ${fn}() takes${near === undefined ? '' : ` (did you mean '${near}'?)`}: ${known.join(', ')}`;
      throw new ToolStreamError('invalid-option', { function: fn, option: `${path}.${key}`, value, expected });
    }
    if (value === undefined) continue;
    const wrong = check(value);
    if (wrong !== undefined) throw new ToolStreamError('invalid-option', { function: fn, option: `${path}.${key}`, value, expected: wrong });
  }
}

function checkOf(tables: ReadonlyArray<OptionChecks>, key: string): OptionCheck | undefined {
  for (const table of tables) if (Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  return undefined;
}

/**
 * The options of `options` that the tables list: what a function made of other public functions
 * hands each of them (it checked all of its options itself, with all the tables).
 */
export function pickOptions<T extends object>(options: T, ...tables: ReadonlyArray<OptionChecks>): Partial<T> {
  const picked: Record<string, unknown> = {};
  for (const key in options) {
    if (Object.prototype.hasOwnProperty.call(options, key) && checkOf(tables, key) !== undefined) picked[key] = (options as Record<string, unknown>)[key];
  }
  return picked as Partial<T>;
}
