/**
 * The example gateway's UI routes, end to end on 127.0.0.1: `POST /api/chat` answers `useChat`
 * (the `ai` package's `DefaultChatTransport` and `readUIMessageStream`) and `POST /api/agent`
 * answers AG-UI clients (`@ag-ui/client`'s `HttpAgent`), each translated to the upstream's request
 * and answered live from the upstream's stream: a two-turn conversation with the demo upstreams
 * (no keys), then the faults of the chat route as each protocol carries them (a cut upstream, an
 * in-stream error, an HTTP error, a refused request, a client that goes away).
 */
import type { AddressInfo } from 'node:net';
import { HttpAgent, type Message } from '@ag-ui/client';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { startDemoUpstreams } from '../../examples/gateway/demo.mjs';
import { createGateway, type GatewayLogEntry, type GatewayServer } from '../../examples/gateway/gateway.mjs';
import { dataOf, json, post, start, startGatewayHarness, textBlock, toolStart, type GatewayHarness } from '../helpers/gatewayHarness';
import { anthropicEvent } from 'rxjs-tool-calls/marbles';

jest.setTimeout(30_000);

const weather = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

/** One useChat turn against `url`: the request's messages and the transport's `body` fields; the answer message and its chunks. */
async function useChatTurn(url: string, messages: UIMessage[], body: Record<string, unknown> = {}): Promise<{ message: UIMessage | undefined; chunks: UIMessageChunk[]; errors: unknown[] }> {
  const transport = new DefaultChatTransport({ api: url, body });
  const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: 'chat-1', messageId: undefined, messages, abortSignal: undefined });
  const chunks: UIMessageChunk[] = [];
  const errors: unknown[] = [];
  let message: UIMessage | undefined;
  const tapped = stream.pipeThrough(new TransformStream<UIMessageChunk, UIMessageChunk>({ transform: (chunk, controller) => (chunks.push(chunk), controller.enqueue(chunk)) }));
  for await (const snapshot of readUIMessageStream({ stream: tapped, onError: (e) => errors.push(e) })) message = snapshot;
  return { message, chunks, errors };
}

describe('the UI routes with the demo upstreams', () => {
  let stand: Awaited<ReturnType<typeof startDemoUpstreams>>;
  let gateway: GatewayServer;
  let origin: string;
  const log: GatewayLogEntry[] = [];
  beforeAll(async () => {
    stand = await startDemoUpstreams({ pauseMs: 1 });
    gateway = createGateway({ anthropic: { url: stand.anthropic }, gemini: { url: stand.gemini }, uiTools: [weather], log: (entry) => log.push(entry) });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    gateway.closeAllConnections();
    await new Promise((resolve) => gateway.close(resolve));
    await stand.close();
  });

  it.each(['claude-sonnet-4-5', 'gemini-2.5-flash'])('useChat (%s): a call of the server’s tool, its result sent back as UI messages, then the answer', async (model) => {
    const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] };
    const first = await useChatTurn(`${origin}/api/chat`, [question], { model });
    expect(first.errors).toEqual([]);
    const call = first.message?.parts.find((p) => p.type === 'tool-get_weather') as { toolCallId: string; state: string; input: unknown } | undefined;
    expect(call).toMatchObject({ state: 'input-available', input: { city: 'Paris' } });
    // The arguments come as the upstream sends them: Anthropic's in fragments, Gemini's whole.
    expect(first.chunks.filter((c) => c.type === 'tool-input-delta').length).toBe(model.startsWith('claude') ? 3 : 1);
    expect(first.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls', messageMetadata: { usage: { inputTokens: expect.any(Number) } } });
    // The client runs the tool and sends the conversation back, as useChat does.
    const answered: UIMessage = {
      ...(first.message as UIMessage),
      parts: (first.message?.parts ?? []).map((p) => (p.type === 'tool-get_weather' ? { ...p, state: 'output-available', output: { celsius: 21 } } : p)) as UIMessage['parts'],
    };
    const second = await useChatTurn(`${origin}/api/chat`, [question, answered], { model });
    const text = (second.message?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    expect(text).toContain('celsius');
    expect(second.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(log.slice(-2).map((e) => [e.model, e.outcome])).toEqual([
      [model, 'complete'],
      [model, 'complete'],
    ]);
  });

  it.each(['claude-sonnet-4-5', 'gemini-2.5-flash'])('HttpAgent (%s): a verified run with a call of the client’s tool, its result, then the answer', async (model) => {
    const agent = new HttpAgent({ url: `${origin}/api/agent`, threadId: 'thread-9', initialMessages: [{ id: 'u1', role: 'user', content: 'Time in Tokyo?' }] });
    const tools = [{ name: 'get_time', description: 'The time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } }];
    await agent.runAgent({ runId: 'run-1', tools, forwardedProps: { model } });
    const assistant = agent.messages.find((m) => m.role === 'assistant') as { toolCalls?: Array<{ id: string; function: { name: string; arguments: string } }> };
    // The server's tool first, then the client's: the demo calls both.
    expect(assistant.toolCalls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_time', { tz: 'Europe/Paris' }],
    ]);
    const results: Message[] = (assistant.toolCalls ?? []).map((c, i) => ({ id: `t${i}`, role: 'tool', toolCallId: c.id, content: `${c.function.name} done` }));
    agent.addMessages(results);
    const events: string[] = [];
    await agent.runAgent({ runId: 'run-2', tools, forwardedProps: { model } }, { onEvent: ({ event }) => void events.push(event.type) });
    expect(events[0]).toBe('RUN_STARTED');
    expect(events.at(-1)).toBe('RUN_FINISHED');
    const last = agent.messages.filter((m) => m.role === 'assistant').at(-1) as { content?: string };
    expect(last.content).toContain('get_time done');
  });
});

describe('the UI routes under faults', () => {
  let h: GatewayHarness;
  beforeAll(async () => (h = await startGatewayHarness({ idleTimeoutMs: 2000 })));
  afterAll(() => h.close());
  beforeEach(() => h.clearLog());

  const useChatBody = { id: 'chat-1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather?' }] }] };
  const runInput = { threadId: 'thread-1', runId: 'run-1', messages: [{ id: 'u1', role: 'user', content: 'Weather?' }], tools: [], context: [], state: {}, forwardedProps: {} };
  const overloaded = anthropicEvent('error', { error: { type: 'overloaded_error', message: 'Overloaded' } });
  const routes = [
    ['/api/chat', useChatBody],
    ['/api/agent', runInput],
  ] as const;

  it.each(routes)('%s: the upstream’s arguments arrive live, before the upstream finishes', async (path, body) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    h.anthropic.reply({
      events: [
        start(5),
        toolStart(0, 'toolu_1', 'get_weather'),
        json(0, '{"city":"Pa'),
        held,
        json(0, 'ris"}'),
        anthropicEvent('content_block_stop', { index: 0 }),
        anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
        anthropicEvent('message_stop'),
      ],
    });
    let sawFragment = false;
    const request = post(
      h.origin,
      body,
      (text) => {
        if (!sawFragment && text.includes('{\\"city\\":\\"Pa')) {
          sawFragment = true;
          release();
        }
        return false;
      },
      path,
    );
    const result = await request.result;
    expect(sawFragment).toBe(true);
    expect([result.status, result.ending]).toEqual([200, 'end']);
    if (path === '/api/chat') {
      expect(result.headers['x-vercel-ai-ui-message-stream']).toBe('v1');
      expect(dataOf(result.text)).toContainEqual({ type: 'tool-input-available', toolCallId: 'toolu_1', toolName: 'get_weather', input: { city: 'Paris' } });
      expect(dataOf(result.text).at(-1)).toBe('[DONE]');
    } else {
      expect(dataOf(result.text)[0]).toEqual({ type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' });
      expect(dataOf(result.text).at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'run-1' });
    }
    expect((await h.logged(1)).map((e) => e.outcome)).toEqual(['complete']);
  });

  it.each(routes)('%s: a cut upstream is a cut stream (no end of the protocol), the upstream request closed', async (path, body) => {
    h.anthropic.reply({ events: [start(5), ...textBlock(0, 'On it.'), toolStart(1, 'toolu_c', 'get_weather'), json(1, '{"city":"Pa')], then: 'cut' });
    const result = await post(h.origin, body, undefined, path).result;
    expect([result.status, result.ending]).toEqual([200, 'cut']);
    expect(result.text).toContain('On it.');
    expect(result.text).not.toMatch(/\[DONE\]|RUN_FINISHED|"finish"/);
    expect((await h.logged(1)).map((e) => e.outcome)).toEqual(['failed']);
  });

  it.each(routes)('%s: an error inside the upstream stream is the protocol’s error, in a 200 stream', async (path, body) => {
    h.anthropic.reply({ events: [start(4), ...textBlock(0, 'Let me'), overloaded] });
    const result = await post(h.origin, body, undefined, path).result;
    expect([result.status, result.ending]).toEqual([200, 'end']);
    const data = dataOf(result.text);
    if (path === '/api/chat') expect(data.slice(-2)).toEqual([{ type: 'error', errorText: expect.stringContaining('Overloaded') }, '[DONE]']);
    else expect(data.at(-1)).toEqual({ type: 'RUN_ERROR', message: expect.stringContaining('Overloaded'), code: 'overloaded_error' });
    expect((await h.logged(1)).map((e) => e.outcome)).toEqual(['upstream-error']);
  });

  it.each(routes)('%s: an upstream HTTP error is answered with its status, before any stream', async (path, body) => {
    h.anthropic.reply({ error: { status: 429, headers: { 'retry-after': '3' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } } } });
    const result = await post(h.origin, body, undefined, path).result;
    expect([result.status, result.headers['retry-after']]).toEqual([429, '3']);
    expect(JSON.parse(result.text)).toMatchObject({ error: { type: 'rate_limit_error', message: expect.stringContaining('Slow down') } });
  });

  it('a request the upstream cannot express is refused with 400 naming its path; no upstream request is made', async () => {
    const before = h.anthropic.requests.length;
    const file = { ...useChatBody, messages: [{ id: 'u1', role: 'user', parts: [{ type: 'file', mediaType: 'image/png', url: 'data:,' }] }] };
    const refused = await post(h.origin, file, undefined, '/api/chat').result;
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { param: 'messages[0].parts[0].type', code: 'unsupported_request' } });
    const state = await post(h.origin, { ...runInput, state: { count: 1 } }, undefined, '/api/agent').result;
    expect(state.status).toBe(400);
    expect(JSON.parse(state.text)).toMatchObject({ error: { param: 'state' } });
    expect(h.anthropic.requests.length).toBe(before);
    expect((await h.logged(2)).map((e) => e.outcome)).toEqual(['refused', 'refused']);
  });

  it.each(routes)('%s: a client that goes away aborts the upstream request', async (path, body) => {
    h.anthropic.reply({ events: [start(5), ...textBlock(0, 'Streaming')], then: 'hold' });
    const result = await post(h.origin, body, (text) => text.includes('Streaming'), path).result;
    expect(result.ending).toBe('cut');
    await h.anthropic.requests.at(-1)?.closed;
    expect((await h.logged(1)).map((e) => e.outcome)).toEqual(['client-closed']);
    expect(h.gateway.inFlight()).toBe(0);
  });
});
