/**
 * `fromWebSocket()` against a real `ws` server on 127.0.0.1: a socket's messages give the same
 * results as the same events as bytes; how each end of a socket reads (a normal close, a drop, a
 * close the server meant, a refused handshake); what it sends; unsubscribing closes it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from, lastValueFrom, materialize, of, Subject, take, toArray, type Observable } from 'rxjs';
import { WebSocket } from 'ws';
import { decodeSse, isToolStreamError, openaiResponses, readToolCalls, toolCalls, type FramedRecord, type ToolCallResult } from 'rxjs-tool-calls';
import { fromWebSocket } from 'rxjs-tool-calls/websocket';
import { FIXTURES_DIR } from '../helpers/fixtures';
import { plain } from '../helpers/plain';
import { startSocketServer, type SocketServer } from '../helpers/socketServer';

const fixture = new Uint8Array(readFileSync(join(FIXTURES_DIR, 'openai/responses-reasoning-then-function-call.sse')));
const turn = { type: 'response.create', model: 'gpt-5', input: [{ role: 'user', content: 'Weather in Paris?' }] };

/** The records of the fixture, as a Responses WebSocket server sends them: each event's JSON, one message each. */
let events: string[] = [];
beforeAll(async () => {
  const records = await lastValueFrom(from([fixture]).pipe(decodeSse(), toArray()));
  events = records.map((r: FramedRecord) => r.data);
});

async function outcome<T>(source: Observable<T>): Promise<{ values: T[]; error?: unknown }> {
  const seen = await lastValueFrom(source.pipe(materialize(), toArray()));
  const error = seen.find((n) => n.kind === 'E');
  return { values: seen.flatMap((n) => (n.kind === 'N' ? [n.value] : [])), ...(error === undefined ? {} : { error: error.error }) };
}

const servers: SocketServer[] = [];
async function server(script: Parameters<typeof startSocketServer>[0], options?: Parameters<typeof startSocketServer>[1]): Promise<SocketServer> {
  const started = await startSocketServer(script, options);
  servers.push(started);
  return started;
}
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const socket = (s: SocketServer, options: Parameters<typeof fromWebSocket>[1] = {}) => fromWebSocket(s.url, { WebSocketCtor: WebSocket, ...options });

describe('fromWebSocket()', () => {
  it('a turn over a socket gives the results its events give as bytes, composed and fused', async () => {
    const s = await server(async (client) => {
      await client.next();
      client.send(...events);
      client.ws.close(1000);
    });
    const expected = (await lastValueFrom(from([fixture]).pipe(readToolCalls(), toArray()))).map(plain);
    expect(expected.length).toBeGreaterThan(0);
    const fused = await outcome(socket(s, { send: of(turn) }).pipe(readToolCalls()));
    expect([fused.values.map(plain), fused.error]).toEqual([expected, undefined]);
    const composed = await outcome(socket(s, { send: [turn] }).pipe(openaiResponses(), toolCalls()));
    expect([composed.values.map(plain), composed.error]).toEqual([expected, undefined]);
    // What the client sent: the turn, as JSON text, once per socket.
    expect(s.sockets.map((c) => c.received)).toEqual([[turn], [turn]]);
    await s.idle();
  });

  it('headers and subprotocols reach the handshake; strings are sent as they are', async () => {
    const s = await server(async (client) => {
      await client.next();
      client.ws.close(1000);
    });
    await outcome(socket(s, { headers: { authorization: 'Bearer sk-test' }, protocols: ['realtime'], send: of('{"type":"ping"}') }));
    const [client] = s.sockets;
    expect([client?.request.headers.authorization, client?.request.headers['sec-websocket-protocol'], client?.received]).toEqual(['Bearer sk-test', 'realtime', [{ type: 'ping' }]]);
  });

  it('a socket dropped mid-call: the complete calls, the open ones incomplete, then connection-lost with the bytes received', async () => {
    const call = (n: number, args: string) => [
      { type: 'response.output_item.added', output_index: n, item: { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'get_weather', arguments: '' } },
      { type: 'response.function_call_arguments.delta', output_index: n, delta: args },
    ];
    const wire = [
      { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } },
      ...call(0, '{"city":"Paris"}'),
      { type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', id: 'fc_0', call_id: 'call_0', name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ...call(1, '{"city":"Be'),
    ];
    const sent = wire.reduce((bytes, event) => bytes + Buffer.byteLength(JSON.stringify(event)), 0);
    const s = await server((client) => {
      client.send(...wire);
      setTimeout(() => client.ws.terminate(), 20); // no close frame: 1006
    });
    const { values, error } = await outcome(socket(s).pipe(readToolCalls()));
    expect(values.map(plain)).toEqual([
      expect.objectContaining({ ok: expect.objectContaining({ id: 'call_0', arguments: { city: 'Paris' } }) }),
      { err: 'incomplete', id: 'call_1', name: 'get_weather', raw: '{"city":"Be', reason: 'connection-lost' },
    ]);
    expect(error).toMatchObject({ code: 'connection-lost', source: 'fromWebSocket', byteOffset: sent, retryable: true });
    expect((error as Error).message).toMatch(/closed with code 1006 \(abnormal closure\)/);
  });

  it.each([
    [1000, '', 'complete'],
    [1005, undefined, 'complete'],
    [1001, 'going away', 'connection-lost'],
    [1011, 'overloaded', 'connection-lost'],
    [1013, 'try later', 'connection-lost'],
    [1008, 'invalid api key', 'provider-error'],
    [4002, 'session expired', 'provider-error'],
  ] as const)('a close with code %s (%s) ends the records with %s', async (code, reason, end) => {
    const s = await server((client) => {
      client.send('{"type":"x"}');
      if (code === 1005) client.ws.close();
      else client.ws.close(code, reason);
    });
    const { values, error } = await outcome(socket(s));
    expect(values).toHaveLength(1);
    if (end === 'complete') expect(error).toBeUndefined();
    else expect(error).toMatchObject({ code: end });
    if (end === 'provider-error') {
      expect(error).toMatchObject({ provider: 'websocket', providerCode: String(code), type: 'websocket_close', retryable: false, payload: { code, reason } });
      expect((error as Error).message).toBe(`websocket error ${code} (websocket_close): ${reason}`);
    }
  });

  it('a refused handshake is a provider-error with the HTTP status (retryable by it); a refused connection is connection-lost', async () => {
    for (const [status, retryable] of [
      [401, false],
      [429, true],
      [503, true],
    ] as const) {
      const s = await server(() => undefined, { refuse: () => status });
      const { error } = await outcome(socket(s));
      expect(error).toMatchObject({ code: 'provider-error', provider: 'websocket', status, retryable });
    }
    const closed = await server(() => undefined);
    await closed.close();
    const { error } = await outcome(socket(closed));
    expect(isToolStreamError(error, 'connection-lost') && [error.source, (error.cause as { code?: string }).code]).toEqual(['fromWebSocket', 'ECONNREFUSED']);
  });

  it("a server's error message is the format's provider-error with its code, after the calls that completed", async () => {
    const s = await server(async (client) => {
      await client.next();
      client.send(events[0] as string, {
        type: 'error',
        status: 400,
        error: { type: 'invalid_request_error', code: 'previous_response_not_found', message: "Previous response with id 'resp_x' not found.", param: 'previous_response_id' },
      });
    });
    const { error } = await outcome(socket(s, { send: [turn] }).pipe(readToolCalls()));
    expect(error).toMatchObject({ code: 'provider-error', provider: 'openai-responses', providerCode: 'previous_response_not_found', type: 'invalid_request_error', status: 400 });
  });

  it('unsubscribing closes the socket, before or after it opened; each subscription opens its own', async () => {
    const s = await server(() => undefined);
    const early = socket(s).subscribe();
    early.unsubscribe(); // while connecting
    const seen: FramedRecord[] = [];
    const live = socket(s).subscribe((r) => seen.push(r));
    for (let i = 0; i < 200 && s.open() < 1; i++) await new Promise((r) => setTimeout(r, 5));
    s.sockets.at(-1)?.send({ type: 'a' });
    for (let i = 0; i < 200 && seen.length < 1; i++) await new Promise((r) => setTimeout(r, 5));
    live.unsubscribe();
    await s.idle();
    expect(seen).toEqual([{ event: 'message', data: '{"type":"a"}', id: undefined, retry: undefined }]);
    // take(1) unsubscribes too.
    const s2 = await server((client) => client.send({ type: 'b' }, { type: 'c' }));
    expect(await lastValueFrom(socket(s2).pipe(take(1)))).toMatchObject({ data: '{"type":"b"}' });
    await s2.idle();
  });

  it('send: values wait for the socket to open, go in order; its error ends the stream', async () => {
    const s = await server(async (client) => {
      await client.next();
      await client.next();
      client.ws.close(1000);
    });
    const outgoing = new Subject<unknown>();
    const done = outcome(socket(s, { send: outgoing }));
    outgoing.next({ n: 1 }); // before the socket opened
    outgoing.next('two');
    expect((await done).error).toBeUndefined();
    expect(s.sockets[0]?.received).toEqual([{ n: 1 }, 'two']);
    const failing = new Subject<unknown>();
    const failed = outcome(socket(s, { send: failing }));
    failing.error(new Error('no more'));
    expect((await failed).error).toMatchObject({ message: 'no more' });
    await s.idle();
  });

  it('refuses what it cannot use when it is made: a URL that is not ws:, a bad option, no WebSocket constructor', () => {
    expect(() => fromWebSocket('http://127.0.0.1', { WebSocketCtor: WebSocket })).toThrow(expect.objectContaining({ code: 'invalid-option', option: 'url' }));
    expect(() => fromWebSocket('ws://127.0.0.1', { WebSocketCtor: WebSocket, maxMessageSize: 0 })).toThrow(expect.objectContaining({ code: 'invalid-option', option: 'options.maxMessageSize' }));
    expect(() => fromWebSocket('ws://127.0.0.1', { WebSocketCtor: WebSocket, headers: { a: 1 } as never })).toThrow(expect.objectContaining({ option: 'options.headers' }));
    // Node 20 has no global WebSocket: the ws package's must be given.
    expect(typeof (globalThis as { WebSocket?: unknown }).WebSocket).toBe('undefined');
    expect(() => fromWebSocket('ws://127.0.0.1')).toThrow(expect.objectContaining({ code: 'invalid-option', option: 'options.WebSocketCtor', expected: expect.stringMatching(/ws package/) }));
  });
});

/** Results of a readToolCalls() kept for the type of `plain`. */
export type Results = ToolCallResult[];
