/**
 * Where the tracker keeps its calls, and how it finds the call a wire index or id stands for.
 *
 * A gateway holds thousands of open streams, nearly all with one choice and a few calls, so the
 * registry starts in a compact form that needs no `Map` or growing array per stream: lookups scan
 * the few calls of the current attempt. It moves to `Map`s (the same answers, O(1) per fragment)
 * when the stream has more than a few calls, or when a binding is not the one a scan would find
 * (a call took a fragment with another call's index or id: rare, and what the maps are for).
 *
 * @module
 */
import type { FinishReason } from '../events';
import type { MutableCall } from './call';

/** What the tracker keeps per choice. */
export interface ChoiceState {
  /** The choice's number. */
  readonly choice: number;
  /** Wire index → the last call that took a fragment with it (`undefined` in the compact form). */
  byIndex: Map<number, MutableCall> | undefined;
  /** Wire id → the last call that took a fragment with it (`undefined` in the compact form). */
  byId: Map<string, MutableCall> | undefined;
  /** How many calls the choice opened (the ordinal index of a call without a wire index). */
  count: number;
  /** The first call opened since the last finish of this choice (the others follow through `nextOpen`; some may have closed since): what a finish closes. */
  openHead: MutableCall | undefined;
  /** The last call of that list. */
  openTail: MutableCall | undefined;
  /** The call that took the last fragment. */
  last: MutableCall | undefined;
  /**
   * The wire index of that fragment (`undefined`: it had none). The index stands for `last` until a
   * later fragment of the choice changes both: the compact form's lookup of it needs no scan.
   */
  lastIndex: number | undefined;
  /** The choice's finish reason, once it has one. */
  finishReason: FinishReason | undefined;
  /** The provider's own string of that finish reason. */
  rawReason: string | undefined;
}

/** The calls of a stream and the per-choice lookups. @internal */
export class CallRegistry {
  /** Every call of the stream, in order of first sight (copied when it grows while compact: exact-size arrays). */
  all: MutableCall[] = [];
  /** Where the current attempt starts in {@link CallRegistry.all} (calls before it belong to attempts a `restart` ended). */
  private from = 0;
  /** The state of the first choice of the attempt; the others in {@link CallRegistry.others}. */
  private first: ChoiceState | undefined;
  private others: Map<number, ChoiceState> | undefined;
  /** The state looked up last (a stream is mostly one choice). */
  private recent: ChoiceState | undefined;
  /** Every id given to a call → the last suffix tried with it as a wire id (0: none yet); `undefined` while compact. */
  private ids: Map<string, number> | undefined;
  /** Ids a call had and no longer has (a generated id replaced by a late wire id), while compact: they stay taken. */
  private retired: string[] | undefined;

  /** @param compactLimit The compact form holds at most this many calls. */
  constructor(private readonly compactLimit: number) {}

  /** The state of `choice`, made at its first sight. */
  state(choice: number): ChoiceState {
    const recent = this.recent;
    if (recent !== undefined && recent.choice === choice) return recent;
    let state = this.existing(choice);
    if (state === undefined) {
      const maps = this.ids !== undefined;
      state = {
        choice,
        byIndex: maps ? new Map() : undefined,
        byId: maps ? new Map() : undefined,
        count: 0,
        openHead: undefined,
        openTail: undefined,
        last: undefined,
        lastIndex: undefined,
        finishReason: undefined,
        rawReason: undefined,
      };
      if (this.first === undefined) this.first = state;
      else (this.others ??= new Map()).set(choice, state);
    }
    this.recent = state;
    return state;
  }

  /** The choices of the current attempt, in order of first sight (a new array: for the stream's end). */
  choices(): ChoiceState[] {
    const first = this.first;
    if (first === undefined) return [];
    return this.others === undefined ? [first] : [first, ...this.others.values()];
  }

  /** The state of `choice` when it has one. */
  existing(choice: number): ChoiceState | undefined {
    const first = this.first;
    return first !== undefined && first.choice === choice ? first : this.others?.get(choice);
  }

  /** The call the wire `index` of the choice stands for. */
  atIndex(state: ChoiceState, index: number): MutableCall | undefined {
    if (state.byIndex !== undefined) return state.byIndex.get(index);
    if (state.lastIndex === index) return state.last; // the fragment before had this index (most fragments)
    const all = this.all;
    for (let i = all.length - 1; i >= this.from; i--) {
      const call = all[i] as MutableCall;
      if (call.index === index && call.indexed && call.choice === state.choice) return call;
    }
    return undefined;
  }

  /** The call the wire `id` of the choice stands for. */
  withId(state: ChoiceState, id: string): MutableCall | undefined {
    if (state.byId !== undefined) return state.byId.get(id);
    const all = this.all;
    for (let i = all.length - 1; i >= this.from; i--) {
      const call = all[i] as MutableCall;
      if (call.wireId === id && call.choice === state.choice) return call;
    }
    return undefined;
  }

  /**
   * `call` took a fragment with wire `index`: that index stands for it from now on. `opened`: the
   * fragment opened it (then it is the newest call at that index: a scan finds it).
   */
  bindIndex(state: ChoiceState, index: number, call: MutableCall, opened: boolean): void {
    if (state.byIndex === undefined) {
      if (opened || this.atIndex(state, index) === call) return;
      this.expand();
    }
    (state.byIndex as Map<number, MutableCall>).set(index, call);
  }

  /** `call` took a fragment with wire `id`: that id stands for it from now on. */
  bindId(state: ChoiceState, id: string, call: MutableCall): void {
    if (state.byId === undefined) {
      if (this.withId(state, id) === call) return;
      this.expand();
    }
    (state.byId as Map<string, MutableCall>).set(id, call);
  }

  /** A new call of `state`'s choice. */
  add(state: ChoiceState, call: MutableCall): void {
    if (this.ids === undefined) {
      this.all = this.all.concat(call); // exact size (a spread or a push would allocate 17 slots)
      if (this.all.length > this.compactLimit) this.expand();
    } else {
      this.all.push(call);
    }
    state.count++;
    if (state.openTail === undefined) state.openHead = call;
    else state.openTail.nextOpen = call;
    state.openTail = call;
  }

  /**
   * A call made closed (split from glued text, or a choice's `missing` call): one more of the stream,
   * never found by its index or id and never open.
   */
  addClosed(call: MutableCall): void {
    if (this.ids === undefined) {
      this.all = this.all.concat(call);
      if (this.all.length > this.compactLimit) this.expand();
    } else {
      this.all.push(call);
    }
  }

  /** Whether a call of the stream (any attempt) has the id `id`. */
  private taken(id: string): boolean {
    if (this.ids !== undefined) return this.ids.has(id);
    for (const call of this.all) if (call.id === id) return true;
    return this.retired?.includes(id) === true;
  }

  /** `call`'s generated id gives way to the wire's `wireId`: its new id (the old one stays taken). */
  rename(call: MutableCall, wireId: string): void {
    if (this.ids === undefined) (this.retired ??= []).push(call.id);
    call.id = this.uniqueId(wireId);
  }

  /** A generated id was given to a call. */
  generated(id: string): void {
    if (this.ids !== undefined && !this.ids.has(id)) this.ids.set(id, 0);
  }

  /** The wire id itself when no call of the stream has it yet, else `id_2`, `id_3`, … (the first not taken). */
  uniqueId(wireId: string): string {
    const ids = this.ids;
    if (!this.taken(wireId)) {
      ids?.set(wireId, 1);
      return wireId;
    }
    const tried = ids?.get(wireId) ?? 0;
    let n = tried === 0 ? 1 : tried;
    let candidate: string;
    do candidate = `${wireId}_${++n}`;
    while (this.taken(candidate));
    ids?.set(wireId, n);
    ids?.set(candidate, 0);
    return candidate;
  }

  /** A new attempt: forget the choices and what their indices and ids stood for (ids stay taken). */
  restart(): void {
    this.first = this.recent = undefined;
    this.others = undefined;
    this.from = this.all.length;
  }

  /** Leave the compact form: the maps, holding what the scans would have found. */
  private expand(): void {
    if (this.ids !== undefined) return;
    const ids = new Map<string, number>();
    const all = this.all;
    for (const call of all) ids.set(call.id, 0);
    for (const id of this.retired ?? []) ids.set(id, 0);
    this.retired = undefined;
    this.ids = ids;
    const states = this.first === undefined ? [] : [this.first, ...(this.others?.values() ?? [])];
    for (const state of states) {
      const byIndex = new Map<number, MutableCall>();
      const byId = new Map<string, MutableCall>();
      for (let i = this.from; i < all.length; i++) {
        const call = all[i] as MutableCall;
        if (call.choice !== state.choice) continue;
        if (call.indexed) byIndex.set(call.index, call);
        if (call.wireId !== undefined) byId.set(call.wireId, call);
      }
      state.byIndex = byIndex;
      state.byId = byId;
    }
  }
}
