/**
 * `retryStream()` over `fromResponse((signal) => fetch(url, { signal }))`, on a real socket
 * (spec/helpers/phaseServer.ts): unsubscribing in each phase of a retried stream — the first
 * attempt before its headers, while its error body is read, during its body; the wait between
 * attempts; the second attempt before its headers and during its body — closes the attempt's
 * connection within 100 ms (or, during the wait, makes no further request). An idle timeout before
 * the headers aborts the stalled attempt's request before the next one is made.
 */
import type { Subscription } from 'rxjs';
import { fromResponse, retryStream, type RetryContext, type StreamEvent } from 'rxjs-tool-calls';
import { startPhaseServer, type PhaseRequest, type PhaseServer } from '../helpers/phaseServer';

let server: PhaseServer;
beforeAll(async () => (server = await startPhaseServer()));
afterAll(() => server.close());

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function closedAt(request: PhaseRequest, ms = 2000): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const open = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(Infinity), ms)));
  return Promise.race([request.closed, open]).finally(() => clearTimeout(timer));
}

async function untilTrue(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await sleep(5);
  expect(condition()).toBe(true);
}

interface Run {
  readonly subscription: Subscription;
  readonly events: StreamEvent[];
  /** Attempts whose response headers reached the client. */
  readonly headers: number[];
  ended(): string | undefined;
}

/** `retryStream` whose attempt `n` requests `paths[n - 1]`, each with the function form of `fromResponse`. */
function run(paths: readonly string[], options: { readonly idleTimeoutMs?: number; readonly maxAttempts?: number } = {}): Run {
  const events: StreamEvent[] = [];
  const headers: number[] = [];
  let ended: string | undefined;
  const request = (context: RetryContext) =>
    fromResponse((signal) =>
      fetch(`${server.origin}${paths[context.attempt - 1] ?? '/headers/never'}`, { signal }).then((response) => {
        headers.push(context.attempt);
        return response;
      }),
    );
  const subscription = retryStream(request, { provider: 'openai-chat', backoff: () => 0, ...options }).subscribe({
    next: (event) => events.push(event),
    error: (error: unknown) => (ended = `error: ${String(error)}`),
    complete: () => (ended = 'complete'),
  });
  return { subscription, events, headers, ended: () => ended };
}

async function expectCloseWithin(request: PhaseRequest, subscription: Subscription, ms = 100): Promise<void> {
  expect(request.isClosed()).toBe(false);
  const unsubscribedAt = performance.now();
  subscription.unsubscribe();
  expect((await closedAt(request)) - unsubscribedAt).toBeLessThan(ms);
}

/** A retryable failure before any output, answered at once with its whole body (no wait asked). */
const FAIL_FAST = '/error/sized?status=503&bytes=5&retryAfter=0';

describe('retryStream(fromResponse((signal) => …)): unsubscribing in each phase closes the attempt within 100 ms', () => {
  it('attempt 1, before its headers', async () => {
    const n = server.requests.length;
    const r = run(['/headers/never']);
    const request = await server.nextRequest(n);
    await sleep(20);
    await expectCloseWithin(request, r.subscription);
    expect([r.events, r.ended()]).toEqual([[], undefined]);
  });

  it('attempt 1, while its error body is read', async () => {
    const n = server.requests.length;
    const r = run(['/error/held?status=503']);
    const request = await server.nextRequest(n);
    await untilTrue(() => r.headers.length === 1);
    await sleep(20);
    await expectCloseWithin(request, r.subscription);
    expect(r.events).toEqual([]);
  });

  it('attempt 1, during its body', async () => {
    const n = server.requests.length;
    const r = run(['/body/held']);
    const request = await server.nextRequest(n);
    await untilTrue(() => r.events.some((e) => e.type === 'text-delta'));
    await expectCloseWithin(request, r.subscription);
  });

  it('during the wait between attempts: no further request, no timer left', async () => {
    const n = server.requests.length;
    const r = run(['/error/sized?status=429&bytes=5&retryAfter=0.3', '/body/held']);
    await untilTrue(() => r.events.some((e) => e.type === 'retry'));
    expect(r.events.find((e) => e.type === 'retry')).toMatchObject({ attempt: 2, delayMs: 300 });
    const timers = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    r.subscription.unsubscribe();
    expect(process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length).toBe(timers - 1);
    await sleep(450);
    expect(server.requests.length).toBe(n + 1); // attempt 2 was never made
    // Attempt 1's response was whole: its connection went back to fetch's pool, nothing was left reading.
    expect(r.ended()).toBeUndefined();
  });

  it('attempt 2, before its headers', async () => {
    const n = server.requests.length;
    const r = run([FAIL_FAST, '/headers/never']);
    const request = await server.nextRequest(n + 1);
    await sleep(20);
    expect(r.events.map((e) => e.type)).toEqual(['retry']);
    await expectCloseWithin(request, r.subscription);
  });

  it('attempt 2, during its body', async () => {
    const n = server.requests.length;
    const r = run([FAIL_FAST, '/body/held']);
    const request = await server.nextRequest(n + 1);
    await untilTrue(() => r.events.some((e) => e.type === 'text-delta'));
    await expectCloseWithin(request, r.subscription);
  });
});

describe('retryStream with idleTimeoutMs: a stall before the headers', () => {
  it('aborts the stalled attempt (its socket closes at the timeout) before the next one is made', async () => {
    const n = server.requests.length;
    const r = run(['/headers/never', '/body/held'], { idleTimeoutMs: 150 });
    const first = await server.nextRequest(n);
    const second = await server.nextRequest(n + 1);
    const firstClosed = await closedAt(first);
    expect(firstClosed).toBeLessThan(Infinity);
    expect(r.events.find((e) => e.type === 'retry')).toMatchObject({ attempt: 2, error: { code: 'idle-timeout' } });
    await untilTrue(() => r.events.some((e) => e.type === 'text-delta'));
    expect(second.isClosed()).toBe(false);
    r.subscription.unsubscribe();
    expect(await closedAt(second)).toBeLessThan(Infinity);
  });
});
