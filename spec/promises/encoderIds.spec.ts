// What the docs promise about the ids an encoder writes: the source's ids, de-duplicated as the
// readers do when the source repeats one (`call_x`, `call_x_2`, …; an id that collides with a
// de-duplicated one gets its own suffix), or generated ids when the source has none; so every call
// of an encoded stream has its own id, and reading the encoded stream back gives the same ids.
// Two angles: ids found in each encoder's wire text, and each encoded stream read back.
import { from, lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { readStreamEvents, readToolCalls, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeGemini, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { geminiChunk, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

/** Four calls whose wire ids repeat: `call_x` three times, then `call_x_2` (the id the second one is given). */
const REPEATING = [
  openaiChunk({ toolCalls: [{ index: 0, id: 'call_x', name: 'f', arguments: '{"n":0}' }] }),
  openaiChunk({ toolCalls: [{ index: 1, id: 'call_x', name: 'g', arguments: '{"n":1}' }] }),
  openaiChunk({ toolCalls: [{ index: 2, id: 'call_x', name: 'h', arguments: '{"n":2}' }] }),
  openaiChunk({ toolCalls: [{ index: 3, id: 'call_x_2', name: 'k', arguments: '{"n":3}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiDone(),
];
const EXPECTED_IDS = ['call_x', 'call_x_2', 'call_x_3', 'call_x_2_2'];

type Encoder = () => OperatorFunction<StreamEvent, string>;
const ENCODERS: Array<[string, Encoder, 'openai-chat' | 'anthropic' | 'openai-responses' | 'gemini', RegExp]> = [
  ['encodeOpenAIChat', () => encodeOpenAIChat(), 'openai-chat', /"tool_calls":\[\{"index":\d+,"id":"([^"]+)"/g],
  ['encodeAnthropicMessages', () => encodeAnthropicMessages(), 'anthropic', /"type":"tool_use","id":"([^"]+)"/g],
  ['encodeOpenAIResponses', () => encodeOpenAIResponses(), 'openai-responses', /"type":"response\.output_item\.added".*?"call_id":"([^"]+)"/g],
  ['encodeGemini', () => encodeGemini(), 'gemini', /"functionCall":\{[^}]*"id":"([^"]+)"/g],
];

const ids = async (wire: readonly string[], provider?: 'openai-chat' | 'anthropic' | 'openai-responses' | 'gemini'): Promise<string[]> =>
  (await lastValueFrom(from(wire).pipe(readToolCalls(provider === undefined ? {} : { provider }), toArray()))).map((r) => (r.success ? r.data.id : `failed: ${r.error.code}`));

const encoded = (wire: readonly string[], encoder: Encoder): Promise<string[]> => lastValueFrom(from(wire).pipe(readStreamEvents(), encoder(), toArray()));

it('the readers de-duplicate a repeated source id: call_x, call_x_2, call_x_3, and call_x_2_2 for a source call_x_2', async () => {
  expect(await ids(REPEATING)).toEqual(EXPECTED_IDS);
});

describe.each(ENCODERS)('%s, a source that repeats an id', (_name, encoder, provider, pattern) => {
  it('writes the de-duplicated ids, each call its own', async () => {
    const text = (await encoded(REPEATING, encoder)).join('');
    expect([...text.matchAll(pattern)].map((m) => m[1])).toEqual(EXPECTED_IDS);
  });

  it('reads back with the same ids', async () => {
    expect(await ids(await encoded(REPEATING, encoder), provider)).toEqual(EXPECTED_IDS);
  });
});

describe('a source without ids (Gemini): generated ids, each call its own, stable through the encoded stream', () => {
  const GEMINI = [
    geminiChunk({
      parts: [{ functionCall: { name: 'f', args: { n: 0 } } }, { functionCall: { name: 'g', args: { n: 1 } } }, { functionCall: { name: 'f', args: { n: 2 } } }],
      finishReason: 'STOP',
    } as never),
  ];

  it.each(ENCODERS.filter(([name]) => name !== 'encodeGemini'))('%s', async (_name, encoder, provider, pattern) => {
    const wire = await encoded(GEMINI, encoder);
    const written = [...wire.join('').matchAll(pattern)].map((m) => m[1] as string);
    expect(written).toHaveLength(3);
    expect(new Set(written).size).toBe(3);
    for (const id of written) expect(id).toMatch(/^call_/);
    expect(await ids(wire, provider)).toEqual(written);
  });
});
