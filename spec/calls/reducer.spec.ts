import type { ToolCallDeltaEvent, ToolCallsOptions } from 'rxjs-tool-calls';
import { tracker, type DriverInput, type Tracker } from '../helpers/callDriver';

type D = Omit<ToolCallDeltaEvent, 'type' | 'choice' | 'argumentsDelta'> & { choice?: number; args?: string };

function feed(state: Tracker, deltas: D[]): void {
  for (const { choice = 0, args = '', ...rest } of deltas) state.step({ type: 'tool-call-delta', choice, argumentsDelta: args, ...rest });
}

/** The calls one input closed or changed, by id. */
function changedBy(state: Tracker, input: DriverInput): string[] {
  return state.step(input).map((c) => c.id);
}

function summary(state: Tracker) {
  return state.calls.map((c) => ({ id: c.id, name: c.name, index: c.index, choice: c.choice, raw: c.rawArguments }));
}

function newState(limits: ToolCallsOptions = {}): Tracker {
  let n = 0;
  return tracker({ generateId: () => `gen_${n++}`, ...limits });
}

describe('reduceToolCalls: identity rules', () => {
  it('keys fragments by wire index, with id and name from the first delta', () => {
    const t = newState();
    feed(t, [
      { index: 0, id: 'a', name: 'f', args: '' },
      { index: 1, id: 'b', name: 'g', args: '{"x"' },
      { index: 0, args: '{"ci' },
      { index: 1, args: ':1}' },
      { index: 0, args: 'ty":"P"}' },
    ]);
    expect(summary(t)).toEqual([
      { id: 'a', name: 'f', index: 0, choice: 0, raw: '{"city":"P"}' },
      { id: 'b', name: 'g', index: 1, choice: 0, raw: '{"x":1}' },
    ]);
  });

  it('never concatenates or overwrites a repeated id or name', () => {
    const t = newState();
    feed(t, [
      { index: 0, id: 'a', name: 'f', args: '{' },
      { index: 0, id: 'a', name: 'f', args: '}' },
      { index: 0, name: 'other', args: '' },
    ]);
    expect(summary(t)).toEqual([{ id: 'a', name: 'f', index: 0, choice: 0, raw: '{}' }]);
  });

  describe('rule `name-pieces`', () => {
    it('appends a name streamed in pieces (edit_ex + isting_file), with or without argument text beside them', () => {
      const t = newState();
      feed(t, [
        { index: 0, id: 'a', name: 'edit_ex', args: '' },
        { index: 0, name: 'isting_file', args: '' },
        { index: 1, id: 'b', name: 'get_wea', args: '{"ci' },
        { index: 1, name: 'ther', args: 'ty":"P"}' },
      ]);
      expect(summary(t).map((c) => c.name)).toEqual(['edit_existing_file', 'get_weather']);
    });

    it('keeps a name resent whole, and takes a name resent as it grew', () => {
      const t = newState();
      feed(t, [
        { index: 0, id: 'a', name: 'read_file', args: '{"p' },
        { index: 0, name: 'read_file', args: 'ath":' },
        { index: 0, name: 'read_file', args: '"x"}' },
        { index: 1, id: 'b', name: 'edit_ex', args: '' },
        { index: 1, name: 'edit_existing_file', args: '{}' },
      ]);
      expect(summary(t).map((c) => c.name)).toEqual(['read_file', 'edit_existing_file']);
    });

    it('a different name after the arguments are a whole JSON document names a glued call: dropped, and the glued text is not split', () => {
      const t = newState();
      feed(t, [
        { index: 0, name: 'f', args: '{"a":1}' },
        { index: 0, name: 'g', args: '{"b":2}' },
      ]);
      t.step({ type: 'done' });
      expect(summary(t)).toEqual([{ id: 'gen_0', name: 'f', index: 0, choice: 0, raw: '{"a":1}{"b":2}' }]);
    });
  });

  it('accepts a name that arrives after the first delta', () => {
    const t = newState();
    feed(t, [
      { index: 0, id: 'a', args: '{' },
      { index: 0, name: 'late', args: '}' },
    ]);
    expect(summary(t)).toEqual([{ id: 'a', name: 'late', index: 0, choice: 0, raw: '{}' }]);
  });

  it('accepts a late name without index too: a name-only fragment names the open nameless call', () => {
    const t = newState();
    feed(t, [{ id: 'a', args: '' }, { name: 'late', args: '{' }, { args: '}' }, { name: 'next', args: '{}' }]);
    expect(summary(t)).toEqual([
      { id: 'a', name: 'late', index: 0, choice: 0, raw: '{}' },
      { id: 'gen_0', name: 'next', index: 1, choice: 0, raw: '{}' },
    ]);
  });

  it('treats an empty id or name as missing', () => {
    const t = newState();
    feed(t, [
      { index: 0, id: 'a', name: 'f', args: '{' },
      { index: 0, id: '', name: '', args: '}' },
    ]);
    expect(summary(t)).toEqual([{ id: 'a', name: 'f', index: 0, choice: 0, raw: '{}' }]);
  });

  it('starts a new call when an index is reused with a different non-empty id', () => {
    const t = newState();
    feed(t, [
      { index: 0, id: 'a', name: 'f', args: '{"n":1}' },
      { index: 0, id: 'b', name: 'f', args: '{"n":' },
      { index: 0, args: '2}' },
    ]);
    expect(summary(t)).toEqual([
      { id: 'a', name: 'f', index: 0, choice: 0, raw: '{"n":1}' },
      { id: 'b', name: 'f', index: 0, choice: 0, raw: '{"n":2}' },
    ]);
  });

  it('matches by id when index is missing, else continues the last open call', () => {
    const t = newState();
    feed(t, [{ id: 'a', name: 'f', args: '{"a":' }, { id: 'b', name: 'g', args: '{"b":' }, { args: '2}' }, { id: 'a', args: '1}' }]);
    expect(summary(t)).toEqual([
      { id: 'a', name: 'f', index: 0, choice: 0, raw: '{"a":1}' },
      { id: 'b', name: 'g', index: 1, choice: 0, raw: '{"b":2}' },
    ]);
  });

  it('uses the ordinal position as index when the wire has none', () => {
    const t = newState();
    feed(t, [
      { name: 'f', args: '{}' },
      { name: 'g', args: '{}' },
      { name: 'f', args: '{}' },
    ]);
    expect(summary(t).map((c) => [c.name, c.index])).toEqual([
      ['f', 0],
      ['g', 1],
      ['f', 2],
    ]);
  });

  it('keeps a repeated name without id as the same call until it has arguments', () => {
    const t = newState();
    feed(t, [{ name: 'f' }, { name: 'f', args: '{"a":1}' }, { name: 'f', args: '{"a":2}' }]);
    expect(summary(t).map((c) => c.raw)).toEqual(['{"a":1}', '{"a":2}']);
  });

  it('generates unique ids for calls without any id, and adopts a later wire id', () => {
    const t = newState();
    feed(t, [
      { index: 0, name: 'f', args: '{' },
      { index: 1, name: 'g', args: '{' },
      { index: 1, id: 'wire', args: '}' },
    ]);
    expect(summary(t).map((c) => c.id)).toEqual(['gen_0', 'wire']);
    expect(t.calls[0]?.wireId).toBeUndefined();
  });

  it('default generated ids: the same for the same events in every tracker, distinct within a stream and across responses', () => {
    const idsOf = (responseId: string | undefined, args: string) => {
      const t = tracker();
      if (responseId !== undefined) t.step({ type: 'metadata', provider: 'openai-chat', responseId });
      feed(t, [
        { index: 0, name: 'f', args },
        { index: 1, name: 'f' },
      ]);
      return t.calls.map((c) => c.id);
    };
    const first = idsOf('chatcmpl-1', '{"a":1}');
    expect(new Set(first).size).toBe(2);
    expect(idsOf('chatcmpl-1', '{"a":1}')).toEqual(first);
    const others = [idsOf('chatcmpl-2', '{"a":1}'), idsOf(undefined, '{"a":1}'), idsOf(undefined, '{"a":2}'), idsOf('chatcmpl-1', '{"a":2}')];
    expect(new Set([first, ...others].flat()).size).toBe(10);
  });

  it('keeps two calls that share an id as two calls with distinct ids', () => {
    const t = newState();
    feed(t, [
      { index: 0, id: 'dup', name: 'f', args: '{"n":1}' },
      { index: 1, id: 'dup', name: 'f', args: '{"n":2}' },
    ]);
    expect(summary(t).map((c) => [c.id, c.raw])).toEqual([
      ['dup', '{"n":1}'],
      ['dup_2', '{"n":2}'],
    ]);
    expect(t.calls[1]?.wireId).toBe('dup');
  });

  it('keeps choices apart', () => {
    const t = newState();
    feed(t, [
      { choice: 0, index: 0, id: 'a', name: 'f', args: '{"c":' },
      { choice: 1, index: 0, id: 'b', name: 'f', args: '{"c":' },
      { choice: 1, index: 0, args: '1}' },
      { choice: 0, index: 0, args: '0}' },
    ]);
    expect(summary(t)).toEqual([
      { id: 'a', name: 'f', index: 0, choice: 0, raw: '{"c":0}' },
      { id: 'b', name: 'f', index: 0, choice: 1, raw: '{"c":1}' },
    ]);
  });

  it('replace deltas replace the accumulated text', () => {
    const t = newState();
    feed(t, [
      { index: 0, id: 'a', name: 'f', args: '{"x":' },
      { index: 0, args: '{"x":1}', replace: true },
    ]);
    expect(summary(t)[0]?.raw).toBe('{"x":1}');
  });

  it('a fragment for a closed index starts a new call', () => {
    const t = newState();
    feed(t, [{ index: 0, id: 'a', name: 'f', args: '{}' }]);
    t.step({ type: 'tool-call-end', choice: 0, index: 0 });
    feed(t, [{ index: 0, name: 'g', args: '{}' }]);
    expect(summary(t).map((c) => c.name)).toEqual(['f', 'g']);
  });

  it('finish closes only the calls of that choice', () => {
    const t = newState();
    feed(t, [
      { choice: 0, index: 0, id: 'a', name: 'f' },
      { choice: 1, index: 0, id: 'b', name: 'f' },
    ]);
    expect(changedBy(t, { type: 'finish', choice: 1, reason: 'tool-calls', rawReason: 'tool_calls' })).toEqual(['b']);
    expect(t.openCount).toBe(1);
    expect(changedBy(t, { type: 'complete' })).toEqual(['a']);
    expect(t.openCount).toBe(0);
  });

  it('limits the number of calls', () => {
    const t = newState({ maxToolCalls: 2 });
    feed(t, [
      { index: 0, name: 'a' },
      { index: 1, name: 'b' },
    ]);
    expect(() => feed(t, [{ index: 2, name: 'c' }])).toThrow(expect.objectContaining({ name: 'ToolStreamError', code: 'too-many-tool-calls' }));
  });

  it('limits one call’s argument size and drops its later fragments', () => {
    const t = newState({ maxArgumentsSize: 4 });
    feed(t, [{ index: 0, id: 'a', name: 'f', args: '{"a"' }]);
    const step = t.step({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: ':1}' });
    expect(step.map((c) => c.ending?.kind)).toEqual(['too-large']);
    expect(t.step({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: 'more' })).toEqual([]);
    feed(t, [{ index: 1, id: 'b', name: 'g', args: '{}' }]);
    expect(t.calls.map((c) => c.ending?.kind ?? 'open')).toEqual(['too-large', 'open']);
  });

  it('keeps provider metadata, first value of a key winning', () => {
    const t = newState();
    feed(t, [
      { index: 0, id: 'a', name: 'f', metadata: { itemId: 'fc_1' } },
      { index: 0, metadata: { itemId: 'other', extra: 1 } },
    ]);
    expect(t.calls[0]?.metadata).toEqual({ itemId: 'fc_1', extra: 1 });
  });
});

describe('reduceToolCalls: ids', () => {
  it('de-duplicates wire ids against generated ids and earlier suffixes, with one id table', () => {
    const state = tracker({ generateId: () => 'x' });
    const id = (choice: number, fields: Partial<ToolCallDeltaEvent>) => state.step({ type: 'tool-call-delta', choice, argumentsDelta: '', ...fields })[0]?.id;
    const ids = [
      id(0, { id: 'x_2', name: 'f' }), // a wire id that looks like a suffix
      id(0, { name: 'g' }), // generated: 'x'
      id(0, { id: 'x', name: 'h' }), // 'x' and 'x_2' are taken
      id(1, { id: 'x', name: 'i' }), // another choice: a new call, the next suffix
      id(1, { id: 'x_2', name: 'j' }),
      id(1, { name: 'k' }), // the generator repeats itself: kept as it is (as before)
      id(2, { id: 'x_3', name: 'l' }),
    ];
    expect(ids).toEqual(['x_2', 'x', 'x_3', 'x_4', 'x_2_2', 'x', 'x_3_2']);
  });
});
