// The tracker's compact form (no Maps while a stream has a few calls) must give exactly the answers
// of its Map form: the same calls, ids, names, indices, argument text and endings after every step,
// for any sequence of fragments, ends, finishes, restarts and closes.
import fc from 'fast-check';
import { type ToolCallDeltaEvent } from 'rxjs-tool-calls';
import { ToolCallTracker } from 'rxjs-tool-calls/advanced';

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

function tracker(compactLimit: number | undefined): ToolCallTracker {
  let n = 0;
  return new ToolCallTracker({ generateId: () => `gen_${n++}`, maxToolCalls: 40 }, compactLimit);
}

/** Runs one step; returns what the tracker said (seq numbers of the calls, or the error's code). */
function run(t: ToolCallTracker, s: Step): unknown {
  try {
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
        const step = t.delta(event);
        return step === undefined ? 'dropped' : [step.call.seq, step.created, step.overflowed];
      }
      case 'end':
        return t.end({
          type: 'tool-call-end',
          choice: s.choice,
          ...(s.index === undefined ? {} : { index: s.index }),
          ...(s.id === undefined ? {} : { id: s.id }),
          ...(s.incomplete ? { incomplete: true } : {}),
        })?.seq;
      case 'finish':
        return t.finish(s.choice, 'tool-calls').map((c) => c.seq);
      case 'restart':
        return t.restart({ kind: 'incomplete', reason: 'not-closed' }).map((c) => c.seq);
      case 'closeAll':
        return t.closeAll({ kind: 'complete', finishReason: undefined }).map((c) => c.seq);
    }
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

const state = (t: ToolCallTracker) => ({ open: t.hasOpenCalls, calls: t.calls.map((c) => ({ ...c, nextOpen: undefined })) });

describe('ToolCallTracker compact form', () => {
  it('answers every step exactly as the Map form, for any sequence of steps', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.integer({ min: 1, max: 10 }), (steps, limit) => {
        const maps = tracker(0);
        const compact = tracker(limit);
        for (const s of steps) {
          expect(run(compact, s)).toEqual(run(maps, s));
          expect(state(compact)).toEqual(state(maps));
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
    for (const limit of [0, undefined]) {
      const t = tracker(limit);
      expect(steps.map((s) => run(t, s))).toEqual([[0, true, false], [1, true, false], [0, false, false], [1, false, false], 1]);
      expect(t.calls.map((c) => c.rawArguments)).toEqual(['{}', '{}']);
    }
  });

  it('moves to Maps past its limit and keeps answering the same (over 11 indices, 13 ids and 2 choices)', () => {
    const maps = tracker(0);
    const compact = tracker(undefined);
    for (let i = 0; i < 120; i++) {
      const s: Step =
        i % 7 === 6 ? { kind: 'finish', choice: i % 2 } : { kind: 'delta', choice: (i >> 2) % 2, index: i % 11, id: `id${i % 13}`, name: i % 4 === 0 ? 'f' : undefined, args: 'x', replace: false };
      expect(run(compact, s)).toEqual(run(maps, s));
    }
    expect(state(compact)).toEqual(state(maps));
    expect(compact.calls.length).toBeGreaterThan(8);
  });
});
