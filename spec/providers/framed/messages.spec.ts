/** The tool-loop message builders of Bedrock Converse and Ollama chat. */
import { type ToolCall, ToolStreamError } from 'rxjs-tool-calls';
import type { ToolStep } from 'rxjs-tool-calls/tools';
import { converseMessages } from '../../../src/tools/messages/bedrockConverse';
import { ollamaMessages } from '../../../src/tools/messages/ollama';
import { contextOf } from '../../../src/parse/validate';

const weather: ToolCall = { id: 'tooluse_w', name: 'get_weather', index: 1, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' };
const time: ToolCall = { id: 'gen_1', name: 'get_time', index: 2, choice: 0, arguments: {}, rawArguments: '', providerMetadata: { idGenerated: true } };
const failure = new ToolStreamError('tool-failed', { toolCall: contextOf(time) }, { cause: new Error('clock broke') });
const step: ToolStep = {
  results: [
    { success: false, error: failure, call: time },
    { success: true, data: { name: 'get_weather', call: weather, output: { temperature: 21 } } },
  ],
  content: [
    { type: 'reasoning', part: { text: 'think', signature: 'sig' } },
    { type: 'reasoning', part: { text: '', redacted: 'UkVE' } },
    { type: 'reasoning', part: { text: 'unsigned' } },
    { type: 'text', text: 'Checking.' },
    { type: 'call', index: 1 },
    { type: 'call', index: 2 },
  ],
};

describe('converseMessages', () => {
  it('assistant blocks in stream order (signed and redacted reasoning, text, toolUse), then toolResult blocks with status error', () => {
    expect(converseMessages.toolMessages(step)).toEqual([
      {
        role: 'assistant',
        content: [
          { reasoningContent: { reasoningText: { text: 'think', signature: 'sig' } } },
          { reasoningContent: { redactedContent: 'UkVE' } },
          { text: 'Checking.' },
          { toolUse: { toolUseId: 'tooluse_w', name: 'get_weather', input: { city: 'Paris' } } },
          { toolUse: { toolUseId: 'gen_1', name: 'get_time', input: {} } },
        ],
      },
      {
        role: 'user',
        content: [{ toolResult: { toolUseId: 'tooluse_w', content: [{ text: '{"temperature":21}' }] } }, { toolResult: { toolUseId: 'gen_1', content: [{ text: failure.message }], status: 'error' } }],
      },
    ]);
    expect(converseMessages.toolMessages(step, { sendReasoning: false })[0]?.content.map((b) => Object.keys(b)[0])).toEqual(['text', 'toolUse', 'toolUse']);
    expect(converseMessages.assistantText('Done.')).toEqual({ role: 'assistant', content: [{ text: 'Done.' }] });
  });
});

describe('ollamaMessages', () => {
  it('one assistant message (text, thinking, calls with object arguments), then one tool message per call by tool_name', () => {
    expect(ollamaMessages.toolMessages(step)).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        thinking: 'thinkunsigned',
        tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }, { function: { name: 'get_time', arguments: {} } }],
      },
      { role: 'tool', content: '{"temperature":21}', tool_name: 'get_weather' },
      { role: 'tool', content: failure.message, tool_name: 'get_time' },
    ]);
    expect(ollamaMessages.toolMessages({ results: [] })).toEqual([{ role: 'assistant', content: '' }]);
    expect(ollamaMessages.assistantText('Done.')).toEqual({ role: 'assistant', content: 'Done.' });
  });
});
