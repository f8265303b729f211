import { Ollama, type ChatRequest } from 'ollama';
import { from } from 'rxjs';
import type { StreamEvent } from 'rxjs-tool-calls';
import { type OpenAIChatWire, toOllamaRequest } from 'rxjs-tool-calls/gateway';
import { ask, expectUnsupported, FULL_REQUEST } from '../../helpers/chatRequests';
import { startFramedServer, type FramedServer } from '../../helpers/framedServer';

describe('toOllamaRequest', () => {
  it('translates a whole two-step tool conversation', () => {
    expect(toOllamaRequest(FULL_REQUEST)).toEqual({
      model: 'some-model',
      stream: true,
      path: '/api/chat',
      body: {
        model: 'some-model',
        stream: true,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Weather and time in Paris?' },
          {
            role: 'assistant',
            content: 'Let me look.',
            tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }, { function: { name: 'get_time', arguments: { tz: 'Europe/Paris' } } }],
          },
          { role: 'tool', content: '18°C, clear', tool_name: 'get_weather' },
          { role: 'tool', content: '14:05', tool_name: 'get_time' },
          { role: 'user', content: 'Thanks. And tomorrow?' },
        ],
        tools: [
          { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
          { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } } },
        ],
        options: { num_predict: 512 },
      },
    });
  });

  it('keeps system messages where they are, joins text parts, writes stream: false, maps sampling and stop', () => {
    const request = toOllamaRequest(
      ask({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
          { role: 'developer', content: 'later' },
        ],
        temperature: 0.2,
        top_p: 0.5,
        stop: ['x', 'y'],
      }),
    );
    expect(request.body).toEqual({
      model: 'some-model',
      stream: false,
      messages: [
        { role: 'user', content: 'ab' },
        { role: 'system', content: 'later' },
      ],
      options: { temperature: 0.2, top_p: 0.5, num_predict: 100, stop: ['x', 'y'] },
    });
  });

  it.each([
    ['a tool_choice other than auto', ask({ tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' }), 'tool_choice'],
    ['parallel_tool_calls false', ask({ tools: [{ type: 'function', function: { name: 'f' } }], parallel_tool_calls: false }), 'parallel_tool_calls'],
    ['a strict tool', ask({ tools: [{ type: 'function', function: { name: 'f', strict: true } }] }), 'tools[0].function.strict'],
    ['user', ask({ user: 'u-1' }), 'user'],
    ['n', ask({ n: 3 }), 'n'],
    [
      'arguments that are not JSON',
      ask({ messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{' } }] }] }),
      'messages[0].tool_calls[0].function.arguments',
    ],
  ])('%s: unsupported-request naming the field', (_name, request, field) => {
    expectUnsupported(() => toOllamaRequest(request as OpenAIChatWire.RequestInput), 'ollama', field);
  });

  describe('through the ollama client', () => {
    let server: FramedServer;
    beforeAll(async () => {
      server = await startFramedServer(() => from<StreamEvent[]>([{ type: 'text-delta', choice: 0, text: 'ok' }, { type: 'done' }]));
    });
    afterAll(() => server.close());

    it('chat(body) sends the body unchanged and reads the answer', async () => {
      const { body } = toOllamaRequest({ ...FULL_REQUEST, temperature: 0.5 });
      let text = '';
      for await (const part of await new Ollama({ host: server.origin }).chat(body as ChatRequest & { stream: true })) text += part.message.content;
      expect(text).toBe('ok');
      expect(server.requests.at(-1)).toEqual({ path: '/api/chat', body });
    });
  });
});
