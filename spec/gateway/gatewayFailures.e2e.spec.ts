/**
 * The example gateway end to end, when things go wrong: upstream errors (mid-stream and before the
 * stream), a cut or unreachable upstream, a client that disconnects, requests it refuses. The
 * official `openai` SDK as the client, scripted upstreams on 127.0.0.1 (spec/helpers/gatewayHarness.ts).
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { isConnectionLost } from 'rxjs-tool-calls/advanced';
import { anthropicEvent, geminiChunk } from 'rxjs-tool-calls/marbles';
import { createGateway } from '../../examples/gateway/gateway.mjs';
import { assemble, json, start, textBlock, tools, toolStart, user, startGatewayHarness, type GatewayHarness } from '../helpers/gatewayHarness';

let h: GatewayHarness;
beforeAll(async () => (h = await startGatewayHarness()));
afterAll(() => h.close());
beforeEach(() => h.clearLog());
const client = () => h.client();
const logged = (n: number) => h.logged(n);

describe('upstream errors', () => {
  it('an upstream cut mid-stream: the client sees a broken connection, never a clean end', async () => {
    h.gemini.reply({ events: [geminiChunk({ text: 'Half an ans' })], then: 'cut' });
    const received: string[] = [];
    const reading = (async () => {
      for await (const chunk of await client().chat.completions.create({ model: 'gemini-2.5-flash', stream: true, messages: [user] })) received.push(chunk.choices[0]?.delta.content ?? '');
    })();
    const error = await reading.then(
      () => 'ended cleanly',
      (e: unknown) => e,
    );
    expect(isConnectionLost(error)).toBe(true); // undici's `TypeError: terminated` (the SDK passes it on)
    expect(received.join('')).toBe('Half an ans');
    expect((await logged(1))[0]?.outcome).toBe('failed');

    h.gemini.reply({ events: [geminiChunk({ text: 'Half an ans' })], then: 'cut' });
    const final = await client()
      .chat.completions.stream({ model: 'gemini-2.5-flash', messages: [user] })
      .finalChatCompletion()
      .then(
        () => 'ended cleanly',
        (e: unknown) => e,
      );
    expect(isConnectionLost(final)).toBe(true); // `OpenAIError: TypeError: terminated` or an APIConnectionError
  });

  it('overloaded_error mid-stream: the client gets the error after the live chunks, never a fake clean end', async () => {
    const failing = () => [
      start(12),
      ...textBlock(0, 'Let me'),
      toolStart(1, 'toolu_x', 'get_weather'),
      json(1, '{"city":'),
      anthropicEvent('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }),
    ];
    h.anthropic.reply({ events: failing() });
    const received: ChatCompletionChunk[] = [];
    const reading = (async () => {
      for await (const chunk of await client().chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages: [user], tools })) received.push(chunk);
    })();
    await expect(reading).rejects.toMatchObject({ message: expect.stringContaining('Overloaded'), type: 'overloaded_error' });
    expect(received.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Let me');
    expect(assemble(received)).toEqual([{ index: 0, id: 'toolu_x', name: 'get_weather', arguments: '{"city":' }]);
    expect(received.some((c) => c.choices.some((choice) => choice.finish_reason !== null))).toBe(false);

    h.anthropic.reply({ events: failing() });
    await expect(
      client()
        .chat.completions.stream({ model: 'claude-sonnet-4-5', messages: [user], tools })
        .finalChatCompletion(),
    ).rejects.toThrow('Overloaded');

    // On the wire: the chat error event, then the end of the response: no finish, no [DONE].
    h.anthropic.reply({ events: failing() });
    const raw = await (
      await fetch(`${h.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-sonnet-4-5', stream: true, messages: [user] }),
      })
    ).text();
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
    h.anthropic.reply({ error: { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } } });
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
    h.anthropic.reply({ events: [start(40), ...textBlock(0, 'Thinking about it'), toolStart(1, 'toolu_s', 'get_weather'), json(1, '{"ci')], then: 'hold' });
    const stream = await client().chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages: [user], tools });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.tool_calls !== undefined) break; // the SDK aborts its request
    }
    await expect(h.anthropic.waitForClose()).resolves.toBeUndefined();
    expect((await logged(1))[0]).toMatchObject({ outcome: 'client-closed', usage: { inputTokens: 40, outputTokens: 1 } });
  });
});

describe('requests the gateway refuses', () => {
  it('unsupported-request: 400 naming the field, and no upstream request', async () => {
    const before = h.anthropic.requests.length + h.gemini.requests.length;
    const image: ChatCompletionMessageParam = {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      ],
    };
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
    expect(h.anthropic.requests.length + h.gemini.requests.length).toBe(before);
  });

  it('an unknown model is 404, a request that does not stream is 400', async () => {
    await expect(client().chat.completions.create({ model: 'gpt-4o', stream: true, messages: [user] })).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    await expect(client().chat.completions.create({ model: 'claude-sonnet-4-5', messages: [user] })).rejects.toMatchObject({ status: 400, param: 'stream' });
  });
});
