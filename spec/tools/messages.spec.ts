import { assistantTextMessage, type ToolCall, toolMessages, type ToolStep } from 'rxjs-tool-calls';
import { MalformedArgumentsError, ToolFailedError } from 'rxjs-tool-calls/advanced';
import { contextOf } from '../../src/parse/validate';

const weather: ToolCall = { id: 'call_w', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}', providerMetadata: { thoughtSignature: 'sig-1' } };
const time: ToolCall = { id: 'gen_1', name: 'get_time', index: 1, choice: 0, arguments: {}, rawArguments: '', providerMetadata: { idGenerated: true } };
const broken = new MalformedArgumentsError({ toolCall: { id: 'call_b', name: 'search', index: 2, choice: 0, rawArguments: '{"q":' }, parseError: 'Unexpected end of JSON input', position: 5 });
const failure = new ToolFailedError({ toolCall: contextOf(time) }, { cause: new Error('clock broke') });

// Results in completion order; the helpers put the calls in call order.
const step: ToolStep = {
  text: 'Checking.',
  reasoning: [{ text: 'think', signature: 'th-sig' }],
  results: [
    { success: false, error: broken },
    { success: false, error: failure, call: time },
    { success: true, data: { name: 'get_weather', call: weather, output: { temperature: 21 } } },
  ],
};

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
          { type: 'tool_use', id: 'call_b', name: 'search', input: {} },
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
});
