import fc from 'fast-check';
import { type AnthropicWire, fromAnthropicRequest, type OpenAIChatWire, toAnthropicRequest } from 'rxjs-tool-calls/gateway';
import { expectUnsupported, FULL_REQUEST, withOptions } from '../../helpers/chatRequests';
import { representableChat } from '../../helpers/chatArbitraries';

const translate = (extra: Record<string, unknown>, options = {}): OpenAIChatWire.Request =>
  fromAnthropicRequest({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }], ...extra } as AnthropicWire.RequestInput, options);
const toolUse = (id: string, input: unknown = {}) => ({ type: 'tool_use', id, name: 'f', input });
const result = (id: string, content?: unknown, extra: object = {}) => ({ type: 'tool_result', tool_use_id: id, ...(content === undefined ? {} : { content }), ...extra });

describe('fromAnthropicRequest', () => {
  describe('fields', () => {
    const cases: Array<[string, Record<string, unknown>, Partial<OpenAIChatWire.Request>, object?]> = withOptions([
      [
        'a system string',
        { system: 'S' },
        {
          messages: [
            { role: 'system', content: 'S' },
            { role: 'user', content: 'Hi' },
          ],
        },
      ],
      [
        'system blocks',
        {
          system: [
            { type: 'text', text: 'A' },
            { type: 'text', text: 'B' },
          ],
        },
        {
          messages: [
            {
              role: 'system',
              content: [
                { type: 'text', text: 'A' },
                { type: 'text', text: 'B' },
              ],
            },
            { role: 'user', content: 'Hi' },
          ],
        },
      ],
      ['empty system blocks', { system: [] }, { messages: [{ role: 'user', content: 'Hi' }] }],
      [
        'a mid-conversation system message',
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'system', content: 'Brief.' },
          ],
        },
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'system', content: 'Brief.' },
          ],
        },
      ],
      [
        'calls, results before the text of their user message, empty and block results',
        {
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
            { role: 'assistant', content: [{ type: 'text', text: 'Checking' }, toolUse('a', { q: 1 }), toolUse('b')] },
            { role: 'user', content: [result('a', 'one'), result('b', [{ type: 'text', text: 'two' }], { is_error: false }), { type: 'text', text: 'and?' }] },
            { role: 'assistant', content: [toolUse('c')] },
            { role: 'user', content: [result('c')] },
          ],
        },
        {
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
            {
              role: 'assistant',
              content: 'Checking',
              tool_calls: [
                { id: 'a', type: 'function', function: { name: 'f', arguments: '{"q":1}' } },
                { id: 'b', type: 'function', function: { name: 'f', arguments: '{}' } },
              ],
            },
            { role: 'tool', tool_call_id: 'a', content: 'one' },
            { role: 'tool', tool_call_id: 'b', content: [{ type: 'text', text: 'two' }] },
            { role: 'user', content: [{ type: 'text', text: 'and?' }] },
            { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
            { role: 'tool', tool_call_id: 'c', content: '' },
          ],
        },
      ],
      [
        'several assistant text blocks',
        {
          messages: [
            { role: 'user', content: 'Hi' },
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
          messages: [
            { role: 'user', content: 'Hi' },
            {
              role: 'assistant',
              content: [
                { type: 'text', text: 'a' },
                { type: 'text', text: 'b' },
              ],
            },
          ],
        },
      ],
      [
        'an empty assistant turn',
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: [] },
          ],
        },
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: '' },
          ],
        },
      ],
      [
        'tools',
        {
          tools: [
            { name: 'f', description: 'F', input_schema: { type: 'object', properties: {} }, strict: true },
            { name: 'g', type: 'custom', input_schema: { type: 'object' } },
          ],
        },
        {
          tools: [
            { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} }, description: 'F', strict: true } },
            { type: 'function', function: { name: 'g', parameters: { type: 'object' } } },
          ],
        },
      ],
      [
        'tools with eager_input_streaming (fine-grained tool streaming, the AI SDK’s default): accepted, chat streams arguments live anyway',
        { tools: [{ name: 'f', input_schema: { type: 'object', properties: {} }, eager_input_streaming: true }] },
        { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }] },
      ],
      ['tool_choice any without parallel calls', { tool_choice: { type: 'any', disable_parallel_tool_use: true } }, { tool_choice: 'required', parallel_tool_calls: false }],
      ['tool_choice tool', { tool_choice: { type: 'tool', name: 'f' } }, { tool_choice: { type: 'function', function: { name: 'f' } } }],
      ['tool_choice none', { tool_choice: { type: 'none' } }, { tool_choice: 'none' }],
      ['stop sequences, metadata, sampling', { stop_sequences: ['X'], metadata: { user_id: 'u' }, temperature: 0.3, top_p: 0.8 }, { stop: ['X'], user: 'u', temperature: 0.3, top_p: 0.8 }],
      ['stream asks for the usage chunk', { stream: true }, { stream: true, stream_options: { include_usage: true } }],
      ['max_tokens', { max_tokens: 42 }, { max_completion_tokens: 42 }],
    ]);
    it.each(cases)('%s', (_name, extra, expected, options) => {
      expect(translate(extra, options)).toEqual(expect.objectContaining(expected));
    });
  });

  describe('unsupported-request', () => {
    const user = (content: unknown) => ({ messages: [{ role: 'user', content }] });
    const cases: Array<[string, Record<string, unknown>, string, object?]> = withOptions([
      ['an image block', user([{ type: 'image', source: { type: 'url', url: 'x' } }]), 'messages[0].content[0].type'],
      ['a document block', user([{ type: 'document', source: { type: 'text', data: 'x' } }]), 'messages[0].content[0].type'],
      [
        'a thinking block',
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: [{ type: 'thinking', thinking: '…', signature: 's' }] },
          ],
        },
        'messages[1].content[0].type',
      ],
      ['a tool_use block in a user message', user([toolUse('a')]), 'messages[0].content[0].type'],
      ['cache_control', user([{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }]), 'messages[0].content[0].cache_control'],
      ['citations', user([{ type: 'text', text: 'Hi', citations: [{}] }]), 'messages[0].content[0].citations'],
      [
        'is_error',
        {
          messages: [
            { role: 'assistant', content: [toolUse('a')] },
            { role: 'user', content: [result('a', 'x', { is_error: true })] },
          ],
        },
        'messages[1].content[0].is_error',
      ],
      ['a result without its tool_use', user([result('zz', 'x')]), 'messages[0].content[0].tool_use_id'],
      [
        'an image in a result',
        {
          messages: [
            { role: 'assistant', content: [toolUse('a')] },
            { role: 'user', content: [result('a', [{ type: 'image', source: {} }])] },
          ],
        },
        'messages[1].content[0].content[0].type',
      ],
      ['a server tool', { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools[0].type'],
      ['input_examples on a tool', { tools: [{ name: 'f', input_schema: { type: 'object' }, input_examples: [{}] }] }, 'tools[0].input_examples'],
      ['top_k', { top_k: 5 }, 'top_k'],
      ['thinking', { thinking: { type: 'enabled', budget_tokens: 1024 } }, 'thinking'],
      ['an unknown tool_choice', { tool_choice: { type: 'sometimes' } }, 'tool_choice.type'],
      ['an unknown metadata key', { metadata: { user_id: 'u', tier: 'x' } }, 'metadata.tier'],
      ['an unknown role', { messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].role'],
      [
        'a tool_use id used twice',
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: [toolUse('a'), toolUse('a')] },
          ],
        },
        'messages[1].content[1].id',
      ],
      [
        'input that is not an object',
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: [toolUse('a', [1])] },
          ],
        },
        'messages[1].content[0].input',
      ],
    ]);
    it.each(cases)('%s', (_name, extra, field, options) => {
      expectUnsupported(() => translate(extra, options), 'openai-chat', field);
    });

    it('drops what the ignore option names', () => {
      const messages = [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } },
            { type: 'image', source: {} },
          ],
        },
        { role: 'assistant', content: [{ type: 'thinking', thinking: '…', signature: 's' }, toolUse('a')] },
        { role: 'user', content: [result('a', 'x', { is_error: true })] },
      ];
      expect(translate({ messages, top_k: 3 }, { ignore: ['cache_control', 'image', 'thinking', 'is_error', 'top_k'] }).messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'a', content: 'x' },
      ]);
    });
  });

  describe('round trips: chat → Anthropic → chat', () => {
    it('gives back the two-step tool conversation', () => {
      const { messages, tools, max_completion_tokens, stream, stream_options, tool_choice } = FULL_REQUEST;
      const chat = { model: 'some-model', max_completion_tokens, messages, tools, tool_choice, stream, stream_options, user: 'u', stop: ['END'], temperature: 0.4, top_p: 0.9 };
      expect(fromAnthropicRequest(toAnthropicRequest(chat, { apiVersion: '2023-06-01' }))).toEqual(chat);
    });

    it('gives back any representable chat request (property)', () => {
      fc.assert(
        fc.property(representableChat, (chat) => {
          expect(fromAnthropicRequest(toAnthropicRequest(chat, { apiVersion: '2023-06-01' }))).toEqual(chat);
        }),
        { numRuns: 300 },
      );
    });
  });
});
