/**
 * `fromResponsesRequest()`: a Responses request (what a `ResponsesWS` client's turns hold) as a
 * chat request: items to messages in order, calls joining their assistant turn, outputs answering
 * earlier calls, tools and options; everything it cannot express named, unless ignored; and the
 * chat requests `toResponsesRequest()` writes come back.
 */
import fc from 'fast-check';
import { fromResponsesRequest, toResponsesRequest, type OpenAIChatWire, type ResponsesWire } from 'rxjs-tool-calls/gateway';
import { expectUnsupported } from '../../helpers/chatRequests';
import { representableChat } from '../../helpers/chatArbitraries';

const translate = (fields: Record<string, unknown>, options = {}): OpenAIChatWire.Request => fromResponsesRequest({ model: 'm', ...fields } as ResponsesWire.RequestInput, options);

describe('fromResponsesRequest', () => {
  it('input text, instructions, messages of every role, calls joining their turn, outputs as tool messages', () => {
    expect(
      translate({
        instructions: 'Be brief.',
        stream: true,
        input: [
          { role: 'developer', content: 'Use tools.' },
          {
            type: 'message',
            role: 'user',
            content: [
              { type: 'input_text', text: 'Weather ' },
              { type: 'input_text', text: 'in Paris?' },
            ],
          },
          { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
          { type: 'function_call', call_id: 'call_2', name: 'get_time', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_1', output: '{"celsius":18}' },
          { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'noon' }] },
          { type: 'function_call', call_id: 'call_3', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        ],
        tools: [{ type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true }],
        tool_choice: { type: 'function', name: 'get_weather' },
        parallel_tool_calls: false,
        max_output_tokens: 500,
        temperature: 0.5,
        top_p: 0.9,
        user: 'u1',
      }),
    ).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: 'Use tools.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather ' },
            { type: 'text', text: 'in Paris?' },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"celsius":18}' },
        { role: 'tool', tool_call_id: 'call_2', content: 'noon' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      max_completion_tokens: 500,
      temperature: 0.5,
      top_p: 0.9,
      user: 'u1',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(translate({ input: 'Hi' }).messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('custom tool calls and their outputs', () => {
    expect(
      translate({
        input: [
          { type: 'custom_tool_call', call_id: 'c', name: 'apply_patch', input: '*** patch' },
          { type: 'custom_tool_call_output', call_id: 'c', output: 'applied' },
        ],
      }).messages,
    ).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'apply_patch', input: '*** patch' } }] },
      { role: 'tool', tool_call_id: 'c', content: 'applied' },
    ]);
  });

  it('names what it cannot express, and drops it when ignored', () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', summary: [] };
    expectUnsupported(() => translate({ input: [reasoning] }), 'openai-chat', 'input[0].type');
    expect(translate({ input: [reasoning, { role: 'user', content: 'x' }] }, { ignore: ['reasoning'] }).messages).toEqual([{ role: 'user', content: 'x' }]);
    expectUnsupported(() => translate({ input: [], previous_response_id: 'resp_1' }), 'openai-chat', 'previous_response_id');
    expectUnsupported(() => translate({ input: [], store: true }), 'openai-chat', 'store');
    expect(translate({ input: [], store: false }).messages).toEqual([]);
    expect(translate({ input: [], store: true, include: ['reasoning.encrypted_content'] }, { ignore: ['store', 'include'] }).messages).toEqual([]);
    expectUnsupported(() => translate({ input: [{ type: 'function_call_output', call_id: 'nope', output: 'x' }] }), 'openai-chat', 'input[0].call_id');
    expectUnsupported(() => translate({ input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x' }] }] }), 'openai-chat', 'input[0].content[0].type');
    expectUnsupported(() => translate({ input: [], tools: [{ type: 'web_search' }] }), 'openai-chat', 'tools[0].type');
    expect(translate({ input: [], tools: [{ type: 'web_search' }] }, { ignore: ['web_search'] }).tools).toBeUndefined();
    expectUnsupported(() => translate({ input: [{ role: 'tool', content: 'x' }] }), 'openai-chat', 'input[0].role');
    expectUnsupported(() => translate({ input: [], tool_choice: { type: 'web_search_preview' } }), 'openai-chat', 'tool_choice.type');
    expectUnsupported(
      () =>
        translate({
          input: [
            { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
            { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
          ],
        }),
      'openai-chat',
      'input[1].call_id',
    );
  });

  it('gives back the chat requests toResponsesRequest writes (property, requests without stop sequences)', () => {
    fc.assert(
      fc.property(representableChat, (chat) => {
        const { stop: _stop, ...request } = chat;
        const back = fromResponsesRequest(toResponsesRequest(request));
        // Text parts come back as text parts of user and system messages; an assistant's and a tool's parts joined.
        const joined = (content: string | OpenAIChatWire.TextPart[]): string => (typeof content === 'string' ? content : content.map((p) => p.text).join(''));
        const expected: OpenAIChatWire.Request = {
          ...request,
          messages: request.messages.map((m) =>
            m.role === 'assistant' ? { ...m, content: m.content === null ? null : joined(m.content) } : m.role === 'tool' ? { ...m, content: joined(m.content) } : m,
          ),
          ...(request.tools === undefined ? {} : { tools: request.tools }),
        };
        expect(back).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
