/**
 * Vertex streamed arguments through the encoders: written live, and what happens in the rare stream
 * whose entry changes what the live text already closed (rule `vertex-partial-args`: the reader
 * restates the whole object).
 */
import { from, lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { accumulateToolCalls, readStreamEvents, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeGemini, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { geminiChunk, toBytes } from 'rxjs-tool-calls/marbles';
import { chunkings } from '../../helpers/chunking';

const chunk = (functionCall: Record<string, unknown>, finishReason?: string): string => geminiChunk({ parts: [{ functionCall }], ...(finishReason === undefined ? {} : { finishReason }) });
const entry = (jsonPath: string, value: Record<string, unknown>) => ({ partialArgs: [{ jsonPath, ...value }], willContinue: true });

/** A Vertex stream whose `$.n` is replaced after `$.s` was written (a restatement). */
const RESTATING = toBytes(
  [chunk({ name: 'f', willContinue: true }), chunk(entry('$.n', { numberValue: 1 })), chunk(entry('$.s', { stringValue: 'x' })), chunk(entry('$.n', { numberValue: 2 })), chunk({}, 'STOP')].join(''),
);

/** The events of {@link RESTATING}. */
async function restatingEvents(): Promise<StreamEvent[]> {
  return lastValueFrom(from([RESTATING]).pipe(readStreamEvents({ provider: 'gemini' }), toArray()));
}

async function readBack(events: StreamEvent[], encoder: OperatorFunction<StreamEvent, string>): Promise<{ args: unknown; error: unknown }> {
  let error: unknown;
  const text = await lastValueFrom(from(events).pipe(encoder, toArray())).catch((e: unknown) => {
    error = e;
    return [] as string[];
  });
  if (error !== undefined) return { args: undefined, error };
  const calls = await lastValueFrom(from([text.join('')]).pipe(readStreamEvents(), accumulateToolCalls()));
  const result = calls[0]?.result;
  return { args: result?.success === true ? result.data.arguments : result, error };
}

describe('Vertex streamed arguments through the encoders', () => {
  it('the reader restates the object when an entry replaces a value the text already holds', async () => {
    const deltas = (await restatingEvents()).filter((e) => e.type === 'tool-call-delta');
    expect(deltas.map((e) => (e.type === 'tool-call-delta' ? [e.argumentsDelta, e.replace === true] : []))).toEqual([
      ['{', false],
      ['"n":1 ', false],
      [',"s":"x', false],
      ['{"n":2,"s":"x"', true],
      ['}', false],
    ]);
  });

  it.each(chunkings(RESTATING))('chunked %s: the restated call reads as the wire ends it', async (_how, chunks) => {
    const calls = await lastValueFrom(from(chunks).pipe(readStreamEvents({ provider: 'gemini' }), accumulateToolCalls()));
    expect(calls.map((c) => [c.name, c.status, c.result?.success === true ? c.result.data.arguments : c.result])).toEqual([['f', 'complete', { n: 2, s: 'x' }]]);
  });

  it.each([
    ['encodeOpenAIResponses', encodeOpenAIResponses()],
    ['encodeGemini', encodeGemini()],
  ])('%s restates a call’s arguments at its end: the restatement is taken', async (_name, encoder) => {
    expect(await readBack(await restatingEvents(), encoder)).toEqual({ args: { s: 'x', n: 2 }, error: undefined });
  });

  it.each([
    ['encodeOpenAIChat', encodeOpenAIChat()],
    ['encodeAnthropicMessages', encodeAnthropicMessages()],
  ])('%s is append-only: text it wrote cannot be taken back, so it ends with invalid-event (typed, naming the call)', async (_name, encoder) => {
    const { error } = await readBack(await restatingEvents(), encoder);
    expect(error).toMatchObject({ code: 'invalid-event', detail: expect.stringContaining('cannot take back') });
  });
});
