/**
 * The official `openai` (Responses) and `@anthropic-ai/sdk` (Messages) streams, from the real SDK
 * packages pointed at a local 127.0.0.1 server, decoded without re-encoding to SSE.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { toolCalls } from 'rxjs-tool-calls';
import { fromAnthropicEvents, fromOpenAIResponsesEvents } from 'rxjs-tool-calls/sdk';
import { startSdkServer, type SdkServer } from '../helpers/sdkServer';

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer();
});
afterAll(() => server.close());

const openai = (): OpenAI => new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test', maxRetries: 0 });
const anthropic = (): Anthropic => new Anthropic({ baseURL: server.origin, apiKey: 'test', maxRetries: 0 });
const tools = [{ type: 'function' as const, name: 'get_weather', parameters: { type: 'object' }, strict: false }];

describe('fromOpenAIResponsesEvents (openai SDK, client.responses.create)', () => {
  it('decodes the text, the function call and the end of the response', async () => {
    const stream = await openai().responses.create({ model: 'gpt-test', input: 'weather?', tools, stream: true });
    const events = await lastValueFrom(fromOpenAIResponsesEvents(stream).pipe(toArray()));
    expect(events.map((e) => e.type)).toEqual(['metadata', 'text-delta', 'tool-call-delta', 'tool-call-delta', 'tool-call-delta', 'tool-call-delta', 'tool-call-end', 'usage', 'finish', 'done']);
    expect(events[0]).toEqual({ type: 'metadata', provider: 'openai-responses', responseId: 'resp_1', model: 'gpt-test' });
    expect(events[5]).toMatchObject({ type: 'tool-call-delta', replace: true }); // the .done text, authoritative
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'completed' });
    expect(JSON.parse(server.requests.at(-1)?.body ?? '{}')).toMatchObject({ model: 'gpt-test', stream: true });
  });

  it('gives one validated result per call through toolCalls()', async () => {
    const stream = await openai().responses.create({ model: 'gpt-test', input: 'weather?', tools, stream: true });
    const results = await lastValueFrom(fromOpenAIResponsesEvents(stream).pipe(toolCalls(), toArray()));
    expect(results).toEqual([{ success: true, data: expect.objectContaining({ id: 'call_wx_1', name: 'get_weather', index: 1, arguments: { city: 'Zürich' } }) }]);
  });

  it('unsubscribing after the first call aborts the SDK request and closes the socket', async () => {
    const before = server.requests.length;
    const stream = await openai().responses.create({ model: 'slow', input: 'weather?', tools, stream: true });
    const first = await firstValueFrom(fromOpenAIResponsesEvents(stream).pipe(toolCalls()));
    expect(first.success && first.data.arguments).toEqual({ city: 'Zürich' });
    expect(server.requests).toHaveLength(before + 1);
    await server.waitForClose();
    expect(server.requests.at(-1)?.ended).toBe(false);
    expect(stream.controller.signal.aborted).toBe(true);
  });
});

describe('fromAnthropicEvents (@anthropic-ai/sdk, client.messages.create)', () => {
  const request = (model: string) =>
    anthropic().messages.create({
      model,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'weather and time in Paris?' }],
      tools: [
        { name: 'get_weather', input_schema: { type: 'object' } },
        { name: 'get_time', input_schema: { type: 'object' } },
      ],
      stream: true,
    });

  it('decodes text and two tool_use blocks (the SDK drops the ping)', async () => {
    const events = await lastValueFrom(fromAnthropicEvents(await request('claude-test')).pipe(toArray()));
    expect(events.filter((e) => e.type === 'text-delta')).toEqual([{ type: 'text-delta', choice: 0, text: 'Let me look.' }]);
    expect(events.filter((e) => e.type === 'tool-call-end').map((e) => e.id)).toEqual(['toolu_wx', 'toolu_tm']);
    expect(events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' });
    expect(events.at(-1)).toEqual({ type: 'done' });
  });

  it('gives both results through toolCalls(), in block order', async () => {
    const results = await lastValueFrom(fromAnthropicEvents(await request('claude-test')).pipe(toolCalls(), toArray()));
    expect(results.map((r) => (r.success ? [r.data.id, r.data.name, r.data.index, r.data.arguments] : r.error.code))).toEqual([
      ['toolu_wx', 'get_weather', 1, { city: 'Paris' }],
      ['toolu_tm', 'get_time', 2, { tz: 'Europe/Paris' }],
    ]);
  });

  it('unsubscribing after the first call aborts the SDK request and closes the socket', async () => {
    const before = server.requests.length;
    const stream = await request('slow');
    const first = await firstValueFrom(fromAnthropicEvents(stream).pipe(toolCalls()));
    expect(first.success && first.data.name).toBe('get_weather');
    expect(server.requests).toHaveLength(before + 1);
    await server.waitForClose();
    expect(server.requests.at(-1)?.ended).toBe(false);
    expect(stream.controller.signal.aborted).toBe(true);
  });

  it("passes the SDK's own APIError through (an HTTP error status)", async () => {
    const client = new Anthropic({ baseURL: `${server.origin}/missing`, apiKey: 'test', maxRetries: 0 });
    await expect(client.messages.create({ model: 'x', max_tokens: 1, messages: [], stream: true })).rejects.toBeInstanceOf(Anthropic.APIError);
  });
});
