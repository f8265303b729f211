/** The non-SSE formats as tool-loop formats: `toolMessages()` and `toolSpecs()` dispatch to them by name. */
import { z } from 'zod';
import type { ToolCall } from 'rxjs-tool-calls';
import { assistantTextMessage, tool, toolMessages, toolSpecs, type ToolStep } from 'rxjs-tool-calls/tools';

const call: ToolCall = { id: 'tooluse_1', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' };
const step: ToolStep = { text: 'Checking.', results: [{ success: true, data: { name: 'get_weather', call, output: 'sunny' } }] };
const tools = { get_weather: tool({ description: 'Weather in a city', schema: z.strictObject({ city: z.string() }) }) };
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

it('toolMessages writes Converse, Ollama, and Anthropic messages for InvokeModel', () => {
  expect(toolMessages('bedrock-converse', step)).toEqual([
    { role: 'assistant', content: [{ text: 'Checking.' }, { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }] },
    { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: 'sunny' }] } }] },
  ]);
  expect(toolMessages('ollama', step)).toEqual([
    { role: 'assistant', content: 'Checking.', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] },
    { role: 'tool', content: 'sunny', tool_name: 'get_weather' },
  ]);
  expect(toolMessages('bedrock-invoke-model', step)).toEqual(toolMessages('anthropic', step));
  expect(assistantTextMessage('ollama', 'Done.')).toEqual({ role: 'assistant', content: 'Done.' });
});

it('toolSpecs writes Converse toolConfig.tools, Ollama tools, and Anthropic tools for InvokeModel', () => {
  expect(toolSpecs(tools, 'bedrock-converse')).toEqual([{ toolSpec: { name: 'get_weather', description: 'Weather in a city', inputSchema: { json: schema } } }]);
  expect(toolSpecs(tools, 'ollama')).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'Weather in a city', parameters: schema } }]);
  // Anthropic's tools, without `eager_input_streaming`: Bedrock rejects the field on a tool (vercel/ai#17179).
  expect(toolSpecs(tools, 'bedrock-invoke-model')).toEqual(toolSpecs(tools, 'anthropic', { eagerInputStreaming: false }));
});
