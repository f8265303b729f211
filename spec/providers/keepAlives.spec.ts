// Rule `keep-alives`, per format and through both readers: keep-alives (empty data under any name;
// `ping` or a name the format does not use with data that is not a JSON object) are skipped by
// every decoder, named explicitly or auto-detected; data the format must parse and cannot is
// `invalid-event`.
import { from, lastValueFrom, toArray } from 'rxjs';
import { readStreamEvents, readToolCalls, toolCalls, type ProviderName, type ToolCallResult } from 'rxjs-tool-calls';
import { anthropicEvent, cohereEvent, geminiChunk, openaiChunk, openaiDone, responsesEvent, sseEvent } from 'rxjs-tool-calls/marbles';

const KEEP_ALIVES = [
  'data:\n\n',
  'data:  \n\n',
  'event: ping\ndata:\n\n',
  sseEvent({ event: 'ping', data: 'ping' }),
  sseEvent({ event: 'ping', data: '""' }),
  sseEvent({ event: 'heartbeat', data: '12:00:00' }),
];

/** One stream per format: a call whose argument fragments have every keep-alive between them. */
const STREAMS: Record<'openai-chat' | 'anthropic' | 'openai-responses' | 'gemini' | 'cohere', (gap: string) => string[]> = {
  'openai-chat': (gap) => [
    gap,
    openaiChunk({ toolCalls: [{ index: 0, id: 'c1', name: 'f', arguments: '{"a":' }] }),
    gap,
    openaiChunk({ toolCalls: [{ index: 0, arguments: '1}' }] }),
    openaiChunk({ finishReason: 'tool_calls' }),
    gap,
    openaiDone(),
  ],
  anthropic: (gap) => [
    anthropicEvent('message_start', { message: { id: 'm', model: 'x' } }),
    gap,
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'c1', name: 'f', input: {} } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":' } }),
    gap,
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '1}' } }),
    anthropicEvent('content_block_stop', { index: 0 }),
    anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' } }),
    anthropicEvent('message_stop'),
  ],
  'openai-responses': (gap) => [
    responsesEvent('response.created', { response: { id: 'r', model: 'x', output: [] } }),
    gap,
    responsesEvent('response.output_item.added', { output_index: 0, item: { type: 'function_call', id: 'fc', call_id: 'c1', name: 'f', arguments: '' } }),
    responsesEvent('response.function_call_arguments.delta', { output_index: 0, delta: '{"a":' }),
    gap,
    responsesEvent('response.function_call_arguments.delta', { output_index: 0, delta: '1}' }),
    responsesEvent('response.output_item.done', { output_index: 0, item: { type: 'function_call', id: 'fc', call_id: 'c1', name: 'f', arguments: '{"a":1}' } }),
    responsesEvent('response.completed', { response: { id: 'r', model: 'x', output: [] } }),
  ],
  gemini: (gap) => [gap, geminiChunk({ text: 'ok' }), gap, geminiChunk({ functionCalls: [{ id: 'c1', name: 'f', args: { a: 1 } }], finishReason: 'STOP' })],
  cohere: (gap) => [
    cohereEvent('message-start', { id: 'm' }),
    gap,
    cohereEvent('tool-call-start', { index: 0, delta: { message: { tool_calls: { id: 'c1', type: 'function', function: { name: 'f', arguments: '' } } } } }),
    cohereEvent('tool-call-delta', { index: 0, delta: { message: { tool_calls: { function: { arguments: '{"a":' } } } } }),
    gap,
    cohereEvent('tool-call-delta', { index: 0, delta: { message: { tool_calls: { function: { arguments: '1}' } } } } }),
    cohereEvent('tool-call-end', { index: 0 }),
    cohereEvent('message-end', { delta: { finish_reason: 'TOOL_CALL' } }),
  ],
};

const summary = (results: ToolCallResult[]): unknown[] => results.map((r) => (r.success ? [r.data.id, r.data.name, r.data.arguments] : r.error.code));

describe.each(Object.entries(STREAMS))('%s', (format, stream) => {
  const provider = format as ProviderName;
  it.each(KEEP_ALIVES.map((gap) => [JSON.stringify(gap), gap]))('skips %s, named and auto-detected, fused and composed', async (_label, gap) => {
    const wire = stream(gap).join('');
    for (const options of [{ provider }, {}]) {
      expect(summary(await lastValueFrom(from([wire]).pipe(readToolCalls(options), toArray())))).toEqual([['c1', 'f', { a: 1 }]]);
      expect(summary(await lastValueFrom(from([wire]).pipe(readStreamEvents(options), toolCalls(), toArray())))).toEqual([['c1', 'f', { a: 1 }]]);
    }
  });
});

it('data that is not JSON under an event the format reads is invalid-event, naming the data', async () => {
  const wire = [anthropicEvent('message_start', { message: { id: 'm', model: 'x' } }), sseEvent({ event: 'content_block_delta', data: 'not json' })].join('');
  await expect(lastValueFrom(from([wire]).pipe(readToolCalls({ provider: 'anthropic' })), { defaultValue: undefined })).rejects.toMatchObject({ code: 'invalid-event', data: 'not json' });
  await expect(lastValueFrom(from(['data: not json\n\n']).pipe(readToolCalls({ provider: 'openai-chat' })), { defaultValue: undefined })).rejects.toMatchObject({ code: 'invalid-event' });
});
