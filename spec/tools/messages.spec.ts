import { type ToolCall, ToolStreamError } from 'rxjs-tool-calls';
import { assistantTextMessage, toolMessages, type AnthropicWire, type ToolStep, type WireMessage } from 'rxjs-tool-calls/tools';
import { contextOf } from '../../src/parse/validate';

const weather: ToolCall = { id: 'call_w', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}', providerMetadata: { thoughtSignature: 'sig-1' } };
const time: ToolCall = { id: 'gen_1', name: 'get_time', index: 1, choice: 0, arguments: {}, rawArguments: '', providerMetadata: { idGenerated: true } };
const broken = new ToolStreamError('malformed-arguments', {
  toolCall: { id: 'call_b', name: 'search', index: 2, choice: 0, rawArguments: '{"q":' },
  parseError: 'Unexpected end of JSON input',
  position: 5,
});
const failure = new ToolStreamError('tool-failed', { toolCall: contextOf(time) }, { cause: new Error('clock broke') });

// Results in completion order; the helpers put the calls in call order.
/** The blocks of an Anthropic message (the builders write blocks, never a plain string). */
function blocks(message: WireMessage<'anthropic'> | undefined): Array<AnthropicWire.AssistantBlock | AnthropicWire.ToolResultBlock> {
  if (message === undefined || typeof message.content === 'string') throw new Error('expected a message of blocks');
  return message.content;
}

const step: ToolStep = {
  text: 'Checking.',
  reasoning: [{ text: 'think', signature: 'th-sig' }],
  results: [
    { success: false, error: broken },
    { success: false, error: failure, call: time },
    { success: true, data: { name: 'get_weather', call: weather, output: { temperature: 21 } } },
  ],
};

describe('a call whose arguments were not JSON, written back (Anthropic fine-grained tool streaming)', () => {
  const cut = new ToolStreamError('incomplete', { toolCall: { id: 'call_c', name: 'write', index: 3, choice: 0, rawArguments: '{"path":"a.md","body":"Wav' }, reason: 'length' });
  const whole = new ToolStreamError('incomplete', { toolCall: { id: 'call_d', name: 'write', index: 4, choice: 0, rawArguments: '{"path":"b.md"}' }, reason: 'not-closed' });
  const bad: ToolStep = {
    results: [
      { success: false, error: broken },
      { success: false, error: cut },
      { success: false, error: whole },
    ],
  };
  const inputs = (content: unknown): unknown[] => (content as Array<{ input?: unknown; toolUse?: { input: unknown } }>).map((b) => b.input ?? b.toolUse?.input);

  it.each(['anthropic', 'bedrock-invoke-model'] as const)('%s: tool_use input { INVALID_JSON: text } (the text that came, escaped), and an error tool_result', (format) => {
    const [assistant, user] = toolMessages(format, bad);
    expect(inputs(assistant?.content)).toEqual([{ INVALID_JSON: '{"q":' }, { INVALID_JSON: '{"path":"a.md","body":"Wav' }, { path: 'b.md' }]);
    // The request body is JSON: the wrapped text survives a round trip exactly.
    expect(JSON.parse(JSON.stringify(assistant))).toEqual(assistant);
    expect(blocks(user).every((b) => b.type === 'tool_result' && b.is_error === true)).toBe(true);
  });

  it('bedrock-converse: toolUse input { INVALID_JSON: text }, and an error toolResult', () => {
    const [assistant, user] = toolMessages('bedrock-converse', bad);
    expect(inputs(assistant?.content)).toEqual([{ INVALID_JSON: '{"q":' }, { INVALID_JSON: '{"path":"a.md","body":"Wav' }, { path: 'b.md' }]);
    expect((user?.content as Array<{ toolResult: { status?: string } }>).map((b) => b.toolResult.status)).toEqual(['error', 'error', 'error']);
  });

  it('chat keeps its own form: the arguments text as it came', () => {
    const [assistant] = toolMessages('openai-chat', bad);
    expect((assistant as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls.map((c) => c.function.arguments)).toEqual(['{"q":', '{"path":"a.md","body":"Wav', '{"path":"b.md"}']);
  });
});

describe('message helpers', () => {
  it('openai-chat: assistant with reasoning_content and tool_calls, then tool messages by tool_call_id', () => {
    expect(toolMessages('openai-chat', step)).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        reasoning_content: 'think',
        tool_calls: [
          { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'gen_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          { id: 'call_b', type: 'function', function: { name: 'search', arguments: '{"q":' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w', content: '{"temperature":21}' },
      { role: 'tool', tool_call_id: 'gen_1', content: 'Tool get_time (gen_1) failed: clock broke' },
      { role: 'tool', tool_call_id: 'call_b', content: broken.message },
    ]);
    expect(toolMessages('openai-chat', { results: [] })).toEqual([{ role: 'assistant', content: null }]);
  });

  it('openai-responses: text, function_call items, function_call_output items by call_id', () => {
    expect(toolMessages('openai-responses', step)).toEqual([
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'gen_1', name: 'get_time', arguments: '{}' },
      { type: 'function_call', call_id: 'call_b', name: 'search', arguments: '{"q":' },
      { type: 'function_call_output', call_id: 'call_w', output: '{"temperature":21}' },
      { type: 'function_call_output', call_id: 'gen_1', output: failure.message },
      { type: 'function_call_output', call_id: 'call_b', output: broken.message },
    ]);
  });

  it('anthropic: thinking, text and tool_use blocks, then tool_result blocks with is_error', () => {
    expect(toolMessages('anthropic', step)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'think', signature: 'th-sig' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'call_w', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'gen_1', name: 'get_time', input: {} },
          // Its arguments were not JSON: written back wrapped, as Anthropic's fine-grained tool streaming guide asks.
          { type: 'tool_use', id: 'call_b', name: 'search', input: { INVALID_JSON: '{"q":' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_w', content: '{"temperature":21}' },
          { type: 'tool_result', tool_use_id: 'gen_1', content: failure.message, is_error: true },
          { type: 'tool_result', tool_use_id: 'call_b', content: broken.message, is_error: true },
        ],
      },
    ]);
  });

  it('gemini: thought parts, functionCall parts keeping thoughtSignature, functionResponse parts; generated ids are not sent', () => {
    expect(toolMessages('gemini', step)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'think', thought: true, thoughtSignature: 'th-sig' },
          { text: 'Checking.' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'call_w' }, thoughtSignature: 'sig-1' },
          { functionCall: { name: 'get_time', args: {} } },
          { functionCall: { name: 'search', args: {}, id: 'call_b' } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: { temperature: 21 } }, id: 'call_w' } },
          { functionResponse: { name: 'get_time', response: { error: failure.message } } },
          { functionResponse: { name: 'search', response: { error: broken.message }, id: 'call_b' } },
        ],
      },
    ]);
  });

  it('stringify option, string outputs as they are, and toolMessages dispatches by format', () => {
    const plain: ToolStep = { results: [{ success: true, data: { name: 'get_weather', call: weather, output: 'sunny' } }] };
    expect(toolMessages('openai-chat', plain)[1]).toEqual({ role: 'tool', tool_call_id: 'call_w', content: 'sunny' });
    expect(toolMessages('openai-chat', plain, { stringify: (o) => `<${String(o)}>` })[1]).toMatchObject({ content: '<sunny>' });
  });

  it('final answers', () => {
    expect(assistantTextMessage('openai-chat', 'Done.')).toEqual({ role: 'assistant', content: 'Done.' });
    expect(assistantTextMessage('openai-responses', 'Done.')).toEqual({ role: 'assistant', content: 'Done.' });
    expect(assistantTextMessage('anthropic', 'Done.')).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
    expect(assistantTextMessage('gemini', 'Done.')).toEqual({ role: 'model', parts: [{ text: 'Done.' }] });
  });

  describe('the turn in stream order (content) and the reasoning each format sends back', () => {
    const signed: ToolCall = { ...weather, providerMetadata: { itemId: 'fc_w', thoughtSignature: 'sig-1', extraContent: { google: { thought_signature: 'sig-1' } } } };
    const second: ToolCall = { ...weather, id: 'call_2', index: 4, providerMetadata: { itemId: 'fc_2' } };
    const results: ToolStep['results'] = [
      { success: true, data: { name: 'get_weather', call: second, output: 'b' } },
      { success: true, data: { name: 'get_weather', call: signed, output: 'a' } },
    ];
    const ordered: ToolStep = {
      text: 'ignored when content is given',
      results,
      content: [
        { type: 'reasoning', part: { text: 'A', signature: 'sA', itemId: 'rs_A', encryptedContent: 'encA', summary: ['sum A'] } },
        { type: 'text', text: 'Let me.', signature: 'sT' },
        { type: 'reasoning', part: { text: '', redacted: 'RED' } },
        { type: 'call', index: 0 },
        { type: 'reasoning', part: { text: 'unsigned' } },
        { type: 'call', index: 4 },
      ],
    };

    it('anthropic: blocks in order; signed thinking and redacted blocks as they came; unsigned thinking left out', () => {
      expect(toolMessages('anthropic', ordered)[0]).toEqual({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'A', signature: 'sA' },
          { type: 'text', text: 'Let me.' },
          { type: 'redacted_thinking', data: 'RED' },
          { type: 'tool_use', id: 'call_w', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Paris' } },
        ],
      });
    });

    it('openai-responses: reasoning items whole before the calls that followed them, which carry their fc_ ids', () => {
      expect(toolMessages('openai-responses', ordered).slice(0, 4)).toEqual([
        { type: 'reasoning', id: 'rs_A', summary: [{ type: 'summary_text', text: 'sum A' }], content: [{ type: 'reasoning_text', text: 'A' }], encrypted_content: 'encA' },
        { role: 'assistant', content: 'Let me.' },
        { type: 'function_call', id: 'fc_w', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ]);
    });

    it('openai-chat: all reasoning text in reasoning_content (or reasoning), each call with its extra_content', () => {
      const [assistant] = toolMessages('openai-chat', ordered);
      expect(assistant).toEqual({
        role: 'assistant',
        content: 'Let me.',
        reasoning_content: 'Aunsigned',
        tool_calls: [
          { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' }, extra_content: { google: { thought_signature: 'sig-1' } } },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      });
      expect(toolMessages('openai-chat', ordered, { reasoningField: 'reasoning' })[0]).toMatchObject({ reasoning: 'Aunsigned' });
      expect(toolMessages('openai-chat', ordered, { reasoningField: 'reasoning' })[0]).not.toHaveProperty('reasoning_content');
    });

    it('openai-chat: reasoning streamed in `reasoning` or Mistral thinking parts goes back only when reasoningField is given', () => {
      const groq: ToolStep = {
        results,
        content: [
          { type: 'reasoning', part: { text: 'R', metadata: { field: 'reasoning' } } },
          { type: 'reasoning', part: { text: 'M', metadata: { field: 'thinking' } } },
          { type: 'call', index: 0 },
        ],
      };
      expect(toolMessages('openai-chat', groq)[0]).not.toHaveProperty('reasoning_content');
      expect(toolMessages('openai-chat', groq)[0]).not.toHaveProperty('reasoning');
      expect(toolMessages('openai-chat', groq, { reasoningField: 'reasoning' })[0]).toMatchObject({ reasoning: 'RM' });
      expect(toolMessages('openai-chat', groq, { reasoningField: 'reasoning_content' })[0]).toMatchObject({ reasoning_content: 'RM' });
    });

    it('gemini: thought parts, the text part with its signature, calls with theirs, in order', () => {
      expect(toolMessages('gemini', ordered)[0]).toEqual({
        role: 'model',
        parts: [
          { text: 'A', thought: true, thoughtSignature: 'sA' },
          { text: 'Let me.', thoughtSignature: 'sT' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'call_w' }, thoughtSignature: 'sig-1' },
          { text: 'unsigned', thought: true },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'call_2' } },
        ],
      });
    });

    it('sendReasoning: false leaves the reasoning out (Responses calls then go without their ids); signatures of text and calls stay', () => {
      const options = { sendReasoning: false };
      expect(blocks(toolMessages('anthropic', ordered, options)[0]).map((b) => b.type)).toEqual(['text', 'tool_use', 'tool_use']);
      expect(toolMessages('openai-responses', ordered, options).slice(0, 2)).toEqual([
        { role: 'assistant', content: 'Let me.' },
        { type: 'function_call', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ]);
      expect(toolMessages('openai-chat', ordered, options)[0]).not.toHaveProperty('reasoning_content');
      expect(toolMessages('gemini', ordered, options)[0]?.parts).toEqual([
        { text: 'Let me.', thoughtSignature: 'sT' },
        { functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'call_w' }, thoughtSignature: 'sig-1' },
        { functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'call_2' } },
      ]);
    });

    it('calls the content does not place go last in call order; two calls at one index are placed in turn', () => {
      const twin: ToolCall = { ...second, id: 'call_3', index: 4, providerMetadata: {} };
      const step: ToolStep = {
        results: [...results, { success: true, data: { name: 'get_weather', call: twin, output: 'c' } }],
        content: [
          { type: 'call', index: 4 },
          { type: 'text', text: 'x' },
          { type: 'call', index: 9 },
        ],
      };
      expect(blocks(toolMessages('anthropic', step)[0]).map((b) => (b.type === 'tool_use' ? b.id : b.type))).toEqual(['call_2', 'text', 'call_w', 'call_3']);
    });
  });
});
