/**
 * `accumulateToolCalls()`: `scan` over the reducer, as immutable snapshots of every call.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import type { ToolCallsOptions, TrackedCall } from '../calls/call';
import { CALLS_OPTION_CHECKS, CallDriver, callsConfig, type CallSink, type CallsConfig } from '../calls/driver';
import type { CallIdentity } from '../errors';
import type { StreamEvent } from '../events';
import { operate, type InputHandler } from '../internal/operate';
import { checkOptions } from '../internal/options';
import { resultOf } from '../parse/results';
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

/**
 * One subscription: the driver's sink. The calls an input changed get new snapshots, in a new array
 * emitted once the input is read (a finish that closed three calls is one array).
 */
class Snapshots implements InputHandler<StreamEvent>, CallSink {
  private readonly driver: CallDriver;
  private snapshots: ReadonlyArray<ToolCallSnapshot> = [];
  /** The array being written for the input being read (`undefined`: the input changed nothing yet). */
  private writing: ToolCallSnapshot[] | undefined;

  constructor(
    private readonly out: Subscriber<ReadonlyArray<ToolCallSnapshot>>,
    config: CallsConfig,
  ) {
    this.driver = new CallDriver(config, this);
  }

  next(event: StreamEvent): void {
    try {
      this.driver.event(event);
    } finally {
      this.flush();
    }
  }

  complete(): void {
    this.driver.complete();
    this.flush();
  }

  error(error: unknown): void {
    this.driver.error(error);
    this.flush();
  }

  callFragment(call: TrackedCall): void {
    if (call.ending === undefined) this.write(call, { id: call.id, name: call.name, index: call.index, choice: call.choice, rawArguments: call.rawArguments, status: 'streaming' });
  }

  callClosed(call: TrackedCall): void {
    const result = resultOf(call, undefined, this.driver.config.repair);
    this.write(call, { id: call.id, name: call.name, index: call.index, choice: call.choice, rawArguments: call.rawArguments, status: 'complete', result });
  }

  private write(call: TrackedCall, snapshot: ToolCallSnapshot): void {
    (this.writing ??= this.snapshots.slice())[call.seq] = snapshot;
  }

  private flush(): void {
    const next = this.writing;
    if (next === undefined) return;
    this.writing = undefined;
    this.out.next((this.snapshots = next));
  }
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
 *    or `restart` that changed a call, and after the source's end when it closed calls; other
 *    events (text, usage, …) emit nothing.
 * 2. Calls are in order of first sight, with identity resolved as in `toolCalls()`.
 * 3. A closed call has `status: 'complete'` and its `result` (parsed arguments or a typed error).
 * 4. Only the calls an event changed get a new snapshot; every other call keeps its snapshot object
 *    from the array before (compare by identity to re-render only what changed). Each array is new
 *    (one reference per call), so with thousands of calls open at once prefer `groupToolCalls()`
 *    or `partialToolCalls()`, which emit per call.
 * 5. The source's end closes the calls still open, as `groupToolCalls()` does: its completion
 *    closes them complete (one last array, then completion); its failure closes them with an
 *    `incomplete` result (one last array, then the error).
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { accumulateToolCalls, type StreamEvent, type ToolCallSnapshot } from 'rxjs-tool-calls';
 *
 * declare const events$: Observable<StreamEvent>;
 * declare function render(calls: ReadonlyArray<ToolCallSnapshot>): void;
 *
 * events$.pipe(accumulateToolCalls()).subscribe((calls) => render(calls));
 * // renders: [{ name: 'get_weather', rawArguments: '{"ci', status: 'streaming' }], …
 * ```
 *
 * @param options Limits, the id generator and `repairArguments`.
 * @return An operator from {@link StreamEvent}s to arrays of {@link ToolCallSnapshot}s.
 */
export function accumulateToolCalls(options: ToolCallsOptions = {}): OperatorFunction<StreamEvent, ReadonlyArray<ToolCallSnapshot>> {
  checkOptions('accumulateToolCalls', options, CALLS_OPTION_CHECKS);
  const config = callsConfig(options);
  return operate<StreamEvent, ReadonlyArray<ToolCallSnapshot>>((subscriber) => new Snapshots(subscriber, config));
}
