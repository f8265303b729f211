// What the docs promise about waits a provider asks for: `maxRetryAfterMs` defaults to 60 s; a
// wait exactly that long is waited for, one ms longer is not (the provider-error ends the stream);
// the same at a maximum of your own; and from a second angle, a property over retryStream() in
// virtual time, and the header parser feeding it.
import fc from 'fast-check';
import { retryStream, type RetryStreamOptions, ToolStreamError } from 'rxjs-tool-calls';
import { httpProviderError, retryAfterMs } from 'rxjs-tool-calls/advanced';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { testScheduler } from '../helpers/marbles';

const OK = [openaiChunk({ role: 'assistant', content: 'hi' }), openaiChunk({ finishReason: 'stop' }), openaiDone()].join('');

/** A 429 asking for `askedMs`, then a good response: did retryStream() retry, after how long? */
function outcome(askedMs: number, options: Pick<RetryStreamOptions, 'maxRetryAfterMs'> = {}): { attempts: number; delays: number[]; error: unknown; at: number } {
  const scheduler = testScheduler();
  let attempts = 0;
  const delays: number[] = [];
  let error: unknown;
  let at = -1;
  scheduler.run(({ cold }) => {
    retryStream(
      () => {
        attempts++;
        if (attempts === 1) return cold<string>('#', undefined, httpProviderError(429, '{"error":{"message":"slow down","type":"rate_limit_error"}}', 'Too Many Requests', 'http', askedMs));
        at = scheduler.now();
        return cold('(a|)', { a: OK });
      },
      { scheduler, backoff: () => 0, ...options },
    ).subscribe({ next: (e) => e.type === 'retry' && delays.push(e.delayMs), error: (e: unknown) => (error = e) });
  });
  return { attempts, delays, error, at };
}

describe('maxRetryAfterMs: 60,000 by default', () => {
  it.each([59_999, 60_000])('a provider asking for %i ms is retried after exactly that wait', (asked) => {
    const { attempts, delays, error, at } = outcome(asked);
    expect(error).toBeUndefined();
    expect(attempts).toBe(2);
    expect(delays).toEqual([asked]);
    expect(at).toBe(asked);
  });

  it('one ms more (60,001) is not waited for: the provider-error ends the stream, retryAfterMs shows the wait', () => {
    const { attempts, delays, error } = outcome(60_001);
    expect(attempts).toBe(1);
    expect(delays).toEqual([]);
    expect(error).toBeInstanceOf(ToolStreamError);
    expect(error).toMatchObject({ code: 'provider-error', status: 429, retryAfterMs: 60_001 });
  });
});

describe('maxRetryAfterMs of your own', () => {
  it.each([
    [29, true],
    [30, true],
    [31, false],
  ])('with maxRetryAfterMs 30, a wait of %i ms is retried: %s', (asked, retried) => {
    const { attempts, delays } = outcome(asked, { maxRetryAfterMs: 30 });
    expect(attempts).toBe(retried ? 2 : 1);
    expect(delays).toEqual(retried ? [asked] : []);
  });

  it('0 takes only a wait of 0', () => {
    expect(outcome(0, { maxRetryAfterMs: 0 }).attempts).toBe(2);
    expect(outcome(1, { maxRetryAfterMs: 0 }).attempts).toBe(1);
  });

  it('retried exactly when the wait is at most the maximum, and then after exactly that wait (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined }), (asked, max) => {
        const { attempts, delays } = outcome(asked, max === undefined ? {} : { maxRetryAfterMs: max });
        const retried = asked <= (max ?? 60_000);
        expect(attempts).toBe(retried ? 2 : 1);
        expect(delays).toEqual(retried ? [asked] : []);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the headers that ask, at the default boundary', () => {
  it.each([
    [{ 'retry-after': '60' }, 60_000, true],
    [{ 'retry-after': '60.001' }, 60_001, false],
    [{ 'retry-after-ms': '60000' }, 60_000, true],
    [{ 'retry-after-ms': '60000.5' }, 60_000.5, false],
  ])('%j asks for %p ms: retried %s', (headers, asked, retried) => {
    const wait = retryAfterMs(new Headers(headers));
    expect(wait).toBe(asked);
    expect(outcome(wait as number).attempts).toBe(retried ? 2 : 1);
  });
});
