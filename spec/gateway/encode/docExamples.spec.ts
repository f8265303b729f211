/** The `@example`s of the encoders' doc comments print what their `// displays:` lines say. */
import { from } from 'rxjs';
import type { StreamEvent } from 'rxjs-tool-calls';
import { encodeAgUi, encodeAiSdkUi, encodeAnthropicMessages, encodeGemini, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { collect } from '../../helpers/reencode';

it('encodeOpenAIChat', () => {
  const events: StreamEvent[] = [
    { type: 'tool-call-delta', choice: 0, index: 1, id: 'toolu_1', name: 'get_weather', argumentsDelta: '{"city":' },
    { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '"Paris"}' },
  ];
  const out = collect(from(events).pipe(encodeOpenAIChat({ id: 'chatcmpl-1', model: 'gpt-4o', created: 0 }))).values;
  expect(out[0]).toBe(
    'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"toolu_1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":"}}]},"finish_reason":null}]}\n\n',
  );
  expect(out[1]).toContain('"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\"Paris\\"}"}}]},"finish_reason":null}]}');
  expect(out[2]).toContain('"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n');
  expect(out).toHaveLength(3);
});

it('encodeOpenAIResponses', () => {
  const events: StreamEvent[] = [
    { type: 'tool-call-delta', choice: 0, index: 0, id: 'toolu_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
    { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' },
    { type: 'done' },
  ];
  const out = collect(from(events).pipe(encodeOpenAIResponses({ id: 'resp_1', model: 'gpt-4.1', created: 0 }))).values.join('');
  expect(out.startsWith('event: response.created\n')).toBe(true);
  expect(out).toContain(
    'event: response.output_item.added\ndata: {"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1_0","type":"function_call","status":"in_progress","arguments":"","call_id":"toolu_1","name":"get_weather"},"sequence_number":2}\n\n',
  );
  expect(out).toContain('event: response.completed\n');
});

it('encodeAnthropicMessages', () => {
  const events: StreamEvent[] = [
    { type: 'text-delta', choice: 0, text: 'Checking.' },
    { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
    { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
    { type: 'done' },
  ];
  const out = collect(from(events).pipe(encodeAnthropicMessages({ id: 'msg_1', model: 'claude-sonnet-4-5' }))).values.join('');
  expect(out.startsWith('event: message_start\n')).toBe(true);
  expect(out).toContain('data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}');
  expect(out).toContain('data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call_1","name":"get_weather","input":{}}}');
  expect(out).toContain('data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":0}}');
});

it('encodeGemini', () => {
  const events: StreamEvent[] = [
    { type: 'tool-call-delta', choice: 0, index: 0, name: 'get_capital', argumentsDelta: '{"country":' },
    { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"France"}' },
    { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
  ];
  const out = collect(from(events).pipe(encodeGemini({ id: 'r1', model: 'gemini-2.5-flash' }))).values;
  expect(out).toEqual([
    'data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_capital","args":{"country":"France"}}}]}}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}\n\n' +
      'data: {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP"}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}\n\n',
  ]);
});

it('encodeAiSdkUi', () => {
  const events: StreamEvent[] = [
    { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":' },
    { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' },
    { type: 'tool-call-end', choice: 0, index: 0 },
    { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
    { type: 'done' },
  ];
  const out = collect(from(events).pipe(encodeAiSdkUi())).values.join('');
  expect(out.startsWith('data: {"type":"start"}\n\n')).toBe(true);
  expect(out).toContain('data: {"type":"tool-input-start","toolCallId":"call_1","toolName":"get_weather"}\n\n');
  expect(out).toContain('data: {"type":"tool-input-available","toolCallId":"call_1","toolName":"get_weather","input":{"city":"Paris"}}\n\n');
  expect(out.endsWith('data: {"type":"finish","finishReason":"tool-calls"}\n\ndata: [DONE]\n\n')).toBe(true);
});

it('encodeAgUi', () => {
  const events: StreamEvent[] = [
    { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":' },
    { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' },
    { type: 'done' },
  ];
  const out = collect(from(events).pipe(encodeAgUi({ threadId: 'thread_1', runId: 'run_1', id: 'msg_1' }))).values.join('');
  expect(out.startsWith('data: {"type":"RUN_STARTED","threadId":"thread_1","runId":"run_1"}\n\n')).toBe(true);
  expect(out).toContain('data: {"type":"TOOL_CALL_START","toolCallId":"call_1","toolCallName":"get_weather","parentMessageId":"msg_1"}\n\n');
  expect(out).toContain('data: {"type":"TOOL_CALL_END","toolCallId":"call_1"}\n\n');
  expect(out.endsWith('data: {"type":"RUN_FINISHED","threadId":"thread_1","runId":"run_1"}\n\n')).toBe(true);
});
