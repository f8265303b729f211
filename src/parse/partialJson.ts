/**
 * An incremental JSON parser for tool-call arguments that arrive in fragments.
 *
 * Every character is read once: the parser keeps its state (open containers, the string or number
 * being read, a half-received escape) between {@link PartialJsonParser.push} calls, so the total
 * work is linear in the input (re-parsing the accumulated text after each fragment is quadratic).
 *
 * ## What a partial value shows
 * - Objects and arrays appear as soon as they open (`{}` / `[]`).
 * - Strings grow as they arrive, escapes decoded; half an escape (`\`, `\u00`) and a high
 *   surrogate whose low half has not arrived yet are held back until they are complete.
 * - Numbers and `true` / `false` / `null` appear once complete: a number when a delimiter follows
 *   it or the root value ends (`12` of `123` is never shown). With `allowPartialLiterals` they
 *   appear at once (`-12.` → -12, `tr` → true), in O(1) amortized work per character however
 *   long the number is.
 * - An object key appears when its name is complete **and its value has started**; that is, with
 *   `""` for a string, `{}` / `[]` for a container, and for a number or literal only once that
 *   value is shown. A key is never shown with an `undefined` value.
 * - A container nested deeper than `maxPartialDepth` (default 256) shows as `[]` / `{}` until it
 *   is complete; its text is collected without being parsed, then parsed whole by `JSON.parse`
 *   (which needs no stack for nesting), so no depth exhausts the stack or the heap.
 * - After the last fragment the value equals `JSON.parse` of the whole text.
 *
 * ## Snapshots and their cost
 * `snapshots: 'immutable'` (the default): {@link PartialJsonParser.value} returns a plain-JSON
 * value (plain arrays and objects: `Array.isArray`, `JSON.stringify` and spreading work) that is
 * never changed afterwards. Completed subtrees are shared between successive values (same
 * identity); a new value copies only the containers on the path from the root to what changed,
 * each in full (plain arrays cannot share storage). To keep the total work linear in the input
 * whatever its shape, that copying is budgeted: a one-time allowance (enough for a new value on
 * every change of arguments up to a few KB) plus a fixed amount per character received. A new
 * value whose copy is not paid for yet is held back: `value` returns the previous snapshot again
 * and {@link PartialJsonParser.pending} is true, until enough text has arrived. Hence:
 * - every value is exactly the partial value of some earlier moment (a snapshot of the whole),
 *   and each one extends the one before it;
 * - arguments up to about 1 KB get a new value on every visible change; beyond that, an open
 *   array of n elements is re-copied about once per n/2 characters received, an open object of
 *   n keys once per 3n (30n beyond 1,000 keys): a constant number of times per doubling, O(n)
 *   in total;
 * - the value is complete and exact as soon as the root value is ({@link done}).
 * {@link openPath} and {@link isComplete} describe the value that `value` returns.
 *
 * `snapshots: 'live'`: `value` returns one tree that the parser keeps mutating in place (strings
 * are replaced, keys and elements added). Each read is O(1) and always current. Use it when each
 * value is consumed before the next fragment is pushed (and not kept, compared or memoised by
 * identity).
 *
 * Strings are appended with `+=` (V8 ropes): a read never flattens them, so a 1 MB string that
 * arrives in 1–8 character fragments costs O(1) per fragment. A string is flattened once, when it
 * is complete, so a value holds about the heap `JSON.parse`'s value of the same text does.
 *
 * ## Errors
 * `push` never throws. Invalid JSON puts the parser in an error state ({@link error}, a
 * `malformed-json` error: the library's error family, code `malformed-json`, with `detail` and
 * the character offset `position`); later pushes are ignored. {@link end}
 * throws the error, or a new one when the text stopped before the root value was complete. Inside
 * a value nested deeper than `maxPartialDepth`, an error is found when that value closes (or at
 * `end()`), with the same position.
 *
 * @module
 */
import { type ToolStreamError } from '../errors';
import { aBoolean, aCount, checkOptions, oneOf, type OptionChecks } from '../internal/options';
import { copyCost, pathExists, store, type Container, type Frame, type JsonPath } from './partialJsonSupport';
import { CLEAN, PartialJsonTree } from './partialJsonTree';

export { ToolStreamError } from '../errors';
export type { JsonPath } from './partialJsonSupport';

/** Options of {@link PartialJsonParser}. */
export interface PartialJsonOptions {
  /** Show numbers and literals before they are complete (`12` of `123`, `tr` as `true`). Default `false`. */
  readonly allowPartialLiterals?: boolean;
  /** `'immutable'` (default): every value read is a snapshot never mutated afterwards. `'live'`: one tree mutated in place. */
  readonly snapshots?: 'immutable' | 'live';
  /**
   * Containers nested deeper than this are shown empty until complete, then parsed whole by
   * `JSON.parse` (the root container is at depth 1). Default 256 (`DEFAULT_MAX_PARTIAL_DEPTH`);
   * `Infinity` shows every level (and costs a frame per level).
   */
  readonly maxPartialDepth?: number;
}

/** The default `maxPartialDepth`: far deeper than any real tool's arguments. */
export const DEFAULT_MAX_PARTIAL_DEPTH = 256;

/**
 * What snapshots may spend on copying, in the units of `copyCost` (roughly machine instructions):
 * a one-time allowance, so that arguments of a few KB get a new value on every change…
 */
const ALLOWANCE = 100_000;
/** …plus this much per character received (about half of what parsing a character costs). */
const PER_CHAR = 20;

/** The `maxPartialDepth` option, checked: a whole number ≥ 0, or `Infinity`. */
export function maxPartialDepthOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_PARTIAL_DEPTH;
  if (value === Infinity || (Number.isInteger(value) && value >= 0)) return value;
  throw new RangeError(`rxjs-tool-calls: maxPartialDepth must be a whole number >= 0 or Infinity (got ${String(value)})`);
}

/** The checks of {@link PartialJsonOptions}' keys (the parser's, and `partialToolCalls()`'s and `partialObject()`'s). */
export const PARSER_OPTION_CHECKS: OptionChecks = { allowPartialLiterals: aBoolean, snapshots: /* @__PURE__ */ oneOf(['immutable', 'live']), maxPartialDepth: /* @__PURE__ */ aCount(0) };

/** An incremental (streaming) JSON parser that shows the value received so far. */
export class PartialJsonParser extends PartialJsonTree {
  private readonly live: boolean;
  /** What snapshots spent on copying so far (see {@link ALLOWANCE}). */
  private spent = 0;
  /** The open path of the last snapshot (immutable mode). */
  private snapPath: JsonPath | undefined = [];
  private copied = 0;

  /**
   * A parser for one JSON text; feed it with {@link push}.
   *
   * @param options `allowPartialLiterals`, `snapshots` and `maxPartialDepth`.
   * @throws {ToolStreamError} `invalid-option` for an option it does not take or a value it cannot use
   *   (`maxPartialDepth` must be a whole number ≥ 0 or `Infinity`).
   */
  constructor(options: PartialJsonOptions = {}) {
    checkOptions('PartialJsonParser', options, PARSER_OPTION_CHECKS);
    super(options.allowPartialLiterals === true, maxPartialDepthOf(options.maxPartialDepth));
    this.live = options.snapshots === 'live';
  }

  /**
   * The value received so far: `undefined` before the root value has started (or while a root
   * number is incomplete). In immutable mode, possibly the previous snapshot again (see the module).
   */
  get value(): unknown {
    if (this.dirty !== CLEAN) this.sync();
    return this.root;
  }

  /** Counts visible changes: when it has not moved since the last read, {@link value} shows nothing new. */
  get changeCount(): number {
    return this.changes;
  }

  /**
   * True when something received is not in the last {@link value} yet: in immutable mode a
   * change may be held back until the text pays for its copy, so read `value` again after later
   * pushes even when {@link changeCount} did not move.
   */
  get pending(): boolean {
    return this.dirty !== CLEAN;
  }

  /** True once the root value is complete (whitespace may still follow). */
  get done(): boolean {
    return this.finished;
  }

  /** The syntax error, once the input is known to be invalid JSON. */
  get error(): ToolStreamError<'malformed-json'> | undefined {
    return this.failure;
  }

  /**
   * How many members (array elements and object keys) snapshots have copied so far: the work
   * immutable mode adds to parsing (always 0 in live mode). For tests and benchmarks.
   */
  get copiedMembers(): number {
    return this.copied;
  }

  /** How many characters were pushed. */
  get position(): number {
    return this.offset;
  }

  /** The final value. Throws the `malformed-json` error when the input is invalid or incomplete. */
  end(): unknown {
    this.finishInput();
    if (this.failure) throw this.failure;
    return this.value;
  }

  /**
   * True when the value at `path` of {@link value} is complete: it exists there and will never
   * change again. Open containers, the string being received and paths not reached yet are not
   * complete. `isComplete([])` is the same as {@link done}.
   */
  isComplete(path: JsonPath): boolean {
    if (!pathExists(this.value, path, 0)) return false;
    const open = this.openPath;
    if (open === undefined || path.length > open.length) return true;
    for (let i = 0; i < path.length; i++) if (path[i] !== open[i]) return true;
    return false;
  }

  /**
   * The path of the value being received in {@link value} (`[]` while the root container is open
   * and between its members), or `undefined` once the root value is complete. Every value in
   * {@link value} that is not on this path (the path itself and its ancestors) is complete, so
   * with an immutable snapshot and the `openPath` read at the same moment, completeness can be
   * judged later (see `isSettled`). A frozen array.
   */
  get openPath(): JsonPath | undefined {
    if (this.finished) return undefined;
    if (this.live) return this.currentPath();
    if (this.dirty !== CLEAN) this.sync();
    return this.dirty === CLEAN ? this.currentPath() : this.snapPath; // the snapshot is current, or held back
  }

  /** Bring `root` up to date with what was received (immutable mode: when the copy is paid for). */
  private sync(): void {
    const depth = this.depth;
    if (depth === 0) {
      if (!this.finished) this.root = this.leafValue();
    } else if (this.live) {
      const top = this.frames[depth - 1] as Frame;
      const leafValue = this.leafValue();
      if (leafValue !== undefined) store(top, top.c, leafValue);
      this.root = (this.frames[0] as Frame).c;
    } else {
      const deepest = this.dirty < depth - 1 ? this.dirty : depth - 1;
      const last = this.frames[deepest] as Frame;
      const cost = last.base + copyCost(last);
      if (this.spent + cost > ALLOWANCE + PER_CHAR * this.offset) return; // not paid for yet
      this.spent += cost;
      let child = this.leafValue();
      for (let i = deepest; i >= 0; i--) {
        const frame = this.frames[i] as Frame;
        const copy: Container = frame.arr ? (frame.c as unknown[]).slice() : { ...frame.c };
        this.copied += frame.arr ? (copy as unknown[]).length : frame.n;
        if (i < depth - 1) store(frame, copy, (this.frames[i + 1] as Frame).snap);
        else if (child !== undefined) store(frame, copy, child);
        frame.snap = copy;
        child = undefined;
      }
      this.root = (this.frames[0] as Frame).snap;
      this.snapPath = this.currentPath();
    }
    this.dirty = CLEAN;
  }
}
