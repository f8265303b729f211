/**
 * `retryStream()` and `hedge()` end to end against a real server on 127.0.0.1, with `fetch` +
 * `fromResponse` and with Node's `http.request` + `fromAsyncIterable`: Retry-After honoured, an
 * overloaded stream retried, Responses resumed with `starting_after`, SSE ids resumed with
 * `Last-Event-ID`, a plain chat cut (delivered, or restart), attempts exhausted, unsubscribing
 * during the wait, fallback to another provider, and a hedge that closes the slow server's socket.
 */
import { from, lastValueFrom, toArray, type Observable } from 'rxjs';
import { retryStream, toolCalls, type RetryContext, type StreamEvent, type ToolCallResult } from 'rxjs-tool-calls';
import { hedge } from 'rxjs-tool-calls/gateway';
import { anthropicEvent } from 'rxjs-tool-calls/marbles';
import { ANTHROPIC_SSE } from '../helpers/sdkServer';
import { startRetryServer, viaFetch, viaNodeHttp, type RetryServer, type Transport } from '../helpers/retryServer';
import { CHAT_PLAIN, CHAT_WITH_IDS, resultsOf, RESPONSES_TWO_CALLS } from '../helpers/retryWire';

let server: RetryServer;
beforeAll(async () => {
  server = await startRetryServer();
});
afterAll(() => server.close());

interface Outcome {
  readonly events: StreamEvent[];
  readonly results: ToolCallResult[];
  readonly error: unknown;
}

/** Every event, the results `toolCalls()` makes of them, and the error the stream ended with. */
async function outcome(events$: Observable<StreamEvent>): Promise<Outcome> {
  const events: StreamEvent[] = [];
  let error: unknown;
  await new Promise<void>((resolve) => {
    events$.subscribe({
      next: (event) => events.push(event),
      error: (failure: unknown) => {
        error = failure;
        resolve();
      },
      complete: () => resolve(),
    });
  });
  return { events, results: await lastValueFrom(from(events).pipe(toolCalls(), toArray())), error };
}

const notices = (events: readonly StreamEvent[]): string[] => events.filter((e) => e.type === 'retry' || e.type === 'restart').map((e) => e.type);
let route = 0;
/** A fresh path per test and transport. */
const fresh = (name: string): string => `/${name}/${route++}`;

it('429 with Retry-After: 1, then success: two requests a second apart, one clean result set (fetch and Node http at once)', async () => {
  const runs = [viaFetch, viaNodeHttp].map(async (transport) => {
    const path = fresh('rate-limited');
    server.script(path, [
      { status: 429, headers: { 'retry-after': '1' }, body: '{"error":{"message":"Rate limit reached","type":"rate_limit_error","code":"rate_limit_exceeded"}}' },
      { events: CHAT_PLAIN },
    ]);
    const run = await outcome(retryStream(() => transport(`${server.origin}${path}`)));
    return { run, requests: server.on(path) };
  });
  const expected = await resultsOf(CHAT_PLAIN);
  for (const { run, requests } of await Promise.all(runs)) {
    expect(run.error).toBeUndefined();
    expect(requests).toHaveLength(2);
    expect((requests[1]?.at ?? 0) - (requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(990);
    const [retry] = run.events.filter((e) => e.type === 'retry');
    expect(retry).toMatchObject({ attempt: 2, delayMs: 1000, error: { status: 429, retryAfterMs: 1000, providerCode: 'rate_limit_exceeded' } });
    expect(run.results).toEqual(expected);
  }
});

describe.each([
  ['fetch', viaFetch],
  ['Node http', viaNodeHttp],
] as ReadonlyArray<[string, Transport]>)('retryStream() over %s', (_, transport) => {
  const fast = { backoff: () => 5 };

  it('an Anthropic overloaded_error before any content, then success: the first attempt leaves no trace but the retry event', async () => {
    const path = fresh('overloaded');
    const start = anthropicEvent('message_start', {
      message: { id: 'msg_failed', type: 'message', role: 'assistant', model: 'claude-test', content: [], usage: { input_tokens: 20, output_tokens: 1 } },
    });
    server.script(path, [{ events: [start, anthropicEvent('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })] }, { events: ANTHROPIC_SSE }]);
    const run = await outcome(retryStream(() => transport(`${server.origin}${path}`), fast));
    expect(run.error).toBeUndefined();
    expect(server.on(path)).toHaveLength(2);
    expect(notices(run.events)).toEqual(['retry']);
    expect(run.events[0]).toMatchObject({ type: 'retry', error: { code: 'provider-error', type: 'overloaded_error', retryable: true } });
    expect(run.events.filter((e) => e.type === 'metadata')).toEqual([{ type: 'metadata', provider: 'anthropic', responseId: 'msg_1', model: 'claude-test' }]);
    expect(run.results).toEqual(await resultsOf(ANTHROPIC_SSE));
  });

  it('a Responses stream cut mid-call after one complete call, resumed with starting_after: the uncut results, once', async () => {
    const path = fresh('responses');
    const wire = RESPONSES_TWO_CALLS;
    server.script(path, [{ events: wire.slice(0, 7), tail: (wire[7] as string).slice(0, 40), then: 'cut' }]);
    server.script(`${path}/resp_bg`, (request) => ({ events: wire.filter((_, seq) => seq > Number(request.query.get('starting_after'))) }));
    const request = (ctx: RetryContext) =>
      ctx.lastSequenceNumber === undefined
        ? transport(`${server.origin}${path}`, { body: '{"background":true,"stream":true}' })
        : transport(`${server.origin}${path}/${ctx.responseId}?stream=true&starting_after=${ctx.lastSequenceNumber}`, { method: 'GET' });
    const run = await outcome(retryStream(request, fast));
    expect(run.error).toBeUndefined();
    expect(server.on(`${path}/resp_bg`).map((r) => r.query.get('starting_after'))).toEqual(['6']);
    expect(run.results).toEqual(await resultsOf(wire));
    expect(run.results.map((r) => r.data?.name)).toEqual(['get_weather', 'get_time']);
  });

  it('an SSE stream with id: fields cut mid-call, resumed with Last-Event-ID', async () => {
    const path = fresh('ids');
    const wire = CHAT_WITH_IDS;
    server.script(path, (request, n) =>
      n === 0 ? { events: wire.slice(0, 3), tail: (wire[3] as string).slice(0, 15), then: 'cut' } : { events: wire.slice(Number(request.headers['last-event-id'])) },
    );
    const run = await outcome(retryStream((ctx) => transport(`${server.origin}${path}`, ctx.lastEventId === undefined ? {} : { headers: { 'Last-Event-ID': ctx.lastEventId } }), fast));
    expect(run.error).toBeUndefined();
    expect(server.on(path).map((r) => r.headers['last-event-id'])).toEqual([undefined, '3']);
    expect(run.results).toEqual(await resultsOf(wire));
  });

  it('a plain chat stream cut after output: connection-lost error carrying delivered, and no retry', async () => {
    const path = fresh('plain-cut');
    server.script(path, [{ events: CHAT_PLAIN.slice(0, 3), then: 'cut' }, { events: CHAT_PLAIN }]);
    const run = await outcome(retryStream(() => transport(`${server.origin}${path}`), fast));
    expect(run.error).toMatchObject({ name: 'ToolStreamError', code: 'connection-lost' });
    expect(run.error).toMatchObject({ retryable: true, delivered: { text: ['Checking. '], toolCalls: [{ id: 'call_1', name: 'get_weather', rawArguments: '{"city":"Pa', complete: false }] } });
    expect(notices(run.events)).toEqual([]);
    expect(server.on(path)).toHaveLength(1);
  });

  it('the same with restart: true: a restart event, then the whole response again', async () => {
    const path = fresh('restart');
    server.script(path, [{ events: CHAT_PLAIN.slice(0, 3), then: 'cut' }, { events: CHAT_PLAIN }]);
    const run = await outcome(retryStream(() => transport(`${server.origin}${path}`), { ...fast, restart: true }));
    expect(run.error).toBeUndefined();
    expect(notices(run.events)).toEqual(['retry', 'restart']);
    expect(run.results[0]?.error).toMatchObject({ name: 'ToolStreamError', code: 'incomplete' });
    expect(run.results.slice(1).map((r) => [r.success, r.data?.arguments])).toEqual([[true, { city: 'Paris' }]]);
  });

  it('attempts exhausted: three 503s, two retry events, the last ProviderError', async () => {
    const path = fresh('down');
    server.script(path, [{ status: 503, headers: { 'retry-after-ms': '5' }, body: '{"error":{"message":"upstream unavailable","type":"server_error"}}' }]);
    const run = await outcome(retryStream(() => transport(`${server.origin}${path}`), fast));
    expect(run.error).toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
    expect(run.error).toMatchObject({ status: 503, retryAfterMs: 5, retryable: true });
    expect(run.events.map((e) => [e.type, e.type === 'retry' ? e.delayMs : 0])).toEqual([
      ['retry', 5],
      ['retry', 5],
    ]);
    expect(server.on(path)).toHaveLength(3);
  });

  it('unsubscribing during the wait: no further request reaches the server', async () => {
    const path = fresh('unsubscribed');
    server.script(path, [{ status: 503, body: 'busy' }, { events: CHAT_PLAIN }]);
    await new Promise<void>((resolve) => {
      const subscription = retryStream(() => transport(`${server.origin}${path}`), { backoff: () => 150 }).subscribe((event) => {
        if (event.type !== 'retry') return;
        setTimeout(() => {
          subscription.unsubscribe();
          resolve();
        }, 10);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(server.on(path)).toHaveLength(1);
  });

  it('fallback: the chat server fails, the next attempt goes to an Anthropic server and is read as Anthropic', async () => {
    const chat = fresh('chat-down');
    const anthropic = fresh('anthropic-up');
    server.script(chat, [{ status: 500, body: '{"error":{"message":"internal error","type":"server_error"}}' }]);
    server.script(anthropic, [{ events: ANTHROPIC_SSE }]);
    const run = await outcome(retryStream((ctx) => transport(`${server.origin}${ctx.attempt === 1 ? chat : anthropic}`), fast));
    expect(run.error).toBeUndefined();
    expect(run.events.find((e) => e.type === 'metadata')).toMatchObject({ provider: 'anthropic' });
    expect(run.results).toEqual(await resultsOf(ANTHROPIC_SSE));
  });

  it('hedge(): the slow server started first loses to the fast one; its socket is closed', async () => {
    const slow = fresh('slow');
    const quick = fresh('quick');
    server.script(slow, [{ events: [ANTHROPIC_SSE[0] as string], then: 'hold' }]);
    server.script(quick, [{ events: CHAT_PLAIN }]);
    const run = await outcome(hedge([() => transport(`${server.origin}${slow}`), () => transport(`${server.origin}${quick}`)], { afterMs: 40 }));
    expect(run.error).toBeUndefined();
    expect(run.results).toEqual(await resultsOf(CHAT_PLAIN));
    const [held] = server.on(slow);
    await expect(Promise.race([held?.closed.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('open'), 1000))])).resolves.toBe('closed');
  });
});
