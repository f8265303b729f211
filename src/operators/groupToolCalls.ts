/**
 * `groupToolCalls()`: `groupBy` by call over the reducer's steps, each group closed with its call.
 *
 * @module
 */
import { defer, groupBy, Subject, type GroupedObservable, type Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import type { ToolCallsOptions, TrackedCall } from '../calls/call';
import { CALLS_OPTION_CHECKS, CallDriver, callsConfig, type CallSink, type CallsConfig } from '../calls/driver';
import type { CallIdentity } from '../errors';
import type { StreamEvent } from '../events';
import { operate, type InputHandler } from '../internal/operate';
import { checkOptions } from '../internal/options';
import { resultOf } from '../parse/results';
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

/**
 * One subscription's updates: the driver's sink, one update per fragment and one closing update
 * per call (a fragment that closed its call is that closing update); after a closing update has gone
 * through `groupBy`, that call's closer fires (its group's duration ends).
 */
class CallUpdates implements InputHandler<StreamEvent>, CallSink {
  private readonly driver: CallDriver;
  /** The call whose fragment closed it, and that fragment: its closing update carries it. */
  private closing: TrackedCall | undefined;
  private closingDelta = '';

  constructor(
    private readonly out: Subscriber<ToolCallUpdate>,
    config: CallsConfig,
    private readonly closers: Map<number, Subject<void>>,
  ) {
    this.driver = new CallDriver(config, this);
  }

  next(event: StreamEvent): void {
    this.driver.event(event);
  }

  complete(): void {
    this.driver.complete();
  }

  error(error: unknown): void {
    this.driver.error(error);
  }

  callFragment(call: TrackedCall, delta: string): void {
    if (call.ending === undefined) {
      this.out.next({ key: call.seq, id: call.id, name: call.name, index: call.index, choice: call.choice, argumentsDelta: delta, rawArguments: call.rawArguments });
      return;
    }
    this.closing = call;
    this.closingDelta = delta;
  }

  callClosed(call: TrackedCall): void {
    const argumentsDelta = call === this.closing ? this.closingDelta : '';
    this.closing = undefined;
    this.closingDelta = '';
    const result = resultOf(call, undefined, this.driver.config.repair);
    this.out.next({ key: call.seq, id: call.id, name: call.name, index: call.index, choice: call.choice, argumentsDelta, rawArguments: call.rawArguments, result });
    const closer = this.closers.get(call.seq);
    this.closers.delete(call.seq);
    closer?.next();
  }
}

/**
 * A group's duration: until its call's closer fires. (A duration made from the group itself would
 * count as one of its subscribers, and `groupBy` keeps the source subscribed while a group has one:
 * unsubscribing the output could not stop the source while a call is open.)
 */
function closerOf(closers: Map<number, Subject<void>>, key: number): Observable<void> {
  let closer = closers.get(key);
  if (closer === undefined) closers.set(key, (closer = new Subject<void>()));
  return closer;
}

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
 * 1. Identity is resolved once, by the reducer (docs/providers.md names its identity rules): wire
 *    index, then id, then "continuation of the last open call".
 * 2. A group completes (its `groupBy` duration ends) when its call is closed: the wire ended that
 *    call (`tool-call-end`), its choice finished, the terminator arrived, or the source completed.
 *    Never merely because the arguments happen to parse.
 * 3. The closing update carries `result`: the parsed arguments or a typed error.
 * 4. When the source errors, every open group first receives an `incomplete` closing update, then
 *    the error reaches the outer stream.
 * 5. Unsubscribing the output and every group unsubscribes the source, even with calls open. As
 *    with `groupBy`, a group still subscribed keeps the source subscribed after the outer
 *    subscription ended. Closing one of n open groups costs O(n) (`groupBy` and `mergeMap` keep
 *    subscriptions in arrays): with the default `maxToolCalls` that is microseconds; `toolCalls()`,
 *    `readToolCalls()` and `partialToolCalls()` stay linear however many calls are open.
 *
 * Groups are hot: subscribe to them as they come, with `mergeMap`.
 *
 * @example
 * ```ts
 * import { map, mergeMap, type Observable } from 'rxjs';
 * import { groupToolCalls, type StreamEvent } from 'rxjs-tool-calls';
 *
 * declare const events$: Observable<StreamEvent>;
 *
 * events$.pipe(groupToolCalls(), mergeMap((call$) => call$.pipe(map((u) => u.rawArguments)))).subscribe(console.log);
 * // displays: '', '{"ci', '{"city": "Paris"}', …
 * ```
 *
 * @param options Limits, the id generator and `repairArguments`.
 * @return An operator from {@link StreamEvent}s to one grouped stream per call.
 */
export function groupToolCalls(options: ToolCallsOptions = {}): OperatorFunction<StreamEvent, GroupedObservable<number, ToolCallUpdate>> {
  checkOptions('groupToolCalls', options, CALLS_OPTION_CHECKS);
  const config = callsConfig(options);
  return (source) =>
    defer(() => {
      const closers = new Map<number, Subject<void>>();
      return source.pipe(
        operate<StreamEvent, ToolCallUpdate>((subscriber) => new CallUpdates(subscriber, config, closers)),
        groupBy((update) => update.key, { duration: (call$) => closerOf(closers, call$.key) }),
      );
    });
}
