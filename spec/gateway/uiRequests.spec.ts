/**
 * The UI request translators. `fromAiSdkUiRequest()` reads the body `useChat`'s transport posts
 * (captured from the real `DefaultChatTransport` on 127.0.0.1) as the AI SDK's own
 * `convertToModelMessages()` reads its messages; `fromAgUiRequest()` reads the `RunAgentInput` the
 * real `HttpAgent` posts. Both write a streaming chat request the other translators take on, and
 * refuse what a chat request cannot express, naming its path, as the other translators do.
 */
import { HttpAgent } from '@ag-ui/client';
import { convertToModelMessages, DefaultChatTransport, type ModelMessage, type UIMessage } from 'ai';
import { isToolStreamError } from 'rxjs-tool-calls';
import { fromAgUiRequest, fromAiSdkUiRequest, toAnthropicRequest, toGeminiRequest, type OpenAIChatWire } from 'rxjs-tool-calls/gateway';
import { toolSpecs, tool } from 'rxjs-tool-calls/tools';
import { z } from 'zod';
import { agUiStream, startBytesServer, type BytesServer } from '../helpers/uiClients';

let server: BytesServer;
beforeAll(async () => {
  server = await startBytesServer();
});
afterAll(() => server.close());

/** What `useChat`'s transport posts for `messages` (the body the server gets). */
async function postedByUseChat(messages: UIMessage[]): Promise<unknown> {
  const url = server.serve('/use-chat', ['data: {"type":"start"}\n\n', 'data: {"type":"finish"}\n\n', 'data: [DONE]\n\n']);
  const transport = new DefaultChatTransport({ api: url, body: { model: 'client-pick' } });
  const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: 'chat-1', messageId: undefined, messages, abortSignal: undefined });
  for await (const _chunk of stream);
  return server.bodies.at(-1);
}

/** The thrown error of `run`. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

/** A chat message as the AI SDK's model messages are compared: role, text, calls and results. */
type Neutral = { role: string; text?: string; calls?: unknown[]; results?: unknown[] };

function neutralChat(messages: readonly OpenAIChatWire.Message[]): Neutral[] {
  const out: Neutral[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      const last = out.at(-1);
      const result = [m.tool_call_id, m.content];
      if (last?.role === 'tool') (last.results ??= []).push(result);
      else out.push({ role: 'tool', results: [result] });
    } else if (m.role === 'assistant') {
      const text = typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text).join('');
      out.push({
        role: 'assistant',
        ...(text === '' ? {} : { text }),
        ...(m.tool_calls === undefined ? {} : { calls: m.tool_calls.map((c) => (c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : [])) }),
      });
    } else out.push({ role: m.role, text: typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join('') });
  }
  return out;
}

function neutralModel(messages: readonly ModelMessage[]): Neutral[] {
  return messages.map((m): Neutral => {
    if (typeof m.content === 'string') return { role: m.role, text: m.content };
    if (m.role === 'tool')
      return {
        role: 'tool',
        results: m.content.flatMap((p) =>
          p.type === 'tool-result'
            ? [[p.toolCallId, p.output.type === 'json' ? JSON.stringify(p.output.value) : p.output.type === 'text' || p.output.type === 'error-text' ? p.output.value : null]]
            : [],
        ),
      };
    const text = m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    const calls = m.content.flatMap((p) => (p.type === 'tool-call' ? [[p.toolCallId, p.toolName, p.input]] : []));
    return { role: m.role, ...(text === '' ? {} : { text }), ...(calls.length === 0 ? {} : { calls }) };
  });
}

const conversation: UIMessage[] = [
  { id: 's', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Oslo and Rome?' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'reasoning', text: 'Two cities.', state: 'done' },
      { type: 'text', text: 'Checking both.', state: 'done' },
      { type: 'tool-get_weather', toolCallId: 'c1', state: 'output-available', input: { city: 'Oslo' }, output: { celsius: 4 } },
      { type: 'tool-get_weather', toolCallId: 'c2', state: 'output-error', input: { city: 'Rome' }, errorText: 'offline' },
      { type: 'dynamic-tool', toolName: 'mcp_lookup', toolCallId: 'c3', state: 'output-available', input: { q: 'x' }, output: 'plain' },
      { type: 'source-url', sourceId: 's1', url: 'https://example.com' },
      { type: 'data-progress', data: { done: true } },
      { type: 'step-start' },
      { type: 'text', text: 'Oslo is cold; Rome I could not check.', state: 'done' },
    ],
  },
  {
    id: 'u2',
    role: 'user',
    parts: [
      { type: 'text', text: 'Thanks. ' },
      { type: 'text', text: 'And tomorrow?' },
    ],
  },
];

describe('fromAiSdkUiRequest()', () => {
  it('reads what useChat posts as convertToModelMessages() reads the messages: steps, text, calls, their results', async () => {
    const body = await postedByUseChat(conversation);
    expect(body).toMatchObject({ id: 'chat-1', trigger: 'submit-message', model: 'client-pick' });
    const chat = fromAiSdkUiRequest(body as never, { model: 'claude-sonnet-4-5' });
    expect(neutralChat(chat.messages)).toEqual(neutralModel(await convertToModelMessages(conversation.map(({ id: _id, ...m }) => m))));
    expect(chat).toMatchObject({ model: 'claude-sonnet-4-5', stream: true, stream_options: { include_usage: true } });
  });

  it('writes the server’s system prompt first and its tools; the request goes on to any upstream', () => {
    const tools = { get_weather: tool({ description: 'The weather', schema: z.object({ city: z.string() }) }) };
    const chat = fromAiSdkUiRequest({ messages: conversation.slice(1) }, { model: 'gemini-2.5-flash', system: 'You are a weather bot.', tools: toolSpecs(tools, 'openai-chat') });
    expect(chat.messages[0]).toEqual({ role: 'system', content: 'You are a weather bot.' });
    expect(chat.tools?.map((t) => t.function.name)).toEqual(['get_weather']);
    expect(toGeminiRequest(chat).body.contents.length).toBeGreaterThan(0);
    expect(toAnthropicRequest(chat, { defaultMaxTokens: 100 }).messages.length).toBeGreaterThan(0);
  });

  it('leaves out calls without an answer yet and the tools the provider ran; a denied call is answered with its reason', () => {
    const chat = fromAiSdkUiRequest(
      [
        { id: 'u', role: 'user', parts: [{ type: 'text', text: 'go' }] },
        {
          id: 'a',
          role: 'assistant',
          parts: [
            { type: 'tool-a', toolCallId: 'streaming', state: 'input-streaming', input: { x: 1 } },
            { type: 'tool-a', toolCallId: 'waiting', state: 'input-available', input: {} },
            { type: 'tool-a', toolCallId: 'asking', state: 'approval-requested', input: {}, approval: { id: 'ap' } },
            { type: 'tool-web_search', toolCallId: 'ws', state: 'output-available', input: {}, output: {}, providerExecuted: true },
            { type: 'tool-delete', toolCallId: 'denied', state: 'output-denied', input: { path: '/' }, approval: { id: 'ap2', approved: false, reason: 'Not today.' } },
          ],
        },
      ],
      { model: 'm' },
    );
    expect(chat.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'denied', type: 'function', function: { name: 'delete', arguments: '{"path":"/"}' } }] },
      { role: 'tool', tool_call_id: 'denied', content: 'Not today.' },
    ]);
  });

  it('refuses what a chat request cannot express, naming its path (unless ignored)', () => {
    const withFile: UIMessage[] = [
      {
        id: 'u',
        role: 'user',
        parts: [
          { type: 'text', text: 'look' },
          { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,AA' },
        ],
      },
    ];
    const refused = thrown(() => fromAiSdkUiRequest(withFile, { model: 'm' }));
    expect(isToolStreamError(refused, 'unsupported-request') && [refused.field, refused.target]).toEqual(['messages[0].parts[1].type', 'openai-chat']);
    expect(fromAiSdkUiRequest(withFile, { model: 'm', ignore: ['file'] }).messages).toEqual([{ role: 'user', content: 'look' }]);
    const responded: UIMessage[] = [{ id: 'a', role: 'assistant', parts: [{ type: 'tool-x', toolCallId: 'c', state: 'approval-responded', input: {}, approval: { id: 'ap', approved: true } }] }];
    expect(
      isToolStreamError(
        thrown(() => fromAiSdkUiRequest(responded, { model: 'm' })),
        'unsupported-request',
      ),
    ).toBe(true);
    const twice: UIMessage[] = [
      { id: 'a', role: 'assistant', parts: [{ type: 'tool-x', toolCallId: 'c', state: 'output-available', input: {}, output: 1 }] },
      { id: 'b', role: 'assistant', parts: [{ type: 'tool-x', toolCallId: 'c', state: 'output-available', input: {}, output: 2 }] },
    ];
    expect(
      isToolStreamError(
        thrown(() => fromAiSdkUiRequest(twice, { model: 'm' })),
        'unsupported-request',
      ),
    ).toBe(true);
    expect(
      isToolStreamError(
        thrown(() => fromAiSdkUiRequest([{ id: 'x', role: 'tool', parts: [] } as unknown as UIMessage], { model: 'm' })),
        'unsupported-request',
      ),
    ).toBe(true);
    expect(
      isToolStreamError(
        thrown(() => fromAiSdkUiRequest({ messages: 'no' } as never, { model: 'm' })),
        'unsupported-request',
      ),
    ).toBe(true);
  });

  it('a tool’s input nested deeper than maxDepth is refused; the options are checked (model is required)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = { d: deep };
    const message: UIMessage = { id: 'a', role: 'assistant', parts: [{ type: 'tool-x', toolCallId: 'c', state: 'output-available', input: deep, output: 1 }] };
    expect(
      isToolStreamError(
        thrown(() => fromAiSdkUiRequest([message], { model: 'm', maxDepth: 10 })),
        'unsupported-request',
      ),
    ).toBe(true);
    expect(
      isToolStreamError(
        thrown(() => fromAiSdkUiRequest([], {} as never)),
        'invalid-option',
      ),
    ).toBe(true);
    expect(
      isToolStreamError(
        thrown(() => fromAiSdkUiRequest([], { model: 'm', tool: [] } as never)),
        'invalid-option',
      ),
    ).toBe(true);
  });
});

describe('fromAgUiRequest()', () => {
  /** What HttpAgent posts for a run of an agent holding `messages`, with `tools` and `context`. */
  async function postedByHttpAgent(): Promise<unknown> {
    const url = server.serve('/ag-ui', [
      agUiStream([
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ]),
    ]);
    const agent = new HttpAgent({
      url,
      threadId: 'thread-1',
      initialMessages: [
        { id: 's', role: 'system', content: 'Be brief.' },
        { id: 'u1', role: 'user', content: 'Weather in Oslo?' },
        { id: 'a1', role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
        { id: 't1', role: 'tool', toolCallId: 'c1', content: '{"celsius":4}' },
        { id: 'r1', role: 'reasoning', content: 'client-side' },
        {
          id: 'u2',
          role: 'user',
          content: [
            { type: 'text', text: 'And ' },
            { type: 'text', text: 'Rome?' },
          ],
        },
      ],
    });
    await agent.runAgent({
      runId: 'run-1',
      tools: [{ name: 'confirm', description: 'Ask the user', parameters: { type: 'object', properties: { question: { type: 'string' } } } }],
      context: [{ description: 'The user’s city', value: 'Oslo' }],
      forwardedProps: { model: 'client-pick' },
    });
    return server.bodies.at(-1);
  }

  it('reads what HttpAgent posts: messages, the client’s tools after the server’s, its context after the instructions', async () => {
    const input = await postedByHttpAgent();
    expect(input).toMatchObject({ threadId: 'thread-1', runId: 'run-1', forwardedProps: { model: 'client-pick' } });
    const server = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } };
    const chat = fromAgUiRequest(input as never, { model: 'gpt-4o', tools: [server] });
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'The user’s city: Oslo' },
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"celsius":4}' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And ' },
          { type: 'text', text: 'Rome?' },
        ],
      },
    ]);
    expect(chat.tools?.map((t) => t.function.name)).toEqual(['get_weather', 'confirm']);
    expect(toAnthropicRequest(chat, { defaultMaxTokens: 100 }).system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'The user’s city: Oslo' },
    ]);
  });

  it('refuses what a chat request cannot express, naming its path (unless ignored)', () => {
    const base = { threadId: 't', runId: 'r' };
    const image = { ...base, messages: [{ id: 'u', role: 'user' as const, content: [{ type: 'image' as const, source: { type: 'url' as const, value: 'https://x/y.png' } }] }] };
    const refused = thrown(() => fromAgUiRequest(image, { model: 'm' }));
    expect(isToolStreamError(refused, 'unsupported-request') && refused.field).toBe('messages[0].content[0].type');
    expect(fromAgUiRequest(image, { model: 'm', ignore: ['image'] }).messages).toEqual([{ role: 'user', content: [] }]);
    expect(
      isToolStreamError(
        thrown(() => fromAgUiRequest({ ...base, messages: [], state: { count: 1 } }, { model: 'm' })),
        'unsupported-request',
      ),
    ).toBe(true);
    expect(fromAgUiRequest({ ...base, messages: [], state: {} }, { model: 'm' }).messages).toEqual([]);
    expect(
      isToolStreamError(
        thrown(() => fromAgUiRequest({ ...base, messages: [], resume: [{ interruptId: 'i', status: 'resolved' }] }, { model: 'm' })),
        'unsupported-request',
      ),
    ).toBe(true);
    expect(
      isToolStreamError(
        thrown(() => fromAgUiRequest({ ...base, messages: [{ id: 't', role: 'tool', toolCallId: 'nobody', content: 'x' }] }, { model: 'm' })),
        'unsupported-request',
      ),
    ).toBe(true);
    expect(
      isToolStreamError(
        thrown(() => fromAgUiRequest({ ...base, messages: [], extra: 1 } as never, { model: 'm' })),
        'unsupported-request',
      ),
    ).toBe(true);
    const named = thrown(() => fromAgUiRequest({ ...base, messages: [{ id: 'u', role: 'user', content: 'hi', name: 'ann' }] }, { model: 'm' }));
    expect(isToolStreamError(named, 'unsupported-request') && named.field).toBe('messages[0].name');
    const both = thrown(() => fromAgUiRequest({ ...base, messages: [], tools: [{ name: 'x', description: '' }] }, { model: 'm', tools: [{ type: 'function', function: { name: 'x' } }] }));
    expect(isToolStreamError(both, 'unsupported-request') && both.message).toContain('both the server');
  });
});
