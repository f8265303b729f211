/**
 * `accumulateToolCalls()`: `scan` over the reducer, as immutable snapshots of every call.
 *
 * @module
 */
import { defer, filter, map, scan, type OperatorFunction } from 'rxjs';
import type { TrackedCall } from '../calls/call';
import { createToolCallsState, reduceToolCalls, resolveLimits, type ToolCallsInput, type ToolCallsState } from '../calls/reducer';
import type { CallIdentity } from '../errors';
import type { StreamEvent } from '../events';
import { resultOf, type ToolCallsOptions } from '../parse/results';
import type { ToolCallResult } from '../result';

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
 * <span class="informal">`scan` with the index-keyed accumulator (the library's one reducer): for
 * UIs that render all calls and their growing arguments.</span>
 *
 * ```text
 * --a-----b------a------F--|       a, b: fragments of calls A and B; F: finish
 *   accumulateToolCalls()
 * --1-----2------3------4--|       1: [A…]  2: [A…, B…]  3: [A……, B…]  4: [A ✓, B ✓]
 * ```
 *
 * 1. Emits a new immutable array after every `tool-call-delta`, `tool-call-end`, `finish`, `done`
 *    or `restart` that changed a call; other events (text, usage, …) emit nothing.
 * 2. Calls are in order of first sight, with identity resolved as in `toolCalls()`.
 * 3. A closed call has `status: 'complete'` and its `result` (parsed arguments or a typed error).
 * 4. Only the calls an event changed get a new snapshot; every other call keeps its snapshot object
 *    from the array before (compare by identity to re-render only what changed). Each array is new
 *    (one reference per call), so with thousands of calls open at once prefer `groupToolCalls()`
 *    or `partialToolCalls()`, which emit per call.
 * 5. Errors and completion of the source pass through unchanged (open calls stay `streaming`).
 *
 * @example
 * ```ts
 * import { accumulateToolCalls } from 'rxjs-tool-calls';
 *
 * events$.pipe(accumulateToolCalls()).subscribe((calls) => render(calls));
 * // renders: [{ name: 'get_weather', rawArguments: '{"ci', status: 'streaming' }], …
 * ```
 *
 * @param options Limits, the id generator and `repairArguments`.
 * @return An operator from {@link StreamEvent}s to arrays of {@link ToolCallSnapshot}s.
 */
export function accumulateToolCalls(options: ToolCallsOptions = {}): OperatorFunction<StreamEvent, ReadonlyArray<ToolCallSnapshot>> {
  const limits = resolveLimits(options);
  const repair = options.repairArguments !== false;
  return (source) =>
    defer(() => {
      let snapshots: ReadonlyArray<ToolCallSnapshot> = [];
      return source.pipe(
        scan<ToolCallsInput, ToolCallsState>(reduceToolCalls, createToolCallsState(limits)),
        filter((state) => state.changed.length > 0),
        map((state) => {
          const next = snapshots.slice();
          for (const call of state.changed) next[call.seq] = snapshotOf(call, repair);
          return (snapshots = next);
        }),
      );
    });
}
