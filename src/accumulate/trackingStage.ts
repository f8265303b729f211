/**
 * The stage every tool-call operator is built on: a {@link ToolCallTracker} driven by
 * {@link StreamEvent}s, reporting each accepted fragment and each call it closes. What a closed call
 * becomes (a result, an update, a snapshot, a partial value) is the subclass's business: this stage
 * knows identity and closing, nothing about parsing.
 *
 * @module
 */
import type { Observer } from 'rxjs';
import { isToolStreamError, type IncompleteReason } from '../errors';
import type { StreamEvent } from '../events';
import { Stage } from '../internal/stage';
import { ToolCallTracker, type CallEnding, type TrackedCall, type TrackerOptions } from './tracker';

/** Why open calls are incomplete when the stream fails with `error`. */
export function incompleteReasonOf(error: unknown): IncompleteReason {
  if (!isToolStreamError(error)) return 'stream-ended';
  switch (error.code) {
    case 'provider-error':
    case 'truncated':
    case 'idle-timeout':
    case 'too-many-tool-calls':
    case 'connection-lost':
      return error.code;
    default:
      return 'stream-ended';
  }
}

const COMPLETE: CallEnding = { kind: 'complete', finishReason: undefined };

/**
 * Tool calls from events, one tracker per subscription.
 *
 * 1. `onEvent` sees every event first (for outputs that carry events as well).
 * 2. `fragment` is called for every accepted fragment (`closed` when it took the call past
 *    `maxArgumentsSize`); `closed` for every call an event closed.
 * 3. When the input completes, every open call closes complete; when it fails, or the tracker
 *    itself fails (`too-many-tool-calls`), every open call closes `incomplete` first, then the
 *    error goes on.
 * 4. A `restart` event (`retryStream()` starting the response over) closes every open call
 *    `incomplete` (the code of the error that ended the abandoned attempt as reason) and reads what
 *    follows as new calls; `retry` events are ignored.
 */
export abstract class TrackingStage<O> extends Stage<StreamEvent, O> {
  /** The identity state of this subscription's calls. */
  protected readonly tracker: ToolCallTracker;

  /**
   * @param out Where the output goes.
   * @param options The tracker's limits and id generator.
   */
  constructor(out: Observer<O>, options: TrackerOptions) {
    super(out);
    this.tracker = new ToolCallTracker(options);
  }

  /** A call was closed: emit what it becomes. */
  protected abstract closed(call: TrackedCall): void;

  /** A fragment was applied to `call` (`closed`: it took the call past the size limit). Default: report a call closed that way. */
  protected fragment(call: TrackedCall, _argumentsDelta: string, closed: boolean): void {
    if (closed) this.closed(call);
  }

  /** Every event, before the tracker sees it. Default: nothing. */
  protected onEvent(_event: StreamEvent): void {
    // nothing by default
  }

  protected push(event: StreamEvent): void {
    this.onEvent(event);
    const tracker = this.tracker;
    switch (event.type) {
      case 'tool-call-delta': {
        const call = tracker.apply(event);
        if (call !== undefined) this.fragment(call, event.argumentsDelta, call.ending !== undefined);
        return;
      }
      case 'tool-call-end': {
        const call = tracker.end(event);
        if (call !== undefined) this.closed(call);
        return;
      }
      case 'finish':
        for (const call of tracker.finish(event.choice, event.reason)) this.closed(call);
        return;
      case 'done':
        this.closeAll(COMPLETE);
        return;
      case 'restart':
        for (const call of tracker.restart({ kind: 'incomplete', reason: incompleteReasonOf(event.error) })) this.closed(call);
        return;
      default:
        return;
    }
  }

  protected override end(): void {
    this.closeAll(COMPLETE);
  }

  protected override interrupt(error: unknown): boolean {
    this.closeAll({ kind: 'incomplete', reason: incompleteReasonOf(error) });
    return false;
  }

  protected override stop(error: unknown): void {
    this.closeAll({ kind: 'incomplete', reason: incompleteReasonOf(error) });
    super.stop(error);
  }

  private closeAll(ending: CallEnding): void {
    for (const call of this.tracker.closeAll(ending)) this.closed(call);
  }
}
