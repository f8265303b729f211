/**
 * The example gateway's WebSocket route (the Responses API's WebSocket mode on `/v1/responses`):
 * openai 7's `ResponsesWS` as the client, the scripted Anthropic and Gemini upstreams and the demo
 * stand-ins on 127.0.0.1. Turns relayed live, `previous_response_id` honoured from the socket's own
 * memory (bounded), the protocol's errors, one log line per turn, a client that leaves mid-turn
 * closing its upstream within a second; and a `toolLoop()` over `responsesWebSocket()` through it.
 */
import { lastValueFrom, toArray } from 'rxjs';
import OpenAI from 'openai7';
import { ResponsesWS } from 'openai7/resources/responses/ws';
import type { ResponsesClientEvent, ResponsesServerEvent } from 'openai7/resources/responses/responses';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { tool, toolLoop, type ToolLoopItem } from 'rxjs-tool-calls/tools';
import { responsesWebSocket } from 'rxjs-tool-calls/websocket';
import { createGateway, type GatewayLogEntry } from '../../examples/gateway/gateway.mjs';
import { startDemoUpstreams } from '../../examples/gateway/demo.mjs';
import { brief, end, json, start, stop, textBlock, toolStart, startGatewayHarness, type GatewayHarness } from '../helpers/gatewayHarness';
import { gate } from '../helpers/scriptedUpstream';
import { heapAfterGc } from '../helpers/heap';

let h: GatewayHarness;
beforeAll(async () => (h = await startGatewayHarness({ idleTimeoutMs: 400 })));
afterAll(() => h.close());
beforeEach(() => h.clearLog());

const weather = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

/** A `ResponsesWS` of the gateway, with every server event and error it saw, and a way to wait for a turn's end. */
function client(origin: string) {
  const ws = new ResponsesWS(new OpenAI({ baseURL: `${origin}/v1`, apiKey: 'client-key', maxRetries: 0 }));
  const events: ResponsesServerEvent[] = [];
  const errors: unknown[] = [];
  const waiters: Array<() => void> = [];
  ws.on('event', (event) => {
    events.push(event);
    if (event.type === 'response.completed' || event.type === 'response.failed' || event.type === 'response.incomplete' || event.type === 'error') waiters.shift()?.();
  });
  ws.on('error', (error) => errors.push(error));
  return {
    ws,
    events,
    errors,
    /** Send a turn and wait for its end (its terminal event). */
    turn(event: Turn): Promise<ResponsesServerEvent[]> {
      const from = events.length;
      const ended = new Promise<void>((resolve) => waiters.push(resolve));
      ws.send({ type: 'response.create', ...event } as ResponsesClientEvent);
      return ended.then(() => events.slice(from));
    },
  };
}

const types = (events: ReadonlyArray<ResponsesServerEvent>) => events.map((e) => e.type);
type Turn = Omit<ResponsesClientEvent.ResponseCreate, 'type'>;

/** The text of a completed response's output (the SDK's `output_text` is computed for HTTP responses only). */
function textOf(event: ResponsesServerEvent | undefined): string | undefined {
  if (event?.type !== 'response.completed') return undefined;
  return event.response.output.flatMap((item) => (item.type === 'message' ? item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : [])).join('');
}

describe('gateway WebSocket mode', () => {
  it('ResponsesWS: a tool call streamed live, its output sent with previous_response_id, the upstream given the whole conversation; one log line per turn', async () => {
    const c = client(h.origin);
    try {
      const held = gate();
      h.anthropic.reply({
        events: [start(20), ...textBlock(0, 'Let me check.'), toolStart(1, 'toolu_1', 'get_weather'), json(1, '{"city":'), held.promise, json(1, '"Paris"}'), stop(1), ...end('tool_use', 12)],
      });
      const first = c.turn({ model: 'claude-sonnet-4-5', input: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weather], store: false });
      // Live: the call's first fragment arrives while the upstream still holds the rest.
      for (let i = 0; i < 200 && !c.events.some((e) => e.type === 'response.function_call_arguments.delta'); i++) await new Promise((r) => setTimeout(r, 5));
      expect(types(c.events)).toContain('response.function_call_arguments.delta');
      expect(types(c.events)).not.toContain('response.completed');
      held.open();
      const turn1 = await first;
      expect(types(turn1).slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
      const completed = turn1.at(-1);
      if (completed?.type !== 'response.completed') throw new Error(`no response.completed: ${JSON.stringify(types(turn1))}`);
      const call = completed.response.output.find((item) => item.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', call_id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' });

      h.anthropic.reply({ events: [start(40), ...textBlock(0, 'It is 18 degrees in Paris.'), ...end('end_turn', 8)] });
      const turn2 = await c.turn({
        model: 'claude-sonnet-4-5',
        previous_response_id: completed.response.id,
        input: [{ type: 'function_call_output', call_id: 'toolu_1', output: '{"celsius":18}' }],
        tools: [weather],
      });
      const answer = turn2.at(-1);
      expect(textOf(answer)).toBe('It is 18 degrees in Paris.');
      // The upstream (Anthropic) got the whole conversation: the question, the call, its result.
      const sent = h.anthropic.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
      expect(sent.messages).toEqual([
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [expect.objectContaining({ type: 'text', text: 'Let me check.' }), { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"celsius":18}' }] },
      ]);
      const log = await h.logged(2);
      expect(log.map(brief)).toEqual([
        { model: 'claude-sonnet-4-5', upstream: 'anthropic', outcome: 'complete', usage: { inputTokens: 20, outputTokens: 12, totalTokens: 32 }, cost: expect.any(String) },
        { model: 'claude-sonnet-4-5', upstream: 'anthropic', outcome: 'complete', usage: { inputTokens: 40, outputTokens: 8, totalTokens: 48 }, cost: expect.any(String) },
      ]);
      expect(log.map((e) => [e.status, e.upstreamStatus, e.id.replace(/^gw-\d+/, 'gw-N')])).toEqual([
        [200, 200, 'gw-N.1'],
        [200, 200, 'gw-N.2'],
      ]);
      expect(c.errors).toEqual([]);
    } finally {
      c.ws.close();
    }
  });

  it("the protocol's errors: unknown previous response, a model of no upstream, a field it cannot translate, not JSON, a second turn in flight, an upstream's 429", async () => {
    const c = client(h.origin);
    try {
      const error = async (event: Turn) => (await c.turn(event)).at(-1) as Extract<ResponsesServerEvent, { type: 'error' }> & { status?: number };
      expect(await error({ model: 'claude-sonnet-4-5', previous_response_id: 'resp_elsewhere', input: [] })).toMatchObject({
        status: 400,
        error: { code: 'previous_response_not_found', param: 'previous_response_id' },
      });
      expect(await error({ model: 'llama-3', input: 'Hi' })).toMatchObject({ status: 404, error: { code: 'model_not_found' } });
      expect(await error({ model: 'claude-sonnet-4-5', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/y.png', detail: 'auto' }] }] })).toMatchObject({
        status: 400,
        error: { code: 'unsupported_request', param: 'input[0].content[0].type' },
      });
      h.anthropic.reply({ error: { status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } }, headers: { 'retry-after': '2' } } });
      expect(await error({ model: 'claude-sonnet-4-5', input: 'Hi' })).toMatchObject({ status: 429, error: { type: 'rate_limit_error', message: expect.stringContaining('Slow down') } });
      // Not JSON, and a second turn while one is in flight: raw frames on the same socket.
      const raw = new WebSocket(`${h.origin.replace('http', 'ws')}/v1/responses`);
      const heard: unknown[] = [];
      raw.on('message', (data) => heard.push(JSON.parse(data.toString())));
      await new Promise((resolve) => raw.once('open', resolve));
      const held = gate();
      h.anthropic.reply({ events: [start(1), held.promise, ...end('end_turn', 1)] });
      raw.send('{"type":"response.create","model":"claude-sonnet-4-5","input":"one"}');
      raw.send('{"type":"response.create","model":"claude-sonnet-4-5","input":"two"}');
      raw.send('not json');
      raw.send('{"type":"session.update"}');
      for (let i = 0; i < 200 && heard.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
      expect(heard.filter((m) => (m as { type: string }).type === 'error')).toEqual([
        { type: 'error', status: 400, error: expect.objectContaining({ code: 'response_already_in_flight' }) },
        { type: 'error', status: 400, error: expect.objectContaining({ code: 'invalid_json' }) },
        { type: 'error', status: 400, error: expect.objectContaining({ code: 'unsupported_event', param: 'type' }) },
      ]);
      held.open();
      raw.close();
      const log = await h.logged(5);
      expect(log.map((e) => e.outcome)).toEqual(['refused', 'refused', 'refused', 'upstream-error', 'complete']);
    } finally {
      c.ws.close();
    }
  });

  it('a client that leaves mid-turn: the upstream request is closed within a second, the turn logged client-closed', async () => {
    h.anthropic.reply({ events: [start(1), ...textBlock(0, 'Thinking'), new Promise(() => undefined)], then: 'hold' });
    const raw = new WebSocket(`${h.origin.replace('http', 'ws')}/v1/responses`);
    await new Promise((resolve) => raw.once('open', resolve));
    raw.send(JSON.stringify({ type: 'response.create', model: 'claude-sonnet-4-5', input: 'Hi' }));
    await new Promise<void>((resolve) => raw.on('message', (data) => (String(data).includes('output_text.delta') ? resolve() : undefined)));
    const request = h.anthropic.requests.at(-1);
    raw.terminate();
    const left = performance.now();
    await request?.closed;
    expect(performance.now() - left).toBeLessThan(1000);
    expect((await h.logged(1)).map((e) => e.outcome)).toEqual(['client-closed']);
    expect(h.gateway.inFlight()).toBe(0);
  });

  it('a client that leaves mid-turn, 100 times: each upstream request closed within a second; no turn, socket, timer or retained heap left', async () => {
    const leave = async (): Promise<number> => {
      h.anthropic.reply({ events: [start(1), ...textBlock(0, 'Thinking')], then: 'hold' });
      const raw = new WebSocket(`${h.origin.replace('http', 'ws')}/v1/responses`);
      const streaming = new Promise<void>((resolve) => raw.on('message', (data) => (String(data).includes('output_text.delta') ? resolve() : undefined)));
      await new Promise((resolve) => raw.once('open', resolve));
      raw.send(JSON.stringify({ type: 'response.create', model: 'claude-sonnet-4-5', input: 'Hi' }));
      await streaming;
      const request = h.anthropic.requests.at(-1);
      raw.terminate();
      const left = performance.now();
      await request?.closed;
      return performance.now() - left;
    };
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const settled = async (check: () => boolean) => {
      for (let i = 0; i < 600 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    expect(await leave()).toBeLessThan(1000); // once, warm
    await settled(() => h.gateway.inFlight() === 0 && h.anthropic.active() === 0);
    const before = { timers: timers(), gatewaySockets: h.sockets(), upstreamSockets: h.anthropic.sockets(), heap: heapAfterGc() };
    const waits: number[] = [];
    for (let i = 0; i < 100; i++) waits.push(await leave());
    expect(Math.max(...waits)).toBeLessThan(1000);
    const log = await h.logged(101);
    expect(log.filter((e) => e.outcome === 'client-closed')).toHaveLength(101);
    await settled(() => h.gateway.inFlight() === 0 && h.anthropic.active() === 0 && h.sockets() <= before.gatewaySockets && timers() <= before.timers);
    expect({ inFlight: h.gateway.inFlight(), upstreamActive: h.anthropic.active() }).toEqual({ inFlight: 0, upstreamActive: 0 });
    expect(h.sockets()).toBeLessThanOrEqual(before.gatewaySockets);
    expect(h.anthropic.sockets()).toBeLessThanOrEqual(before.upstreamSockets);
    expect(timers()).toBeLessThanOrEqual(before.timers);
    expect(heapAfterGc() - before.heap).toBeLessThan(4 * 1024 * 1024);
  }, 60_000);

  it('an upstream that stalls: a 504 error event (idle-timeout), and the socket serves the next turn', async () => {
    const c = client(h.origin);
    try {
      h.gemini.reply({ stall: 'before-headers' });
      const stalled = (await c.turn({ model: 'gemini-2.5-flash', input: 'Hi' })).at(-1);
      expect(stalled).toMatchObject({ type: 'error', status: 504, error: { code: 'idle-timeout' } });
      h.gemini.reply({ events: ['data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"}]},"finishReason":"STOP","index":0}]}\r\n\r\n'] });
      const next = (await c.turn({ model: 'gemini-2.5-flash', input: 'Hi again' })).at(-1);
      expect(textOf(next)).toBe('Hello');
    } finally {
      c.ws.close();
    }
  });

  it('keeps the conversations of its last maxSocketResponses responses per socket; generate: false warms up without the upstream', async () => {
    const demo = await startDemoUpstreams({ pauseMs: 0 });
    const log: GatewayLogEntry[] = [];
    const gateway = createGateway({ anthropic: { url: demo.anthropic, apiKey: 'demo' }, gemini: { url: demo.gemini, apiKey: 'demo' }, maxSocketResponses: 2, log: (entry) => log.push(entry) });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
    const c = client(origin);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const previous = ids.at(-1);
        const done = (await c.turn({ model: 'claude-demo', input: `Question ${i}`, ...(previous === undefined ? {} : { previous_response_id: previous }) })).at(-1);
        if (done?.type !== 'response.completed') throw new Error('no response');
        ids.push(done.response.id);
      }
      // The first response is no longer held (only the last two are).
      expect((await c.turn({ model: 'claude-demo', previous_response_id: ids[0] ?? null, input: 'x' })).at(-1)).toMatchObject({ type: 'error', error: { code: 'previous_response_not_found' } });
      const warm = (await c.turn({ model: 'claude-demo', input: [{ role: 'user', content: 'Ready?' }], generate: false } as Turn)).at(-1);
      expect(warm?.type === 'response.completed' && warm.response.output).toEqual([]);
      expect(log.at(-1)).toMatchObject({ outcome: 'complete', upstream: null });
    } finally {
      c.ws.close();
      await new Promise((resolve) => gateway.close(resolve));
      await demo.close();
    }
  });

  it('toolLoop(responsesWebSocket()) through the gateway, in front of the demo upstreams: one socket, every later step only its results', async () => {
    const demo = await startDemoUpstreams({ pauseMs: 0 });
    const gateway = createGateway({ anthropic: { url: demo.anthropic, apiKey: 'demo' }, gemini: { url: demo.gemini, apiKey: 'demo' }, log: () => undefined });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const port = (gateway.address() as { port: number }).port;
    try {
      const tools = { get_weather: tool({ description: 'Weather in a city', schema: z.object({ city: z.string() }), execute: ({ city }) => ({ city, celsius: 18 }) }) };
      for (const model of ['claude-demo', 'gemini-2.5-flash']) {
        const request = responsesWebSocket(`ws://127.0.0.1:${port}/v1/responses`, { WebSocketCtor: WebSocket, body: { model } });
        const items = (await lastValueFrom(toolLoop(request, tools, { format: 'openai-responses', messages: [{ role: 'user', content: 'Weather in Paris?' }] }).pipe(toArray()))) as Array<
          ToolLoopItem<unknown>
        >;
        const done = items.at(-1);
        // The demo quotes the results as its upstream's request carried them (Gemini: a functionResponse's `output`).
        expect(done?.type === 'done' && done.text).toMatch(/^Here is what the tools returned: .*Paris.*18/);
        expect(items.filter((item) => item.type === 'tool-result').map((item) => item.type === 'tool-result' && item.result.success)).toEqual([true]);
      }
      expect(gateway.inFlight()).toBe(0);
    } finally {
      await new Promise((resolve) => gateway.close(resolve));
      await demo.close();
    }
  });
});
