/**
 * The one reducer of tool calls: `reduceToolCalls(state, input) → state`, the index-keyed
 * accumulator and the identity rules in one place. Every operator that reads tool calls runs it:
 * `accumulateToolCalls()` and `groupToolCalls()` as an rxjs `scan`, the fused readers
 * (`readToolCalls()`, `partialToolCalls()`, `chatState()`, the encoders) call it per event.
 *
 * @module
 */
import { isToolStreamError, ToolStreamError, type IncompleteReason } from '../errors';
import type { FinishReason, StreamEvent, ToolCallDeltaEvent, ToolCallEndEvent } from '../events';
import { cutReason, DEFAULT_MAX_ARGUMENTS_SIZE, DEFAULT_MAX_TOOL_CALLS, defaultIdGenerator, type CallEnding, type MutableCall, type ToolCallLimits, type TrackedCall } from './call';
import { CallRegistry, type ChoiceState } from './registry';

/** The end of the event stream, as the reducer reads it: the source completed, or it failed with `error`. */
export type StreamEnd =
  | {
      /** The source completed: every open call is complete. */
      readonly type: 'complete';
    }
  | {
      /** The source failed (or the reducer itself did, with `too-many-tool-calls`): every open call is `incomplete`. */
      readonly type: 'error';
      /** What it failed with; its code becomes the open calls' incomplete reason. */
      readonly error: unknown;
    };

/** What the reducer reads: the stream's events, then its end. */
export type ToolCallsInput = StreamEvent | StreamEnd;

/** {@link ToolCallLimits} with the defaults applied, resolved once per operator. */
export interface ResolvedLimits {
  readonly maxToolCalls: number;
  readonly maxArgumentsSize: number;
  readonly generateId: (() => string) | undefined;
}

/** Resolve an operator's limits once (the defaults: 1,024 calls, 64 MiB of arguments per call). */
export function resolveLimits(options: ToolCallLimits = {}): ResolvedLimits {
  return {
    maxToolCalls: options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS,
    maxArgumentsSize: options.maxArgumentsSize ?? DEFAULT_MAX_ARGUMENTS_SIZE,
    generateId: options.generateId,
  };
}

/**
 * The accumulator of one stream's tool calls: every call, and what the last input changed. One per
 * subscription ({@link createToolCallsState}); the reducer updates it in place and returns it, so a
 * reader reads `changed` and `delta` before the next input.
 */
export interface ToolCallsState {
  /** Every call seen so far, in order of first sight (`seq` is the position). */
  readonly calls: ReadonlyArray<TrackedCall>;
  /**
   * The calls the last input changed, in order: the call a fragment went to (closed when that
   * fragment took it past `maxArgumentsSize`), or the calls an end, finish, terminator, restart or the
   * stream's end closed.
   */
  readonly changed: ReadonlyArray<TrackedCall>;
  /** The argument fragment the last input added (`''` unless it was an accepted `tool-call-delta`). */
  readonly delta: string;
  /** How many calls are open. */
  readonly openCount: number;
}

/** The state as the reducer sees it. */
interface MutableState extends ToolCallsState {
  readonly registry: CallRegistry;
  readonly limits: ResolvedLimits;
  /** The id generator, made when the first call without a wire id needs one. */
  generateId: (() => string) | undefined;
  changed: MutableCall[];
  delta: string;
  openCount: number;
  /** The call the last lookup with a wire index found at that index (its binding is already that call). */
  atIndexHit: MutableCall | undefined;
}

/**
 * A new accumulator, for one stream.
 *
 * @param limits The operator's limits ({@link resolveLimits}).
 * @param compactLimit Up to this many calls the state keeps no `Map` (see `registry.ts`).
 */
export function createToolCallsState(limits: ResolvedLimits = resolveLimits(), compactLimit = 4): ToolCallsState {
  const registry = new CallRegistry(compactLimit);
  const state: MutableState = {
    registry,
    limits,
    generateId: limits.generateId,
    get calls(): ReadonlyArray<TrackedCall> {
      return registry.all;
    },
    changed: [],
    delta: '',
    openCount: 0,
    atIndexHit: undefined,
  };
  return state;
}

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
 * Apply one input to the accumulator and return it.
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
 *
 * Closing: `tool-call-end` closes its call; `finish` closes the open calls of its choice; `done`
 * and the source's completion close every open call complete; the source's failure closes them
 * `incomplete` (its code as reason); `restart` closes them `incomplete` and forgets which call each
 * wire index and id stood for. A call past `maxArgumentsSize` closes as `too-large` and swallows its
 * later fragments. Other events change nothing.
 *
 * @param state The stream's accumulator ({@link createToolCallsState}).
 * @param input The next event, or the stream's end.
 * @return `state`, with `changed` and `delta` describing this input.
 * @throws A `too-many-tool-calls` error when a fragment would open one call more than `maxToolCalls`.
 */
export function reduceToolCalls(state: ToolCallsState, input: ToolCallsInput): ToolCallsState {
  const s = state as MutableState;
  const changed = s.changed;
  if (changed.length !== 0) changed.length = 0;
  s.delta = '';
  switch (input.type) {
    case 'tool-call-delta': {
      const call = applyFragment(s, input);
      if (call !== undefined) {
        changed.push(call);
        s.delta = input.argumentsDelta;
      }
      break;
    }
    case 'tool-call-end': {
      const call = endCall(s, input);
      if (call !== undefined) changed.push(call);
      break;
    }
    case 'finish':
      finishChoice(s, input.choice, input.reason);
      break;
    case 'done':
    case 'complete':
      closeAll(s, COMPLETE);
      break;
    case 'error':
      closeAll(s, { kind: 'incomplete', reason: incompleteReasonOf(input.error) });
      break;
    case 'restart':
      closeAll(s, { kind: 'incomplete', reason: incompleteReasonOf(input.error) });
      s.registry.restart();
      break;
    default:
      break;
  }
  return s;
}

/** A fragment: the call it belongs to, or `undefined` when dropped (its call failed for size). */
function applyFragment(s: MutableState, event: ToolCallDeltaEvent): MutableCall | undefined {
  const registry = s.registry;
  const choice = registry.state(event.choice);
  const id = event.id === undefined || event.id === '' ? undefined : event.id;
  const name = event.name === undefined || event.name === '' ? undefined : event.name;
  let call = find(s, choice, event.index, id, name);
  let opened = false;
  if (call === undefined) {
    call = open(s, choice, event.index, id);
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
    } else if (registry.withId(choice, id) === undefined) {
      (call.otherWireIds ??= []).push(id);
    }
  }
  if (call.name === '' && name !== undefined) call.name = name;
  // The call the index already stands for needs no binding (most fragments).
  if (event.index !== undefined && call !== s.atIndexHit) registry.bindIndex(choice, event.index, call, opened);
  if (id !== undefined) registry.bindId(choice, id, call);
  choice.last = call;
  choice.lastIndex = event.index;
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
  const limit = s.limits.maxArgumentsSize;
  if (call.rawArguments.length > limit) close(s, call, { kind: 'too-large', limit });
  return call;
}

/** A `tool-call-end`: the open call it closed, or `undefined` when no open call matches. */
function endCall(s: MutableState, event: ToolCallEndEvent): MutableCall | undefined {
  const registry = s.registry;
  const choice = registry.existing(event.choice);
  if (choice === undefined) return undefined;
  const id = event.id === '' ? undefined : event.id;
  const call =
    (event.index === undefined ? undefined : registry.atIndex(choice, event.index)) ??
    (id === undefined ? undefined : registry.withId(choice, id)) ??
    (event.index === undefined && id === undefined ? choice.last : undefined);
  if (call === undefined || call.ending !== undefined) return undefined;
  close(s, call, event.incomplete === true ? { kind: 'incomplete', reason: cutReason(event.finishReason) ?? 'not-closed' } : { kind: 'complete', finishReason: choice.finishReason });
  return call;
}

/** A choice finished: close its open calls (complete), in order. */
function finishChoice(s: MutableState, choiceNumber: number, reason: FinishReason): void {
  const choice = s.registry.state(choiceNumber);
  choice.finishReason = reason;
  // Only the calls opened since the last finish can be open: each call is looked at by one finish
  // at most, so repeated finishes cost what they close, not every call the choice ever had.
  let call = choice.openHead;
  choice.openHead = choice.openTail = undefined;
  while (call !== undefined) {
    const next = call.nextOpen;
    call.nextOpen = undefined;
    if (call.ending === undefined) {
      close(s, call, { kind: 'complete', finishReason: reason });
      s.changed.push(call);
    }
    call = next;
  }
}

/** Close every open call: complete (the terminator, the source's end) with its choice's finish reason, or with `ending`. */
function closeAll(s: MutableState, ending: CallEnding): void {
  if (s.openCount === 0) return;
  const registry = s.registry;
  for (const call of registry.all) {
    if (call.ending !== undefined) continue;
    close(s, call, ending.kind === 'complete' ? { kind: 'complete', finishReason: registry.existing(call.choice)?.finishReason } : ending);
    s.changed.push(call);
  }
}

function find(s: MutableState, choice: ChoiceState, index: number | undefined, id: string | undefined, name: string | undefined): MutableCall | undefined {
  const registry = s.registry;
  if (index !== undefined) {
    const atIndex = registry.atIndex(choice, index);
    s.atIndexHit = atIndex;
    if (atIndex === undefined) return undefined;
    if (id !== undefined && atIndex.wireId !== undefined && atIndex.wireId !== id) {
      const byId = registry.withId(choice, id);
      if (byId !== undefined) return byId;
      // Rule 2: a new id without a name on an open call continues it; with a name it is a new call.
      return name === undefined && atIndex.ending === undefined ? atIndex : undefined;
    }
    if (atIndex.ending !== undefined && atIndex.ending.kind !== 'too-large') return id === undefined ? undefined : registry.withId(choice, id);
    return atIndex;
  }
  const last = choice.last;
  const lastOpen = last !== undefined && last.ending === undefined ? last : undefined;
  if (id !== undefined) {
    const byId = registry.withId(choice, id);
    if (byId !== undefined || name !== undefined) return byId;
    return lastOpen; // rule 2: nameless fragments continue, they don't start
  }
  // A name for the open call that has none yet is its late name (rule 3), not a new call.
  if (name !== undefined) return lastOpen !== undefined && (lastOpen.name === '' || (lastOpen.name === name && lastOpen.rawArguments === '')) ? lastOpen : undefined;
  return last !== undefined && last.ending?.kind !== 'complete' && last.ending?.kind !== 'incomplete' ? last : undefined;
}

function open(s: MutableState, choice: ChoiceState, wireIndex: number | undefined, wireId: string | undefined): MutableCall {
  const registry = s.registry;
  const seq = registry.all.length;
  const limit = s.limits.maxToolCalls;
  if (seq >= limit) throw new ToolStreamError('too-many-tool-calls', { limit });
  const call: MutableCall = {
    seq,
    id: wireId === undefined ? generated(s) : registry.uniqueId(wireId),
    wireId,
    idGenerated: wireId === undefined,
    name: '',
    index: wireIndex ?? choice.count,
    choice: choice.choice,
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
  registry.add(choice, call);
  s.openCount++;
  return call;
}

function close(s: MutableState, call: MutableCall, ending: CallEnding): void {
  call.ending = ending;
  s.openCount--;
}

function generated(s: MutableState): string {
  const id = (s.generateId ??= defaultIdGenerator())();
  s.registry.generated(id);
  return id;
}
