/**
 * `partialObject()` behind `readStreamEvents()`, on one stream of our own per wire format (the same
 * answer, written as each provider writes it), whole and in every chunking.
 */
import { from, toArray } from 'rxjs';
import { z } from 'zod';
import { readStreamEvents } from 'rxjs-tool-calls';
import { partialObject, type PartialObjectUpdate } from '../../src/operators/partialObject';
import { chunkings } from '../helpers/chunking';
import { prefixMismatch } from '../helpers/isPrefixValue';

const Forecast = z.object({ city: z.string(), days: z.array(z.object({ day: z.string(), high: z.number(), sky: z.enum(['sun', 'rain', 'cloud']) })) });
const answer = {
  city: 'Zürich',
  days: [
    { day: 'Mon', high: 21.5, sky: 'sun' },
    { day: 'Tue', high: 18, sky: 'rain' },
    { day: 'Wed 😀', high: -2, sky: 'cloud' },
  ],
};
const json = JSON.stringify(answer, null, 1);
/** The answer in pieces of 1 to 9 characters, as a model streams it. */
const pieces: string[] = [];
for (let i = 0, n = 1; i < json.length; i += n, n = (n % 9) + 1) pieces.push(json.slice(i, i + n));

const frame = (event: string | undefined, payload: unknown): string => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(payload)}\n\n`;

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const openaiChat = [
  frame(undefined, chunk({ role: 'assistant', content: '' })),
  frame(undefined, chunk({ content: '```json\n' })),
  ...pieces.map((p) => frame(undefined, chunk({ content: p }))),
  frame(undefined, chunk({ content: '\n```' })),
  frame(undefined, chunk({}, 'stop')),
  'data: [DONE]\n\n',
].join('');

const response = (status: string) => ({ id: 'resp_1', object: 'response', status, model: 'gpt-4.1', output: [] });
const responses = [
  frame('response.created', { type: 'response.created', sequence_number: 0, response: response('in_progress') }),
  frame('response.output_item.added', {
    type: 'response.output_item.added',
    sequence_number: 1,
    output_index: 0,
    item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] },
  }),
  frame('response.content_part.added', { type: 'response.content_part.added', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } }),
  ...pieces.map((p, i) => frame('response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 3 + i, item_id: 'msg_1', output_index: 0, content_index: 0, delta: p })),
  frame('response.output_text.done', { type: 'response.output_text.done', sequence_number: 3 + pieces.length, item_id: 'msg_1', output_index: 0, content_index: 0, text: json }),
  frame('response.completed', {
    type: 'response.completed',
    sequence_number: 4 + pieces.length,
    response: { ...response('completed'), usage: { input_tokens: 20, output_tokens: 60, total_tokens: 80 } },
  }),
].join('');

const anthropic = [
  frame('message_start', {
    type: 'message_start',
    message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 30, output_tokens: 1 } },
  }),
  frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'forecast', input: {} } }),
  ...pieces.map((p) => frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: p } })),
  frame('content_block_stop', { type: 'content_block_stop', index: 0 }),
  frame('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 70 } }),
  frame('message_stop', { type: 'message_stop' }),
].join('');

const candidate = (text: string, finish?: string) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(finish === undefined ? {} : { finishReason: finish }) }],
  modelVersion: 'gemini-2.5-flash',
});
const gemini = [
  ...pieces.slice(0, -1).map((p) => frame(undefined, candidate(p))),
  frame(undefined, { ...candidate(pieces.at(-1) as string, 'STOP'), usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 50, totalTokenCount: 60 } }),
].join('');

const cohere = [
  frame('message-start', { type: 'message-start', id: 'm1', delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [] } } }),
  frame('content-start', { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } }),
  ...pieces.map((p) => frame('content-delta', { type: 'content-delta', index: 0, delta: { message: { content: { text: p } } } })),
  frame('content-end', { type: 'content-end', index: 0 }),
  frame('message-end', { type: 'message-end', delta: { finish_reason: 'COMPLETE', usage: { billed_units: { input_tokens: 5, output_tokens: 50 }, tokens: { input_tokens: 5, output_tokens: 50 } } } }),
].join('');

const STREAMS: Array<[string, string, { fromTool?: string }]> = [
  ['openai-chat (in a ```json fence)', openaiChat, {}],
  ['openai-responses', responses, {}],
  ['anthropic (forced tool, fromTool)', anthropic, { fromTool: 'forecast' }],
  ['gemini', gemini, {}],
  ['cohere', cohere, {}],
];

describe.each(STREAMS)('partialObject() on %s', (_name, wire, options) => {
  const bytes = new TextEncoder().encode(wire);

  it.each(chunkings(bytes))('streams the typed answer (%s)', (_chunking, chunks) => {
    let updates: PartialObjectUpdate<z.output<typeof Forecast>, unknown>[] = [];
    let failure: unknown;
    from(chunks)
      .pipe(readStreamEvents(), partialObject({ ...options, schema: Forecast, elements: ['days'] }), toArray())
      .subscribe({ next: (u) => (updates = u), error: (e: unknown) => (failure = e) });
    expect(failure).toBeUndefined();
    const last = updates.at(-1);
    expect(last?.type === 'result' && last.result).toEqual({ success: true, data: answer });
    const partials = updates.filter((u) => u.type === 'partial');
    expect(partials.length).toBeGreaterThan(5); // it streamed
    for (const u of partials) expect(prefixMismatch(u.value, answer)).toBeUndefined();
    expect(updates.flatMap((u) => (u.type === 'element' && u.result.success ? [u.result.data] : []))).toEqual(answer.days);
    if (options.fromTool !== undefined) expect(last?.toolCall).toEqual({ id: 'toolu_1', name: 'forecast', index: 0, choice: 0 });
  });
});
