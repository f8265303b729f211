// Where one call ends and the next begins, in the reducer and through the readers: one call at
// several indices (rule `several-indices`), glued calls (rule `glued-calls`) and when they are not
// split, the `missing` call of a `tool-calls` finish without calls (rule `missing-calls`), and
// `sequentialCalls`.
import { from, lastValueFrom, map, take, toArray } from 'rxjs';
import { partialToolCalls, readStreamEvents, readToolCalls, toolCalls, type StreamEvent, type ToolCallDeltaEvent, type ToolCallsOptions, type ToolCallResult } from 'rxjs-tool-calls';
import { tracker, type Tracker } from '../helpers/callDriver';
import { encodeAnthropicMessages, encodeGemini, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { testScheduler } from '../helpers/marbles';

type D = Omit<ToolCallDeltaEvent, 'type' | 'choice' | 'argumentsDelta'> & { choice?: number; args?: string };
const delta = ({ choice = 0, args = '', ...rest }: D): StreamEvent => ({ type: 'tool-call-delta', choice, argumentsDelta: args, ...rest });
const finish = (reason: 'tool-calls' | 'stop' | 'length' = 'tool-calls', choice = 0): StreamEvent => ({ type: 'finish', choice, reason, rawReason: reason === 'tool-calls' ? 'tool_calls' : reason });
const DONE: StreamEvent = { type: 'done' };

function newState(limits: ToolCallsOptions = {}): Tracker {
  let n = 0;
  return tracker({ generateId: () => `gen_${n++}`, ...limits });
}

function ids(): () => string {
  let n = 0;
  return () => `gen_${n++}`;
}

async function results(events: StreamEvent[], limits: ToolCallsOptions = {}): Promise<ToolCallResult[]> {
  return lastValueFrom(from(events).pipe(toolCalls({ generateId: ids(), ...limits }), toArray()));
}

const brief = (r: ToolCallResult): unknown =>
  r.success
    ? { id: r.data.id, name: r.data.name, index: r.data.index, args: r.data.arguments, ...(r.data.repaired === undefined ? {} : { repaired: r.data.repaired }) }
    : { code: r.error.code, raw: r.error.toolCall.rawArguments };

describe('one call at several indices (rule `several-indices`)', () => {
  it('a nameless fragment with an open call’s id at a new index continues that call; the index is kept in otherIndices', async () => {
    const out = await results([delta({ index: 0, id: 'a', name: 'f', args: '{"x":' }), delta({ index: 1, id: 'a', args: '1}' }), delta({ index: 1, args: '' }), finish(), DONE]);
    expect(out.map(brief)).toEqual([{ id: 'a', name: 'f', index: 0, args: { x: 1 } }]);
    expect(out[0]?.data?.providerMetadata).toEqual({ otherIndices: [1] });
  });

  it('with the same name and either side without arguments yet it continues too; another name or other arguments start a new call', async () => {
    expect((await results([delta({ index: 0, id: 'a', name: 'f' }), delta({ index: 1, id: 'a', name: 'f', args: '{}' }), finish(), DONE])).map(brief)).toEqual([
      { id: 'a', name: 'f', index: 0, args: {} },
    ]);
    expect((await results([delta({ index: 0, id: 'a', name: 'f', args: '{}' }), delta({ index: 1, id: 'a', name: 'g', args: '' }), finish(), DONE])).map(brief)).toEqual([
      { id: 'a', name: 'f', index: 0, args: {} },
      { id: 'a_2', name: 'g', index: 1, args: {} },
    ]);
    expect((await results([delta({ index: 0, id: 'a', name: 'f', args: '{"n":1}' }), delta({ index: 1, id: 'a', name: 'f', args: '{"n":2}' }), finish(), DONE])).map(brief)).toEqual([
      { id: 'a', name: 'f', index: 0, args: { n: 1 } },
      { id: 'a_2', name: 'f', index: 1, args: { n: 2 } },
    ]);
  });

  it('a closed call is never reopened by its id at a new index', async () => {
    const out = await results([delta({ index: 0, id: 'a', name: 'f', args: '{}' }), { type: 'tool-call-end', choice: 0, index: 0 }, delta({ index: 1, id: 'a', args: '{}' }), finish(), DONE]);
    expect(out.map((r) => (r.success ? r.data.id : r.error.code))).toEqual(['a', 'missing-name']);
  });
});

describe('glued calls (rule `glued-calls`)', () => {
  const glued = (...pieces: D[]): StreamEvent[] => [...pieces.map(delta), finish(), DONE];

  it('splits when every piece is an object, the call has no wire id and one name: the pieces keep its index, with generated ids', async () => {
    const out = await results(glued({ index: 2, name: 'f', args: '{"a":1}' }, { index: 2, args: ' {"a":2}' }, { index: 2, args: '\n{"a":3}' }));
    expect(out.map(brief)).toEqual([1, 2, 3].map((a, k) => ({ id: `gen_${k}`, name: 'f', index: 2, args: { a }, repaired: 'split' })));
    expect(out.map((r) => r.data?.rawArguments)).toEqual(['{"a":1}', '{"a":2}', '{"a":3}']);
  });

  it('splits when a fragment of only whitespace comes between one object and the next, or the object ends before trailing space', async () => {
    const between = await results(glued({ index: 0, name: 'f', args: '{"a":' }, { index: 0, args: '1}' }, { index: 0, args: ' \n' }, { index: 0, args: '{"a":2}' }));
    expect(between.map(brief)).toEqual([1, 2].map((a, k) => ({ id: `gen_${k}`, name: 'f', index: 0, args: { a }, repaired: 'split' })));
    const trailing = await results(glued({ index: 0, name: 'f', args: '{"a":1} ' }, { index: 0, args: '{"a":2}' }));
    expect(trailing.map(brief)).toEqual([1, 2].map((a, k) => ({ id: `gen_${k}`, name: 'f', index: 0, args: { a }, repaired: 'split' })));
  });

  it('does not split a call whose pieces were named differently, an unfinished piece, a scalar piece, or past maxToolCalls', async () => {
    expect((await results(glued({ index: 0, name: 'f', args: '{"a":1}' }, { index: 0, name: 'g', args: '{"b":2}' }))).map(brief)).toEqual([{ code: 'malformed-arguments', raw: '{"a":1}{"b":2}' }]);
    expect((await results(glued({ index: 0, name: 'f', args: '{"a":1}' }, { index: 0, args: '{"b":' }))).map(brief)).toEqual([{ code: 'malformed-arguments', raw: '{"a":1}{"b":' }]);
    expect((await results(glued({ index: 0, name: 'f', args: '{"a":1}' }, { index: 0, args: '[2]' }))).map(brief)).toEqual([{ code: 'malformed-arguments', raw: '{"a":1}[2]' }]);
    expect((await results(glued({ index: 0, name: 'f', args: '{"a":1}' }, { index: 0, args: '{"a":2}' }), { maxToolCalls: 1 })).map(brief)).toEqual([
      { code: 'malformed-arguments', raw: '{"a":1}{"a":2}' },
    ]);
  });

  it('a string that merely contains `}{` is not glued', async () => {
    expect((await results(glued({ index: 0, name: 'f', args: '{"s":"}' }, { index: 0, args: '{"}' }))).map(brief)).toEqual([{ id: 'gen_0', name: 'f', index: 0, args: { s: '}{' } }]);
  });

  it('the same value resent (exact, other whitespace) is one call repaired "repeated"; a call resent as it grew is "cumulative"', async () => {
    expect((await results(glued({ index: 0, name: 'f', args: '{"a": 1}' }, { index: 0, args: '{"a":1}' }))).map(brief)).toEqual([
      { id: 'gen_0', name: 'f', index: 0, args: { a: 1 }, repaired: 'repeated' },
    ]);
    expect((await results(glued({ index: 0, name: 'f', args: '{"q":"A"}' }, { index: 0, args: '{"q":"AB","n":[1]}' }))).map(brief)).toEqual([
      { id: 'gen_0', name: 'f', index: 0, args: { q: 'AB', n: [1] }, repaired: 'cumulative' },
    ]);
  });

  it('partialToolCalls() ends every piece with its own result', async () => {
    const values = await lastValueFrom(from(glued({ index: 0, name: 'f', args: '{"a":1}' }, { index: 0, args: '{"a":2}' })).pipe(partialToolCalls({ generateId: ids() }), toArray()));
    const last = values.filter((v) => v.result !== undefined);
    expect(last.map((v) => [v.key, v.id, v.arguments])).toEqual([
      [0, 'gen_0', { a: 1 }],
      [1, 'gen_1', { a: 2 }],
    ]);
  });

  const wire = [
    openaiChunk({ toolCalls: [{ index: 0, name: 'f', arguments: '{"a":1}' }] }),
    openaiChunk({ toolCalls: [{ index: 0, arguments: '{"a":2}' }] }),
    openaiChunk({ finishReason: 'tool_calls' }),
    openaiDone(),
  ].join('');

  it.each([
    ['encodeOpenAIChat', encodeOpenAIChat],
    ['encodeAnthropicMessages', encodeAnthropicMessages],
    ['encodeOpenAIResponses', encodeOpenAIResponses],
    ['encodeGemini', encodeGemini],
  ] as const)('%s: the encoded stream reads back as the same two calls', async (_name, encode) => {
    const encoded = await lastValueFrom(from([wire]).pipe(readStreamEvents(), encode(), toArray()));
    const back = await lastValueFrom(from([encoded.join('')]).pipe(readToolCalls(), toArray()));
    expect(back.map((r) => (r.success ? [r.data.name, r.data.arguments] : r.error.code))).toEqual([
      ['f', { a: 1 }],
      ['f', { a: 2 }],
    ]);
  });
});

describe('a tool-calls finish without calls (rule `missing-calls`)', () => {
  it('adds one closed missing call per choice at the end; not when a call came, nor when the stream failed', () => {
    const state = newState();
    state.step(finish('tool-calls', 0));
    state.step(finish('tool-calls', 1));
    state.step(delta({ choice: 1, index: 0, id: 'c', name: 'f', args: '{}' }));
    const changed = state.step(DONE);
    expect(changed.map((c) => [c.choice, c.ending?.kind])).toEqual([
      [0, 'missing'],
      [1, 'complete'],
    ]);
    expect(state.step({ type: 'complete' })).toEqual([]);
    const failed = newState();
    failed.step(finish('tool-calls'));
    expect(failed.step({ type: 'error', error: new Error('cut') })).toEqual([]);
  });

  it('the failure carries the raw finish reason and the choice; a stop finish without calls gives nothing', async () => {
    const [missing] = await results([finish(), DONE]);
    expect(missing?.error).toMatchObject({ code: 'missing-tool-calls', rawReason: 'tool_calls', toolCall: { id: 'gen_0', name: '', choice: 0, rawArguments: '' } });
    expect(await results([finish('stop'), DONE])).toEqual([]);
  });
});

describe('sequentialCalls', () => {
  const chunks = {
    a: openaiChunk({ toolCalls: [{ index: 0, id: 'a', name: 'f', arguments: '{"n":' }] }),
    b: openaiChunk({ toolCalls: [{ index: 0, arguments: '0}' }] }),
    c: openaiChunk({ toolCalls: [{ index: 1, id: 'b', name: 'g', arguments: '{"n":1}' }] }),
    f: openaiChunk({ finishReason: 'tool_calls' }),
    d: openaiDone(),
  };
  const name = (r: ToolCallResult): string => (r.success ? r.data.name : r.error.code);

  it('completes a chat call when the next one opens; the default waits for the end', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const bytes$ = cold('-a-b-c-f-d-|', chunks);
      expectObservable(bytes$.pipe(readToolCalls({ sequentialCalls: true }), map(name))).toBe('-----F---G-|', { F: 'f', G: 'g' });
      expectObservable(bytes$.pipe(readStreamEvents(), toolCalls({ sequentialCalls: true }), map(name))).toBe('-----F---G-|', { F: 'f', G: 'g' });
      expectObservable(bytes$.pipe(readToolCalls(), map(name), take(2))).toBe('---------(FG|)', { F: 'f', G: 'g' });
    });
  });

  it('a fragment that comes back to a call it closed starts a new, nameless call (it fails)', async () => {
    const interleaved = [delta({ index: 0, id: 'a', name: 'f', args: '{"x":' }), delta({ index: 1, id: 'b', name: 'g', args: '{}' }), delta({ index: 0, args: '1}' }), finish(), DONE];
    expect((await results(interleaved, { sequentialCalls: true })).map((r) => (r.success ? r.data.name : r.error.code))).toEqual(['malformed-arguments', 'g', 'malformed-arguments']);
    expect((await results(interleaved)).map((r) => (r.success ? r.data.name : r.error.code))).toEqual(['f', 'g']);
  });
});
