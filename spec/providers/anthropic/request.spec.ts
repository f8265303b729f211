import { type AnthropicWire, type OpenAIChatWire, toAnthropicRequest } from 'rxjs-tool-calls/gateway';
import { ask, expectUnsupported, withOptions, FULL_REQUEST, TIME_TOOL, WEATHER_TOOL } from '../../helpers/chatRequests';

const user = (content: unknown) => ({ role: 'user', content }) as const;
const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } }) as const;
const translate = (extra: Record<string, unknown>, options = {}): AnthropicWire.Request =>
  toAnthropicRequest({ model: 'm', max_completion_tokens: 100, messages: [user('Hi')], ...extra } as OpenAIChatWire.RequestInput, options);

describe('toAnthropicRequest', () => {
  it('translates a whole two-step tool conversation', () => {
    expect(toAnthropicRequest(FULL_REQUEST)).toEqual({
      model: 'some-model',
      max_tokens: 512,
      stream: true,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Weather and time in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'call_wx', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_tm', name: 'get_time', input: { tz: 'Europe/Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_wx', content: '18°C, clear' },
            { type: 'tool_result', tool_use_id: 'call_tm', content: '14:05' },
          ],
        },
        { role: 'user', content: 'Thanks. And tomorrow?' },
      ],
      // A streaming request: fine-grained tool streaming, so the calls' arguments stream live as a chat client expects.
      tools: [
        { name: 'get_weather', description: 'Weather for a city', input_schema: WEATHER_TOOL.function.parameters, eager_input_streaming: true },
        { name: 'get_time', input_schema: TIME_TOOL.function.parameters, eager_input_streaming: true },
      ],
      tool_choice: { type: 'auto' },
    });
  });

  it('writes eager_input_streaming only for a streaming request, and not with eagerInputStreaming: false', () => {
    const tools = [WEATHER_TOOL];
    expect(translate({ tools }).tools).toEqual([{ name: 'get_weather', description: 'Weather for a city', input_schema: WEATHER_TOOL.function.parameters }]);
    expect(translate({ tools, stream: true }, { eagerInputStreaming: false }).tools).toEqual([
      { name: 'get_weather', description: 'Weather for a city', input_schema: WEATHER_TOOL.function.parameters },
    ]);
    expect(translate({ tools, stream: true }).tools?.[0]?.eager_input_streaming).toBe(true);
  });

  describe('fields', () => {
    const cases: Array<[string, Record<string, unknown>, Partial<AnthropicWire.Request>, object?]> = withOptions([
      ['one system string', { messages: [{ role: 'system', content: 'S' }, user('Hi')] }, { system: 'S', messages: [{ role: 'user', content: 'Hi' }] }],
      [
        'several system / developer messages, strings and parts',
        {
          messages: [
            { role: 'system', content: 'A' },
            {
              role: 'developer',
              content: [
                { type: 'text', text: 'B' },
                { type: 'text', text: 'C' },
              ],
            },
            user('Hi'),
          ],
        },
        {
          system: [
            { type: 'text', text: 'A' },
            { type: 'text', text: 'B' },
            { type: 'text', text: 'C' },
          ],
        },
      ],
      [
        'user text parts',
        {
          messages: [
            user([
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ]),
          ],
        },
        {
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'a' },
                { type: 'text', text: 'b' },
              ],
            },
          ],
        },
      ],
      [
        'an assistant text turn',
        { messages: [user('Hi'), { role: 'assistant', content: 'Hello' }, user('?')] },
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'Hello' },
            { role: 'user', content: '?' },
          ],
        },
      ],
      [
        'a call with null content and empty arguments',
        { messages: [user('Hi'), { role: 'assistant', content: null, tool_calls: [call('c1', 'now', '')] }, { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'noon' }] }] },
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'now', input: {} }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'noon' }] }] },
          ],
        },
      ],
      [
        'an empty text beside a call is left out',
        { messages: [user('Hi'), { role: 'assistant', content: '', tool_calls: [call('c1', 'now', '{}')] }] },
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'now', input: {} }] },
          ],
        },
      ],
      ['a tool without parameters', { tools: [{ type: 'function', function: { name: 'now' } }] }, { tools: [{ name: 'now', input_schema: { type: 'object', properties: {} } }] }],
      [
        'parameters without a type, strict',
        { tools: [{ type: 'function', function: { name: 'f', parameters: { properties: {} }, strict: true } }] },
        { tools: [{ name: 'f', input_schema: { type: 'object', properties: {} }, strict: true }] },
      ],
      ['tool_choice none', { tools: [WEATHER_TOOL], tool_choice: 'none' }, { tool_choice: { type: 'none' } }],
      ['tool_choice required', { tools: [WEATHER_TOOL], tool_choice: 'required' }, { tool_choice: { type: 'any' } }],
      ['a named tool_choice', { tools: [WEATHER_TOOL], tool_choice: { type: 'function', function: { name: 'get_weather' } } }, { tool_choice: { type: 'tool', name: 'get_weather' } }],
      ['parallel_tool_calls false with tools', { tools: [WEATHER_TOOL], parallel_tool_calls: false }, { tool_choice: { type: 'auto', disable_parallel_tool_use: true } }],
      ['parallel_tool_calls false on required', { tools: [WEATHER_TOOL], tool_choice: 'required', parallel_tool_calls: false }, { tool_choice: { type: 'any', disable_parallel_tool_use: true } }],
      ['parallel_tool_calls false on none', { tools: [WEATHER_TOOL], tool_choice: 'none', parallel_tool_calls: false }, { tool_choice: { type: 'none' } }],
      ['max_tokens', { max_completion_tokens: undefined, max_tokens: 77 }, { max_tokens: 77 }],
      ['equal max_tokens and max_completion_tokens', { max_completion_tokens: 9, max_tokens: 9 }, { max_tokens: 9 }],
      ['defaultMaxTokens', { max_completion_tokens: undefined }, { max_tokens: 4096 }, { defaultMaxTokens: 4096 }],
      ['temperature and top_p (API 2023-06-01)', { temperature: 0.5, top_p: 0.9 }, { temperature: 0.5, top_p: 0.9 }, { apiVersion: '2023-06-01' }],
      ['a stop string', { stop: 'END' }, { stop_sequences: ['END'] }],
      ['a stop list', { stop: ['A', 'B'] }, { stop_sequences: ['A', 'B'] }],
      ['stream', { stream: true, stream_options: { include_usage: true } }, { stream: true }],
      ['user', { user: 'u-42' }, { metadata: { user_id: 'u-42' } }],
      [
        'a later system message with midConversationSystem',
        { messages: [user('Hi'), { role: 'system', content: 'Now be brief.' }] },
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'system', content: 'Now be brief.' },
          ],
        },
        { midConversationSystem: true },
      ],
    ]);
    it.each(cases)('%s', (_name, extra, expected, options) => {
      expect(translate(extra, options)).toEqual(expect.objectContaining(expected));
    });

    it('leaves out tool_choice and parallel_tool_calls when there are no tools', () => {
      expect(translate({ tool_choice: 'none', parallel_tool_calls: false })).toEqual({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
    });

    it('writes nothing for neutral values (n 1, logprobs false, store false, zero penalties, null fields, stream false)', () => {
      const neutral = { n: 1, logprobs: false, store: false, presence_penalty: 0, frequency_penalty: 0, temperature: null, stop: null, tools: null, stream: false, stream_options: null };
      expect(translate(neutral)).toEqual({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
    });

    it('does not modify its input', () => {
      const request = JSON.parse(JSON.stringify(FULL_REQUEST)) as OpenAIChatWire.RequestInput;
      const copy = JSON.parse(JSON.stringify(request)) as unknown;
      toAnthropicRequest(request);
      expect(request).toEqual(copy);
    });
  });

  describe('tool results', () => {
    it('merges consecutive results into one user message, in call order', () => {
      const out = translate({
        messages: [
          user('Hi'),
          { role: 'assistant', content: null, tool_calls: [call('a', 'f', '{}'), call('b', 'f', '{}'), call('c', 'f', '{}')] },
          { role: 'tool', tool_call_id: 'a', content: '1' },
          { role: 'tool', tool_call_id: 'b', content: '2' },
          { role: 'tool', tool_call_id: 'c', content: '3' },
        ],
      });
      expect(out.messages).toHaveLength(3);
      expect(out.messages[2]).toEqual({ role: 'user', content: ['a', 'b', 'c'].map((id, i) => ({ type: 'tool_result', tool_use_id: id, content: String(i + 1) })) });
    });

    it('keeps results of different steps in different user messages', () => {
      const out = translate({
        messages: [
          user('Hi'),
          { role: 'assistant', content: null, tool_calls: [call('a', 'f', '{}')] },
          { role: 'tool', tool_call_id: 'a', content: '1' },
          { role: 'assistant', content: null, tool_calls: [call('b', 'f', '{}')] },
          { role: 'tool', tool_call_id: 'b', content: '2' },
        ],
      });
      expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      expect(out.messages[4]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', content: '2' }] });
    });
  });

  describe('unsupported-request', () => {
    const cases: Array<[string, Record<string, unknown>, string, object?]> = withOptions([
      [
        'an image part',
        {
          messages: [
            user([
              { type: 'text', text: 'look' },
              { type: 'image_url', image_url: { url: 'x' } },
            ]),
          ],
        },
        'messages[0].content[1].type',
      ],
      ['an audio part', { messages: [user([{ type: 'input_audio', input_audio: { data: '', format: 'wav' } }])] }, 'messages[0].content[0].type'],
      ['a file part', { messages: [user([{ type: 'file', file: { file_id: 'f' } }])] }, 'messages[0].content[0].type'],
      ['a refusal part', { messages: [user('Hi'), { role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] }] }, 'messages[1].content[0].type'],
      ['an assistant refusal', { messages: [user('Hi'), { role: 'assistant', content: 'x', refusal: 'no' }] }, 'messages[1].refusal'],
      ['assistant audio', { messages: [user('Hi'), { role: 'assistant', content: 'x', audio: { id: 'a' } }] }, 'messages[1].audio'],
      ['a legacy function_call', { messages: [user('Hi'), { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } }] }, 'messages[1].function_call'],
      ['a function message', { messages: [user('Hi'), { role: 'function', name: 'f', content: 'x' }] }, 'messages[1].role'],
      ['a message name', { messages: [{ role: 'user', content: 'Hi', name: 'bob' }] }, 'messages[0].name'],
      ['a custom tool', { tools: [{ type: 'custom', custom: { name: 'x' } }] }, 'tools[0].type'],
      [
        'a custom tool call',
        { messages: [user('Hi'), { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'x', input: '' } }] }] },
        'messages[1].tool_calls[0].type',
      ],
      ['an allowed_tools choice', { tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } } }, 'tool_choice.type'],
      ['n 2', { n: 2 }, 'n'],
      ['logprobs', { logprobs: true }, 'logprobs'],
      ['an unknown field', { seed: 7 }, 'seed'],
      ['a presence penalty', { presence_penalty: 0.5 }, 'presence_penalty'],
      ['a result without its call', { messages: [user('Hi'), { role: 'tool', tool_call_id: 'nope', content: 'x' }] }, 'messages[1].tool_call_id'],
      ['arguments that are not JSON', { messages: [user('Hi'), { role: 'assistant', content: null, tool_calls: [call('c', 'f', '{"a":')] }] }, 'messages[1].tool_calls[0].function.arguments'],
      ['arguments that are not an object', { messages: [user('Hi'), { role: 'assistant', content: null, tool_calls: [call('c', 'f', '[1]')] }] }, 'messages[1].tool_calls[0].function.arguments'],
      ['a call id used twice', { messages: [user('Hi'), { role: 'assistant', content: null, tool_calls: [call('c', 'f', '{}'), call('c', 'f', '{}')] }] }, 'messages[1].tool_calls[1].id'],
      ['an empty assistant message', { messages: [user('Hi'), { role: 'assistant', content: null }] }, 'messages[1].content'],
      ['no max tokens', { max_completion_tokens: undefined }, 'max_completion_tokens'],
      ['different max_tokens', { max_tokens: 5 }, 'max_tokens'],
      ['temperature on API 2026-10-21', { temperature: 0.2 }, 'temperature'],
      ['top_p on API 2026-10-21', { top_p: 0.2 }, 'top_p'],
      ['temperature above 1', { temperature: 1.5 }, 'temperature', { apiVersion: '2023-06-01' }],
      ['a later system message', { messages: [user('Hi'), { role: 'developer', content: 'x' }] }, 'messages[1].role'],
      ['store', { store: true }, 'store'],
      ['stream obfuscation', { stream: true, stream_options: { include_obfuscation: true } }, 'stream_options.include_obfuscation'],
      ['an unknown stream option', { stream: true, stream_options: { speed: 'fast' } }, 'stream_options.speed'],
      ['an array schema', { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'array' } } }] }, 'tools[0].function.parameters.type'],
      ['an unknown tool field', { tools: [{ type: 'function', function: { name: 'f', examples: [] } }] }, 'tools[0].function.examples'],
      ['messages that are not a list', { messages: 'Hi' }, 'messages'],
      ['no messages', { messages: [] }, 'messages'],
      ['a model that is not a string', { model: 3 }, 'model'],
      ['a text part without text', { messages: [user([{ type: 'text' }])] }, 'messages[0].content[0].text'],
      ['an unknown tool_choice', { tool_choice: 'sometimes' }, 'tool_choice'],
      ['a non-finite temperature', { temperature: 'hot' }, 'temperature'],
    ]);
    it.each(cases)('%s', (_name, extra, field, options) => {
      expectUnsupported(() => translate(extra, options), 'anthropic', field);
    });

    it('names a request that is not an object', () => {
      expectUnsupported(() => toAnthropicRequest(null as unknown as OpenAIChatWire.RequestInput), 'anthropic', '(request)');
    });

    it('drops what the ignore option names', () => {
      const messages = [
        user([
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'x' } },
        ]),
      ];
      expect(translate({ messages, seed: 7, temperature: 0.3 }, { ignore: ['image_url', 'seed', 'temperature'] })).toEqual({
        model: 'm',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }] }],
      });
      expect(toAnthropicRequest(ask({ messages: [{ role: 'user', content: 'Hi', name: 'bob' }] }), { ignore: ['name'] }).messages).toEqual([{ role: 'user', content: 'Hi' }]);
    });
  });
});
