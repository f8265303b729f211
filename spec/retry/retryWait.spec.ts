/**
 * Waits a provider asks for, against a hostile upstream: a wait too long to represent
 * stays a wait (`Infinity`, never "no wait asked"), a wait over `maxRetryAfterMs` or not finite is
 * not retried (the stream ends with the typed error, whose `retryAfterMs` shows what was asked),
 * and no timer is ever armed past 2^31 − 1 ms. Property tests over the four parsers
 * (`Retry-After`, `retry-after-ms`, `retry_after` / `retry_after_ms`, Gemini's `RetryInfo`) and the
 * policy.
 */
import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { isToolStreamError, retryStream, type StreamEvent } from 'rxjs-tool-calls';
import { httpProviderError, retryAfterMs } from 'rxjs-tool-calls/advanced';
import { MAX_TIMER_MS, retryWait } from '../../src/retry/policy';
import { CHAT_PLAIN, httpError, virtualTime } from '../helpers/retryWire';

const headers = (record: Record<string, string>) => new Headers(record);
const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const decimal = fc.tuple(digits(1, 400), fc.option(digits(1, 20), { nil: undefined })).map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));
const NOW = Date.UTC(2026, 0, 1);

describe('retryAfterMs(headers): Retry-After and retry-after-ms', () => {
  it('retry-after-ms: any decimal of any length is its number of ms (Infinity when too long to represent), never undefined', () => {
    fc.assert(
      fc.property(decimal, (text) => {
        const ms = retryAfterMs(headers({ 'retry-after-ms': text }), NOW);
        expect(ms).toBe(Number(text));
        expect(ms).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });

  it('Retry-After seconds: any decimal of any length is 1000 × its value, never undefined', () => {
    fc.assert(
      fc.property(decimal, (text) => {
        const ms = retryAfterMs(headers({ 'retry-after': ` ${text} ` }), NOW);
        expect(ms).toBe(Number(text) * 1000);
      }),
      { numRuns: 500 },
    );
  });

  it('400 digits are Infinity (a wait was asked), not undefined', () => {
    expect(retryAfterMs(headers({ 'retry-after': '9'.repeat(400) }), NOW)).toBe(Infinity);
    expect(retryAfterMs(headers({ 'retry-after-ms': '9'.repeat(400) }), NOW)).toBe(Infinity);
  });

  it('more digits never ask for less', () => {
    fc.assert(
      fc.property(digits(1, 330), fc.integer({ min: 0, max: 9 }), (text, extra) => {
        const shorter = retryAfterMs(headers({ 'retry-after': text }), NOW) as number;
        const longer = retryAfterMs(headers({ 'retry-after': `${text}${extra}` }), NOW) as number;
        expect(longer).toBeGreaterThanOrEqual(shorter);
      }),
    );
  });

  it('an HTTP date is the time left until then (0 once passed)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_135_596_800_000, max: 8.64e15 }), (at) => {
        const date = new Date(Math.floor(at / 1000) * 1000);
        expect(retryAfterMs(headers({ 'retry-after': date.toUTCString() }), NOW)).toBe(Math.max(0, date.getTime() - NOW));
      }),
    );
  });

  it('a four-digit year before 100 is long past, though Date.parse reads 0049 as 2049', () => {
    expect(retryAfterMs(headers({ 'retry-after': 'Fri, 31 Dec 0049 23:59:59 GMT' }), NOW)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': 'Sun, 06 Nov 0001 08:49:37 GMT' }), NOW)).toBe(0);
  });

  it('a date past what Date can hold (a six-digit year and more) is Infinity', () => {
    expect(retryAfterMs(headers({ 'retry-after': 'Sun, 06 Nov 300000 08:49:37 GMT' }), NOW)).toBe(Infinity);
    expect(retryAfterMs(headers({ 'retry-after': `Sun, 06 Nov ${'9'.repeat(400)} 08:49:37 GMT` }), NOW)).toBe(Infinity);
  });

  it('anything else is undefined or a wait ≥ 0, never NaN or negative', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (ms, after) => {
        const safe = (s: string) => s.replace(/[^\t\x20-\x7e]/g, '');
        const value = retryAfterMs(headers({ 'retry-after-ms': safe(ms), 'retry-after': safe(after) }), NOW);
        if (value !== undefined) {
          expect(Number.isNaN(value)).toBe(false);
          expect(value).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe("payload hints: retry_after_ms, retry_after and Gemini's RetryInfo", () => {
  const retryInfo = (delay: string) => JSON.stringify({ error: { code: 429, message: 'slow down', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay }] } });

  it('RetryInfo: any decimal of seconds of any length is its ms, rounded (Infinity when too long)', () => {
    fc.assert(
      fc.property(decimal, (text) => {
        expect(httpProviderError(429, retryInfo(`${text}s`), '', 'gemini').retryAfterMs).toBe(Math.round(Number(text) * 1000));
      }),
      { numRuns: 300 },
    );
  });

  it('a 400-digit RetryInfo delay is Infinity', () => {
    expect(httpProviderError(429, retryInfo(`${'9'.repeat(400)}s`), '', 'gemini').retryAfterMs).toBe(Infinity);
  });

  it('retry_after (seconds) and retry_after_ms: any number ≥ 0, huge ones included, is kept', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }), (n) => {
        expect(httpProviderError(503, `{"error":{"message":"busy","retry_after":${JSON.stringify(n)}}}`).retryAfterMs).toBe(n * 1000);
        expect(httpProviderError(503, `{"error":{"message":"busy","retry_after_ms":${JSON.stringify(n)}}}`).retryAfterMs).toBe(n);
      }),
      { numRuns: 300 },
    );
  });

  it('retry_after: 1e306 and 1e400 are Infinity, not "no wait asked"', () => {
    expect(httpProviderError(503, '{"error":{"message":"busy","retry_after":1e306}}').retryAfterMs).toBe(Infinity);
    expect(httpProviderError(503, '{"error":{"message":"busy","retry_after":1e400}}').retryAfterMs).toBe(Infinity);
    expect(httpProviderError(503, '{"error":{"message":"busy","retry_after_ms":1e400}}').retryAfterMs).toBe(Infinity);
  });

  it('a negative or non-number hint is no hint', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ max: -Number.MIN_VALUE, noNaN: true }), fc.string(), fc.boolean(), fc.constant(null)), (hint) => {
        const body = JSON.stringify({ error: { message: 'busy', retry_after: hint, retry_after_ms: hint } });
        expect(httpProviderError(503, body).retryAfterMs).toBeUndefined();
      }),
    );
  });
});

describe('retryWait(): the policy (pure)', () => {
  const wait = fc.oneof(fc.double({ min: 0, noNaN: true }), fc.constant(Infinity), fc.integer({ min: 0, max: 2 * MAX_TIMER_MS }));

  it('retries exactly when the asked wait is finite and within the maximum, and the wait fits a timer; never waits less than asked', () => {
    fc.assert(
      fc.property(fc.option(wait, { nil: undefined }), fc.option(wait, { nil: undefined }), fc.oneof(wait, fc.constant(NaN), fc.double({ max: 0 })), (asked, max, backoff) => {
        let called = false;
        const result = retryWait(asked, max, () => ((called = true), backoff));
        const allowed = asked === undefined || (Number.isFinite(asked) && asked <= (max ?? 60_000));
        expect(called).toBe(allowed);
        if (!allowed) return expect(result).toBeUndefined();
        const expected = Math.max(0, Number.isNaN(backoff) ? 0 : backoff, asked ?? 0);
        if (expected > MAX_TIMER_MS) return expect(result).toBeUndefined();
        expect(result).toBe(expected);
        expect(result).toBeLessThanOrEqual(MAX_TIMER_MS);
        expect(result).toBeGreaterThanOrEqual(asked ?? 0);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    [60_000, undefined, 60_000],
    [59_999, undefined, 59_999],
    [60_001, undefined, undefined],
    [Infinity, Infinity, undefined],
    [MAX_TIMER_MS, Infinity, MAX_TIMER_MS],
    [MAX_TIMER_MS + 1, Infinity, undefined],
    [2_200_000_000, Infinity, undefined],
  ])('asked %p with maxRetryAfterMs %p: waits %p', (asked, max, expected) => {
    expect(retryWait(asked, max, () => 0)).toBe(expected);
  });

  it('a backoff of Infinity, or past 2^31 − 1 ms, is not retried (no timer that fires at once)', () => {
    expect(retryWait(undefined, undefined, () => Infinity)).toBeUndefined();
    expect(retryWait(undefined, undefined, () => MAX_TIMER_MS + 1)).toBeUndefined();
    expect(retryWait(undefined, undefined, () => MAX_TIMER_MS)).toBe(MAX_TIMER_MS);
    expect(retryWait(500, undefined, () => NaN)).toBe(500);
  });
});

describe('retryStream() with hostile waits', () => {
  /** Run in virtual time: the events before the error, and the error. */
  function outcome(retryAfter: number | undefined, options: { maxRetryAfterMs?: number; backoff?: () => number }): { attempts: number; events: string[]; error: unknown } {
    const scheduler = virtualTime();
    let attempts = 0;
    const events: string[] = [];
    let error: unknown;
    scheduler.run(({ cold }) => {
      retryStream(
        () => {
          attempts++;
          return attempts === 1 ? cold<string>('#', undefined, httpError(429, retryAfter)) : cold('(a|)', { a: CHAT_PLAIN.join('') });
        },
        { scheduler, ...options },
      ).subscribe({ next: (e: StreamEvent) => events.push(e.type === 'retry' ? `retry ${e.delayMs}` : e.type), error: (e: unknown) => (error = e) });
    });
    return { attempts, events, error };
  }

  it.each([
    ['Infinity', Infinity, {}],
    ['Infinity, with maxRetryAfterMs: Infinity', Infinity, { maxRetryAfterMs: Infinity }],
    ['2,200,000 s, with maxRetryAfterMs: Infinity (past 2^31 − 1 ms)', 2_200_000_000, { maxRetryAfterMs: Infinity }],
    ['60,001 ms with the default maxRetryAfterMs', 60_001, {}],
  ])('a provider asking for %s is not retried: the typed error ends the stream, retryAfterMs shows the wait', (_name, asked, options) => {
    const { attempts, events, error } = outcome(asked, options);
    expect(attempts).toBe(1);
    expect(events).toEqual([]);
    expect(isToolStreamError(error, 'provider-error')).toBe(true);
    expect((error as { retryAfterMs: number }).retryAfterMs).toBe(asked);
  });

  it('a wait of exactly 60,000 ms (the default maxRetryAfterMs) is waited for', () => {
    const { attempts, events, error } = outcome(60_000, { backoff: () => 0 });
    expect(error).toBeUndefined();
    expect(attempts).toBe(2);
    expect(events[0]).toBe('retry 60000');
  });

  it('a backoff of Infinity ends the stream with the error instead of retrying at once', () => {
    const { attempts, events, error } = outcome(undefined, { backoff: () => Infinity });
    expect(attempts).toBe(1);
    expect(events).toEqual([]);
    expect(isToolStreamError(error, 'provider-error')).toBe(true);
  });

  it('with real timers: a 2,200,000 s wait and maxRetryAfterMs Infinity ends at once, no retry after 1 ms', async () => {
    let attempts = 0;
    const run = lastValueFrom(
      retryStream(
        () => {
          attempts++;
          return Promise.reject(httpProviderError(429, '{"error":{"message":"slow"}}', '', 'http', 2_200_000_000));
        },
        { maxRetryAfterMs: Infinity },
      ).pipe(toArray()),
    );
    await expect(run).rejects.toMatchObject({ code: 'provider-error', retryAfterMs: 2_200_000_000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(attempts).toBe(1);
  });
});
