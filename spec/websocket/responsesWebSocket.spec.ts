/**
 * `responsesWebSocket()` as a `toolLoop()` request, against a scripted Responses API on 127.0.0.1
 * that speaks both HTTP and the WebSocket mode and checks what the real one checks: the loop's
 * items, results and messages are the ones it gives over HTTP; one socket for the loop, closed when
 * it ends; each later step sends only the tool results with `previous_response_id`; a lost chain is
 * sent whole once; a dropped socket is replaced (bounded, with backoff) and the turn sent whole;
 * `store: false` works; one response in flight.
 */
import { lastValueFrom, materialize, type Observable, toArray } from 'rxjs';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { fromResponse, isToolStreamError, type FramedRecord } from 'rxjs-tool-calls';
import { tool, toolLoop, type LoopMessage, type ToolLoopItem, type ToolLoopRequest } from 'rxjs-tool-calls/tools';
import { responsesWebSocket } from 'rxjs-tool-calls/websocket';
import { CITIES, ModelError, startResponsesHttp, startResponsesSocket, type Item, type ModelOptions, type ResponsesSocketServer } from '../helpers/responsesModel';

const tools = {
  get_weather: tool({ description: 'The weather in a city', schema: z.object({ city: z.string() }), execute: ({ city }) => ({ city, celsius: city.length }) }),
};
const user = { role: 'user' as const, content: 'The weather, city after city?' };
const body = { model: 'gpt-test', store: true };

const servers: Array<{ close(): Promise<void> }> = [];
async function socketServer(options: ModelOptions = {}): Promise<ResponsesSocketServer> {
  const server = await startResponsesSocket(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function run(request: ToolLoopRequest, maxSteps = 10): Promise<{ items: Array<ToolLoopItem<unknown>>; error?: unknown }> {
  const seen = await lastValueFrom(toolLoop(request, tools, { format: 'openai-responses', messages: [user], maxSteps }).pipe(materialize(), toArray()));
  const error = seen.find((n) => n.kind === 'E');
  return { items: seen.flatMap((n) => (n.kind === 'N' ? [n.value as ToolLoopItem<unknown>] : [])), ...(error === undefined ? {} : { error: error.error }) };
}

/** The loop's items, comparable across transports (a result's `call.providerMetadata` included). */
function comparable(items: ReadonlyArray<ToolLoopItem<unknown>>): unknown[] {
  return items.map((item) => (item.type === 'event' ? { type: item.type, step: item.step, event: item.event.type === 'usage' ? { type: 'usage' } : item.event } : item));
}

const request = (server: ResponsesSocketServer, options: Parameters<typeof responsesWebSocket>[1] = {}) =>
  responsesWebSocket(server.url, { WebSocketCtor: WebSocket, body, reconnectDelayMs: 5, ...options });

describe('responsesWebSocket() in a toolLoop', () => {
  it('gives the items, results and messages of the same loop over HTTP, on one socket closed when the loop ends', async () => {
    const steps = 4;
    const httpServer = await startResponsesHttp({ steps });
    servers.push(httpServer);
    const overHttp: ToolLoopRequest = (messages, _step, context) =>
      fromResponse((signal) => fetch(httpServer.url, { method: 'POST', signal, body: JSON.stringify({ ...body, stream: true, tools: context.tools, input: messages }) }));
    const http = await run(overHttp);
    const ws = await socketServer({ steps });
    const socket = await run(request(ws));
    expect(http.error).toBeUndefined();
    expect(socket.error).toBeUndefined();
    expect(comparable(socket.items)).toEqual(comparable(http.items));
    const done = socket.items.at(-1);
    expect(done?.type === 'done' && [done.step, done.text]).toEqual([steps, `Done after ${steps} calls.`]);
    const results = socket.items.filter((item) => item.type === 'tool-result');
    expect(results.map((item) => item.type === 'tool-result' && item.result.success && (item.result.data as { output: unknown }).output)).toEqual(
      CITIES.slice(0, steps).map((city) => ({ city, celsius: city.length })),
    );
    // One socket; step 0 whole; each later step only its tool result, chained to the response before.
    expect(new Set(ws.turns.map((t) => t.socket)).size).toBe(1);
    expect(ws.turns[0]?.request).toEqual({ type: 'response.create', ...body, tools: expect.any(Array), input: [user] });
    ws.turns.slice(1).forEach((turn, i) => {
      expect(turn.request['previous_response_id']).toBe(`resp_${i + 1}`);
      expect(turn.request['input']).toEqual([{ type: 'function_call_output', call_id: `call_resp_${i + 1}`, output: JSON.stringify({ city: CITIES[i], celsius: (CITIES[i] as string).length }) }]);
    });
    // Over HTTP every step sent the whole conversation, growing; over the socket each later step sends its tool result (and the tools, as every turn must).
    const httpBytes = httpServer.requests.map((r) => r.bytes);
    const wsBytes = ws.turns.map((t) => t.bytes);
    expect(httpBytes.slice(1).every((bytes, i) => bytes > (httpBytes[i] as number) + 100)).toBe(true);
    expect(Math.max(...wsBytes.slice(1)) - Math.min(...wsBytes.slice(1))).toBeLessThan(20);
    await ws.idle(); // the socket closed with the loop
  });

  it('previous_response_not_found sends the turn whole, once, on the same socket; twice ends the loop with it', async () => {
    let refusals = 1;
    const ws = await socketServer({
      steps: 2,
      onTurn: (_socket, turn, req) =>
        turn === 2 && req['previous_response_id'] !== undefined && refusals-- > 0
          ? new ModelError(400, 'previous_response_not_found', "Previous response with id 'resp_1' not found.").event()
          : 'answer',
    });
    const { items, error } = await run(request(ws));
    expect(error).toBeUndefined();
    expect(items.at(-1)?.type).toBe('done');
    expect(ws.turns.map((t) => [t.socket, t.request['previous_response_id'] ?? null, (t.request['input'] as Item[]).length])).toEqual([
      [1, null, 1],
      [1, 'resp_1', 1],
      [1, null, 4], // whole: the user, the reasoning, the call, its result
      [1, 'resp_2', 1],
    ]);
    await ws.idle();
    const always = await socketServer({ steps: 2, onTurn: (_s, turn) => (turn >= 2 ? new ModelError(400, 'previous_response_not_found', 'gone').event() : 'answer') });
    const failed = await run(request(always));
    expect(failed.error).toMatchObject({ code: 'provider-error', providerCode: 'previous_response_not_found' });
    expect(always.turns).toHaveLength(3);
    await always.idle();
  });

  it('a socket dropped between steps is replaced, and the turn sent whole on the new one', async () => {
    // The server drops its first connection once the first response was sent.
    const ws = await socketServer({ steps: 3, afterTurn: (socket, turn) => (socket.n === 1 && turn === 1 ? socket.ws.terminate() : undefined) });
    const { items, error } = await run(request(ws));
    expect(error).toBeUndefined();
    expect(items.at(-1)?.type).toBe('done');
    expect(ws.turns.map((t) => [t.socket, t.request['previous_response_id'] ?? null])).toEqual([
      [1, null],
      [2, null],
      [2, 'resp_2'],
      [2, 'resp_3'],
    ]);
    expect((ws.turns[1]?.request['input'] as Item[]).map((item) => item['type'] ?? item['role'])).toEqual(['user', 'reasoning', 'function_call', 'function_call_output']);
    await ws.idle();
  });

  it('reconnections are bounded, with waits that double; then the loop ends with the failure', async () => {
    // The first socket is dropped after its first response; every handshake after it is refused with 503.
    const ws = await socketServer({ steps: 2, refuse: (_req, n) => (n === 1 ? undefined : 503), afterTurn: (socket) => socket.ws.terminate() });
    const started = performance.now();
    const { error } = await run(request(ws, { maxReconnects: 3, reconnectDelayMs: 40 }));
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({ code: 'provider-error', provider: 'websocket', status: 503, retryable: true });
    expect(elapsed).toBeGreaterThanOrEqual(40 + 80 + 160);
    expect(ws.turns).toHaveLength(1);
    await ws.idle();
  });

  it('websocket_connection_limit_reached (the 60-minute limit) before output: a new socket, the turn whole', async () => {
    const ws = await socketServer({
      steps: 1,
      onTurn: (socket, turn) =>
        socket.n === 1 && turn === 2 ? new ModelError(400, 'websocket_connection_limit_reached', 'Responses websocket connection limit reached (60 minutes).').event() : 'answer',
    });
    const { items, error } = await run(request(ws));
    expect(error).toBeUndefined();
    expect(items.at(-1)?.type).toBe('done');
    expect(ws.turns.map((t) => [t.socket, t.request['previous_response_id'] ?? null])).toEqual([
      [1, null],
      [1, 'resp_1'],
      [2, null],
    ]);
    await ws.idle();
  });

  it('store: false: a turn sent whole leaves out reasoning it cannot resolve, or keeps it with encrypted_content', async () => {
    for (const include of [[], ['reasoning.encrypted_content']]) {
      const ws = await socketServer({ steps: 3, onTurn: (socket, turn) => (socket.n === 1 && turn === 2 ? 'drop' : 'answer') });
      const { items, error } = await run(request(ws, { body: { model: 'gpt-test', store: false, include } }));
      expect(error).toBeUndefined();
      expect(items.at(-1)?.type).toBe('done');
      const whole = ws.turns.find((t) => t.socket === 2)?.request['input'] as Item[];
      expect(whole.map((item) => item['type'] ?? item['role'])).toEqual(
        include.length === 0 ? ['user', 'function_call', 'function_call_output'] : ['user', 'reasoning', 'function_call', 'function_call_output'],
      );
      await ws.idle();
    }
  });

  it('one response in flight: two steps of one loop at once wait for each other; messages between turns are dropped', async () => {
    const ws = await socketServer({ steps: 5, setupMs: 20 });
    const make = request(ws);
    const ended = new AbortController();
    const context = { format: 'openai-responses' as const, tools: [], signal: ended.signal };
    const read = (messages: ReadonlyArray<LoopMessage>, step: number) => lastValueFrom(make(messages, step, context).pipe(toArray())) as Promise<FramedRecord[]>;
    const [a, b] = await Promise.all([read([user], 0), read([user, { role: 'user', content: 'again' }], 1)]);
    const types = (records: FramedRecord[]) => records.map((r) => (JSON.parse(r.data) as Item)['type']);
    expect(types(a).at(-1)).toBe('response.completed');
    expect(types(b).at(-1)).toBe('response.completed');
    expect(types(b).filter((t) => t === 'response.created')).toHaveLength(1);
    ws.sockets[0]?.send({ type: 'response.output_text.delta', delta: 'stray' }); // no turn in flight: nobody reads it
    ended.abort();
    await ws.idle();
    expect(ws.turns.map((t) => t.request['previous_response_id'] ?? null)).toEqual([null, 'resp_1']);
  });

  it('unsubscribing mid-response closes the socket; a call without a loop is a socket of its own', async () => {
    const ws = await socketServer({ steps: 1, onTurn: () => 'ignore' });
    const subscription = toolLoop(request(ws), tools, { format: 'openai-responses', messages: [user] }).subscribe();
    for (let i = 0; i < 400 && ws.turns.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    subscription.unsubscribe();
    await ws.idle();
    const alone = await socketServer({ steps: 0 });
    const records = (await lastValueFrom(request(alone)([user], 0, undefined as never).pipe(toArray()))) as FramedRecord[];
    expect((JSON.parse(records.at(-1)?.data ?? '{}') as Item)['type']).toBe('response.completed');
    await alone.idle();
  });

  it('a drop after output ends the step as over HTTP: the complete calls, then connection-lost', async () => {
    const ws = await socketServer({
      steps: 2,
      onTurn: (socket, turn) => (turn === 2 ? (setTimeout(() => socket.ws.terminate(), 10), { type: 'response.created', response: { id: 'resp_x', output: [] } }) : 'answer'),
    });
    const { items, error } = await run(request(ws));
    expect(isToolStreamError(error, 'connection-lost') && error.source).toBe('responsesWebSocket');
    expect(items.filter((item) => item.type === 'step-end')).toHaveLength(1);
    await ws.idle();
  });

  it("refuses a loop whose format is not 'openai-responses', and options it cannot use", async () => {
    const ws = await socketServer();
    const seen = await lastValueFrom(toolLoop(request(ws), tools, { messages: [user] }).pipe(materialize(), toArray()));
    expect(seen.at(-1)).toMatchObject({ kind: 'E', error: { code: 'invalid-option', option: 'context.format' } });
    expect(() => responsesWebSocket(ws.url, { WebSocketCtor: WebSocket, body: { input: [] } as never })).toThrow(expect.objectContaining({ code: 'invalid-option', option: 'options.body' }));
    expect(() => responsesWebSocket(ws.url, { WebSocketCtor: WebSocket, maxReconnects: -1 })).toThrow(expect.objectContaining({ option: 'options.maxReconnects' }));
    await ws.idle();
  });
});

/** For the type of `run`'s request. */
export type Records = Observable<FramedRecord>;
