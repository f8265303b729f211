/**
 * The one reducer of tool calls: `reduceToolCalls(state, input) → state`, the index-keyed
 * accumulator. The identity rules (named and defined in docs/providers.md) are implemented here and
 * nowhere else. Only the driver (`driver.ts`) calls it; every operator that reads tool calls is
 * built on the driver.
 *
 * @module
 */
import { ToolStreamError } from '../errors';
import type { FinishReason, StreamEvent, ToolCallDeltaEvent, ToolCallEndEvent } from '../events';
import { isSnapshotChain, splitJsonDocuments } from '../internal/jsonDocuments';
import {
  cutReason,
  DEFAULT_MAX_ARGUMENTS_SIZE,
  DEFAULT_MAX_TOOL_CALLS,
  idTag,
  incompleteReasonOf,
  MutableCall,
  streamIdGenerator,
  type CallEnding,
  type ToolCallsOptions,
  type TrackedCall,
} from './call';
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

/** The reducer's part of {@link ToolCallsOptions}, with the defaults applied: resolved once per operator, by the driver. */
export interface ResolvedLimits {
  /** The most calls a stream opens (`maxToolCalls`, default 1,024). */
  readonly maxToolCalls: number;
  /** The most characters of one call's arguments (`maxArgumentsSize`, default 64 MiB). */
  readonly maxArgumentsSize: number;
  /** The ids of calls the wire sent none for (`generateId`; `undefined`: the default generator). */
  readonly generateId: (() => string) | undefined;
  /** `sequentialCalls`: a chat call completes when the next of its choice opens. */
  readonly sequentialCalls: boolean;
}

/** No limit given: the defaults. */
const DEFAULT_RESOLVED: ResolvedLimits = Object.freeze({ maxToolCalls: DEFAULT_MAX_TOOL_CALLS, maxArgumentsSize: DEFAULT_MAX_ARGUMENTS_SIZE, generateId: undefined, sequentialCalls: false });

/** Resolve an operator's limits once (the defaults: 1,024 calls, 64 MiB of arguments per call; shared when none is given). */
export function resolveLimits(options: ToolCallsOptions): ResolvedLimits {
  if (options.maxToolCalls === undefined && options.maxArgumentsSize === undefined && options.generateId === undefined && options.sequentialCalls !== true) return DEFAULT_RESOLVED;
  return {
    maxToolCalls: options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS,
    maxArgumentsSize: options.maxArgumentsSize ?? DEFAULT_MAX_ARGUMENTS_SIZE,
    generateId: options.generateId,
    sequentialCalls: options.sequentialCalls === true,
  };
}

/**
 * The accumulator of one stream's tool calls: every call, and what the last input changed. One per
 * subscription (the driver is one); the reducer updates it in place and returns it, so the driver
 * reads `changed` and `delta` before the next input.
 */
export interface ToolCallsState {
  /** Every call seen so far, in order of first sight (`seq` is the position). */
  readonly calls: ReadonlyArray<TrackedCall>;
  /**
   * The calls the last input changed, in order: the call a fragment went to (closed when that
   * fragment took it past `maxArgumentsSize`), or the calls an end, finish, terminator, restart or the
   * stream's end closed (a call split from glued text right after the call it came from). With
   * `sequentialCalls`, a fragment that opened a call also closes the calls before it: they come
   * first, the fragment's call last.
   */
  readonly changed: ReadonlyArray<TrackedCall>;
  /** The call the last input's fragment went to (`undefined` unless it was an accepted `tool-call-delta`): the call `delta` belongs to. */
  readonly fragment: TrackedCall | undefined;
  /** The argument fragment the last input added (`''` unless it was an accepted `tool-call-delta`). */
  readonly delta: string;
  /** How many calls are open. */
  readonly openCount: number;
}

/** `changed` of an input that changed no call. */
const NONE: ReadonlyArray<MutableCall> = Object.freeze([]);

/** The state as the reducer sees it (one class: every accumulator has the same shape; the driver extends it). */
export class MutableState implements ToolCallsState {
  readonly registry: CallRegistry;
  /** The id generator, made when the first call without a wire id needs one. */
  generateId: (() => string) | undefined;
  changed: ReadonlyArray<MutableCall> = NONE;
  /** The one-element array `changed` is for a fragment (reused: a fragment allocates nothing). */
  readonly single: MutableCall[] = [];
  fragment: MutableCall | undefined = undefined;
  /** With `sequentialCalls`: the calls the fragment being applied closed by opening a new call. */
  closedBefore: MutableCall[] | undefined = undefined;
  delta = '';
  openCount = 0;
  /** The call the last lookup with a wire index found at that index (its binding is already that call). */
  atIndexHit: MutableCall | undefined = undefined;
  /** The stream's response id, from its first `metadata` event that had one (the tag of generated ids). */
  responseId: string | undefined = undefined;

  constructor(
    readonly limits: ResolvedLimits,
    compactLimit: number,
  ) {
    this.registry = new CallRegistry(compactLimit);
    this.generateId = limits.generateId;
  }

  get calls(): ReadonlyArray<TrackedCall> {
    return this.registry.all;
  }
}

const COMPLETE: CallEnding = { kind: 'complete', finishReason: undefined };

/**
 * Apply one input to the accumulator and return it.
 *
 * Identity rules, per choice (docs/providers.md defines each by name):
 * - rule `index-binds`: a fragment with a wire `index` belongs to the open call at that index; an
 *   index not seen yet starts a new call; if the call at that index has a different non-empty id
 *   than the fragment, the fragment belongs to the call with that id or starts a new one; a closed
 *   call is never reopened.
 * - rule `without-index`: without `index`, a fragment with an id belongs to the call with that id
 *   (else starts one); a fragment with a name but no id starts a new call unless the last call is
 *   open and has no name yet, or has that name and no arguments yet; a fragment with neither
 *   continues the last open call (rule `nameless-continues`).
 * - rule `first-sight`: the id is set at first non-empty sight and never overwritten; `''` is
 *   absent; an id or a name that arrives after the call's first fragment is taken.
 * - rule `name-pieces`: a name the call already has (resent whole) changes nothing; a longer one
 *   that begins with it (resent as it grew) replaces it; any other is its next piece, appended,
 *   unless the arguments are already a whole JSON document (then it is another call's name, glued:
 *   dropped).
 * - rule `unique-ids`: a call without any wire id gets a generated unique id; a wire id already used
 *   by another call of the stream is de-duplicated (`id_2`, `id_3`, …) and the wire's id is kept in
 *   `wireId`.
 * - rule `several-indices`: a fragment at an index not seen yet whose id is an open call's id
 *   continues that call when it has no name, or the call's name while either side has no arguments
 *   yet or both have the same (LocalAI, DeepSeek routes); the other indices are kept in
 *   `otherIndices`. With another name or other arguments it is a new call (rule `unique-ids` names it).
 * - rule `glued-calls`: a call closed complete whose text does not parse but is two or more JSON
 *   objects back to back (`{…}{…}`, a fragment having begun an object right after one ended), with no
 *   wire id and one name, becomes one call per object: the call keeps the first as its text, the
 *   others are new calls (generated ids, the same name and index), each with `split` set. Not when
 *   each object is an earlier snapshot of the next (the same value resent, or a call resent as it
 *   grew: one call, which the result builder repairs), nor otherwise: the text is left as it is.
 * - rule `custom-text`: a custom (freeform) tool's call is marked `kind: 'custom'` by the first
 *   fragment that says so.
 *
 * Closing: `tool-call-end` closes its call; `finish` closes the open calls of its choice, and a
 * `finish` with reason `tool-calls` on a choice that opened no call adds one closed `missing` call
 * (its result is `missing-tool-calls`); `done` and the source's completion close every open call
 * complete; the source's failure closes them `incomplete` (its code as reason); `restart` closes
 * them `incomplete` and forgets which call each wire index and id stood for. A call past
 * `maxArgumentsSize` closes as `too-large` and swallows its later fragments. With
 * `sequentialCalls`, a fragment that opens a call closes the open calls of its choice before it
 * (complete). A `metadata` event's response id is kept (the tag of generated ids). Other events
 * change nothing.
 *
 * @param state The stream's accumulator (the driver).
 * @param input The next event, or the stream's end.
 * @return `state`, with `changed` and `delta` describing this input.
 * @throws A `too-many-tool-calls` error when a fragment would open one call more than `maxToolCalls`.
 */
export function reduceToolCalls(state: ToolCallsState, input: ToolCallsInput): ToolCallsState {
  const s = state as MutableState;
  s.changed = NONE;
  s.delta = '';
  s.fragment = undefined;
  switch (input.type) {
    case 'tool-call-delta': {
      const call = applyFragment(s, input);
      if (call !== undefined) {
        const before = s.closedBefore;
        if (before === undefined) {
          s.single[0] = call;
          s.changed = s.single;
        } else {
          s.closedBefore = undefined;
          before.push(call);
          s.changed = before;
        }
        s.fragment = call;
        s.delta = input.argumentsDelta;
      }
      break;
    }
    case 'tool-call-end': {
      const call = endCall(s, input);
      if (call !== undefined) {
        const closed: MutableCall[] = [];
        closeComplete(s, call, call.ending, closed);
        s.changed = closed;
      }
      break;
    }
    case 'finish':
      finishChoice(s, input.choice, input.reason, input.rawReason);
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
    case 'metadata':
      if (s.responseId === undefined && input.responseId !== undefined && input.responseId !== '') s.responseId = input.responseId;
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
  const fragment = event.argumentsDelta;
  let call = find(s, choice, event.index, id, name, fragment);
  let opened = false;
  if (call === undefined) {
    call = open(s, choice, event.index, id, event);
    opened = true;
    if (s.limits.sequentialCalls) s.closedBefore = closeBefore(s, choice, call);
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
      (call.parts().otherWireIds ??= []).push(id);
    }
  }
  if (name !== undefined && name !== call.name) {
    if (call.name === '') call.name = name;
    else foldName(call, name);
  }
  if (event.kind === 'custom') call.parts().kind = 'custom';
  const index = event.index;
  if (index !== undefined) {
    // The call the index already stands for needs no binding (most fragments).
    if (call !== s.atIndexHit) {
      registry.bindIndex(choice, index, call, opened);
      // One call at several indices (rule `several-indices`): the other indices are kept.
      if (!opened && call.indexed && index !== call.index && call.otherIndices?.includes(index) !== true) (call.parts().otherIndices ??= []).push(index);
    }
  }
  if (id !== undefined) registry.bindId(choice, id, call);
  choice.last = call;
  choice.lastIndex = index;
  if (event.metadata !== undefined) {
    const metadata = (call.metadata ??= {});
    for (const key of Object.keys(event.metadata)) if (!(key in metadata)) metadata[key] = event.metadata[key];
  }
  if (event.replace === true) {
    call.rawArguments = fragment;
    call.lastFragment = fragment;
    call.fragments = fragment === '' ? 0 : 1;
    call.cumulative = true;
  } else {
    const before = call.rawArguments;
    // `}` then `{`: the text may be several calls glued together (rule `glued-calls`); looked at when the call closes.
    if (!call.glued && call.kind !== 'custom' && before.length > 0 && opensObject(fragment) && endsObject(call.lastFragment, before)) call.parts().glued = true;
    call.rawArguments = before + fragment;
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

/**
 * A name that differs from the call's (rule `name-pieces`): the name resent as it grew replaces it;
 * any other is the name's next piece (`edit_ex` + `isting_file`), appended — unless the call's
 * arguments are already a whole JSON document, when it names another call glued onto this one
 * (rule `glued-calls`: dropped, and the glued text is then not split). A name resent whole never
 * gets here: it equals the call's.
 */
function foldName(call: MutableCall, name: string): void {
  if (name.startsWith(call.name)) {
    call.name = name;
    return;
  }
  if (call.rawArguments.trim() !== '' && parsesWhole(call.rawArguments)) call.parts().nameConflict = true;
  else call.name += name;
}

/** Whether `text` is one whole JSON document. */
function parsesWhole(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether `text`'s first character that is not whitespace is `{`. */
function opensObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c === 0x7b;
  }
  return false;
}

/**
 * Whether the argument text `before` (which ends with `last`, its last non-empty fragment) ends in
 * `}` but for whitespace. Looks at `last` first: `before` is a string built by concatenation, and
 * reading its characters would flatten it, a copy of the whole text for every fragment.
 */
function endsObject(last: string, before: string): boolean {
  const c = lastNonSpace(last);
  return c === -1 ? lastNonSpace(before) === 0x7d : c === 0x7d;
}

/** The code of `text`'s last character that is not whitespace; -1 when there is none. */
function lastNonSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c;
  }
  return -1;
}

/** `sequentialCalls`: the open calls of the choice before `opened`, closed complete (`undefined` when none was open). */
function closeBefore(s: MutableState, choice: ChoiceState, opened: MutableCall): MutableCall[] | undefined {
  let closed: MutableCall[] | undefined;
  for (let call = choice.openHead; call !== undefined; call = call.nextOpen) {
    if (call === opened || call.ending !== undefined) continue;
    closeComplete(s, call, { kind: 'complete', finishReason: undefined }, (closed ??= []));
  }
  return closed;
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
function finishChoice(s: MutableState, choiceNumber: number, reason: FinishReason, rawReason: string): void {
  const choice = s.registry.state(choiceNumber);
  choice.finishReason = reason;
  choice.rawReason = rawReason;
  // Only the calls opened since the last finish can be open: each call is looked at by one finish
  // at most, so repeated finishes cost what they close, not every call the choice ever had.
  let call = choice.openHead;
  choice.openHead = choice.openTail = undefined;
  const closed: MutableCall[] = [];
  while (call !== undefined) {
    const next = call.nextOpen;
    call.nextOpen = undefined;
    if (call.ending === undefined) closeComplete(s, call, { kind: 'complete', finishReason: reason }, closed);
    call = next;
  }
  if (closed.length > 0) s.changed = closed;
}

/**
 * Close every open call: complete (the terminator, the source's end) with its choice's finish
 * reason, or with `ending`. At a complete end, each choice whose last finish was `tool-calls` and
 * that opened no call gets its `missing` call (a late call after the finish still counts).
 */
function closeAll(s: MutableState, ending: CallEnding): void {
  const registry = s.registry;
  const closed: MutableCall[] = [];
  if (ending.kind === 'complete') {
    for (const choice of registry.choices()) if (choice.finishReason === 'tool-calls' && choice.count === 0) closed.push(missing(s, choice, choice.rawReason ?? ''));
  }
  if (s.openCount === 0) {
    if (closed.length > 0) s.changed = closed;
    return;
  }
  const all = registry.all;
  const n = all.length; // calls split off while closing are appended: not looked at again
  for (let i = 0; i < n; i++) {
    const call = all[i] as MutableCall;
    if (call.ending !== undefined) continue;
    if (ending.kind === 'complete') closeComplete(s, call, { kind: 'complete', finishReason: registry.existing(call.choice)?.finishReason }, closed);
    else {
      close(s, call, ending);
      closed.push(call);
    }
  }
  s.changed = closed;
}

function find(s: MutableState, choice: ChoiceState, index: number | undefined, id: string | undefined, name: string | undefined, args: string): MutableCall | undefined {
  const registry = s.registry;
  if (index !== undefined) {
    const atIndex = registry.atIndex(choice, index);
    s.atIndexHit = atIndex;
    if (atIndex === undefined) {
      // An index not seen yet: a new call, unless the fragment carries an open call's id and
      // nothing that says it is another call (rule `several-indices`).
      if (id === undefined) return undefined;
      const byId = registry.withId(choice, id);
      if (byId === undefined || byId.ending !== undefined) return undefined;
      if (name === undefined || ((byId.name === '' || byId.name === name) && (byId.rawArguments === '' || args === '' || args === byId.rawArguments))) return byId;
      return undefined;
    }
    if (id !== undefined && atIndex.wireId !== undefined && atIndex.wireId !== id) {
      const byId = registry.withId(choice, id);
      if (byId !== undefined) return byId;
      // Rule `nameless-continues`: a new id without a name on an open call continues it; with a name it is a new call.
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
    return lastOpen; // rule `nameless-continues`: nameless fragments continue, they don't start
  }
  // A name for the open call that has none yet is its late name (rule `first-sight`), not a new call.
  if (name !== undefined) return lastOpen !== undefined && (lastOpen.name === '' || (lastOpen.name === name && lastOpen.rawArguments === '')) ? lastOpen : undefined;
  return last !== undefined && last.ending?.kind !== 'complete' && last.ending?.kind !== 'incomplete' ? last : undefined;
}

function open(s: MutableState, choice: ChoiceState, wireIndex: number | undefined, wireId: string | undefined, opening: ToolCallDeltaEvent): MutableCall {
  const registry = s.registry;
  const seq = registry.all.length;
  const limit = s.limits.maxToolCalls;
  if (seq >= limit) throw new ToolStreamError('too-many-tool-calls', { limit });
  const call = new MutableCall(
    seq,
    wireId === undefined ? generated(s, choice.choice, seq, opening) : registry.uniqueId(wireId),
    wireId,
    wireIndex ?? choice.count,
    choice.choice,
    wireIndex !== undefined,
  );
  registry.add(choice, call);
  s.openCount++;
  return call;
}

/** The `missing` call of a choice that finished with `tool-calls` without opening any (closed; not counted by `maxToolCalls`). */
function missing(s: MutableState, choice: ChoiceState, rawReason: string): MutableCall {
  const call = new MutableCall(s.registry.all.length, generated(s, choice.choice, s.registry.all.length, undefined), undefined, choice.count, choice.choice, false);
  call.ending = { kind: 'missing', rawReason };
  s.registry.addClosed(call);
  choice.count++; // one per choice
  return call;
}

function close(s: MutableState, call: MutableCall, ending: CallEnding): void {
  call.ending = ending;
  s.openCount--;
}

/** Close `call` with `ending` and add it to `closed`, with the calls glued text split into after it (rule `glued-calls`). */
function closeComplete(s: MutableState, call: MutableCall, ending: CallEnding | undefined, closed: MutableCall[]): void {
  if (call.ending === undefined && ending !== undefined) close(s, call, ending);
  closed.push(call);
  if (call.glued && call.ending?.kind === 'complete') split(s, call, closed);
}

/** Split glued text (rule `glued-calls`), when every piece is a JSON object, the call has no wire id and one name, and the pieces are not all the same value. */
function split(s: MutableState, call: MutableCall, closed: MutableCall[]): void {
  if (call.kind === 'custom' || call.name === '' || call.nameConflict || call.wireId !== undefined || call.otherWireIds !== undefined) return;
  const registry = s.registry;
  const room = s.limits.maxToolCalls - registry.all.length + 1;
  const text = call.rawArguments;
  if (parsesWhole(text)) return; // one document: nothing glued
  const pieces = splitJsonDocuments(text, room);
  if (pieces === undefined) return;
  const values: unknown[] = [];
  try {
    for (const piece of pieces) {
      const value: unknown = JSON.parse(piece);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      values.push(value);
    }
  } catch {
    return; // a piece that is not JSON
  }
  // The same value resent, or one call resent as it grew (`{"q":"A"}{"q":"AB"}`): one call, repaired by the result builder.
  if (isSnapshotChain(values)) return;
  const of = pieces.length;
  const first = pieces[0] as string;
  call.rawArguments = first;
  call.lastFragment = first;
  call.fragments = 1;
  call.cumulative = true;
  call.parts().split = { part: 0, of };
  for (let part = 1; part < of; part++) {
    const piece = pieces[part] as string;
    const next = new MutableCall(registry.all.length, generated(s, call.choice, registry.all.length, undefined), undefined, call.index, call.choice, false);
    next.name = call.name;
    next.metadata = call.metadata === undefined ? undefined : { ...call.metadata };
    next.rawArguments = piece;
    next.lastFragment = piece;
    next.fragments = 1;
    next.ending = call.ending;
    next.parts().split = { part, of };
    registry.addClosed(next);
    closed.push(next);
  }
}

/**
 * A generated id (rule `unique-ids`). The default generator is made at the stream's first call
 * without a wire id, tagged from what the stream said so far ({@link idTag}): the same events give
 * the same ids in every reader.
 */
function generated(s: MutableState, choice: number, seq: number, opening: ToolCallDeltaEvent | undefined): string {
  let generate = s.generateId;
  if (generate === undefined) {
    const start = opening === undefined ? '' : `${opening.index ?? ''}\u0000${opening.name ?? ''}\u0000${opening.argumentsDelta.slice(0, 256)}`;
    generate = s.generateId = streamIdGenerator(idTag(`${s.responseId ?? ''}\u0000${choice}\u0000${seq}\u0000${start}`));
  }
  const id = generate();
  s.registry.generated(id);
  return id;
}
