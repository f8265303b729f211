import { gemini, type FramedRecord, type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { normalizeGeminiFinishReason } from '../../src/providers/gemini/mapping';
import { reassemble } from '../helpers/reassemble';
import { sse, testScheduler } from '../helpers/marbles';

const P = 'gemini';
const chunk = (parts: unknown[], extra: Record<string, unknown> = {}, candidate: Record<string, unknown> = {}) =>
  sse('message', { candidates: [{ content: { role: 'model', parts }, ...candidate }], ...extra });
const meta: StreamEvent = { type: 'metadata', provider: P, responseId: 'r1', model: 'gemini-x' };
const usage = { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 20, thoughtsTokenCount: 6 };
// Usage is normalised: the output counts the thoughts too.
const usageEvent: StreamEvent = { type: 'usage', inputTokens: 10, outputTokens: 10, totalTokens: 20, reasoningTokens: 6, raw: usage };
const fc = (functionCall: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ functionCall, ...extra });
const pa = (jsonPath: string, value: Record<string, unknown>, willContinue = true) => fc({ partialArgs: [{ jsonPath, ...value, ...(willContinue ? { willContinue } : {}) }], willContinue: true });
const whole = (index: number, name: string, args: string, extra: Record<string, unknown> = {}): StreamEvent =>
  ({ type: 'tool-call-delta', choice: 0, index, name, argumentsDelta: args, replace: true, ...extra }) as StreamEvent;
const end = (index: number, extra: Record<string, unknown> = {}): StreamEvent => ({ type: 'tool-call-end', choice: 0, index, ...extra }) as StreamEvent;
const stop: StreamEvent = { type: 'finish', choice: 0, reason: 'stop', rawReason: 'STOP' };
/** STOP after function calls: the turn asks for tools. */
const stopWithCalls: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'STOP' };

function run(events: FramedRecord[]): { out: StreamEvent[]; error: unknown } {
  const out: StreamEvent[] = [];
  const decoder = gemini.decoder();
  try {
    for (const event of events) decoder.sse(event, (e) => out.push(e));
    decoder.end((e) => out.push(e));
  } catch (error) {
    return { out, error };
  }
  return { out, error: undefined };
}

describe('gemini()', () => {
  it('maps thought and text parts, a whole functionCall, finish, usage and emits done when the source completes', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a------b-----c------|', {
        a: chunk([{ text: 'plan', thought: true }, { text: 'Hello' }], { responseId: 'r1', modelVersion: 'gemini-x' }),
        b: chunk([fc({ name: 'get_capital', args: { country: 'France' } }, { thoughtSignature: 'sig' })]),
        c: chunk([{ text: '' }], { usageMetadata: usage }, { finishReason: 'STOP' }),
      });
      expectObservable(source.pipe(gemini())).toBe('-(mrt)--(xe)--(fu)---(d|)', {
        m: meta,
        r: { type: 'reasoning-delta', choice: 0, text: 'plan' },
        t: { type: 'text-delta', choice: 0, text: 'Hello' },
        x: whole(0, 'get_capital', '{"country":"France"}', { metadata: { thoughtSignature: 'sig' } }),
        e: end(0),
        f: stopWithCalls,
        u: usageEvent,
        d: { type: 'done' },
      });
    });
  });

  it('gives several functionCalls in one chunk ordinal indices and no ids', () => {
    const { out, error } = run([chunk([fc({ name: 'temp', args: { city: 'Paris' } }), fc({ name: 'temp', args: { city: 'London' } }), fc({ name: 'now' })], {}, { finishReason: 'STOP' })]);
    expect(error).toBeUndefined();
    // `now` has empty arguments: its end is held until the next part, as a nameless part with its arguments may follow (rule `nameless-continues`).
    expect(out).toEqual([whole(0, 'temp', '{"city":"Paris"}'), end(0), whole(1, 'temp', '{"city":"London"}'), end(1), whole(2, 'now', '{}'), end(2), stopWithCalls, { type: 'done' }]);
  });

  it('writes Vertex streamed arguments as JSON text while they arrive: strings as they grow, other values whole (rule `vertex-partial-args`)', () => {
    const { out, error } = run([
      chunk([fc({ name: 'cook', willContinue: true }, { thoughtSignature: 'sig' })]),
      chunk([pa('$.recipe.ingredients[0].name', { stringValue: 'Lasa' })]),
      chunk([pa('$.recipe.ingredients[0].name', { stringValue: 'gna °' })]),
      chunk([pa('$.recipe.ingredients[0].name', { stringValue: '' }, false)]),
      chunk([fc({ willContinue: true })]),
      chunk([pa('$.recipe.ingredients[1].qty', { numberValue: 1 })]),
      chunk([pa('$.recipe.ingredients[1].qty', { numberValue: 2.5 })]),
      chunk([pa("$.recipe['vegan?']", { boolValue: false })]),
      chunk([pa('$.recipe.note', { nullValue: 'NULL_VALUE' })]),
      chunk([pa('$.recipe.steps[0]', { stringValue: 'Boil' }), pa('$.recipe.steps[1]', { stringValue: 'Bake' })]),
      chunk([fc({})]),
      chunk([{ text: '' }], {}, { finishReason: 'STOP' }),
    ]);
    expect(error).toBeUndefined();
    const delta = (argumentsDelta: string, extra: Record<string, unknown> = {}): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta, ...extra }) as StreamEvent;
    expect(out).toEqual([
      delta('{', { name: 'cook', metadata: { thoughtSignature: 'sig' } }),
      delta('"recipe":{"ingredients":[{"name":"Lasa'),
      delta('gna °'),
      // The string's last entry ("" without willContinue) adds nothing; its quote is written with the next entry.
      delta('"},{"qty":1 '), // a number is written whole, ended by a space (a reader shows it at once)
      // The number is replaced: the text cannot take it back, so the whole object is written again, its path left open.
      delta('{"recipe":{"ingredients":[{"name":"Lasagna °"},{"qty":2.5 ', { replace: true }),
      delta('}],"vegan?":false'),
      delta(',"note":null'),
      delta(',"steps":["Boil'),
      delta('","Bake'),
      delta('"]}}'), // the call's end closes what is open
      end(0),
      stopWithCalls,
      { type: 'done' },
    ]);
    const args = { recipe: { ingredients: [{ name: 'Lasagna °' }, { qty: 2.5 }], 'vegan?': false, note: null, steps: ['Boil', 'Bake'] } };
    expect(JSON.parse(reassemble(out).calls[0]?.rawArguments ?? '')).toEqual(args);
  });

  it('closes a streamed call at the next named call, and at finishReason when no terminator came', () => {
    const { out } = run([
      chunk([fc({ name: 'a', willContinue: true })]),
      chunk([pa('$.x', { stringValue: '1' })]),
      chunk([fc({ name: 'b', willContinue: true })]),
      chunk([pa('$.y', { numberValue: 2 }, false)]),
      chunk([{ text: '' }], {}, { finishReason: 'STOP' }),
    ]);
    const calls = reassemble(out).calls;
    expect(calls.map((c) => [c.index, c.name, JSON.parse(c.rawArguments), c.ended, c.incomplete])).toEqual([
      [0, 'a', { x: '1' }, true, false],
      [1, 'b', { y: 2 }, true, false],
    ]);
  });

  it('a streamed call cut by MAX_TOKENS ends incomplete', () => {
    const { out } = run([chunk([fc({ name: 'a', willContinue: true })]), chunk([pa('$.x', { stringValue: 'abc' })], {}, { finishReason: 'MAX_TOKENS' })]);
    // The text so far (`{"x":"abc`) is closed before the incomplete end: the value the wire gave is kept whole.
    expect(out.slice(-4)).toEqual([
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"}' },
      end(0, { incomplete: true, finishReason: 'length' }),
      { type: 'finish', choice: 0, reason: 'length', rawReason: 'MAX_TOKENS' },
      { type: 'done' },
    ]);
  });

  it('keeps candidates apart and is complete only when every candidate finished', () => {
    const two = sse('message', { candidates: [{ content: { parts: [{ text: 'a' }] } }, { index: 1, content: { parts: [fc({ name: 'f' })] } }] });
    const { out, error } = run([two, sse('message', { candidates: [{ index: 0, finishReason: 'STOP' }] })]);
    // f's end is held (empty arguments) and released when the stream ends, before the truncation.
    expect(out).toEqual([
      { type: 'text-delta', choice: 0, text: 'a' },
      { type: 'tool-call-delta', choice: 1, index: 0, name: 'f', argumentsDelta: '{}', replace: true },
      stop,
      { type: 'tool-call-end', choice: 1, index: 0 },
    ]);
    expect(error).toEqual(new ToolStreamError('truncated', { provider: P, detail: 'candidate 1 never sent a finishReason' }));
  });

  it('error payloads end the stream with a provider-error carrying retryable', () => {
    const unavailable = { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } };
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-e-|', { a: chunk([{ text: 'x' }]), e: sse('message', unavailable) }).pipe(gemini())).toBe(
        '-t-#',
        { t: { type: 'text-delta', choice: 0, text: 'x' } },
        new ToolStreamError('provider-error', { provider: P, providerCode: '503', type: 'UNAVAILABLE', message: 'The model is overloaded.', status: 503, retryable: true, payload: unavailable }),
      );
    });
    expect(run([sse('message', { error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } })]).error).toMatchObject({ status: 400, retryable: false });
    expect(run([sse('message', { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } })]).error).toMatchObject({ retryable: true });
  });

  it('rejects non-object data and unusable jsonPaths with invalid-event', () => {
    expect(run([sse('message', '[{"candidates":[]}]')]).error).toMatchObject({ name: 'ToolStreamError', code: 'invalid-event' });
    expect(run([sse('message', { candidates: {} })]).error).toMatchObject({ name: 'ToolStreamError', code: 'invalid-event' });
    const bad = run([chunk([fc({ name: 'a', willContinue: true })]), chunk([pa('recipe.name', { stringValue: 'x' })])]);
    expect(bad.error).toMatchObject({ name: 'ToolStreamError', code: 'invalid-event' });
    expect((bad.error as ToolStreamError<'invalid-event'>).detail).toContain('jsonPath');
  });

  it('finishes a blocked prompt as content-filter and reports usage once per change', () => {
    const blocked = { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 } };
    const { out, error } = run([sse('message', blocked), sse('message', { usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 } })]);
    expect(error).toBeUndefined();
    expect(out).toEqual([
      { type: 'finish', choice: 0, reason: 'content-filter', rawReason: 'SAFETY' },
      { type: 'usage', inputTokens: 3, totalTokens: 3, raw: { promptTokenCount: 3, totalTokenCount: 3 } },
      { type: 'done' },
    ]);
  });

  it('normalises finish reasons', () => {
    expect(['STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'PROHIBITED_CONTENT', 'MALFORMED_FUNCTION_CALL', 'OTHER'].map(normalizeGeminiFinishReason)).toEqual([
      'stop',
      'length',
      'content-filter',
      'content-filter',
      'content-filter',
      'error', // MALFORMED_FUNCTION_CALL (rule `cut-finish`)
      'other',
    ]);
  });

  it('standard cases: empty source and a missing finishReason are truncated, source errors pass through, unsubscribing unsubscribes', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      expectObservable(cold<FramedRecord>('|').pipe(gemini())).toBe('#', {}, new ToolStreamError('truncated', { provider: P, detail: 'no candidate arrived' }));
      expectObservable(cold('-a-|', { a: chunk([{ text: 'x' }]) }).pipe(gemini())).toBe(
        '-t-#',
        { t: { type: 'text-delta', choice: 0, text: 'x' } },
        new ToolStreamError('truncated', { provider: P, detail: 'candidate 0 never sent a finishReason' }),
      );
      expectObservable(cold('-a-#', { a: chunk([{ text: 'x' }]) }, new Error('network')).pipe(gemini())).toBe('-t-#', { t: { type: 'text-delta', choice: 0, text: 'x' } }, new Error('network'));
      const source = cold('-a-b-', { a: chunk([{ text: 'x' }]), b: chunk([{ text: 'y' }]) });
      expectObservable(source.pipe(gemini()), '^-!').toBe('-t-', { t: { type: 'text-delta', choice: 0, text: 'x' } });
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });
});
