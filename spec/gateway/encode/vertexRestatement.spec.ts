/**
 * Vertex streamed arguments through the encoders: written live, and what happens in the rare stream
 * whose entry changes what the live text already closed (rule `vertex-partial-args`: the reader
 * restates the whole object).
 */
import { from, lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { accumulateToolCalls, readStreamEvents, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeGemini, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { geminiChunk, toBytes } from 'rxjs-tool-calls/marbles';

const chunk = (functionCall: Record<string, unknown>, finishReason?: string): string => geminiChunk({ parts: [{ functionCall }], ...(finishReason === undefined ? {} : { finishReason }) });
const entry = (jsonPath: string, value: Record<string, unknown>) => ({ partialArgs: [{ jsonPath, ...value }], willContinue: true });

/** The events of a Vertex stream whose `$.n` is replaced after `$.s` was written (a restatement). */
async function restatingEvents(): Promise<StreamEvent[]> {
  const wire = [
    chunk({ name: 'f', willContinue: true }),
    chunk(entry('$.n', { numberValue: 1 })),
    chunk(entry('$.s', { stringValue: 'x' })),
    chunk(entry('$.n', { numberValue: 2 })),
    chunk({}, 'STOP'),
  ];
  return lastValueFrom(from([toBytes(wire.join(''))]).pipe(readStreamEvents({ provider: 'gemini' }), toArray()));
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
