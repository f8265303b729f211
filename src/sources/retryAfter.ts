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

/**
 * The delay, in milliseconds, that a failed response asks for before a retry: `retry-after-ms`
 * (milliseconds, as OpenAI sends it) when present, else `Retry-After` as seconds (`120`) or as an
 * HTTP date (the time left until then, 0 when it has passed). `undefined` when neither is present
 * or readable.
 *
 * @param headers The response headers.
 * @param now The current time in ms since the epoch (for an HTTP date).
 */
export function retryAfterMs(headers: HeadersLike | undefined, now = Date.now()): number | undefined {
  if (headers === undefined || typeof headers.get !== 'function') return undefined;
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // An HTTP date starts with the day's name (IMF-fixdate, RFC 850 and asctime forms alike).
  const date = /^[A-Za-z]{3}/.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
