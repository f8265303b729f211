import { from, map } from 'rxjs';
import { type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { encodeGemini, type EncodeGeminiOptions } from 'rxjs-tool-calls/gateway';
import { testScheduler } from '../../helpers/marbles';
import { collect, genIds, view, written, writtenBy } from '../../helpers/reencode';

const encode = (extra: EncodeGeminiOptions = {}) => encodeGemini({ id: 'r1', model: 'g', generateId: genIds(), ...extra });
const chunk = (body: Record<string, unknown>) => ({ event: 'message', data: { ...body, modelVersion: 'g', responseId: 'r1' } });
const parts = (p: unknown[], index?: number) => chunk({ candidates: [{ content: { role: 'model', parts: p }, ...(index === undefined ? {} : { index }) }] });
const finish = (reason: string, index?: number) => chunk({ candidates: [{ content: { role: 'model', parts: [] }, finishReason: reason, ...(index === undefined ? {} : { index }) }] });

const m: StreamEvent = { type: 'metadata', provider: 'openai-chat', responseId: 'chatcmpl-1', model: 'gpt' };
const t: StreamEvent = { type: 'text-delta', choice: 0, text: 'Hi' };
const x1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_x', name: 'get_weather', argumentsDelta: '{"city":' };
const x2: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' };
const y1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_y', name: 'get_time', argumentsDelta: '{' };
const y2: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '}' };
const f: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' };
const u: StreamEvent = { type: 'usage', inputTokens: 10, outputTokens: 5, reasoningTokens: 2, raw: {} };
const d: StreamEvent = { type: 'done' };

/** All SSE events the encoder writes for `events` (then `error`, when given). */
const writtenFor = (events: StreamEvent[], extra: EncodeGeminiOptions = {}, error?: unknown) => writtenBy(encode(extra), events, error);

describe('encodeGemini', () => {
  it('follows the doc diagram: text at once, each call whole when it completes, finish, usage last', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold('--m--t--x--z--y--w--f--u--d|', { m, t, x: x1, z: x2, y: y1, w: y2, f, u, d });
      expectObservable(events.pipe(encode(), map(written))).toBe('-----a--------------b-----h|', {
        a: [parts([{ text: 'Hi' }])],
        b: [parts([{ functionCall: { id: 'call_x', name: 'get_weather', args: { city: 'Paris' } } }]), parts([{ functionCall: { id: 'call_y', name: 'get_time', args: {} } }]), finish('STOP')],
        // Gemini's candidates count leaves the thoughts out: normalised output 5 with 2 thoughts → 3.
        h: [chunk({ usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 15, thoughtsTokenCount: 2 } })],
      });
    });
  });

  it('follows the doc diagram: a provider error becomes the Google error object; truncated passes on', () => {
    const busy = new ToolStreamError('provider-error', {
      provider: 'anthropic',
      providerCode: undefined,
      type: 'overloaded_error',
      message: 'Overloaded',
      status: undefined,
      retryable: true,
      payload: {},
    });
    const cut = new ToolStreamError('truncated', { provider: 'anthropic', detail: 'no message_stop arrived' });
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('--t--x--#', { t, x: x1 }, busy).pipe(encode(), map(written))).toBe('--a-----(e|)', {
        a: [parts([{ text: 'Hi' }])],
        e: [{ event: 'message', data: { error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } } }],
      });
      expectObservable(
        cold('--t--x--#', { t, x: x1 }, cut).pipe(
          encode(),
          map(() => 'a'),
        ),
      ).toBe('--a-----#', undefined, cut);
    });
    const quota = new ToolStreamError('provider-error', { provider: 'x', providerCode: 'q', type: undefined, message: 'm', status: 429, retryable: true, payload: {} });
    expect(writtenFor([], {}, quota).events).toEqual([{ event: 'message', data: { error: { code: 429, message: 'm', status: 'RESOURCE_EXHAUSTED' } } }]);
  });

  it('writes a call at its own end, keeps its thought signature, and writes no id the source did not send', () => {
    const { events } = writtenFor([
      { type: 'tool-call-delta', choice: 0, index: 0, name: 'f', argumentsDelta: '{"a":1}', replace: true, metadata: { thoughtSignature: 'sig' } },
      { type: 'tool-call-end', choice: 0, index: 0 },
      t,
    ]);
    expect(events.slice(0, 2)).toEqual([parts([{ functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'sig' }]), parts([{ text: 'Hi' }])]);
  });

  it('leaves out calls that cannot run (not an object, no name, cut) and says MAX_TOKENS for a cut', () => {
    const { events } = writtenFor([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'a', name: 'f', argumentsDelta: '[1,2]' },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'b', argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 0, index: 2, id: 'c', name: 'h', argumentsDelta: '{"cut":' },
      { type: 'finish', choice: 0, reason: 'length', rawReason: 'length' },
      d,
    ]);
    expect(events).toEqual([finish('MAX_TOKENS')]);
  });

  it('writes thoughts and signatures as thought parts, each choice as a candidate, and leaves reasoning out on request', () => {
    const r: StreamEvent = { type: 'reasoning-delta', choice: 0, text: 'think', signature: 'sig' };
    const { events } = writtenFor([r, { type: 'text-delta', choice: 1, text: 'B' }, d]);
    expect(events).toEqual([parts([{ text: 'think', thought: true, thoughtSignature: 'sig' }]), parts([{ text: 'B' }], 1), finish('STOP'), finish('STOP', 1)]);
    expect(writtenFor([r, t], { reasoning: 'drop' }).events[0]).toEqual(parts([{ text: 'Hi' }]));
  });

  it('maps finishes (content-filter → SAFETY, other → the source’s string) and reads back', () => {
    expect(writtenFor([t, { type: 'finish', choice: 0, reason: 'content-filter', rawReason: 'content_filter' }]).events[1]).toEqual(finish('SAFETY'));
    expect(writtenFor([t, { type: 'finish', choice: 0, reason: 'other', rawReason: 'LANGUAGE' }]).events[1]).toEqual(finish('LANGUAGE'));
    const back = view(collect(from([m, t, x1, x2, f, u, d]).pipe(encodeGemini())).values.join(''));
    expect(back.calls.map((c) => [c.id, c.name, c.arguments])).toEqual([['call_x', 'get_weather', { city: 'Paris' }]]);
    expect([back.text, back.usage]).toEqual(['Hi', { inputTokens: 10, outputTokens: 5, totalTokens: 15, reasoningTokens: 2 }]);
    expect(['stop', 'tool-calls']).toContain(back.finish); // STOP with calls: `tool-calls` from a decoder that normalises Gemini's STOP after function calls
  });
});
