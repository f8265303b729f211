/**
 * The one driver of the reducer: every operator that tracks tool calls (the fused readers, the
 * card's operators, the views, the encoders, `retryStream()`'s record of what it delivered) feeds
 * its events to a {@link CallDriver} and hears back, per call, the fragment that grew it and its
 * close. The options are resolved here once ({@link callsConfig}), and so are the rules of a stream's
 * end: the source's completion closes every open call complete; its failure, or the reducer's own
 * (`too-many-tool-calls`), closes them `incomplete` before the error goes on; nothing is read after
 * the end.
 *
 * @module
 */
import type { StreamEvent } from '../events';
import { aBoolean, aCount, aFunction, type OptionChecks } from '../internal/options';
import type { ToolCallsOptions, TrackedCall } from './call';
import { MutableState, reduceToolCalls, resolveLimits, type ResolvedLimits } from './reducer';

/** The checks of {@link ToolCallsOptions}' keys, for the options checks of every operator that takes them. */
export const CALLS_OPTION_CHECKS: OptionChecks = {
  generateId: aFunction,
  maxToolCalls: /* @__PURE__ */ aCount(0),
  maxArgumentsSize: /* @__PURE__ */ aCount(0),
  sequentialCalls: aBoolean,
  repairArguments: aBoolean,
};

/** {@link ToolCallsOptions}, resolved once per operator. */
export interface CallsConfig {
  /** The reducer's limits, id generator and `sequentialCalls`. */
  readonly limits: ResolvedLimits;
  /** `repairArguments`: the result step repairs the unambiguous resend shapes. */
  readonly repair: boolean;
}

/** The source's completion, as the reducer reads it. */
const END = { type: 'complete' } as const;

/** No option given (most operators): one shared config. */
const DEFAULT_CONFIG: CallsConfig = /* @__PURE__ */ Object.freeze({ limits: /* @__PURE__ */ resolveLimits({}), repair: true });

/**
 * Resolve the tool-call options of one operator (its other options and unknown keys are checked by
 * the operator itself, with {@link CALLS_OPTION_CHECKS} among its checks).
 */
export function callsConfig(options: ToolCallsOptions): CallsConfig {
  const limits = resolveLimits(options);
  const repair = options.repairArguments !== false;
  return repair && limits === DEFAULT_CONFIG.limits ? DEFAULT_CONFIG : { limits, repair };
}

/** What a driver tells its consumer, per call, in the order the reducer changed them. */
export interface CallSink {
  /**
   * A fragment went to `call` and added `delta` to its `rawArguments` (a `replace` fragment set them
   * to `delta`). When the fragment took the call past `maxArgumentsSize`, `call` is already closed
   * and {@link CallSink.callClosed} follows at once.
   */
  callFragment(call: TrackedCall, delta: string): void;
  /** `call` closed (`call.ending` says how); its result is `resultOf(call, …, config.repair)`. */
  callClosed(call: TrackedCall): void;
}

/**
 * The reducer's accumulator of one stream, driven: feed it the events, then the stream's end; it
 * tells its {@link CallSink} what each input did. One per subscription.
 */
export class CallDriver extends MutableState {
  /** The stream's end was read: later inputs are ignored. */
  private ended = false;

  /**
   * @param config The operator's resolved options.
   * @param sink Told of every fragment and every close.
   */
  constructor(
    readonly config: CallsConfig,
    private readonly sink: CallSink,
  ) {
    super(config.limits, 4);
  }

  /** Every call so far, in order of first sight. */
  get tracked(): ReadonlyArray<TrackedCall> {
    return this.calls;
  }

  /**
   * One event. When the reducer fails on it (`too-many-tool-calls`), the open calls are closed
   * `incomplete` (the sink hears of each) and the error is thrown, for the caller to end its output with.
   */
  event(event: StreamEvent): void {
    if (this.ended) return;
    try {
      reduceToolCalls(this, event);
    } catch (error) {
      this.error(error);
      throw error;
    }
    if (this.changed.length !== 0) this.tell();
  }

  /** The source completed: every open call closes complete. */
  complete(): void {
    if (this.ended) return;
    this.ended = true;
    reduceToolCalls(this, END);
    this.tell();
  }

  /** The source failed with `error` (or the reducer did): every open call closes `incomplete`, its reason from the error's code. */
  error(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    reduceToolCalls(this, { type: 'error', error });
    this.tell();
  }

  /** Whether the stream's end was read. */
  get done(): boolean {
    return this.ended;
  }

  /** Tell the sink what the last input changed. */
  private tell(): void {
    const changed = this.changed;
    const sink = this.sink;
    const fragment = this.fragment;
    for (let i = 0; i < changed.length; i++) {
      const call = changed[i]!;
      if (call === fragment) {
        sink.callFragment(call, this.delta);
        if (call.ending !== undefined) sink.callClosed(call);
      } else sink.callClosed(call);
    }
  }
}
