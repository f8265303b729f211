/**
 * Which source forms cancel when, on a real socket (spec/helpers/phaseServer.ts): the server
 * records when each request's socket closed, and each case unsubscribes in one phase — before the
 * headers, while an error body is read, during a 2xx body — and expects the close within 1 s. The
 * server holds each request in its phase for good, so any bound tells a close the unsubscription
 * caused from none; 1 s leaves room for a loaded machine.
 * Then the bounded error body: at most `maxErrorBodyBytes` read, the rest cancelled, the prefix
 * kept as `payload` with `payloadTruncated`, a body that never ends read in bounded memory.
 */
import { type Observable, tap, type Subscription } from 'rxjs';
import { fromFetch } from 'rxjs/fetch';
import { fromResponse, responseBody, type ToolStreamError } from 'rxjs-tool-calls';
import { heapAfterGc } from '../helpers/heap';
import { startPhaseServer, type PhaseRequest, type PhaseServer } from '../helpers/phaseServer';

let server: PhaseServer;
beforeAll(async () => (server = await startPhaseServer()));
afterAll(() => server.close());

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** When the request's socket closed (`performance.now()`), or `Infinity` when it is still open after `ms`. */
function closedAt(request: PhaseRequest | undefined, ms = 2000): Promise<number> {
  if (request === undefined) return Promise.resolve(Infinity);
  let timer: NodeJS.Timeout | undefined;
  const open = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(Infinity), ms)));
  return Promise.race([request.closed, open]).finally(() => clearTimeout(timer));
}

/** A source form under test: `headers` is called when the response's headers reach the client. */
type Form = (url: string, headers: () => void) => Observable<Uint8Array>;

const FORMS: ReadonlyArray<readonly [string, Form]> = [
  [
    'fromResponse((signal) => fetch(url, { signal }))',
    (url, headers) =>
      fromResponse((signal) =>
        fetch(url, { signal }).then((response) => {
          headers();
          return response;
        }),
      ),
  ],
  ['fromFetch(url).pipe(responseBody())', (url, headers) => fromFetch(url).pipe(tap(headers), responseBody())],
  [
    'fromFetch(url, { selector: fromResponse })',
    (url, headers) =>
      fromFetch(url, {
        selector: (response) => {
          headers();
          return fromResponse(response);
        },
      }),
  ],
];

/** Subscribe; the returned promise settles with what the stream did (it should do nothing after the unsubscribe). */
function watch(source: Observable<Uint8Array>): { subscription: Subscription; chunks: Uint8Array[]; ended: () => string | undefined } {
  const chunks: Uint8Array[] = [];
  let ended: string | undefined;
  const subscription = source.subscribe({ next: (chunk) => chunks.push(chunk), error: (error: unknown) => (ended = `error: ${String(error)}`), complete: () => (ended = 'complete') });
  return { subscription, chunks, ended: () => ended };
}

/** Unsubscribe now and expect the server to see the request's socket close within `ms`. */
async function expectCloseWithin(request: PhaseRequest, subscription: Subscription, ms = 1000): Promise<void> {
  expect(request.isClosed()).toBe(false);
  const unsubscribedAt = performance.now();
  subscription.unsubscribe();
  expect((await closedAt(request)) - unsubscribedAt).toBeLessThan(ms);
}

async function untilTrue(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await sleep(5);
  expect(condition()).toBe(true);
}

describe.each(FORMS)('%s: unsubscribing closes the connection within 1 s', (_, form) => {
  it('before the headers', async () => {
    const n = server.requests.length;
    const run = watch(form(`${server.origin}/headers/never`, () => undefined));
    const request = await server.nextRequest(n);
    await sleep(20); // the request is in flight, no status line
    await expectCloseWithin(request, run.subscription);
    expect(run.ended()).toBeUndefined();
  });

  it('while an error body is read', async () => {
    const n = server.requests.length;
    let headers = false;
    const run = watch(form(`${server.origin}/error/held?status=503`, () => (headers = true)));
    const request = await server.nextRequest(n);
    await untilTrue(() => headers);
    await sleep(20); // the prefix read is waiting for more of the body
    await expectCloseWithin(request, run.subscription);
    expect(run.ended()).toBeUndefined();
  });

  it('during the body', async () => {
    const n = server.requests.length;
    const run = watch(form(`${server.origin}/body/held`, () => undefined));
    const request = await server.nextRequest(n);
    await untilTrue(() => run.chunks.length > 0);
    await expectCloseWithin(request, run.subscription);
    expect(run.ended()).toBeUndefined();
  });
});

describe('fromResponse(promise): what a promise of a response can cancel', () => {
  it('before the headers it cannot abort: the body is cancelled when the response arrives', async () => {
    const n = server.requests.length;
    const run = watch(fromResponse(fetch(`${server.origin}/headers/later?ms=250`)));
    const request = await server.nextRequest(n);
    run.subscription.unsubscribe();
    await sleep(120);
    expect(request.isClosed()).toBe(false); // still waiting for its headers: nothing could abort it
    expect(await closedAt(request)).toBeLessThan(Infinity); // closed once the response came and its body was cancelled
    expect(run.chunks).toEqual([]);
  });

  it('while an error body is read', async () => {
    const n = server.requests.length;
    let headers = false;
    const response = fetch(`${server.origin}/error/held?status=500`).then((r) => {
      headers = true;
      return r;
    });
    const run = watch(fromResponse(response));
    const request = await server.nextRequest(n);
    await untilTrue(() => headers);
    await sleep(20);
    await expectCloseWithin(request, run.subscription);
  });

  it('during the body', async () => {
    const n = server.requests.length;
    const run = watch(fromResponse(fetch(`${server.origin}/body/held`)));
    const request = await server.nextRequest(n);
    await untilTrue(() => run.chunks.length > 0);
    await expectCloseWithin(request, run.subscription);
  });
});

describe('fromResponse((signal) => …): the function is the request', () => {
  it('is called once per subscription with a new signal, which aborts only when that subscription leaves before the end', async () => {
    const signals: AbortSignal[] = [];
    const source = fromResponse((signal) => {
      signals.push(signal);
      return fetch(`${server.origin}/error/sized?status=400&bytes=3`, { signal });
    });
    for (let i = 0; i < 2; i++)
      await expect(new Promise((resolve, reject) => source.subscribe({ error: reject, complete: () => resolve('complete') }))).rejects.toMatchObject({
        code: 'provider-error',
        status: 400,
        payload: 'yyy',
      });
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
    expect(signals.map((s) => s.aborted)).toEqual([false, false]); // the whole body was read: nothing to abort
  });

  it('a function that throws errors the subscription with what it threw', async () => {
    const failure = new TypeError('bad init');
    await expect(
      new Promise((resolve, reject) =>
        fromResponse(() => {
          throw failure;
        }).subscribe({ error: reject, complete: () => resolve('complete') }),
      ),
    ).rejects.toBe(failure);
  });
});

describe('error bodies: a bounded prefix', () => {
  const errorOf = (source: Observable<Uint8Array>): Promise<ToolStreamError<'provider-error'>> =>
    new Promise((resolve, reject) => source.subscribe({ error: (e: ToolStreamError<'provider-error'>) => resolve(e), complete: () => reject(new Error('completed')) }));

  it('reads at most 64 KiB by default, cancels the rest, keeps the prefix as the payload with payloadTruncated', async () => {
    const n = server.requests.length;
    const error = await errorOf(fromResponse((signal) => fetch(`${server.origin}/error/endless?status=503`, { signal })));
    expect(error).toMatchObject({ code: 'provider-error', status: 503, retryable: true, payloadTruncated: true });
    expect(error.payload).toBe('x'.repeat(65_536));
    expect(error.message).toContain('HTTP 503');
    expect(await closedAt(server.requests[n])).toBeLessThan(Infinity);
  });

  it('a body of exactly the limit is whole; one byte more is cut (default limit, Retry-After kept)', async () => {
    const whole = await errorOf(fromResponse(fetch(`${server.origin}/error/sized?status=429&bytes=65536`)));
    expect([(whole.payload as string).length, whole.payloadTruncated, whole.retryAfterMs]).toEqual([65_536, undefined, 7000]);
    const cut = await errorOf(fromResponse(fetch(`${server.origin}/error/sized?status=429&bytes=65537`)));
    expect([(cut.payload as string).length, cut.payloadTruncated, cut.retryAfterMs]).toEqual([65_536, true, 7000]);
    const under = await errorOf(fromResponse(fetch(`${server.origin}/error/sized?status=429&bytes=65535`)));
    expect([(under.payload as string).length, under.payloadTruncated]).toEqual([65_535, undefined]);
  });

  it('maxErrorBodyBytes sets the limit (also for responseBody()); 0 reads nothing, Infinity reads all', async () => {
    const ten = await errorOf(fromResponse(fetch(`${server.origin}/error/sized?status=500&bytes=100`), { maxErrorBodyBytes: 10 }));
    expect([ten.payload, ten.payloadTruncated]).toEqual(['y'.repeat(10), true]);
    const operator = await errorOf(fromFetch(`${server.origin}/error/sized?status=500&bytes=100`).pipe(responseBody({ maxErrorBodyBytes: 4 })));
    expect([operator.payload, operator.payloadTruncated]).toEqual(['yyyy', true]);
    const none = await errorOf(fromResponse(fetch(`${server.origin}/error/sized?status=500&bytes=100`), { maxErrorBodyBytes: 0 }));
    expect([none.payload, none.payloadTruncated, none.message]).toEqual(['', true, 'http error: HTTP 500 Internal Server Error']);
    const empty = await errorOf(fromResponse(fetch(`${server.origin}/error/sized?status=500&bytes=0`), { maxErrorBodyBytes: 0 }));
    expect([empty.payload, empty.payloadTruncated]).toEqual(['', undefined]);
    const all = await errorOf(fromResponse(fetch(`${server.origin}/error/sized?status=500&bytes=200000`), { maxErrorBodyBytes: Infinity }));
    expect([(all.payload as string).length, all.payloadTruncated]).toEqual([200_000, undefined]);
  });

  it('a character cut at the limit is left out of the payload', async () => {
    const text = encodeURIComponent('ab€cd'); // € is 3 bytes: bytes 2..4
    const cut = await errorOf(fromResponse(fetch(`${server.origin}/error/text?status=500&text=${text}`), { maxErrorBodyBytes: 3 }));
    expect([cut.payload, cut.payloadTruncated]).toEqual(['ab', true]);
    const fits = await errorOf(fromResponse(fetch(`${server.origin}/error/text?status=500&text=${text}`), { maxErrorBodyBytes: 5 }));
    expect([fits.payload, fits.payloadTruncated]).toEqual(['ab€', true]);
  });

  it('a JSON error body under the limit is read as before: message, type and code', async () => {
    const body = encodeURIComponent(JSON.stringify({ error: { message: 'Rate limited', type: 'rate_limit_error', code: 'rate_limit' } }));
    const error = await errorOf(fromResponse(fetch(`${server.origin}/error/text?status=429&text=${body}`)));
    expect(error).toMatchObject({ status: 429, providerCode: 'rate_limit', type: 'rate_limit_error', payload: { error: { message: 'Rate limited' } } });
    expect(error.payloadTruncated).toBeUndefined();
  });

  it('a connection cut while the error body is read: what arrived, marked as cut', async () => {
    const error = await errorOf(fromResponse((signal) => fetch(`${server.origin}/error/cut?status=502`, { signal })));
    expect(error).toMatchObject({ code: 'provider-error', status: 502, payload: '{"error":{"message":"', payloadTruncated: true });
  });

  it('a stand-in response without a body stream: its text(), cut to the limit', async () => {
    const standIn = { ok: false, status: 503, statusText: 'Service Unavailable', body: null, bodyUsed: false, text: () => Promise.resolve('z'.repeat(50)) };
    const error = await errorOf(fromResponse(standIn, { maxErrorBodyBytes: 8 }));
    expect([error.payload, error.payloadTruncated]).toEqual(['z'.repeat(8), true]);
  });

  it('refuses a limit that is not a whole number >= 0 or Infinity', () => {
    for (const bad of [-1, 1.5, Number.NaN, -Infinity]) {
      const refused = (fn: string): Error => expect.objectContaining({ code: 'invalid-option', function: fn, option: 'options.maxErrorBodyBytes' }) as Error;
      expect(() => fromResponse((signal) => fetch(server.origin, { signal }), { maxErrorBodyBytes: bad })).toThrow(refused('fromResponse'));
      expect(() => responseBody({ maxErrorBodyBytes: bad })).toThrow(refused('responseBody'));
    }
    expect(() => fromResponse((signal) => fetch(server.origin, { signal }), { maxErrorBodyBytes: 0 })).not.toThrow();
  });

  it('error bodies that never end, one after another, leave the heap where it was', async () => {
    const read = () => errorOf(fromResponse((signal) => fetch(`${server.origin}/error/endless?status=503`, { signal })));
    for (let i = 0; i < 3; i++) await read(); // warm: the first rounds load code and fill pools
    const before = heapAfterGc();
    for (let i = 0; i < 20; i++) expect((await read()).payloadTruncated).toBe(true);
    const grown = heapAfterGc() - before;
    // 20 unbounded reads would hold megabytes each; bounded ones leave at most noise behind.
    expect(grown).toBeLessThan(8 * 1024 * 1024);
    await untilTrue(() => server.openSockets() === 0);
    // 23 requests against a live server: what it checks is the heap, not the time.
  }, 30_000);
});
