/**
 * The call model the reducer keeps: its limits, how a call ended, the call itself, and the helpers
 * every view of a call shares (its error context, the cut reason of a finish, default ids).
 *
 * @module
 */
import { isToolStreamError, type IncompleteReason, type ToolCallContext } from '../errors';
import type { FinishReason, ProviderMetadata } from '../events';

/**
 * The options of every operator that tracks tool calls: what bounds one stream's calls, how calls
 * without a wire id are named, when a chat call completes, and whether the result step repairs
 * resent arguments. Resolved once per operator by the driver (`calls/driver.ts`).
 */
export interface ToolCallsOptions {
  /**
   * Generates an id for a call the wire sent none for. Default: `call_` + a tag derived from the
   * stream (its response id when it has one) + the call's number, so every reader of the same
   * stream gives a call the same id (`retryStream()`'s `delivered`, `toolCalls()`, `chatState()`, …).
   */
  readonly generateId?: () => string;
  /**
   * At most this many tool calls per stream; one more ends the stream with `too-many-tool-calls`.
   * Default 1,024 (no legitimate stream comes near it);
   * `Infinity` lifts the limit.
   */
  readonly maxToolCalls?: number;
  /**
   * At most this many characters of arguments per call; past it the call fails with
   * `arguments-too-large`. Default 64 MiB (67,108,864 characters); `Infinity` lifts the limit.
   */
  readonly maxArgumentsSize?: number;
  /**
   * For servers that send their calls one after another (openai-node's assumption): a call of a
   * choice is complete as soon as another call of that choice opens, so its result comes while the
   * next call still streams (`runTools()` can start it). Default `false`: a chat call is complete at
   * its choice's end (`[DONE]`, the end of the stream), which is right for every server, including
   * those that interleave calls. With `true`, a fragment that comes back to a call closed this way
   * cannot reopen it: it starts a new call (which fails with `missing-name`).
   */
  readonly sequentialCalls?: boolean;
  /**
   * Repair the two unambiguous resend shapes of broken servers (rule `unambiguous-repair`): argument
   * text that is k exact copies of one JSON document (`repaired: 'repeated'`), or fragments that
   * each repeat all earlier text (`repaired: 'cumulative'`). Only applied when the concatenated
   * text does not parse. Default `true`.
   */
  readonly repairArguments?: boolean;
}

/** The default `maxToolCalls`: 1,024 calls per stream. */
export const DEFAULT_MAX_TOOL_CALLS = 1024;
/** The default `maxArgumentsSize`: 64 MiB (67,108,864 characters) of argument text per call. */
export const DEFAULT_MAX_ARGUMENTS_SIZE = 64 * 1024 * 1024;

/** How a call ended. */
export type CallEnding =
  | {
      /** The call was closed normally (its end event, its choice's `finish`, or the terminator); its arguments are parsed next. */
      readonly kind: 'complete';
      /** The finish reason of the call's choice when known (`'length'` turns unparseable arguments into `incomplete`). */
      readonly finishReason: FinishReason | undefined;
    }
  | {
      /** The call was closed before it was complete. */
      readonly kind: 'incomplete';
      /** Why (becomes the `reason` of the call's `incomplete` error). */
      readonly reason: IncompleteReason;
    }
  | {
      /** The call's arguments passed `maxArgumentsSize`. */
      readonly kind: 'too-large';
      /** The `maxArgumentsSize` that was passed, in characters. */
      readonly limit: number;
    }
  | {
      /**
       * Not a call the wire sent: the choice finished with `tool-calls` (`finish_reason:
       * "tool_calls"`, `stop_reason: "tool_use"`, …) and no call of it came. Its result is a
       * `missing-tool-calls` failure (the signal a tool loop acts on); encoders write nothing for it.
       */
      readonly kind: 'missing';
      /** The provider's own finish reason (`tool_calls`, `tool_use`, `TOOL_CALL`, …). */
      readonly rawReason: string;
    };

/** How a call was split from glued text (several JSON objects in one call's arguments). */
export interface CallSplit {
  /** Which piece this call is (0: the call the wire sent, whose `rawArguments` became its piece). */
  readonly part: number;
  /** How many pieces the text had. */
  readonly of: number;
}

/** The live state of one tool call (mutable inside the reducer; read-only outside). */
export interface TrackedCall {
  /** Unique within the stream, in order of first sight: the group key. */
  readonly seq: number;
  /** The call's id: the wire's id, `id_2`, `id_3`, … when the wire repeated one, or a generated `call_…` id when it sent none. */
  readonly id: string;
  /** The id exactly as the wire sent it, when it sent one. */
  readonly wireId: string | undefined;
  /** The tool name; `''` until the wire sends it. */
  readonly name: string;
  /** The wire's index of the call, or its ordinal position within its choice when the wire has none. */
  readonly index: number;
  /** The choice the call belongs to. */
  readonly choice: number;
  /** All argument text so far (a `replace` fragment resets it). */
  readonly rawArguments: string;
  /** Provider extras collected from the call's fragments (first value of each key wins); `undefined` when none. */
  readonly metadata: ProviderMetadata | undefined;
  /** Ids the wire sent on nameless fragments that continued this call after its first id (rule `nameless-continues`); `undefined` when none. */
  readonly otherWireIds: ReadonlyArray<string> | undefined;
  /** The last non-empty fragment (since the last `replace`). */
  readonly lastFragment: string;
  /** How many non-empty fragments arrived (since the last `replace`). */
  readonly fragments: number;
  /** Whether every non-empty fragment so far began with the one before it (the cumulative resend shape). */
  readonly cumulative: boolean;
  /** Set once the call is closed. */
  readonly ending: CallEnding | undefined;
  /** `'custom'` once a fragment said the call is a custom (freeform) tool's: its arguments are text, not JSON. */
  readonly kind: 'custom' | undefined;
  /** Other wire indices a fragment with this call's id came at (one call sent at several indices); `undefined` when none. */
  readonly otherIndices: ReadonlyArray<number> | undefined;
  /** Set when the call was one of several JSON objects glued into one call's arguments, split at its close. */
  readonly split: CallSplit | undefined;
  /** A fragment began a JSON object right after the text so far ended one (`}` then `{`): the call may be split when it closes. */
  readonly glued: boolean;
}

/** What few calls have: kept in one object made at first need, so that a common call is smaller. */
export interface RareParts {
  kind: 'custom' | undefined;
  otherWireIds: string[] | undefined;
  otherIndices: number[] | undefined;
  split: CallSplit | undefined;
  glued: boolean;
  nameConflict: boolean;
}

/**
 * The reducer's own view of a call (what {@link TrackedCall} shows, writable). One class, so every
 * call has one shape; what few calls have (a custom tool's kind, other ids and indices, glued text)
 * lives in one object the reducer makes at its first write ({@link MutableCall.parts}). @internal
 */
export class MutableCall implements TrackedCall {
  idGenerated: boolean;
  name = '';
  rawArguments = '';
  metadata: Record<string, unknown> | undefined = undefined;
  lastFragment = '';
  fragments = 0;
  cumulative = true;
  ending: CallEnding | undefined = undefined;
  /** The next call of its choice opened after it and before the next finish of the choice. */
  nextOpen: MutableCall | undefined = undefined;
  private rare: RareParts | undefined = undefined;

  /**
   * @param seq Unique within the stream, in order of first sight.
   * @param id The call's id (the wire's, de-duplicated, or generated).
   * @param wireId The id exactly as the wire sent it.
   * @param index The wire's index, or the ordinal position within its choice.
   * @param choice The choice the call belongs to.
   * @param indexed Whether the call was opened by a fragment with a wire index (its `index` is that one).
   */
  constructor(
    readonly seq: number,
    public id: string,
    public wireId: string | undefined,
    public index: number,
    readonly choice: number,
    public indexed: boolean,
  ) {
    this.idGenerated = wireId === undefined;
  }

  /** The rare parts, for the reducer to write (made at the first write). */
  parts(): RareParts {
    return (this.rare ??= { kind: undefined, otherWireIds: undefined, otherIndices: undefined, split: undefined, glued: false, nameConflict: false });
  }

  get kind(): 'custom' | undefined {
    return this.rare?.kind;
  }
  get otherWireIds(): string[] | undefined {
    return this.rare?.otherWireIds;
  }
  get otherIndices(): number[] | undefined {
    return this.rare?.otherIndices;
  }
  get split(): CallSplit | undefined {
    return this.rare?.split;
  }
  get glued(): boolean {
    return this.rare?.glued === true;
  }
  /** A fragment named another tool than the call's name (dropped, rule `first-sight`): pieces of glued text could not be named. */
  get nameConflict(): boolean {
    return this.rare?.nameConflict === true;
  }
}

/**
 * The default id generator of one stream: `call_` + `tag` + `_` + a counter. The tag is derived from
 * the stream ({@link idTag}), so two readers of the same events name its calls alike; the counter
 * keeps them unique within the stream.
 */
export function streamIdGenerator(tag: string): () => string {
  let n = 0;
  return () => `call_${tag}_${n++}`;
}

/**
 * A tag for the generated ids of one stream, from what the stream said before its first call
 * without a wire id: its response id (unique per response, when the format sends one), and that
 * call's choice, position, name and the start of its first fragment. Two streams without a response
 * id share a tag only when those are the same. A 52-bit FNV-1a hash, in base 36.
 */
export function idTag(seed: string): string {
  // Two 32-bit FNV-1a lanes (different offsets), 52 bits kept: no BigInt on the path.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < seed.length; i++) {
    const c = seed.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return ((a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff)).toString(36);
}

/** The incomplete reason a finish gives a call it cut short: `length`, `content-filter` or `error`; else `undefined`. */
export function cutReason(reason: FinishReason | undefined): IncompleteReason | undefined {
  return reason === 'length' || reason === 'content-filter' || reason === 'error' ? reason : undefined;
}

/** The identity and text of a call, as carried by its errors. */
export function callContext(call: TrackedCall): ToolCallContext {
  return { id: call.id, name: call.name, index: call.index, choice: call.choice, rawArguments: call.rawArguments };
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
