/**
 * streamFrom() with a stand-in for HttpClient (the function only calls `request`): what it asks
 * Angular for, the chunks it makes of the cumulative progress text, laziness, cancellation and the
 * typed error of a failed response. The real HttpClient runs it in scripts/angular-interop.mjs.
 */
import type { HttpClient } from '@angular/common/http';
import { lastValueFrom, Observable, take, toArray } from 'rxjs';
import { streamFrom } from '../../src/angular/streamFrom';
import { ToolStreamError } from '../../src/errors';
import type { AngularHttpEventLike } from '../../src/angular/angularTextChunks';
import { testScheduler } from '../helpers/marbles';

interface Call {
  readonly method: string;
  readonly url: string;
  readonly options: Record<string, unknown>;
}

/** An HttpClient whose `request` records its arguments and answers with `respond()`'s events. */
function fakeHttp(respond: () => Observable<AngularHttpEventLike>): { http: HttpClient; calls: Call[] } {
  const calls: Call[] = [];
  const http = {
    request: (method: string, url: string, options: Record<string, unknown>) => {
      calls.push({ method, url, options });
      return respond();
    },
  };
  return { http: http as unknown as HttpClient, calls };
}

const progress = (partialText: string): AngularHttpEventLike => ({ type: 3, partialText, loaded: partialText.length });

describe('streamFrom()', () => {
  it('asks for the progress events of a text request, with the body and only the options given', async () => {
    const { http, calls } = fakeHttp(() => new Observable((s) => s.complete()));
    await lastValueFrom(streamFrom(http, '/api/chat', { prompt: 'hi' }), { defaultValue: undefined });
    await lastValueFrom(streamFrom(http, '/api/other', null, { method: 'PUT', headers: { authorization: 'Bearer k' }, withCredentials: true, params: { q: 1 } }), { defaultValue: undefined });
    expect(calls).toEqual([
      { method: 'POST', url: '/api/chat', options: { body: { prompt: 'hi' }, observe: 'events', reportProgress: true, responseType: 'text' } },
      {
        method: 'PUT',
        url: '/api/other',
        options: { body: null, observe: 'events', reportProgress: true, responseType: 'text', headers: { authorization: 'Bearer k' }, params: { q: 1 }, withCredentials: true },
      },
    ]);
  });

  it('emits what each progress event added (marble), nothing before it is subscribed, again on each subscription', () => {
    let requests: Call[] = [];
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const events = cold<AngularHttpEventLike>('-s--p---q--r--R|', {
        s: { type: 0 },
        p: progress('da'),
        q: progress('data: {}\n\n'),
        r: progress('data: {}\n\n'),
        R: { type: 4, body: 'data: {}\n\ndata: [DONE]\n\n', status: 200 },
      });
      const { http, calls } = fakeHttp(() => events);
      requests = calls;
      const text$ = streamFrom(http, '/sse', {});
      expect(calls).toHaveLength(0);
      expectObservable(text$).toBe('----a---b-----c|', { a: 'da', b: 'ta: {}\n\n', c: 'data: [DONE]\n\n' });
      expectObservable(text$, '--^').toBe('------a---b-----c|', { a: 'da', b: 'ta: {}\n\n', c: 'data: [DONE]\n\n' });
      expectSubscriptions(events.subscriptions).toBe(['^--------------!', '--^--------------!']);
    });
    expect(requests).toHaveLength(2);
  });

  it('unsubscribing unsubscribes the request (HttpClient aborts it)', async () => {
    let aborted = false;
    const { http } = fakeHttp(
      () =>
        new Observable<AngularHttpEventLike>((s) => {
          s.next(progress('data: 1\n\n'));
          return () => (aborted = true);
        }),
    );
    expect(await lastValueFrom(streamFrom(http, '/never', {}).pipe(take(1), toArray()))).toEqual(['data: 1\n\n']);
    expect(aborted).toBe(true);
  });

  it('a failed response is a typed provider-error with status, body and Retry-After (marble, typed-error matcher)', () => {
    const httpError = {
      name: 'HttpErrorResponse',
      status: 429,
      statusText: 'Too Many Requests',
      error: '{"error":{"message":"slow down","type":"rate_limit_error"}}',
      headers: { get: (name: string) => (name === 'retry-after' ? '20' : null) },
    };
    testScheduler().run(({ cold, expectObservable }) => {
      const { http } = fakeHttp(() => cold<AngularHttpEventLike>('---#', undefined, httpError));
      const expected = new ToolStreamError('provider-error', {
        provider: 'anthropic',
        providerCode: undefined,
        type: 'rate_limit_error',
        message: 'slow down',
        status: 429,
        retryable: true,
        payload: JSON.parse(httpError.error) as unknown,
        retryAfterMs: 20_000,
      });
      expectObservable(streamFrom(http, '/api', {}, { provider: 'anthropic' })).toBe('---#', undefined, expected);
    });
  });
});
