/**
 * Many calls, many finishes: work grows linearly. No timing: each case
 * counts work from outside at n and 4n (linear grows about 4×, the quadratic behaviour these guard
 * against grew 16×).
 */
import { from } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { tracker } from '../helpers/callDriver';
import { accumulateToolCalls, type ToolCallSnapshot } from '../../src/operators/accumulateToolCalls';
import { partialToolCalls } from '../../src/operators/partialToolCalls';
import { readToolCalls } from '../../src/read/readToolCalls';
import { openaiChunk, openaiDone } from '../../marbles';

/** The same calls as OpenAI chat chunks. */
function wireOf(events: StreamEvent[]): string[] {
  const chunks: string[] = [];
  for (const e of events) {
    if (e.type === 'tool-call-delta') chunks.push(openaiChunk({ toolCalls: [{ index: e.index ?? 0, id: e.id ?? '', name: e.name ?? '', arguments: e.argumentsDelta }] }));
    else if (e.type === 'finish') chunks.push(openaiChunk({ finishReason: 'tool_calls' }));
  }
  chunks.push(openaiDone());
  return chunks;
}

/** n parallel calls, one fragment each, all open until one finish. */
function parallelCalls(n: number): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (let i = 0; i < n; i++) events.push({ type: 'tool-call-delta', choice: 0, index: i, id: `c${i}`, name: 'f', argumentsDelta: `{"i":${i}}` });
  events.push({ type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' }, { type: 'done' });
  return events;
}

describe('accumulateToolCalls() with many calls open', () => {
  /** Snapshots built across all emitted arrays (an element not identical to the one before at its place). */
  function snapshotsBuilt(n: number): number {
    let built = 0;
    let previous: ReadonlyArray<ToolCallSnapshot> = [];
    let last: ReadonlyArray<ToolCallSnapshot> = [];
    from(parallelCalls(n))
      .pipe(accumulateToolCalls({ maxToolCalls: Infinity }))
      .subscribe((calls) => {
        calls.forEach((call, i) => (built += call === previous[i] ? 0 : 1));
        previous = last = calls;
      });
    expect(last).toHaveLength(n);
    expect(last.every((call) => call.status === 'complete' && call.result?.success === true)).toBe(true);
    return built;
  }

  it('builds a snapshot only for the call an event changed: 2 per call (opened, closed)', () => {
    expect(snapshotsBuilt(500)).toBe(1_000);
    expect(snapshotsBuilt(2_000)).toBe(4_000);
  });

  it('keeps the snapshot object of every call the event did not change', () => {
    const arrays: Array<ReadonlyArray<ToolCallSnapshot>> = [];
    from(parallelCalls(3))
      .pipe(accumulateToolCalls())
      .subscribe((calls) => arrays.push(calls));
    expect(arrays).toHaveLength(4); // three opened, then one finish closing all three
    expect(arrays[2]?.[0]).toBe(arrays[0]?.[0]);
    expect(arrays[2]?.[1]).toBe(arrays[1]?.[1]);
    expect(arrays[3]?.[0]).not.toBe(arrays[2]?.[0]);
  });
});

describe('repeated finishes', () => {
  /** Reads of each call's `ending` while `rounds` × (a new call, then a finish) go through one tracker. */
  function endingReads(rounds: number): number {
    const state = tracker({ maxToolCalls: Infinity });
    let reads = 0;
    for (let i = 0; i < rounds; i++) {
      const applied = state.step({ type: 'tool-call-delta', choice: 0, index: i, id: `c${i}`, name: 'f', argumentsDelta: '{}' })[0];
      if (applied === undefined) throw new Error('dropped');
      const call = applied as { ending: unknown };
      let ending = call.ending;
      Object.defineProperty(call, 'ending', {
        get: () => {
          reads++;
          return ending;
        },
        set: (value: unknown) => (ending = value),
      });
      expect(state.step({ type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' })).toHaveLength(1);
    }
    return reads;
  }

  it('a finish after every new call looks at the calls opened since the last finish only', () => {
    const small = endingReads(500);
    const large = endingReads(2_000);
    expect(large / small).toBeLessThan(5);
    expect(large).toBeLessThanOrEqual(2 * 2_000);
  });
});

// `toolCalls()` and `groupToolCalls()` are rxjs `groupBy` and `mergeMap`, which keep each open group's
// subscription in an array: closing one of n open groups costs O(n) there (about 40 ms for the
// default limit of 1,024 calls all open at once). The readers a server runs stay linear:
describe('readToolCalls(), partialToolCalls() with many calls open', () => {
  /**
   * Elements scanned by `Array.prototype.indexOf` while `run` runs: how rxjs removes a subscription
   * from its parent (`arrRemove`), the cost that made closing each of n open `groupBy` groups O(n).
   */
  function indexOfWork(run: () => void): number {
    const original = Array.prototype.indexOf;
    let scanned = 0;
    Array.prototype.indexOf = function (this: unknown[], ...args: Parameters<typeof original>) {
      scanned += this.length;
      return original.apply(this, args);
    };
    try {
      run();
    } finally {
      Array.prototype.indexOf = original;
    }
    return scanned;
  }
  const unlimited = { maxToolCalls: Infinity };
  const cases: Array<[string, (events: StreamEvent[]) => void]> = [
    [
      'readToolCalls()',
      (events) =>
        from(wireOf(events))
          .pipe(readToolCalls({ ...unlimited, provider: 'openai-chat' }))
          .subscribe(),
    ],
    ['partialToolCalls()', (events) => from(events).pipe(partialToolCalls(unlimited)).subscribe()],
  ];
  it.each(cases)('%s: closing n open calls does not scan lists of open calls', (_name, run) => {
    const small = indexOfWork(() => run(parallelCalls(500)));
    const large = indexOfWork(() => run(parallelCalls(2_000)));
    expect(large).toBeLessThanOrEqual(Math.max(4 * small + 100, 20 * 2_000));
  });
});
