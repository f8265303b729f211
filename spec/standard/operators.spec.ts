/**
 * The standard operator cases for the public operators whose own specs do not run them: the wire
 * decoders, auto-detection, the readers, `validateResults()`, `tagSource()` and
 * `angularTextChunks()` (which did not stop a synchronous source cut by `take` before this spec). (`idleTimeout()` is the one operator they cannot apply to: a silent
 * source is exactly what it turns into an error; spec/reliability/idleTimeout.spec.ts covers it.)
 */
import { of } from 'rxjs';
import {
  anthropicMessages,
  autoDetect,
  cohereChat,
  decodeSse,
  gemini,
  openaiChat,
  openaiResponses,
  readStreamEvents,
  readToolCalls,
  toolCalls,
  validateResults,
  type FramedRecord,
  type ToolCallResult,
} from 'rxjs-tool-calls';
import { tagSource } from 'rxjs-tool-calls/gateway';
import { anthropicEvent, cohereEvent, geminiChunk, openaiChunk, openaiDone, responsesEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { angularTextChunks } from '../../src/angular/angularTextChunks';
import { z } from 'zod';
import { standardCases } from '../helpers/standardCases';

/** The SSE events of a wire text (decoded synchronously). */
function events(...wire: string[]): [FramedRecord, ...FramedRecord[]] {
  const decoded: FramedRecord[] = [];
  of(wire.join(''))
    .pipe(decodeSse())
    .subscribe((event) => decoded.push(event));
  const [first, ...rest] = decoded;
  if (first === undefined) throw new Error('no events');
  return [first, ...rest];
}

const chatWire = [
  openaiChunk({ toolCalls: [{ id: 'call_1', name: 'f', arguments: '{"x":' }] }),
  openaiChunk({ toolCalls: [{ arguments: '1}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiDone(),
];
const chat = events(...chatWire);
const responses = events(
  responsesEvent('response.created', { response: { id: 'resp_1', status: 'in_progress', output: [] } }),
  responsesEvent('response.output_text.delta', { output_index: 0, content_index: 0, item_id: 'msg_1', delta: 'Hi' }),
);
const anthropic = events(
  anthropicEvent('message_start', { message: { id: 'msg_1', role: 'assistant', content: [], usage: { input_tokens: 1, output_tokens: 1 } } }),
  anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
);
const geminiEvents = events(geminiChunk({ text: 'Hi' }));
const cohere = events(
  cohereEvent('message-start', { id: 'c1', delta: { message: { role: 'assistant' } } }),
  cohereEvent('content-delta', { index: 0, delta: { message: { content: { text: 'Hi' } } } }),
);

const truncated = (provider: string) => expect.objectContaining({ code: 'truncated', provider });

describe('openaiChat()', () => standardCases(() => openaiChat(), chat, { emptyError: truncated('openai-chat') }));
describe('openaiResponses()', () => standardCases(() => openaiResponses(), responses, { emptyError: truncated('openai-responses') }));
describe('anthropicMessages()', () => standardCases(() => anthropicMessages(), anthropic, { emptyError: truncated('anthropic') }));
describe('gemini()', () => standardCases(() => gemini(), geminiEvents, { emptyError: truncated('gemini') }));
describe('cohereChat()', () => standardCases(() => cohereChat(), cohere, { emptyError: truncated('cohere') }));
describe('autoDetect()', () => standardCases(() => autoDetect(), chat, { emptyError: expect.objectContaining({ code: 'unknown-format' }) }));

const bytes: [Uint8Array, ...Uint8Array[]] = [toBytes(chatWire[0] as string), toBytes(chatWire[1] as string), toBytes((chatWire[2] as string) + (chatWire[3] as string))];
describe('readStreamEvents()', () => standardCases(() => readStreamEvents(), bytes, { emptyError: expect.objectContaining({ code: 'unknown-format' }) }));
describe('readToolCalls()', () => standardCases(() => readToolCalls(), bytes, { emptyError: expect.objectContaining({ code: 'unknown-format' }) }));
// tagSource() never errors: a failure is an `error` item, then completion.
describe('tagSource()', () =>
  standardCases(() => tagSource('a'), bytes, {
    endsWith: {
      completed: { source: 'a', type: 'error', error: expect.objectContaining({ code: 'unknown-format' }) },
      failed: (error) => ({ source: 'a', type: 'error', error }),
    },
  }));

const results: ToolCallResult[] = [];
of(...chat)
  .pipe(openaiChat(), toolCalls())
  .subscribe((result) => results.push(result));
const [firstResult] = results;
if (firstResult === undefined) throw new Error('no result');
describe('validateResults()', () => standardCases(() => validateResults({ f: z.object({ x: z.number() }) }), [firstResult]));

describe('angularTextChunks()', () =>
  standardCases(
    () => angularTextChunks(),
    [
      { type: 3, partialText: 'data: a\n' },
      { type: 3, partialText: 'data: a\n\n' },
    ],
  ));
