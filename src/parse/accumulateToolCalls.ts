/**
 * `accumulateToolCalls()`: a `scan` over the events that keeps every call's state.
 *
 * @module
 */
import type { CallIdentity } from '../errors';
import { defer, filter, map, type OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import type { ToolCallResult } from '../result';
import { ToolCallTracker } from '../accumulate/tracker';
import type { TrackedCall, TrackerOptions } from '../accumulate/trackedCall';
import { incompleteReasonOf } from '../accumulate/trackingStage';
import { resultOf } from './results';

/** One call as a progress view sees it. */
export interface ToolCallSnapshot extends CallIdentity {
  /** All argument text so far. */
  readonly rawArguments: string;
  /** `streaming` until the call is closed, then `complete` (see `result`). */
  readonly status: 'streaming' | 'complete';
  /** The call's result, once it is complete. */
  readonly result?: ToolCallResult;
}

function snapshotOf(call: TrackedCall, repair: boolean): ToolCallSnapshot {
  const base = { id: call.id, name: call.name, index: call.index, choice: call.choice, rawArguments: call.rawArguments };
  return call.ending === undefined ? { ...base, status: 'streaming' } : { ...base, status: 'complete', result: resultOf(call, undefined, repair) };
}

/**
 * A snapshot of every tool call so far, after each event that changed one.
 *
 * <span class="informal">`scan` with an index-keyed accumulator: for UIs that render all calls and
 * their growing arguments.</span>
 *
 * ```text
 * --a-----b------a------F--|       a, b: fragments of calls A and B; F: finish
 *   accumulateToolCalls()
 * --1-----2------3------4--|       1: [A…]  2: [A…, B…]  3: [A……, B…]  4: [A ✓, B ✓]
 * ```
 *
 * 1. Emits a new immutable array after every `tool-call-delta`, `tool-call-end`, `finish` or `done`
 *    that changed a call; other events (text, usage, …) emit nothing.
 * 2. Calls are in order of first sight, with identity resolved as in `toolCalls()`.
 * 3. A closed call has `status: 'complete'` and its `result` (parsed arguments or a typed error).
 * 4. Only the calls an event changed get a new snapshot; every other call keeps its snapshot object
 *    from the array before (compare by identity to re-render only what changed). Each array is new
 *    (one reference per call), so with thousands of calls open at once prefer `toolCallUpdates()`
 *    or `partialToolCalls()`, which emit per call.
 * 5. Errors and completion of the source pass through unchanged.
 *
 * @example
 * ```ts
 * import { accumulateToolCalls } from 'rxjs-tool-calls';
 *
 * events$.pipe(accumulateToolCalls()).subscribe((calls) => render(calls));
 * // renders: [{ name: 'get_weather', rawArguments: '{"ci', status: 'streaming' }], …
 * ```
 *
 * @param options Limits and the id generator.
 * @return An operator from {@link StreamEvent}s to arrays of {@link ToolCallSnapshot}s.
 */
export function accumulateToolCalls(options: TrackerOptions = {}): OperatorFunction<StreamEvent, ReadonlyArray<ToolCallSnapshot>> {
  const repair = options.repairArguments !== false;
  return (source) =>
    defer(() => {
      const tracker = new ToolCallTracker(options);
      let snapshots: ReadonlyArray<ToolCallSnapshot> = [];
      /** The calls the current event changed. */
      const changed = (event: StreamEvent): ReadonlyArray<TrackedCall> => {
        switch (event.type) {
          case 'tool-call-delta': {
            const applied = tracker.delta(event);
            return applied === undefined ? [] : [applied.call];
          }
          case 'tool-call-end': {
            const call = tracker.end(event);
            return call === undefined ? [] : [call];
          }
          case 'finish':
            return tracker.finish(event.choice, event.reason);
          case 'done':
            return tracker.closeAll({ kind: 'complete', finishReason: undefined });
          case 'restart':
            return tracker.restart({ kind: 'incomplete', reason: incompleteReasonOf(event.error) });
          default:
            return [];
        }
      };
      return source.pipe(
        map((event): ReadonlyArray<ToolCallSnapshot> | undefined => {
          const calls = changed(event);
          if (calls.length === 0) return undefined;
          const next = snapshots.slice();
          for (const call of calls) next[call.seq] = snapshotOf(call, repair);
          snapshots = next;
          return next;
        }),
        filter((next): next is ReadonlyArray<ToolCallSnapshot> => next !== undefined),
      );
    });
}
