/**
 * Tool-call identity and accumulation, per choice: the one place that decides which call a wire
 * fragment belongs to. Every operator that reads tool calls (`accumulateToolCalls()`,
 * `toolCalls()`, `partialToolCalls()`) runs one tracker per subscription.
 *
 * @module
 */
import { ToolStreamError } from '../errors';
import type { FinishReason, ToolCallDeltaEvent, ToolCallEndEvent } from '../events';
import { CallRegistry, type ChoiceState } from './callRegistry';
import { cutReason, DEFAULT_MAX_ARGUMENTS_SIZE, DEFAULT_MAX_TOOL_CALLS, defaultIdGenerator, type CallEnding, type MutableCall, type TrackedCall, type TrackerOptions } from './trackedCall';

export { callContext, cutReason, DEFAULT_MAX_ARGUMENTS_SIZE, DEFAULT_MAX_TOOL_CALLS, defaultIdGenerator, type CallEnding, type TrackedCall, type TrackerOptions } from './trackedCall';

/**
 * Resolves each fragment to its call (rules below) and keeps the accumulated state.
 *
 * Identity rules, per choice:
 * 1. A fragment with a wire `index` belongs to the open call at that index; an index not seen yet
 *    starts a new call; if the call at that index has a different non-empty id than the fragment, the
 *    fragment belongs to the call with that id or starts a new one; a closed call is never reopened.
 * 2. Without `index`, a fragment with an id belongs to the call with that id (else starts one); a
 *    fragment with a name but no id starts a new call unless the last call is open and has no name
 *    yet, or has that name and no arguments yet; a fragment with neither continues the last open call.
 * 3. Id and name are set at first non-empty sight and never concatenated or overwritten; `''` is absent.
 * 4. A call without any wire id gets a generated unique id; a wire id already used by another call
 *    of the stream is de-duplicated (`id_2`, `id_3`, …) and the wire's id is kept in `wireId`.
 */
export class ToolCallTracker {
  private readonly registry: CallRegistry;
  /** The id generator, made when the first call without a wire id needs one. */
  private generateId: (() => string) | undefined;
  private readonly maxToolCalls: number;
  private readonly maxArgumentsSize: number;
  private openCount = 0;
  /** The call the last `find` with a wire index found at that index (its binding is already that call). */
  private atIndexHit: MutableCall | undefined;

  /**
   * A tracker for one stream.
   *
   * @param options Limits (`maxToolCalls`, `maxArgumentsSize`) and the id generator.
   * @param compactLimit Internal: up to this many calls the tracker keeps no `Map` (tests set 0 to compare both forms).
   */
  constructor(options: TrackerOptions = {}, compactLimit = 4) {
    this.registry = new CallRegistry(compactLimit);
    this.generateId = options.generateId;
    this.maxToolCalls = options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS;
    this.maxArgumentsSize = options.maxArgumentsSize ?? DEFAULT_MAX_ARGUMENTS_SIZE;
  }

  /** Every call seen so far, in order of first sight. */
  get calls(): ReadonlyArray<TrackedCall> {
    return this.registry.all;
  }

  /** Whether any call is still open. */
  get hasOpenCalls(): boolean {
    return this.openCount > 0;
  }

  /**
   * Apply one fragment. Returns the call it belongs to, or `undefined` when the fragment was
   * dropped (it belongs to a call that already failed for size). Throws `too-many-tool-calls`.
   */
  delta(event: ToolCallDeltaEvent):
    | {
        /** The call the fragment was applied to. */
        readonly call: TrackedCall;
        /** `true` when this fragment opened the call. */
        readonly created: boolean;
        /** `true` when this fragment took the call past `maxArgumentsSize` and closed it (`too-large`). */
        readonly overflowed: boolean;
      }
    | undefined {
    const before = this.registry.all.length;
    const call = this.apply(event);
    return call === undefined ? undefined : { call, created: this.registry.all.length > before, overflowed: call.ending !== undefined };
  }

  /**
   * {@link ToolCallTracker.delta} without the step object: the call the fragment was applied to, or
   * `undefined` when it was dropped. When the returned call is closed (`ending` set), this fragment
   * took it past `maxArgumentsSize` (a closed call takes no fragment).
   */
  apply(event: ToolCallDeltaEvent): TrackedCall | undefined {
    const registry = this.registry;
    const state = registry.state(event.choice);
    const id = event.id === undefined || event.id === '' ? undefined : event.id;
    const name = event.name === undefined || event.name === '' ? undefined : event.name;
    let call = this.find(state, event.index, id, name);
    let opened = false;
    if (call === undefined) {
      call = this.open(state, event.index, id);
      opened = true;
    } else if (call.ending !== undefined) {
      return undefined; // a call that failed for size swallows the rest of its fragments
    } else if (id !== undefined && call.wireId !== id) {
      if (call.wireId === undefined) {
        call.wireId = id;
        if (call.idGenerated) {
          registry.rename(call, id);
          call.idGenerated = false;
        }
      } else if (registry.withId(state, id) === undefined) {
        (call.otherWireIds ??= []).push(id);
      }
    }
    if (call.name === '' && name !== undefined) call.name = name;
    // The call the index already stands for needs no binding (most fragments).
    if (event.index !== undefined && call !== this.atIndexHit) registry.bindIndex(state, event.index, call, opened);
    if (id !== undefined) registry.bindId(state, id, call);
    state.last = call;
    state.lastIndex = event.index;
    if (event.metadata !== undefined) {
      const metadata = (call.metadata ??= {});
      for (const key of Object.keys(event.metadata)) if (!(key in metadata)) metadata[key] = event.metadata[key];
    }
    const fragment = event.argumentsDelta;
    if (event.replace === true) {
      call.rawArguments = fragment;
      call.lastFragment = fragment;
      call.fragments = fragment === '' ? 0 : 1;
      call.cumulative = true;
    } else {
      call.rawArguments += fragment;
      if (fragment !== '') {
        if (call.cumulative && call.fragments > 0) call.cumulative = fragment.length >= call.lastFragment.length && fragment.startsWith(call.lastFragment);
        call.lastFragment = fragment;
        call.fragments++;
      }
    }
    const limit = this.maxArgumentsSize;
    if (call.rawArguments.length > limit) this.close(call, { kind: 'too-large', limit });
    return call;
  }

  /** A `tool-call-end`: close that one call. Returns it, or `undefined` when no open call matches. */
  end(event: ToolCallEndEvent): TrackedCall | undefined {
    const registry = this.registry;
    const state = registry.existing(event.choice);
    if (state === undefined) return undefined;
    const id = event.id === '' ? undefined : event.id;
    const call =
      (event.index === undefined ? undefined : registry.atIndex(state, event.index)) ??
      (id === undefined ? undefined : registry.withId(state, id)) ??
      (event.index === undefined && id === undefined ? state.last : undefined);
    if (call === undefined || call.ending !== undefined) return undefined;
    this.close(call, event.incomplete === true ? { kind: 'incomplete', reason: cutReason(event.finishReason) ?? 'not-closed' } : { kind: 'complete', finishReason: state.finishReason });
    return call;
  }

  /** A choice finished: close its open calls (complete). Returns them in order. */
  finish(choice: number, reason: FinishReason): TrackedCall[] {
    const state = this.registry.state(choice);
    state.finishReason = reason;
    const closed: MutableCall[] = [];
    // Only the calls opened since the last finish can be open: each call is looked at by one finish
    // at most, so repeated finishes cost what they close, not every call the choice ever had.
    let call = state.openHead;
    state.openHead = state.openTail = undefined;
    while (call !== undefined) {
      const next = call.nextOpen;
      call.nextOpen = undefined;
      if (call.ending === undefined) {
        this.close(call, { kind: 'complete', finishReason: reason });
        closed.push(call);
      }
      call = next;
    }
    return closed;
  }

  /** Close every open call, complete (the terminator arrived) or incomplete (the stream failed). */
  closeAll(ending: CallEnding): TrackedCall[] {
    const closed: MutableCall[] = [];
    for (const call of this.registry.all) {
      if (call.ending === undefined) {
        const state = this.registry.existing(call.choice);
        this.close(call, ending.kind === 'complete' ? { kind: 'complete', finishReason: state?.finishReason } : ending);
        closed.push(call);
      }
    }
    return closed;
  }

  /**
   * The stream starts over (a `restart` event): close every open call with `ending` and forget which
   * call each wire index, id and position stands for, so the new attempt's fragments open new calls.
   * Ids stay unique across the restart. Returns the calls it closed, in order.
   */
  restart(ending: CallEnding): TrackedCall[] {
    const closed = this.closeAll(ending);
    this.registry.restart();
    return closed;
  }

  private find(state: ChoiceState, index: number | undefined, id: string | undefined, name: string | undefined): MutableCall | undefined {
    if (index !== undefined) {
      const registry = this.registry;
      const atIndex = registry.atIndex(state, index);
      this.atIndexHit = atIndex;
      if (atIndex === undefined) return undefined;
      if (id !== undefined && atIndex.wireId !== undefined && atIndex.wireId !== id) {
        const byId = registry.withId(state, id);
        if (byId !== undefined) return byId;
        // Rule 2: a new id without a name on an open call continues it; with a name it is a new call.
        return name === undefined && atIndex.ending === undefined ? atIndex : undefined;
      }
      if (atIndex.ending !== undefined && atIndex.ending.kind !== 'too-large') return id === undefined ? undefined : registry.withId(state, id);
      return atIndex;
    }
    const last = state.last;
    const lastOpen = last !== undefined && last.ending === undefined ? last : undefined;
    if (id !== undefined) {
      const byId = this.registry.withId(state, id);
      if (byId !== undefined || name !== undefined) return byId;
      return lastOpen; // rule 2: nameless fragments continue, they don't start
    }
    // A name for the open call that has none yet is its late name (rule 3), not a new call.
    if (name !== undefined) return lastOpen !== undefined && (lastOpen.name === '' || (lastOpen.name === name && lastOpen.rawArguments === '')) ? lastOpen : undefined;
    return last !== undefined && last.ending?.kind !== 'complete' && last.ending?.kind !== 'incomplete' ? last : undefined;
  }

  private open(state: ChoiceState, wireIndex: number | undefined, wireId: string | undefined): MutableCall {
    const registry = this.registry;
    const seq = registry.all.length;
    if (seq >= this.maxToolCalls) throw new ToolStreamError('too-many-tool-calls', { limit: this.maxToolCalls });
    const call: MutableCall = {
      seq,
      id: wireId === undefined ? this.generated() : registry.uniqueId(wireId),
      wireId,
      idGenerated: wireId === undefined,
      name: '',
      index: wireIndex ?? state.count,
      choice: state.choice,
      rawArguments: '',
      metadata: undefined,
      otherWireIds: undefined,
      lastFragment: '',
      fragments: 0,
      cumulative: true,
      ending: undefined,
      indexed: wireIndex !== undefined,
      nextOpen: undefined,
    };
    registry.add(state, call);
    this.openCount++;
    return call;
  }

  private close(call: MutableCall, ending: CallEnding): void {
    call.ending = ending;
    this.openCount--;
  }

  private generated(): string {
    const id = (this.generateId ??= defaultIdGenerator())();
    this.registry.generated(id);
    return id;
  }
}
