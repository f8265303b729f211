/**
 * `groupToolCalls()`: `groupBy` by call over the reducer's steps, each group closed with its call.
 *
 * @module
 */
import { concatMap, filter, groupBy, type GroupedObservable, type Observable, type OperatorFunction } from 'rxjs';
import type { TrackedCall } from '../calls/call';
import { resolveLimits, type ToolCallsState } from '../calls/reducer';
import { scanToolCalls } from '../calls/scanToolCalls';
import type { CallIdentity } from '../errors';
import type { StreamEvent } from '../events';
import { resultOf, type ToolCallsOptions } from '../parse/results';
import type { ToolCallResult } from '../result';

/** One step in the life of one tool call. */
export interface ToolCallUpdate extends CallIdentity {
  /** Unique within the stream, in order of first sight (the group key). */
  readonly key: number;
  /** The fragment this update added (`''` on a closing update that added none). */
  readonly argumentsDelta: string;
  /** All argument text so far. */
  readonly rawArguments: string;
  /** On the last update of the call only: its result. */
  readonly result?: ToolCallResult;
}

/** The closing update of a call (the one with its result). */
export function isClosing(update: ToolCallUpdate): update is ToolCallUpdate & { readonly result: ToolCallResult } {
  return update.result !== undefined;
}

function updateOf(call: TrackedCall, argumentsDelta: string, repair: boolean): ToolCallUpdate {
  const base = { key: call.seq, id: call.id, name: call.name, index: call.index, choice: call.choice, argumentsDelta, rawArguments: call.rawArguments };
  return call.ending === undefined ? base : { ...base, result: resultOf(call, undefined, repair) };
}

/** The updates of one step of the reducer: one per call it changed, in order. */
function updatesOf(state: ToolCallsState, repair: boolean): ToolCallUpdate[] {
  const delta = state.delta;
  return state.changed.map((call) => updateOf(call, delta, repair));
}

/** A group's duration: until its closing update. */
const untilClosed = (call$: Observable<ToolCallUpdate>): Observable<ToolCallUpdate> => call$.pipe(filter(isClosing));

/**
 * Split the stream into one group per tool call.
 *
 * <span class="informal">`groupBy` keyed by call over the reducer's steps: each call gets its own
 * stream of updates, which completes when the call is complete.</span>
 *
 * ```text
 * --a0--b0--a1--b1--F--|        a0,a1: fragments of call A; b0,b1: of call B; F: finish
 *   groupToolCalls()
 * --A-------B----------|
 *    \       \
 *     a0--a1--(ar|)    \         ar: A's closing update, carrying A's result
 *              b0--b1--(br|)
 * ```
 *
 * 1. Identity is resolved once, by the reducer (`reduceToolCalls` in `rxjs-tool-calls/advanced`;
 *    see the identity rules): wire index, then id, then "continuation of the last open call".
 * 2. A group completes (its `groupBy` duration ends) when its call is closed: the wire ended that
 *    call (`tool-call-end`), its choice finished, the terminator arrived, or the source completed.
 *    Never merely because the arguments happen to parse.
 * 3. The closing update carries `result`: the parsed arguments or a typed error.
 * 4. When the source errors, every open group first receives an `incomplete` closing update, then
 *    the error reaches the outer stream.
 *
 * Groups are hot: subscribe to them as they come, with `mergeMap`.
 *
 * @example
 * ```ts
 * import { map, mergeMap } from 'rxjs';
 * import { groupToolCalls } from 'rxjs-tool-calls';
 *
 * events$.pipe(groupToolCalls(), mergeMap((call$) => call$.pipe(map((u) => u.rawArguments)))).subscribe(console.log);
 * // displays: '', '{"ci', '{"city": "Paris"}', …
 * ```
 *
 * @param options Limits, the id generator and `repairArguments`.
 * @return An operator from {@link StreamEvent}s to one grouped stream per call.
 */
export function groupToolCalls(options: ToolCallsOptions = {}): OperatorFunction<StreamEvent, GroupedObservable<number, ToolCallUpdate>> {
  const limits = resolveLimits(options);
  const repair = options.repairArguments !== false;
  return (source) =>
    source.pipe(
      scanToolCalls(limits),
      filter((state) => state.changed.length > 0),
      concatMap((state) => updatesOf(state, repair)),
      groupBy((update) => update.key, { duration: untilClosed }),
    );
}
