/**
 * The example gateway end to end, tool use: the official `openai` SDK as the client
 * (`chat.completions.create({ stream: true })` and `chat.completions.stream()`), scripted Anthropic
 * and Gemini upstreams on 127.0.0.1 (spec/helpers/gatewayHarness.ts). Failures, disconnects and
 * refused requests: gatewayFailures.e2e.spec.ts.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { fromResponse } from 'rxjs-tool-calls';
import { geminiChunk } from 'rxjs-tool-calls/marbles';
import { tool, toolLoop, toolSpecs, type ToolLoopRequest } from 'rxjs-tool-calls/tools';
import { assemble, brief, end, json, start, stop, textBlock, tools, toolStart, user, startGatewayHarness, type GatewayHarness } from '../helpers/gatewayHarness';
import { gate } from '../helpers/scriptedUpstream';

let h: GatewayHarness;
beforeAll(async () => (h = await startGatewayHarness()));
afterAll(() => h.close());
beforeEach(() => h.clearLog());
const client = () => h.client();
const logged = (n: number) => h.logged(n);

describe('gateway → Anthropic', () => {
  it('two-step tool use with parallel calls: deltas streamed live, results sent back merged, usage in the last chunk, cost logged', async () => {
    const held = gate();
    h.anthropic.reply({
      events: [
        start(20),
        ...textBlock(0, 'Let me check.'),
        toolStart(1, 'toolu_a', 'get_weather'),
        json(1, '{"city": "Pa'),
        held.promise,
        json(1, 'ris"}'),
        stop(1),
        toolStart(2, 'toolu_b', 'get_time'),
        json(2, '{"tz":"Europe/Paris"}'),
        stop(2),
        ...end('tool_use', 30),
      ],
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

    const first = h.anthropic.requests.at(-1);
    expect(first?.url).toBe('/v1/messages');
    expect(first?.headers).toMatchObject({ 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' });
    expect(first?.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true, max_tokens: 4096, messages: [{ role: 'user', content: 'Weather and time?' }] });
    // A streaming request: the gateway asks Anthropic for fine-grained tool streaming, so the arguments reach the chat client live.
    expect((first?.body as { tools: unknown[] }).tools).toEqual([
      { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, eager_input_streaming: true },
      { name: 'get_time', input_schema: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] }, eager_input_streaming: true },
    ]);

    // Step 2: the client runs the tools and sends both results back.
    h.anthropic.reply({ events: [start(80), ...textBlock(0, 'Paris: 18°C at 14:00.'), ...end('end_turn', 12)] });
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
    expect((h.anthropic.requests.at(-1)?.body as { messages: unknown[] }).messages).toEqual([
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
    expect((await logged(2)).map(brief)).toEqual([
      { model: 'claude-sonnet-4-5', upstream: 'anthropic', outcome: 'complete', usage: { inputTokens: 20, outputTokens: 30, totalTokens: 50 }, cost: '0.000663' },
      { model: 'claude-sonnet-4-5', upstream: 'anthropic', outcome: 'complete', usage: { inputTokens: 80, outputTokens: 12, totalTokens: 92 }, cost: '0.000546' },
    ]);
  });

  it('no usage chunk unless the client asks (stream_options.include_usage), as OpenAI does; the cost is logged anyway', async () => {
    h.anthropic.reply({ events: [start(5), ...textBlock(0, 'Hi.'), ...end('end_turn', 2)] });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of await client().chat.completions.create({ model: 'claude-haiku-4-5', stream: true, messages: [user] })) chunks.push(chunk);
    expect(chunks.some((c) => c.usage !== undefined && c.usage !== null)).toBe(false);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hi.');
    expect((await logged(1)).map(brief)).toEqual([
      { model: 'claude-haiku-4-5', upstream: 'anthropic', outcome: 'complete', usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 }, cost: '0.0000585' },
    ]);
  });
});

describe('gateway → Gemini', () => {
  it('two-step tool use with parallel calls through chat.completions.stream(): calls whole, results sent back as functionResponse parts', async () => {
    h.gemini.reply({
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
    const first = await client()
      .chat.completions.stream({ model: 'gemini-2.5-flash', stream_options: { include_usage: true }, messages: [user], tools })
      .finalChatCompletion();
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
    const request = h.gemini.requests.at(-1);
    expect(request?.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(request?.headers['x-goog-api-key']).toBe('gm-test');
    expect(request?.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'Weather and time?' }] }], tools: [{ functionDeclarations: [{ name: 'get_weather' }, { name: 'get_time' }] }] });

    h.gemini.reply({ events: [geminiChunk({ text: 'Rome: 21°C, 14:00.', finishReason: 'STOP', usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 8, totalTokenCount: 68 } })] });
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
    const contents = (h.gemini.requests.at(-1)?.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> }).contents;
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1]?.parts).toEqual([
      { text: 'Looking up.' },
      { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
      { functionCall: { name: 'get_time', args: { tz: 'Europe/Rome' } } },
    ]);
    // Both results in one user content, each named after the call it answers.
    expect(contents[2]?.parts.map((p) => (p['functionResponse'] as { name: string }).name)).toEqual(['get_weather', 'get_time']);
    expect((await logged(2)).map(brief)).toEqual([
      { model: 'gemini-2.5-flash', upstream: 'gemini', outcome: 'complete', usage: { inputTokens: 30, outputTokens: 10, totalTokens: 40 }, cost: '0.0000442' },
      { model: 'gemini-2.5-flash', upstream: 'gemini', outcome: 'complete', usage: { inputTokens: 60, outputTokens: 8, totalTokens: 68 }, cost: '0.0000494' },
    ]);
  });
});

describe('toolLoop() through the gateway', () => {
  it('to Gemini: the tool specs toolSpecs() writes for OpenAI chat (strict: true) are accepted, the loop runs to its answer', async () => {
    const loopTools = {
      get_weather: tool({ description: 'Weather in a city', schema: z.strictObject({ city: z.string() }), execute: async ({ city }) => ({ city, celsius: 21 }) }),
    };
    expect(toolSpecs(loopTools, 'openai-chat')[0]?.function.strict).toBe(true);
    h.gemini.reply({ events: [geminiChunk({ functionCalls: [{ name: 'get_weather', args: { city: 'Rome' } }], finishReason: 'STOP' })] });
    h.gemini.reply({ events: [geminiChunk({ text: 'Rome: 21°C.', finishReason: 'STOP' })] });
    const sent = h.gemini.requests.length;
    const request: ToolLoopRequest = (messages, _step, context) =>
      fromResponse((signal) =>
        fetch(`${h.origin}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          signal,
          body: JSON.stringify({ model: 'gemini-2.5-flash', stream: true, tools: context.tools, messages }),
        }),
      );
    const items = await lastValueFrom(toolLoop(request, loopTools, { format: 'openai-chat', messages: [{ role: 'user', content: 'Weather in Rome?' }] }).pipe(toArray()));

    expect(items.flatMap((item) => (item.type === 'tool-result' && item.result.success ? [item.result.data.output] : []))).toEqual([{ city: 'Rome', celsius: 21 }]);
    expect(items.at(-1)).toMatchObject({ type: 'done', step: 1, text: 'Rome: 21°C.' });
    const [first, second] = h.gemini.requests.slice(sent) as Array<{ body: { tools: unknown; contents: unknown[] } }>;
    expect(first?.body.tools).toEqual([
      { functionDeclarations: [{ name: 'get_weather', description: 'Weather in a city', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] },
    ]);
    expect(second?.body.contents.at(-1)).toEqual({ role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '{"city":"Rome","celsius":21}' } } }] });
    expect((await logged(2)).map((entry) => [entry.upstream, entry.status, entry.outcome])).toEqual([
      ['gemini', 200, 'complete'],
      ['gemini', 200, 'complete'],
    ]);
  });
});

describe('operations', () => {
  it('GET /health answers ok with the requests in flight, and is not logged', async () => {
    h.anthropic.reply({ events: [start(1), ...textBlock(0, 'Still going')], then: 'hold' });
    const stream = await client().chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages: [user] });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next(); // the stream is open at the gateway
    const health = await fetch(`${h.origin}/health`);
    expect([health.status, health.headers.get('content-type')]).toEqual([200, 'application/json']);
    expect(await health.json()).toEqual({ status: 'ok', inFlight: 1 });
    stream.controller.abort();
    for (let i = 0; i < 100 && h.gateway.inFlight() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await (await fetch(`${h.origin}/health`)).json()).toEqual({ status: 'ok', inFlight: 0 });
    expect((await logged(1)).map((e) => e.outcome)).toEqual(['client-closed']);
  });

  it('one structured log line per request: id (sent back as x-request-id), statuses, usage, cost, latency to the first token and tool argument', async () => {
    const held = gate();
    h.anthropic.reply({ events: [start(20), ...textBlock(0, 'Checking.'), held.promise, toolStart(1, 'toolu_l', 'get_weather'), json(1, '{"city":"Oslo"}'), stop(1), ...end('tool_use', 9)] });
    const { data: stream, response } = await client()
      .chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages: [user], tools }, { headers: { 'x-request-id': 'req-42' } })
      .withResponse();
    expect(response.headers.get('x-request-id')).toBe('req-42');
    setTimeout(held.open, 30); // the first tool argument comes 30 ms after the first token
    for await (const chunk of stream) void chunk;
    const [entry] = await logged(1);
    expect(entry).toMatchObject({
      id: 'req-42',
      model: 'claude-sonnet-4-5',
      upstream: 'anthropic',
      upstreamStatus: 200,
      status: 200,
      outcome: 'complete',
      usage: { inputTokens: 20, outputTokens: 9 },
      error: null,
    });
    expect(entry?.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    const ms = entry?.ms ?? { firstToken: null, firstToolArgument: null, total: 0 };
    expect(ms.firstToken).not.toBeNull();
    expect((ms.firstToolArgument ?? 0) - (ms.firstToken ?? 0)).toBeGreaterThanOrEqual(25);
    expect(ms.total).toBeGreaterThanOrEqual(ms.firstToolArgument ?? Infinity);
  });
});
