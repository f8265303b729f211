/**
 * The card's operators are views of one driver and agree with each other on generated streams
 * (interleaved, continued, whole and restated calls, cut anywhere, ending complete or failed):
 *
 * - `toolCalls()` emits what `groupToolCalls()` gives when each group is reduced to its closing
 *   update's result (`mergeMap`), in the same order and ending the same way — without a group per call;
 * - the last array of `accumulateToolCalls()` holds the same results, every call closed at the end
 *   (as `groupToolCalls()` closes its groups).
 */
import fc from 'fast-check';
import { concat, filter, from, map, mergeMap, throwError, type Observable } from 'rxjs';
import { accumulateToolCalls, groupToolCalls, type StreamEvent, type ToolCallResult, type ToolCallSnapshot, toolCalls, ToolStreamError } from 'rxjs-tool-calls';
import { eventsOf, streamModel } from '../helpers/eventArbitraries';
import { plain } from '../helpers/plain';

interface Outcome<T> {
  readonly values: T[];
  readonly error: unknown;
}

function run<T>(values$: Observable<T>): Outcome<T> {
  const values: T[] = [];
  let error: unknown;
  values$.subscribe({ next: (v) => values.push(v), error: (e: unknown) => (error = e) });
  return { values, error };
}

const failure = new ToolStreamError('connection-lost', { source: 'test', byteOffset: 0 });

describe('toolCalls(), groupToolCalls() and accumulateToolCalls() are views of one driver', () => {
  it('agree on every generated stream, ending complete or failed, within the limits or past them', () => {
    fc.assert(
      fc.property(streamModel, fc.boolean(), fc.constantFrom(Infinity, 1, 2), (model, fails, maxToolCalls) => {
        const events = eventsOf(model);
        const source = (): Observable<StreamEvent> =>
          fails
            ? concat(
                from(events.slice(0, -1)),
                throwError(() => failure),
              )
            : from(events);
        const options = { maxToolCalls };
        const direct = run(source().pipe(toolCalls(options)));
        const grouped = run(
          source().pipe(
            groupToolCalls(options),
            mergeMap((call$) => call$.pipe(filter((update) => update.result !== undefined))),
            map((update) => update.result as ToolCallResult),
          ),
        );
        const snapshots = run(source().pipe(accumulateToolCalls(options)));
        expect(direct.values.map(plain)).toEqual(grouped.values.map(plain));
        expect(direct.error).toEqual(grouped.error);
        expect(snapshots.error).toEqual(direct.error);
        const last: ReadonlyArray<ToolCallSnapshot> = snapshots.values[snapshots.values.length - 1] ?? [];
        expect(last.every((call) => call.status === 'complete')).toBe(true);
        const bySeq = (results: ReadonlyArray<ToolCallResult>) => results.map(plain).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
        expect(bySeq(last.map((call) => call.result as ToolCallResult))).toEqual(bySeq(direct.values));
      }),
      { numRuns: 300 },
    );
  });
});
