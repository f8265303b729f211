/**
 * `retryStream()`'s policy in virtual time: retries before output (metadata and usage held back),
 * backoff (full jitter with an injected random, `backoff`, `retryAfterMs`, `maxRetryAfterMs`),
 * `maxAttempts`, `shouldRetry`, and unsubscription (during an attempt, during a wait, of a
 * synchronous source).
 */
import { asapScheduler, from, lastValueFrom, mergeMap, of, take, tap, toArray } from 'rxjs';
import type { ColdObservable } from 'rxjs/internal/testing/ColdObservable';
import type { TestScheduler } from 'rxjs/testing';
import { retryStream, type RetryContext, type RetryStreamOptions, type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { CHAT_PLAIN, eventsOf, httpError, virtualTime } from '../helpers/retryWire';

const META = openaiChunk({ role: 'assistant' });
const USAGE = openaiChunk({ usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 } });
const TEXT = CHAT_PLAIN[0] as string;
const FINISH = openaiChunk({ finishReason: 'stop' });
const WIRE = { m: META, u: USAGE, t: TEXT, f: FINISH, d: openaiDone() };

/** Attempts answered by the cold observables in order; the contexts they were made with. */
function scripted(attempts: ReadonlyArray<ColdObservable<string>>): { request: (context: RetryContext) => ColdObservable<string>; contexts: RetryContext[] } {
  const contexts: RetryContext[] = [];
  return {
    contexts,
    request: (context) => {
      contexts.push(context);
      const next = attempts[context.attempt - 1];
      if (next === undefined) throw new Error(`attempt ${context.attempt} was not expected`);
      return next;
    },
  };
}

/** The events of the uncut stream m, u, t, f, d, as marble values. */
async function values(): Promise<Record<string, StreamEvent>> {
  const [m, u, t, f, d] = await eventsOf([META, USAGE, TEXT, FINISH, openaiDone()]);
  return { m: m!, u: u!, t: t!, F: f!, D: d! };
}

function run(test: (helpers: Parameters<Parameters<TestScheduler['run']>[0]>[0], scheduler: TestScheduler) => void): void {
  const scheduler = virtualTime();
  scheduler.run((helpers) => test(helpers, scheduler));
}

describe('retryStream() before output', () => {
  it('retries a retryable failure transparently: metadata and usage wait for the first output', async () => {
    const v = await values();
    const error = httpError(503);
    run(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const first = cold('--m--u--#', WIRE, error);
      const second = cold('--m--u--t--f--(d|)', WIRE);
      const { request, contexts } = scripted([first, second]);
      expectObservable(retryStream(request, { scheduler, backoff: () => 3 })).toBe('--------r----------(mut)-(FD|)', { ...v, r: { type: 'retry', attempt: 2, error, delayMs: 3 } });
      expectSubscriptions(first.subscriptions).toBe('^-------!');
      expectSubscriptions(second.subscriptions).toBe('-----------^-------------!');
      scheduler.flush();
      expect(contexts).toEqual([{ attempt: 1 }, { attempt: 2, error }]);
    });
  });

  it('emits the last attempt metadata before its error when attempts run out', async () => {
    const v = await values();
    const error = httpError(503);
    run(({ cold, expectObservable }, scheduler) => {
      const { request } = scripted([cold('--m--#', WIRE, error)]);
      expectObservable(retryStream(request, { scheduler, maxAttempts: 1 })).toBe('-----(m#)', v, error);
    });
  });

  it('retries an idle timeout (idleTimeoutMs is per attempt)', async () => {
    const v = await values();
    run(({ cold, expectObservable }, scheduler) => {
      const { request } = scripted([cold('-'), cold('--t--f--(d|)', WIRE)]);
      const timeout = new ToolStreamError('idle-timeout', { timeoutMs: 5 });
      expectObservable(retryStream(request, { scheduler, idleTimeoutMs: 5, backoff: () => 1 })).toBe('-----r--(mt)--(FD|)', { ...v, r: { type: 'retry', attempt: 2, error: timeout, delayMs: 1 } });
    });
  });

  it('does not retry a failure that is not retryable (HTTP 400, a plain error)', () => {
    run(({ cold, expectObservable }, scheduler) => {
      const bad = httpError(400);
      expectObservable(retryStream(scripted([cold('--#', WIRE, bad)]).request, { scheduler })).toBe('--#', undefined, bad);
      const plain = new Error('boom');
      expectObservable(retryStream(scripted([cold('--#', WIRE, plain)]).request, { scheduler })).toBe('--#', undefined, plain);
    });
  });
});

describe('retryStream() backoff', () => {
  it('waits a full-jitter delay by default: random × min(10 s, 500 ms × 2^(attempt − 1)); ends with the last error after maxAttempts', () => {
    const error = httpError(503);
    const draws = [0.5, 0.25];
    run(({ cold, expectObservable }, scheduler) => {
      const attempt = () => cold('--#', WIRE, error);
      const { request, contexts } = scripted([attempt(), attempt(), attempt()]);
      const options: RetryStreamOptions = { scheduler, random: () => draws.shift() ?? 0 };
      expectObservable(retryStream(request, options)).toBe(
        '--a 251ms b 251ms #',
        { a: { type: 'retry', attempt: 2, error, delayMs: 250 }, b: { type: 'retry', attempt: 3, error, delayMs: 250 } },
        error,
      );
      scheduler.flush();
      expect(contexts.map((c) => c.attempt)).toEqual([1, 2, 3]);
    });
  });

  it('caps the exponential at 10 s', () => {
    const error = httpError(503);
    run(({ cold, expectObservable }, scheduler) => {
      const attempts = Array.from({ length: 7 }, () => cold('#', WIRE, error));
      const delays: number[] = [];
      const events$ = retryStream(scripted(attempts).request, { scheduler, maxAttempts: 7, random: () => 0.999999 }).pipe(tap((e) => e.type === 'retry' && delays.push(e.delayMs)));
      expectObservable(
        events$.pipe(
          toArray(),
          mergeMap(() => of()),
        ),
      ).toBe('25494ms #', undefined, error);
      scheduler.flush();
      expect(delays).toEqual([499, 999, 1999, 3999, 7999, 9999]);
    });
  });

  it('never waits less than the provider asked (retryAfterMs), and gives up on a longer wait than maxRetryAfterMs', () => {
    run(({ cold, expectObservable }, scheduler) => {
      const asked = httpError(429, 40);
      const short = scripted([cold('#', WIRE, asked), cold('(t|)', WIRE)]);
      expectObservable(retryStream(short.request, { scheduler, backoff: () => 5, provider: 'openai-chat' }).pipe(take(1))).toBe('(r|)', {
        r: { type: 'retry', attempt: 2, error: asked, delayMs: 40 },
      });
      const longer = scripted([cold('#', WIRE, asked), cold('(t|)', WIRE)]);
      expectObservable(retryStream(longer.request, { scheduler, backoff: () => 100 }).pipe(take(1))).toBe('(r|)', { r: { type: 'retry', attempt: 2, error: asked, delayMs: 100 } });
      const tooLong = scripted([cold('#', WIRE, asked)]);
      expectObservable(retryStream(tooLong.request, { scheduler, maxRetryAfterMs: 30 })).toBe('#', undefined, asked);
    });
  });

  it('passes the attempt, the error and the hint to backoff', () => {
    const error = httpError(429, 7);
    const seen: unknown[] = [];
    run(({ cold, expectObservable }, scheduler) => {
      const { request } = scripted([cold('#', WIRE, error), cold('#', WIRE, error)]);
      expectObservable(retryStream(request, { scheduler, maxAttempts: 2, backoff: (context) => (seen.push(context), 1) }).pipe(mergeMap(() => of()))).toBe('-------#', undefined, error);
    });
    expect(seen).toEqual([{ attempt: 1, error, retryAfterMs: 7 }]);
  });
});

describe('retryStream() shouldRetry', () => {
  it('is asked with the attempt, whether output was emitted and the default verdict (when a retry is possible); it decides', () => {
    const plain = new Error('flaky proxy');
    const asked: unknown[] = [];
    run(({ cold, expectObservable }, scheduler) => {
      const { request } = scripted([cold('--#', WIRE, plain), cold('--t--#', WIRE, httpError(503))]);
      const shouldRetry = (error: unknown, context: { attempt: number; output: boolean; retryable: boolean }): boolean => (asked.push([error, context]), context.attempt === 1);
      const delivered = { text: ['Checking. '], reasoning: [''], toolCalls: [] };
      expectObservable(retryStream(request, { scheduler, shouldRetry, backoff: () => 0, restart: true }).pipe(mergeMap((e) => (e.type === 'retry' ? of('r') : of())))).toBe(
        '--r----#',
        undefined,
        httpError(503, undefined, delivered),
      );
    });
    expect(asked).toEqual([
      [plain, { attempt: 1, output: false, retryable: false }],
      [httpError(503), { attempt: 2, output: true, retryable: true }],
    ]);
  });

  it('ends the stream with what shouldRetry or backoff throws', () => {
    const thrown = new Error('policy bug');
    run(({ cold, expectObservable }, scheduler) => {
      const fail = (): never => {
        throw thrown;
      };
      expectObservable(retryStream(scripted([cold('--#', WIRE, httpError(503))]).request, { scheduler, shouldRetry: fail })).toBe('--#', undefined, thrown);
      expectObservable(retryStream(scripted([cold('--#', WIRE, httpError(503))]).request, { scheduler, backoff: fail })).toBe('--#', undefined, thrown);
    });
  });
});

describe('retryStream() unsubscription', () => {
  it('during the wait: the timer is cancelled and no further request is made', () => {
    const error = httpError(503);
    run(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const first = cold('--#', WIRE, error);
      const second = cold('--t', WIRE);
      const { request, contexts } = scripted([first, second]);
      expectObservable(retryStream(request, { scheduler, backoff: () => 10 }), '^----!').toBe('--r', { r: { type: 'retry', attempt: 2, error, delayMs: 10 } });
      expectSubscriptions(second.subscriptions).toBe([]);
      scheduler.flush();
      expect(contexts).toHaveLength(1);
    });
  });

  it('during an attempt: its source is unsubscribed', async () => {
    const v = await values();
    run(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const first = cold('--t-----', WIRE);
      expectObservable(retryStream(scripted([first]).request, { scheduler }), '^---!').toBe('--(mt)', v);
      expectSubscriptions(first.subscriptions).toBe('^---!');
    });
  });

  it('stops a synchronous source at once (take), also through mergeMap', async () => {
    let pulled = 0;
    const request = () => from(CHAT_PLAIN).pipe(tap(() => pulled++));
    const first = await lastValueFrom(retryStream(request).pipe(take(2), toArray()));
    expect(first.map((e) => e.type)).toEqual(['metadata', 'text-delta']);
    expect(pulled).toBe(1);
    pulled = 0;
    const merged = await lastValueFrom(
      of(0).pipe(
        mergeMap(() => retryStream(request).pipe(take(3))),
        toArray(),
      ),
    );
    expect(merged.map((e) => e.type)).toEqual(['metadata', 'text-delta', 'tool-call-delta']);
    expect(pulled).toBe(2);
  });

  it('completes like readStreamEvents() on a stream that needs no retry', async () => {
    const events = await lastValueFrom(retryStream(() => from(CHAT_PLAIN), { scheduler: asapScheduler }).pipe(toArray()));
    expect(events).toEqual(await eventsOf(CHAT_PLAIN));
  });
});
