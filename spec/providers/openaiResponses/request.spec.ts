import { type OpenAIChatWire, type ResponsesWire, toResponsesRequest } from 'rxjs-tool-calls/gateway';
import { expectUnsupported, withOptions, FULL_REQUEST, TIME_TOOL, WEATHER_TOOL } from '../../helpers/chatRequests';

const user = (content: unknown) => ({ role: 'user', content }) as const;
const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } }) as const;
const translate = (extra: Record<string, unknown>, options = {}): ResponsesWire.Request => toResponsesRequest({ model: 'm', messages: [user('Hi')], ...extra } as OpenAIChatWire.RequestInput, options);

describe('toResponsesRequest', () => {
  it('translates a whole two-step tool conversation', () => {
    expect(toResponsesRequest(FULL_REQUEST)).toEqual({
      model: 'some-model',
      store: false,
      stream: true,
      max_output_tokens: 512,
      input: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather and time in Paris?' },
        { role: 'assistant', content: 'Let me look.' },
        { type: 'function_call', call_id: 'call_wx', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_tm', name: 'get_time', arguments: '{"tz":"Europe/Paris"}' },
        { type: 'function_call_output', call_id: 'call_wx', output: '18°C, clear' },
        { type: 'function_call_output', call_id: 'call_tm', output: '14:05' },
        { role: 'user', content: 'Thanks. And tomorrow?' },
      ],
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_TOOL.function.parameters, strict: false },
        { type: 'function', name: 'get_time', parameters: TIME_TOOL.function.parameters, strict: false },
      ],
      tool_choice: 'auto',
    });
  });

  describe('fields', () => {
    const cases: Array<[string, Record<string, unknown>, Partial<ResponsesWire.Request>, object?]> = withOptions([
      [
        'a developer message with parts',
        { messages: [{ role: 'developer', content: [{ type: 'text', text: 'A' }] }, user('Hi')] },
        {
          input: [
            { role: 'developer', content: [{ type: 'input_text', text: 'A' }] },
            { role: 'user', content: 'Hi' },
          ],
        },
      ],
      [
        'leading system messages as instructions',
        { messages: [{ role: 'system', content: 'A' }, { role: 'developer', content: [{ type: 'text', text: 'B' }] }, user('Hi')] },
        { instructions: 'A\n\nB', input: [{ role: 'user', content: 'Hi' }] },
        { instructions: true },
      ],
      [
        'a later system message stays in place',
        { messages: [user('Hi'), { role: 'system', content: 'Be brief.' }] },
        {
          input: [
            { role: 'user', content: 'Hi' },
            { role: 'system', content: 'Be brief.' },
          ],
        },
        { instructions: true },
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
          input: [
            {
              role: 'user',
              content: [
                { type: 'input_text', text: 'a' },
                { type: 'input_text', text: 'b' },
              ],
            },
          ],
        },
      ],
      [
        'assistant text parts are joined',
        {
          messages: [
            user('Hi'),
            {
              role: 'assistant',
              content: [
                { type: 'text', text: 'a' },
                { type: 'text', text: 'b' },
              ],
            },
          ],
        },
        {
          input: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'ab' },
          ],
        },
      ],
      [
        'a call without text, a result with parts',
        { messages: [user('Hi'), { role: 'assistant', content: null, tool_calls: [call('c1', 'now', '')] }, { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'noon' }] }] },
        {
          input: [
            { role: 'user', content: 'Hi' },
            { type: 'function_call', call_id: 'c1', name: 'now', arguments: '' },
            { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'noon' }] },
          ],
        },
      ],
      [
        'a tool without parameters, strict',
        { tools: [{ type: 'function', function: { name: 'now', strict: true } }] },
        { tools: [{ type: 'function', name: 'now', parameters: { type: 'object', properties: {} }, strict: true }] },
      ],
      ['tool_choice required', { tool_choice: 'required' }, { tool_choice: 'required' }],
      ['tool_choice none', { tool_choice: 'none' }, { tool_choice: 'none' }],
      ['a named tool_choice', { tool_choice: { type: 'function', function: { name: 'f' } } }, { tool_choice: { type: 'function', name: 'f' } }],
      ['parallel_tool_calls', { parallel_tool_calls: false }, { parallel_tool_calls: false }],
      ['max_tokens', { max_tokens: 64 }, { max_output_tokens: 64 }],
      ['temperature and top_p', { temperature: 1.5, top_p: 0.9 }, { temperature: 1.5, top_p: 0.9 }],
      ['store', { store: true }, { store: true }],
      ['user', { user: 'u-1' }, { user: 'u-1' }],
      ['stream obfuscation', { stream: true, stream_options: { include_usage: true, include_obfuscation: false } }, { stream: true, stream_options: { include_obfuscation: false } }],
    ]);
    it.each(cases)('%s', (_name, extra, expected, options) => {
      expect(translate(extra, options)).toEqual(expect.objectContaining(expected));
    });

    it('writes store: false and nothing else for a bare request', () => {
      expect(translate({ n: 1, stop: [], stream: false })).toEqual({ model: 'm', store: false, input: [{ role: 'user', content: 'Hi' }] });
    });
  });

  describe('unsupported-request', () => {
    const cases: Array<[string, Record<string, unknown>, string, object?]> = withOptions([
      ['stop', { stop: ['END'] }, 'stop'],
      ['n 3', { n: 3 }, 'n'],
      ['an image part', { messages: [user([{ type: 'image_url', image_url: { url: 'x' } }])] }, 'messages[0].content[0].type'],
      ['a result without its call', { messages: [user('Hi'), { role: 'tool', tool_call_id: 'c', content: 'x' }] }, 'messages[1].tool_call_id'],
      ['an unknown field', { reasoning_effort: 'high' }, 'reasoning_effort'],
    ]);
    it.each(cases)('%s', (_name, extra, field, options) => {
      expectUnsupported(() => translate(extra, options), 'openai-responses', field);
    });

    it('drops stop when ignored', () => {
      expect(translate({ stop: 'END' }, { ignore: ['stop'] })).not.toHaveProperty('stop');
    });
  });
});
