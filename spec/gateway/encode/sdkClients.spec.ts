/**
 * The official SDKs as clients of re-encoded streams: every fixture, read and re-encoded by a
 * 127.0.0.1 server, is consumed by `openai` (`chat.completions.stream`, `responses.stream`) and
 * `@anthropic-ai/sdk` (`messages.stream`); their final messages hold the calls (ids, names, parsed
 * arguments), the text and the finish of reading the original.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { concat, from, throwError, type Observable } from 'rxjs';
import { readStreamEvents, type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { startEncodedServer, type EncodedServer } from '../../helpers/encodedServer';
import { loadFixtures } from '../../helpers/fixtures';
import { encoderFor, view, type View } from '../../helpers/reencode';

const fixtures = loadFixtures();
const byName = new Map(fixtures.map((f) => [f.name, f.bytes]));
/** Two calls whose fragments interleave (no recorded stream has them), text between them. */
const INTERLEAVED: StreamEvent[] = [
  { type: 'metadata', provider: 'openai-chat', responseId: 'src', model: 'src-model' },
  { type: 'text-delta', choice: 0, text: 'Both.' },
  { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_a', name: 'get_weather', argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_b', name: 'get_time', argumentsDelta: '{"tz":' },
  { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Zürich"}' },
  { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '"Europe/Zurich"}' },
  { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
  { type: 'usage', inputTokens: 12, outputTokens: 30, raw: {} },
  { type: 'done' },
];
const SYNTHETIC: Record<string, () => Observable<StreamEvent>> = {
  'synthetic/interleaved': () => from(INTERLEAVED),
  // A source cut after the first fragments (the upstream connection dropped).
  'synthetic/truncated': () =>
    concat(
      from(INTERLEAVED.slice(0, 4)),
      throwError(() => new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no finish_reason and no [DONE]' })),
    ),
};
const source = (model: string): Observable<StreamEvent> => SYNTHETIC[model]?.() ?? from([byName.get(model) ?? new Uint8Array()]).pipe(readStreamEvents());

let server: EncodedServer;
beforeAll(async () => {
  server = await startEncodedServer(source, {
    '/v1/chat/completions': () => encoderFor('openai-chat'),
    '/v1/responses': () => encoderFor('openai-responses'),
    '/v1/messages': () => encoderFor('anthropic'),
  });
});
afterAll(() => server.close());

const openai = (): OpenAI => new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test', maxRetries: 0 });
const anthropic = (): Anthropic => new Anthropic({ baseURL: server.origin, apiKey: 'test', maxRetries: 0 });

/** The calls a client should hold: the original's runnable calls (id, name, parsed arguments). */
function runnable(original: View): Array<[string, string, unknown]> {
  return original.calls.filter((c) => c.outcome === 'ok').map((c) => [c.id, c.name, c.arguments]);
}

/** Parse a client's argument string (a failed call's text stays a string). */
function parsed(text: string): unknown {
  try {
    return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

const clean = fixtures.filter((f) => view(f.bytes).error === undefined);
const failed = fixtures.filter((f) => view(f.bytes).error !== undefined);

it('serves every fixture: clean streams and provider failures', () => {
  expect(clean.length + failed.length).toBe(40);
  expect(failed.map((f) => f.name)).toEqual(['groq/tool-use-failed-error-event', 'openai/responses-error-insufficient-quota', 'openrouter/error-chunk-mid-stream']);
});

describe.each(clean.map((f): [string, Uint8Array] => [f.name, f.bytes]))('%s', (name, bytes) => {
  const original = view(bytes);
  const all = original.calls.map((c) => [c.id, c.name, c.outcome === 'ok' ? c.arguments : c.rawArguments]);

  it('openai chat.completions.stream → finalChatCompletion() holds every call and the text', async () => {
    const stream = openai().chat.completions.stream({
      model: name,
      messages: [{ role: 'user', content: 'go' }],
    });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]?.message;
    const calls = (message?.tool_calls ?? []).map((c) => (c.type === 'function' ? [c.id, c.function.name, parsed(c.function.arguments)] : [c.id]));
    expect(calls).toEqual(all);
    expect(message?.content ?? '').toBe(original.text);
  });

  it('openai responses.stream → finalResponse() holds every call and the text', async () => {
    const stream = openai().responses.stream({ model: name, input: 'go' });
    const response = await stream.finalResponse();
    const calls = response.output.flatMap((item) => (item.type === 'function_call' ? [[item.call_id, item.name, parsed(item.arguments)]] : []));
    // A call the source cut is in the output with status `incomplete` (when the response is incomplete).
    expect(calls).toEqual(all);
    const text = response.output.flatMap((item) => (item.type === 'message' ? item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : [])).join('');
    expect(text).toBe(original.text);
    // openai-node takes the final response from `response.completed` only; after `response.incomplete`
    // finalResponse() is its own accumulated snapshot, whose status stays that of `response.created`.
    expect(response.status).toBe(original.finish === 'length' ? 'in_progress' : 'completed');
  });

  const malformed = original.calls.some((c) => c.outcome === 'malformed-arguments');

  it('anthropic messages.stream → finalMessage() holds every runnable call and the text', async () => {
    const stream = anthropic().messages.stream({
      model: name,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'go' }],
    });
    if (malformed) {
      // The SDK parses each tool input when its block stops: a call whose text is not JSON makes it throw.
      await expect(stream.finalMessage()).rejects.toThrow(/JSON/);
      return;
    }
    const message = await stream.finalMessage();
    const calls = message.content.flatMap((block) => (block.type === 'tool_use' || block.type === 'server_tool_use' ? [[block.id, block.name, block.input]] : []));
    const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    // A cut call (no block stop) keeps whatever the SDK's partial parse gave: only runnable calls are compared.
    expect(calls.filter((c) => original.calls.some((o) => o.id === c[0] && o.outcome === 'ok'))).toEqual(runnable(original));
    expect(text).toBe(original.text);
  });
});

describe.each(failed.map((f): [string, Uint8Array] => [f.name, f.bytes]))('%s (provider error)', (name, bytes) => {
  const message = (view(bytes).error as Error).message;

  it('openai chat.completions.stream rejects with the provider message', async () => {
    const stream = openai().chat.completions.stream({
      model: name,
      messages: [{ role: 'user', content: 'go' }],
    });
    await expect(stream.finalChatCompletion()).rejects.toThrow(message.slice(message.indexOf(': ') + 2));
  });

  it('openai responses.stream rejects with the `error` event itself (as openai-node does for the real API)', async () => {
    const stream = openai().responses.stream({ model: name, input: 'go' });
    await expect(stream.finalResponse()).rejects.toMatchObject({
      type: 'error',
      message: message.slice(message.indexOf(': ') + 2),
    });
  });

  it('anthropic messages.stream rejects with the provider message', async () => {
    const stream = anthropic().messages.stream({
      model: name,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'go' }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(message.slice(message.indexOf(': ') + 2));
  });
});

describe('interleaved calls (synthetic)', () => {
  const expected = [
    ['call_a', 'get_weather', { city: 'Zürich' }],
    ['call_b', 'get_time', { tz: 'Europe/Zurich' }],
  ];

  it('openai chat: both calls whole, in order', async () => {
    const completion = await openai()
      .chat.completions.stream({ model: 'synthetic/interleaved', messages: [{ role: 'user', content: 'go' }] })
      .finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect((message?.tool_calls ?? []).map((c) => (c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : []))).toEqual(expected);
    expect([message?.content, completion.choices[0]?.finish_reason, completion.usage?.total_tokens]).toEqual(['Both.', 'tool_calls', 42]);
  });

  it('openai responses: both function_call items whole, in order', async () => {
    const response = await openai().responses.stream({ model: 'synthetic/interleaved', input: 'go' }).finalResponse();
    expect(response.output.flatMap((item) => (item.type === 'function_call' ? [[item.call_id, item.name, JSON.parse(item.arguments)]] : []))).toEqual(expected);
    expect(response.usage?.total_tokens).toBe(42);
  });

  it('anthropic: two tool_use blocks open side by side, both whole', async () => {
    const message = await anthropic()
      .messages.stream({ model: 'synthetic/interleaved', max_tokens: 64, messages: [{ role: 'user', content: 'go' }] })
      .finalMessage();
    expect(message.content.map((block) => (block.type === 'tool_use' ? [block.id, block.name, block.input] : block.type === 'text' ? block.text : block.type))).toEqual(['Both.', ...expected]);
    expect([message.stop_reason, message.usage.input_tokens, message.usage.output_tokens]).toEqual(['tool_use', 12, 30]);
  });
});

describe('a source cut mid-stream (synthetic): the server destroys the response, the client sees a broken stream, never a clean end', () => {
  it('openai chat rejects with a connection error', async () => {
    await expect(
      openai()
        .chat.completions.stream({ model: 'synthetic/truncated', messages: [{ role: 'user', content: 'go' }] })
        .finalChatCompletion(),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('openai responses rejects with a connection error', async () => {
    await expect(openai().responses.stream({ model: 'synthetic/truncated', input: 'go' }).finalResponse()).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('anthropic rejects with a connection error', async () => {
    await expect(
      anthropic()
        .messages.stream({ model: 'synthetic/truncated', max_tokens: 64, messages: [{ role: 'user', content: 'go' }] })
        .finalMessage(),
    ).rejects.toBeInstanceOf(Anthropic.APIConnectionError);
  });
});
