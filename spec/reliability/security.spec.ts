/**
 * Security: argument text with `__proto__`, `constructor` and `prototype` keys never reaches a
 * prototype; ids and names are strings whatever the wire sends; nothing is evaluated. All five
 * wire formats.
 */
import type { ToolCallResult } from 'rxjs-tool-calls';
import { anthropicEvent, cohereEvent, openaiChunk, openaiDone, responsesEvent } from 'rxjs-tool-calls/marbles';
import { runChunks } from '../helpers/runStream';

const HOSTILE = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"prototype":{"polluted":3},"code":"(function(){globalThis.pwned=1})()"}';
const HOSTILE_OBJECT: unknown = JSON.parse(HOSTILE);

/** One stream per format carrying HOSTILE as a call's arguments (in two pieces where the format streams text). */
const streams: Array<[string, string]> = [
  [
    'openai chat',
    [
      openaiChunk({ toolCalls: [{ index: 0, id: 'c1', name: 'f', arguments: HOSTILE.slice(0, 20) }] }),
      openaiChunk({ toolCalls: [{ index: 0, arguments: HOSTILE.slice(20) }] }),
      openaiChunk({ finishReason: 'tool_calls' }),
      openaiDone(),
    ].join(''),
  ],
  [
    'anthropic (streamed input)',
    [
      anthropicEvent('message_start', { message: { id: 'm', model: 'claude', content: [], usage: {} } }),
      anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 't1', name: 'f', input: {} } }),
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: HOSTILE.slice(0, 20) } }),
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: HOSTILE.slice(20) } }),
      anthropicEvent('content_block_stop', { index: 0 }),
      anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: {} }),
      anthropicEvent('message_stop'),
    ].join(''),
  ],
  [
    'anthropic (input in the block start)',
    [
      anthropicEvent('message_start', { message: { id: 'm', model: 'claude', content: [], usage: {} } }),
      `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"f","input":${HOSTILE}}}\n\n`,
      anthropicEvent('content_block_stop', { index: 0 }),
      anthropicEvent('message_stop'),
    ].join(''),
  ],
  [
    'openai responses',
    [
      responsesEvent('response.created', { response: { id: 'r', model: 'gpt', status: 'in_progress', output: [] } }),
      responsesEvent('response.output_item.added', { output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '' } }),
      responsesEvent('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: HOSTILE.slice(0, 20) }),
      responsesEvent('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: HOSTILE.slice(20) }),
      responsesEvent('response.output_item.done', { output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: HOSTILE } }),
      responsesEvent('response.completed', { response: { id: 'r', status: 'completed', output: [] } }),
    ].join(''),
  ],
  ['gemini', `data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":${HOSTILE}}}]},"finishReason":"STOP","index":0}]}\r\n\r\n`],
  [
    'cohere',
    [
      cohereEvent('message-start', { id: 'm', delta: { message: { role: 'assistant' } } }),
      cohereEvent('tool-call-start', { index: 0, delta: { message: { tool_calls: { id: 'k1', type: 'function', function: { name: 'f', arguments: '' } } } } }),
      cohereEvent('tool-call-delta', { index: 0, delta: { message: { tool_calls: { function: { arguments: HOSTILE.slice(0, 20) } } } } }),
      cohereEvent('tool-call-delta', { index: 0, delta: { message: { tool_calls: { function: { arguments: HOSTILE.slice(20) } } } } }),
      cohereEvent('tool-call-end', { index: 0 }),
      cohereEvent('message-end', { delta: { finish_reason: 'TOOL_CALL' } }),
    ].join(''),
  ],
];

function only(results: ToolCallResult[]): { id: string; name: string; arguments: unknown } {
  expect(results).toHaveLength(1);
  const [r] = results;
  if (r === undefined || !r.success) throw new Error(`expected one success, got ${JSON.stringify(results)}`);
  return r.data;
}

describe.each(streams)('%s', (_name, wire) => {
  it('__proto__ / constructor / prototype stay own data properties; no prototype changes; nothing runs', () => {
    const protoKeys = Object.getOwnPropertyNames(Object.prototype).sort();
    const out = runChunks([wire]);
    expect(out.error).toBeUndefined();
    const args = only(out.results).arguments as Record<string, unknown>;
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoKeys);
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    for (const key of ['__proto__', 'constructor', 'prototype']) expect(Object.prototype.hasOwnProperty.call(args, key)).toBe(true);
    expect(args).toEqual(HOSTILE_OBJECT);
    expect(args['code']).toBe('(function(){globalThis.pwned=1})()');
  });
});

describe('ids and names are strings whatever the wire sends', () => {
  const odd: unknown[] = [5, 0, { a: 1 }, [1, 2], null, true, '', '__proto__', 'constructor'];

  it.each(odd.map((v) => [JSON.stringify(v), v]))('id and name %s', (_label, value) => {
    const raw = JSON.stringify(value);
    const wires = [
      `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":${raw},"function":{"name":${raw},"arguments":"{}"}}]}}]}\n\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n`,
      `event: message_start\ndata: {"type":"message_start","message":{"id":"m"}}\n\nevent: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":${raw},"name":${raw},"input":{}}}\n\nevent: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`,
      `event: response.output_item.done\ndata: {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":${raw},"call_id":${raw},"name":${raw},"arguments":"{}"}}\n\nevent: response.completed\ndata: {"type":"response.completed","response":{"status":"completed"}}\n\n`,
      `data: {"candidates":[{"content":{"parts":[{"functionCall":{"id":${raw},"name":${raw},"args":{}}}]},"finishReason":"STOP"}]}\n\n`,
      `event: tool-call-start\ndata: {"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":${raw},"function":{"name":${raw},"arguments":"{}"}}}}}\n\nevent: tool-call-end\ndata: {"type":"tool-call-end","index":0}\n\nevent: message-end\ndata: {"type":"message-end","delta":{"finish_reason":"TOOL_CALL"}}\n\n`,
    ];
    // Every format reports the call, also when its name is unusable (then the name is '').
    for (const wire of wires) {
      const out = runChunks([wire]);
      expect(out.error).toBeUndefined();
      expect(out.results).toHaveLength(1);
      for (const r of out.results) {
        const call = r.success ? r.data : r.error.toolCall;
        expect(typeof call.id).toBe('string');
        expect(call.id).not.toBe('');
        expect(typeof call.name).toBe('string');
      }
      expect(({} as Record<string, unknown>)['a']).toBeUndefined();
    }
  });
});
