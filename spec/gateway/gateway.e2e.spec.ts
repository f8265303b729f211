/**
 * The example gateway (examples/gateway/gateway.mjs) end to end: the official `openai` SDK as the
 * client, the gateway on 127.0.0.1, scripted Anthropic and Gemini upstreams on 127.0.0.1. The
 * example imports `rxjs-tool-calls`, which jest maps to src/index.ts: no build needed.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { isConnectionLost } from 'rxjs-tool-calls/advanced';
import { anthropicEvent, geminiChunk } from 'rxjs-tool-calls/marbles';
import { createGateway, type GatewayLogEntry } from '../../examples/gateway/gateway.mjs';
import { gate, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scriptedUpstream';

let anthropic: ScriptedUpstream;
let gemini: ScriptedUpstream;
let gateway: Server;
let origin: string;
const log: GatewayLogEntry[] = [];

beforeAll(async () => {
  [anthropic, gemini] = await Promise.all([startScriptedUpstream(), startScriptedUpstream()]);
  gateway = createGateway({
    anthropic: { url: anthropic.origin, apiKey: 'sk-ant-test' },
    gemini: { url: gemini.origin, apiKey: 'gm-test' },
    prices: { 'claude-': { input: '3', output: '15' }, 'gemini-2.5-flash': { input: '0.30', output: '2.50' } },
    multiplier: '1.3',
    log: (entry) => log.push(entry),
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});
afterAll(async () => {
  gateway.closeAllConnections();
  await new Promise((resolve) => gateway.close(resolve));
  await Promise.all([anthropic.close(), gemini.close()]);
});
beforeEach(() => (log.length = 0));

const client = (): OpenAI => new OpenAI({ baseURL: `${origin}/v1`, apiKey: 'client-key', maxRetries: 0 });
const tools: ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } } },
];
const user: ChatCompletionMessageParam = { role: 'user', content: 'Weather and time?' };

/** Wait until the gateway logged `n` entries (it logs when the response ends or its client leaves). */
async function logged(n: number): Promise<GatewayLogEntry[]> {
  for (let i = 0; i < 200 && log.length < n; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return log;
}

// ---- Anthropic upstream pieces --------------------------------------------------------------
const start = (input: number) => anthropicEvent('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], usage: { input_tokens: input, output_tokens: 1 } } });
const textBlock = (index: number, text: string) => [
  anthropicEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }),
  anthropicEvent('content_block_delta', { index, delta: { type: 'text_delta', text } }),
  anthropicEvent('content_block_stop', { index }),
];
const toolStart = (index: number, id: string, name: string) => anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } });
const json = (index: number, partial_json: string) => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
const stop = (index: number) => anthropicEvent('content_block_stop', { index });
const end = (reason: string, output: number) => [anthropicEvent('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: output } }), anthropicEvent('message_stop')];

/** The calls of a chunk stream, assembled by `tool_calls[].index` as an OpenAI client does. */
function assemble(chunks: ChatCompletionChunk[]): Array<{ index: number; id: string; name: string; arguments: string }> {
  const calls = new Map<number, { index: number; id: string; name: string; arguments: string }>();
  for (const chunk of chunks)
    for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
      const call = calls.get(delta.index) ?? { index: delta.index, id: '', name: '', arguments: '' };
      call.id += delta.id ?? '';
      call.name += delta.function?.name ?? '';
      call.arguments += delta.function?.arguments ?? '';
      calls.set(delta.index, call);
    }
  return [...calls.values()];
}

describe('gateway → Anthropic', () => {
  it('two-step tool use with parallel calls: deltas streamed live, results sent back merged, usage in the last chunk, cost logged', async () => {
    const held = gate();
    anthropic.reply({
      events: [start(20), ...textBlock(0, 'Let me check.'), toolStart(1, 'toolu_a', 'get_weather'), json(1, '{"city": "Pa'), held.promise, json(1, 'ris"}'), stop(1), toolStart(2, 'toolu_b', 'get_time'), json(2, '{"tz":"Europe/Paris"}'), stop(2), ...end('tool_use', 30)],
    });
    const stream = await client().chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, stream_options: { include_usage: true }, messages: [user], tools });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      // Live: the first arguments fragment reaches the client while the upstream still holds the rest.
      if (chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments === '{"city": "Pa') held.open();
    }
    expect(assemble(chunks)).toEqual([
      { index: 0, id: 'toolu_a', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { index: 1, id: 'toolu_b', name: 'get_time', arguments: '{"tz":"Europe/Paris"}' },
    ]);
    // id and name on each call's first delta only
    const firsts = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).filter((d) => d.id !== undefined);
    expect(firsts.map((d) => [d.index, d.id, d.function?.name])).toEqual([
      [0, 'toolu_a', 'get_weather'],
      [1, 'toolu_b', 'get_time'],
    ]);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Let me check.');
    expect(chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter((r) => r !== null)).toEqual(['tool_calls']);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 20, completion_tokens: 30, total_tokens: 50 } });
    expect(chunks.every((c) => c.model === 'claude-sonnet-4-5')).toBe(true);

    const first = anthropic.requests.at(-1);
    expect(first?.url).toBe('/v1/messages');
    expect(first?.headers).toMatchObject({ 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' });
    expect(first?.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true, max_tokens: 4096, messages: [{ role: 'user', content: 'Weather and time?' }] });
    expect((first?.body as { tools: unknown[] }).tools).toEqual([
      { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      { name: 'get_time', input_schema: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } },
    ]);

    // Step 2: the client runs the tools and sends both results back.
    anthropic.reply({ events: [start(80), ...textBlock(0, 'Paris: 18°C at 14:00.'), ...end('end_turn', 12)] });
    const calls = assemble(chunks);
    const second = await client()
      .chat.completions.stream({
        model: 'claude-sonnet-4-5',
        stream_options: { include_usage: true },
        tools,
        messages: [
          user,
          { role: 'assistant', content: 'Let me check.', tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) },
          { role: 'tool', tool_call_id: 'toolu_a', content: '18°C' },
          { role: 'tool', tool_call_id: 'toolu_b', content: '14:00' },
        ],
      })
      .finalChatCompletion();
    expect(second.choices[0]?.message.content).toBe('Paris: 18°C at 14:00.');
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.usage).toMatchObject({ prompt_tokens: 80, completion_tokens: 12, total_tokens: 92 });
    // Consecutive tool results merged into one user message of tool_result blocks, as Anthropic requires.
    expect((anthropic.requests.at(-1)?.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'Weather and time?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_b', name: 'get_time', input: { tz: 'Europe/Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: '18°C' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: '14:00' },
        ],
      },
    ]);
    // (20 × 3 + 30 × 15) / 1e6 × 1.3 and (80 × 3 + 12 × 15) / 1e6 × 1.3, exactly
    expect(await logged(2)).toEqual([
      { model: 'claude-sonnet-4-5', upstream: 'anthropic', outcome: 'complete', usage: { inputTokens: 20, outputTokens: 30, totalTokens: 50 }, cost: '0.000663' },
      { model: 'claude-sonnet-4-5', upstream: 'anthropic', outcome: 'complete', usage: { inputTokens: 80, outputTokens: 12, totalTokens: 92 }, cost: '0.000546' },
    ]);
  });

  it('no usage chunk unless the client asks (stream_options.include_usage), as OpenAI does; the cost is logged anyway', async () => {
    anthropic.reply({ events: [start(5), ...textBlock(0, 'Hi.'), ...end('end_turn', 2)] });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of await client().chat.completions.create({ model: 'claude-haiku-4-5', stream: true, messages: [user] })) chunks.push(chunk);
    expect(chunks.some((c) => c.usage !== undefined && c.usage !== null)).toBe(false);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hi.');
    expect(await logged(1)).toEqual([{ model: 'claude-haiku-4-5', upstream: 'anthropic', outcome: 'complete', usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 }, cost: '0.0000585' }]);
  });
});

describe('gateway → Gemini', () => {
  it('two-step tool use with parallel calls through chat.completions.stream(): calls whole, results sent back as functionResponse parts', async () => {
    gemini.reply({
      events: [
        geminiChunk({ text: 'Looking up.', usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 3, totalTokenCount: 33 } }),
        geminiChunk({
          functionCalls: [
            { name: 'get_weather', args: { city: 'Rome' } },
            { name: 'get_time', args: { tz: 'Europe/Rome' } },
          ],
          finishReason: 'STOP',
          usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 10, totalTokenCount: 40 },
        }),
      ],
    });
    const first = await client().chat.completions.stream({ model: 'gemini-2.5-flash', stream_options: { include_usage: true }, messages: [user], tools }).finalChatCompletion();
    const message = first.choices[0]?.message;
    const calls = (message?.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [c] : []));
    expect(calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['get_time', { tz: 'Europe/Rome' }],
    ]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2); // Gemini sends no ids: the tracker's, distinct
    expect(message?.content).toBe('Looking up.');
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(first.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 });
    const request = gemini.requests.at(-1);
    expect(request?.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(request?.headers['x-goog-api-key']).toBe('gm-test');
    expect(request?.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'Weather and time?' }] }], tools: [{ functionDeclarations: [{ name: 'get_weather' }, { name: 'get_time' }] }] });

    gemini.reply({ events: [geminiChunk({ text: 'Rome: 21°C, 14:00.', finishReason: 'STOP', usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 8, totalTokenCount: 68 } })] });
    const second = await client()
      .chat.completions.stream({
        model: 'gemini-2.5-flash',
        tools,
        messages: [
          user,
          { role: 'assistant', content: message?.content ?? null, tool_calls: calls },
          { role: 'tool', tool_call_id: calls[0]?.id ?? '', content: '{"celsius":21}' },
          { role: 'tool', tool_call_id: calls[1]?.id ?? '', content: '14:00' },
        ],
      })
      .finalChatCompletion();
    expect(second.choices[0]?.message.content).toBe('Rome: 21°C, 14:00.');
    const contents = (gemini.requests.at(-1)?.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> }).contents;
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1]?.parts).toEqual([{ text: 'Looking up.' }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }, { functionCall: { name: 'get_time', args: { tz: 'Europe/Rome' } } }]);
    // Both results in one user content, each named after the call it answers.
    expect(contents[2]?.parts.map((p) => (p['functionResponse'] as { name: string }).name)).toEqual(['get_weather', 'get_time']);
    expect(await logged(2)).toEqual([
      { model: 'gemini-2.5-flash', upstream: 'gemini', outcome: 'complete', usage: { inputTokens: 30, outputTokens: 10, totalTokens: 40 }, cost: '0.0000442' },
      { model: 'gemini-2.5-flash', upstream: 'gemini', outcome: 'complete', usage: { inputTokens: 60, outputTokens: 8, totalTokens: 68 }, cost: '0.0000494' },
    ]);
  });

  it('an upstream cut mid-stream: the client sees a broken connection, never a clean end', async () => {
    gemini.reply({ events: [geminiChunk({ text: 'Half an ans' })], then: 'cut' });
    const received: string[] = [];
    const reading = (async () => {
      for await (const chunk of await client().chat.completions.create({ model: 'gemini-2.5-flash', stream: true, messages: [user] })) received.push(chunk.choices[0]?.delta.content ?? '');
    })();
    const error = await reading.then(() => 'ended cleanly', (e: unknown) => e);
    expect(isConnectionLost(error)).toBe(true); // undici's `TypeError: terminated` (the SDK passes it on)
    expect(received.join('')).toBe('Half an ans');
    expect((await logged(1))[0]?.outcome).toBe('failed');

    gemini.reply({ events: [geminiChunk({ text: 'Half an ans' })], then: 'cut' });
    const final = await client()
      .chat.completions.stream({ model: 'gemini-2.5-flash', messages: [user] })
      .finalChatCompletion()
      .then(() => 'ended cleanly', (e: unknown) => e);
    expect(isConnectionLost(final)).toBe(true); // `OpenAIError: TypeError: terminated` or an APIConnectionError
  });
});

describe('upstream errors', () => {
  it('overloaded_error mid-stream: the client gets the error after the live chunks, never a fake clean end', async () => {
    const failing = () => [start(12), ...textBlock(0, 'Let me'), toolStart(1, 'toolu_x', 'get_weather'), json(1, '{"city":'), anthropicEvent('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })];
    anthropic.reply({ events: failing() });
    const received: ChatCompletionChunk[] = [];
    const reading = (async () => {
      for await (const chunk of await client().chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages: [user], tools })) received.push(chunk);
    })();
    await expect(reading).rejects.toMatchObject({ message: expect.stringContaining('Overloaded'), type: 'overloaded_error' });
    expect(received.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Let me');
    expect(assemble(received)).toEqual([{ index: 0, id: 'toolu_x', name: 'get_weather', arguments: '{"city":' }]);
    expect(received.some((c) => c.choices.some((choice) => choice.finish_reason !== null))).toBe(false);

    anthropic.reply({ events: failing() });
    await expect(client().chat.completions.stream({ model: 'claude-sonnet-4-5', messages: [user], tools }).finalChatCompletion()).rejects.toThrow('Overloaded');

    // On the wire: the chat error event, then the end of the response: no finish, no [DONE].
    anthropic.reply({ events: failing() });
    const raw = await (await fetch(`${origin}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-sonnet-4-5', stream: true, messages: [user] }) })).text();
    const last = raw.trim().split('\n\n').at(-1);
    expect(JSON.parse(last?.replace(/^data: /, '') ?? 'null')).toEqual({ error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: null } });
    expect(raw).not.toContain('[DONE]');
    expect(raw).not.toContain('"finish_reason":"');
    expect((await logged(3)).map((e) => [e.outcome, e.usage?.inputTokens])).toEqual([
      ['upstream-error', 12],
      ['upstream-error', 12],
      ['upstream-error', 12],
    ]);
  });

  it('an upstream HTTP error before the stream: its status and an OpenAI-style error body', async () => {
    anthropic.reply({ error: { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } } });
    const failure = client().chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages: [user] });
    await expect(failure).rejects.toBeInstanceOf(OpenAI.APIError);
    await failure.catch((error: InstanceType<typeof OpenAI.APIError>) => {
      expect([error.status, error.type, error.message]).toEqual([529, 'overloaded_error', expect.stringContaining('Overloaded')]);
    });
    expect((await logged(1))[0]).toMatchObject({ outcome: 'upstream-error', usage: null, cost: null });
  });

  it('an unreachable upstream: 502', async () => {
    // A port nobody listens on: take a free one and close it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const down = createGateway({ anthropic: { url: `http://127.0.0.1:${closedPort}` }, log: () => undefined });
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    try {
      const gone = new OpenAI({ baseURL: `http://127.0.0.1:${(down.address() as AddressInfo).port}/v1`, apiKey: 'k', maxRetries: 0 });
      await expect(gone.chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages: [user] })).rejects.toMatchObject({ status: 502, code: 'connection-lost' });
    } finally {
      down.closeAllConnections();
      await new Promise((resolve) => down.close(resolve));
    }
  });
});

describe('client disconnect', () => {
  it('a client that goes away aborts the upstream request: the upstream socket closes', async () => {
    anthropic.reply({ events: [start(40), ...textBlock(0, 'Thinking about it'), toolStart(1, 'toolu_s', 'get_weather'), json(1, '{"ci')], then: 'hold' });
    const stream = await client().chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages: [user], tools });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.tool_calls !== undefined) break; // the SDK aborts its request
    }
    await expect(anthropic.waitForClose()).resolves.toBeUndefined();
    expect((await logged(1))[0]).toMatchObject({ outcome: 'client-closed', usage: { inputTokens: 40, outputTokens: 1 } });
  });
});

describe('requests the gateway refuses', () => {
  it('unsupported-request: 400 naming the field, and no upstream request', async () => {
    const before = anthropic.requests.length + gemini.requests.length;
    const image: ChatCompletionMessageParam = { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] };
    await expect(client().chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages: [image] })).rejects.toMatchObject({
      status: 400,
      param: 'messages[0].content[1].type',
      code: 'unsupported_request',
      message: expect.stringContaining('Cannot translate messages[0].content[1].type to anthropic'),
    });
    await expect(client().chat.completions.create({ model: 'gemini-2.5-flash', stream: true, messages: [user], tools, parallel_tool_calls: false })).rejects.toMatchObject({
      status: 400,
      param: 'parallel_tool_calls',
      code: 'unsupported_request',
    });
    expect(anthropic.requests.length + gemini.requests.length).toBe(before);
  });

  it('an unknown model is 404, a request that does not stream is 400', async () => {
    await expect(client().chat.completions.create({ model: 'gpt-4o', stream: true, messages: [user] })).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    await expect(client().chat.completions.create({ model: 'claude-sonnet-4-5', messages: [user] })).rejects.toMatchObject({ status: 400, param: 'stream' });
  });
});
