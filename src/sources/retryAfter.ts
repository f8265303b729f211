/**
 * The delay an HTTP error response asks for before a retry (`Retry-After`, `retry-after-ms`).
 *
 * @module
 */

/** The part of a `Headers` object (fetch, Angular's `HttpHeaders`) that is read: a case-insensitive `get`. */
export interface HeadersLike {
  /** The header's value, `null` (or `undefined`) when absent. */
  get(name: string): string | null | undefined;
}

/** A non-negative decimal number of units, as the headers write it (`120`, `1.5`; any number of digits). */
const DECIMAL = /^\d+(\.\d+)?$/;
/** An HTTP date form with a year of six digits or more: past what a `Date` can hold when `Date.parse` gives up. */
const FAR_DATE = /^[A-Za-z]{3}.*\b\d{6,}\b/;
/** A four-digit year before 100 (`0049`), which `Date.parse` reads as a two-digit one (2049): long past. */
const EARLY_YEAR = /\b00\d\d\b/;

/**
 * The delay, in milliseconds, that a failed response asks for before a retry: `retry-after-ms`
 * (milliseconds, as OpenAI sends it) when present, else `Retry-After` as seconds (`120`) or as an
 * HTTP date (the time left until then, 0 when it has passed). `undefined` when neither is present
 * or readable.
 *
 * A wait too long to represent stays a wait: 400 digits of seconds, or a date past the year
 * 275,760, are `Infinity` (never `undefined`, which would read as "no wait asked"), so the retry
 * policy refuses it instead of retrying at once.
 *
 * @param headers The response headers.
 * @param now The current time in ms since the epoch (for an HTTP date).
 */
export function retryAfterMs(headers: HeadersLike | undefined, now = Date.now()): number | undefined {
  if (headers === undefined || typeof headers.get !== 'function') return undefined;
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms !== undefined && DECIMAL.test(ms)) return Number(ms);
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (DECIMAL.test(value)) return Number(value) * 1000;
  // An HTTP date starts with the day's name (IMF-fixdate, RFC 850 and asctime forms alike).
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  if (EARLY_YEAR.test(value)) return 0;
  const date = Date.parse(value);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return FAR_DATE.test(value) ? Infinity : undefined;
}
