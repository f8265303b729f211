// A restart starts identity over, whatever came before it: after any number of earlier calls and a
// `restart`, a sequence of fragments, ends, finishes, restarts and closes gives exactly the calls,
// ids, names, indices, argument text and endings it gives on a fresh stream (seq numbers shifted by
// the earlier calls). Streams with many calls before the restart are read the way long streams are
// (the reducer's lookups by Map) and fresh ones with few calls the way short ones are (scans).
import fc from 'fast-check';
import type { ToolCallDeltaEvent } from 'rxjs-tool-calls';
import { tracker, type DriverInput, type Tracker } from '../helpers/callDriver';

type Step =
  | { kind: 'delta'; choice: number; index: number | undefined; id: string | undefined; name: string | undefined; args: string; replace: boolean }
  | { kind: 'end'; choice: number; index: number | undefined; id: string | undefined; incomplete: boolean }
  | { kind: 'finish'; choice: number }
  | { kind: 'restart' }
  | { kind: 'closeAll' };

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const choice = fc.constantFrom(0, 0, 0, 1);
const index = maybe(fc.integer({ min: 0, max: 4 }));
const wireId = maybe(fc.constantFrom('', 'a', 'b', 'c', 'a_2', 'gen_1'));
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('delta' as const),
      choice,
      index,
      id: wireId,
      name: maybe(fc.constantFrom('', 'f', 'g')),
      args: fc.constantFrom('', '{', 'x', '}'),
      replace: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('end' as const), choice, index, id: wireId, incomplete: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('finish' as const), choice }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('closeAll' as const) }) },
);

/** A stream's accumulator, with `earlier` calls (wire ids `p0`, `p1`, …, all closed) and a restart before it. */
function stream(earlier: number): Tracker {
  let n = 0;
  const state = tracker({ generateId: () => `gen_${n++}`, maxToolCalls: 40 + earlier });
  for (let i = 0; i < earlier; i++) state.step({ type: 'tool-call-delta', choice: i % 2, index: i, id: `p${i}`, name: 'p', argumentsDelta: '{}' });
  if (earlier > 0) state.step({ type: 'restart', attempt: 2, error: new Error('cut') });
  return state;
}

function input(s: Step): DriverInput {
  switch (s.kind) {
    case 'delta': {
      const event: ToolCallDeltaEvent = {
        type: 'tool-call-delta',
        choice: s.choice,
        argumentsDelta: s.args,
        ...(s.index === undefined ? {} : { index: s.index }),
        ...(s.id === undefined ? {} : { id: s.id }),
        ...(s.name === undefined ? {} : { name: s.name }),
        ...(s.replace ? { replace: true } : {}),
      };
      return event;
    }
    case 'end':
      return {
        type: 'tool-call-end',
        choice: s.choice,
        ...(s.index === undefined ? {} : { index: s.index }),
        ...(s.id === undefined ? {} : { id: s.id }),
        ...(s.incomplete ? { incomplete: true } : {}),
      };
    case 'finish':
      return { type: 'finish', choice: s.choice, reason: 'tool-calls', rawReason: 'tool_calls' };
    case 'restart':
      return { type: 'restart', attempt: 3, error: new Error('cut again') };
    case 'closeAll':
      return { type: 'complete' };
  }
}

/** One step: the calls it changed (seq numbers relative to the stream's start after `earlier` calls, delta), or the error's code. */
function run(state: Tracker, s: Step, earlier: number): unknown {
  try {
    const changed = state.step(input(s));
    return [changed.map((c) => [c.seq - earlier, c.ending?.kind ?? 'open']), state.delta];
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

/** The calls after the restart, as a fresh stream would number them. */
const view = (state: Tracker, earlier: number) => ({
  open: state.openCount,
  calls: state.calls
    .slice(earlier)
    .map((c) => ({ id: c.id, wireId: c.wireId, name: c.name, index: c.index, choice: c.choice, rawArguments: c.rawArguments, ending: c.ending, metadata: c.metadata, seq: c.seq - earlier })),
});

describe('reduceToolCalls after a restart', () => {
  it('answers every step exactly as a fresh stream, for any sequence of steps and any number of calls before', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.integer({ min: 1, max: 12 }), (steps, earlier) => {
        const fresh = stream(0);
        const restarted = stream(earlier);
        for (const s of steps) {
          expect(run(restarted, s, earlier)).toEqual(run(fresh, s, 0));
          expect(view(restarted, earlier)).toEqual(view(fresh, 0));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the call an index stands for after a fragment without an index went to an older call at that index', () => {
    // a (index 0) opens call 0; b with a name at index 0 opens call 1, which index 0 now stands for;
    // a fragment with a's id and no index goes to call 0; the next fragment at index 0 is call 1's.
    const steps: Step[] = [
      { kind: 'delta', choice: 0, index: 0, id: 'a', name: 'f', args: '{', replace: false },
      { kind: 'delta', choice: 0, index: 0, id: 'b', name: 'g', args: '{', replace: false },
      { kind: 'delta', choice: 0, index: undefined, id: 'a', name: undefined, args: '}', replace: false },
      { kind: 'delta', choice: 0, index: 0, id: undefined, name: undefined, args: '}', replace: false },
      { kind: 'end', choice: 0, index: 0, id: undefined, incomplete: false },
    ];
    for (const earlier of [0, 6]) {
      const state = stream(earlier);
      expect(steps.map((s) => run(state, s, earlier))).toEqual([
        [[[0, 'open']], '{'],
        [[[1, 'open']], '{'],
        [[[0, 'open']], '}'],
        [[[1, 'open']], '}'],
        [[[1, 'complete']], ''],
      ]);
      expect(state.calls.slice(earlier).map((c) => c.rawArguments)).toEqual(['{}', '{}']);
    }
  });

  it('keeps answering the same over many calls (11 indices, 13 ids and 2 choices)', () => {
    const fresh = stream(0);
    const restarted = stream(9);
    for (let i = 0; i < 120; i++) {
      const s: Step =
        i % 7 === 6 ? { kind: 'finish', choice: i % 2 } : { kind: 'delta', choice: (i >> 2) % 2, index: i % 11, id: `id${i % 13}`, name: i % 4 === 0 ? 'f' : undefined, args: 'x', replace: false };
      expect(run(restarted, s, 9)).toEqual(run(fresh, s, 0));
    }
    expect(view(restarted, 9)).toEqual(view(fresh, 0));
    expect(fresh.calls.length).toBeGreaterThan(8);
  });
});
