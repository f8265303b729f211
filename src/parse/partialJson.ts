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
 *   appear at once (`-12.` → -12, `tr` → true).
 * - An object key appears when its name is complete **and its value has started**; that is, with
 *   `""` for a string, `{}` / `[]` for a container, and for a number or literal only once that
 *   value is shown. A key is never shown with an `undefined` value.
 * - After the last fragment the value equals `JSON.parse` of the whole text.
 *
 * ## Snapshots and their cost
 * `snapshots: 'immutable'` (the default): {@link PartialJsonParser.value} returns a value that is
 * never changed afterwards. Completed subtrees are shared between successive values (same
 * identity), and a read after a change copies only the open containers from the root to the
 * value being received: the cost is the sum of their widths (number of keys or elements), and 0
 * when nothing visible changed since the last read. That is O(depth) for narrow arguments, but an
 * open array with thousands of elements that is still being appended to is copied on each read
 * (O(width)): prefer `'live'` for such payloads. `bench/partial-json.mjs` measures both modes.
 *
 * `snapshots: 'live'`: `value` returns one tree that the parser keeps mutating in place (strings
 * are replaced, keys and elements added). Each read is O(1). Use it when each value is consumed
 * before the next fragment is pushed (and not kept, compared or memoised by identity).
 *
 * Strings are appended with `+=` (V8 ropes): a read never flattens them, so a 1 MB string that
 * arrives in 1–8 character fragments costs O(1) per fragment; reading its characters costs O(n)
 * for the one who reads them.
 *
 * ## Errors
 * `push` never throws. Invalid JSON puts the parser in an error state ({@link error}, a
 * {@link PartialJsonError} with the character offset); later pushes are ignored. {@link end}
 * throws the error, or a new one when the text stopped before the root value was complete.
 *
 * @module
 */
import { Frame, hasChild, isSpace, pathExists, put, type Container, type JsonPath, type PartialJsonError } from './partialJsonSupport';
import { AFTER, ARR_FIRST, COLON, END, ERR, ESC, HEX, LEAF_NONE, LIT, NUM, OBJ_FIRST, OBJ_KEY, PartialJsonScanner, STR, VALUE } from './partialJsonScanner';

export { PartialJsonError, type JsonPath } from './partialJsonSupport';

/** Options of {@link PartialJsonParser}. */
export interface PartialJsonOptions {
  /** Show numbers and literals before they are complete (`12` of `123`, `tr` as `true`). Default `false`. */
  readonly allowPartialLiterals?: boolean;
  /** `'immutable'` (default): every value read is a new, never-mutated snapshot. `'live'`: one tree mutated in place. */
  readonly snapshots?: 'immutable' | 'live';
}

const CLEAN = -2;

/** An incremental (streaming) JSON parser that shows the value received so far. */
export class PartialJsonParser extends PartialJsonScanner {
  private readonly live: boolean;
  private readonly frames: Frame[] = [];
  private depth = 0;
  /** The deepest frame whose snapshot is stale (all shallower ones are too); CLEAN when none. */
  private dirty = CLEAN;
  private changes = 0;
  private root: unknown = undefined;
  private finished = false;

  /**
   * A parser for one JSON text; feed it with {@link push}.
   *
   * @param options `allowPartialLiterals` and `snapshots`.
   */
  constructor(options: PartialJsonOptions = {}) {
    super(options.allowPartialLiterals === true);
    this.live = options.snapshots === 'live';
  }

  /** The value received so far: `undefined` before the root value has started (or while a root number is incomplete). */
  get value(): unknown {
    if (this.dirty !== CLEAN) this.sync();
    return this.root;
  }

  /** Counts visible changes: when it has not moved since the last read, {@link value} shows nothing new. */
  get changeCount(): number {
    return this.changes;
  }

  /** True once the root value is complete (whitespace may still follow). */
  get done(): boolean {
    return this.finished;
  }

  /** The syntax error, once the input is known to be invalid JSON. */
  get error(): PartialJsonError | undefined {
    return this.failure;
  }

  /** How many characters were pushed. */
  get position(): number {
    return this.offset;
  }

  /** Read the next fragment. Never throws: invalid JSON sets {@link error} and later pushes are ignored. */
  push(fragment: string): void {
    if (this.state === ERR) return;
    const n = fragment.length;
    let i = 0;
    while (i < n) {
      const state = this.state;
      if (state === STR) {
        i = this.scanString(fragment, i, n);
        continue;
      }
      if (state === NUM) {
        i = this.scanNumber(fragment, i, n);
        continue;
      }
      const c = fragment.charCodeAt(i);
      if (state === ESC || state === HEX) {
        this.escape(c, i);
        i++;
        continue;
      }
      if (state === LIT) {
        this.literal(c, i);
        i++;
        continue;
      }
      if (isSpace(c)) {
        i++;
        continue;
      }
      i++;
      switch (state) {
        case VALUE:
          this.startValue(c, i - 1);
          break;
        case ARR_FIRST:
          if (c === 93) this.close();
          else this.startValue(c, i - 1);
          break;
        case OBJ_FIRST:
        case OBJ_KEY:
          if (c === 34) this.startString(true);
          else if (c === 125 && state === OBJ_FIRST) this.close();
          else this.fail(`Unexpected character ${JSON.stringify(fragment[i - 1])}, expected a property name`, i - 1);
          break;
        case COLON:
          if (c === 58) this.state = VALUE;
          else this.fail(`Unexpected character ${JSON.stringify(fragment[i - 1])}, expected ':'`, i - 1);
          break;
        case AFTER: {
          const arr = (this.frames[this.depth - 1] as Frame).arr;
          if (c === 44) this.state = arr ? VALUE : OBJ_KEY;
          else if (c === (arr ? 93 : 125)) this.close();
          else this.fail(`Unexpected character ${JSON.stringify(fragment[i - 1])}, expected ',' or '${arr ? ']' : '}'}'`, i - 1);
          break;
        }
        case END:
          this.fail(`Unexpected non-whitespace character ${JSON.stringify(fragment[i - 1])} after JSON`, i - 1);
          break;
      }
      if (this.state === ERR) return;
    }
    this.offset += n;
  }

  /** The final value. Throws the {@link PartialJsonError} when the input is invalid or incomplete. */
  end(): unknown {
    if (this.failure) throw this.failure;
    if (!this.finished && this.state === NUM && this.depth === 0) this.finishNumber(0);
    if (this.failure) throw this.failure;
    if (!this.finished) {
      this.fail(this.offset === 0 && this.state === VALUE ? 'Unexpected end of JSON input (no value)' : 'Unexpected end of JSON input', 0);
      throw this.failure as unknown as PartialJsonError;
    }
    return this.value;
  }

  /**
   * True when the value at `path` is complete: it exists in {@link value} and will never change
   * again. Open containers, the string being received and paths not reached yet are not complete.
   * `isComplete([])` is the same as {@link done}.
   */
  isComplete(path: JsonPath): boolean {
    if (this.finished) return pathExists(this.root, path, 0);
    const depth = this.depth;
    const valueOpen = this.leaf !== LEAF_NONE;
    for (let i = 0; i < path.length && i < depth; i++) {
      const frame = this.frames[i] as Frame;
      const segment = path[i] as string | number;
      const open = i < depth - 1 || valueOpen;
      if (open && segment === frame.k) continue;
      if (!hasChild(frame.c, segment)) return false;
      return pathExists((frame.c as Record<string | number, unknown>)[segment], path, i + 1);
    }
    return false;
  }

  /**
   * The path of the value being received right now (`[]` while the root container is open and
   * between its members), or `undefined` once the root value is complete. Every value in
   * {@link value} that is not on this path (the path itself and its ancestors) is complete, so
   * with an immutable snapshot and the `openPath` read at the same moment, completeness can be
   * judged later (see `isSettled`).
   */
  get openPath(): JsonPath | undefined {
    if (this.finished) return undefined;
    const path: Array<string | number> = [];
    const depth = this.depth;
    for (let i = 0; i < depth; i++) {
      if (i === depth - 1 && this.leaf === LEAF_NONE) break;
      path.push((this.frames[i] as Frame).k);
    }
    return path;
  }

  // --- values --------------------------------------------------------------------------------

  private startValue(c: number, at: number): void {
    if (this.depth > 0) {
      const top = this.frames[this.depth - 1] as Frame;
      if (top.arr) top.k = (top.c as unknown[]).length;
    }
    if (c === 34) this.startString(false);
    else if (c === 123 || c === 91) this.open(c === 91);
    else if (c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110) this.startScalar(c);
    else this.fail(`Unexpected character ${JSON.stringify(String.fromCharCode(c))}, expected a value`, at);
  }

  /** Complete the value being received with `value`. */
  protected complete(value: unknown): void {
    this.leaf = LEAF_NONE;
    if (this.depth === 0) {
      this.changes++;
      this.root = value;
      this.finished = true;
      this.state = END;
      this.dirty = CLEAN;
      return;
    }
    const top = this.frames[this.depth - 1] as Frame;
    put(top.c, top.k, value);
    this.state = AFTER;
    this.touch();
  }

  private open(arr: boolean): void {
    const container: Container = arr ? [] : {};
    if (this.depth > 0) {
      const parent = this.frames[this.depth - 1] as Frame;
      put(parent.c, parent.k, container);
    }
    let frame = this.frames[this.depth];
    if (frame === undefined) {
      frame = new Frame();
      this.frames.push(frame);
    }
    frame.c = container;
    frame.arr = arr;
    frame.k = arr ? 0 : '';
    this.depth++;
    this.state = arr ? ARR_FIRST : OBJ_FIRST;
    this.touch();
  }

  private close(): void {
    const frame = this.frames[--this.depth] as Frame;
    const container = frame.c;
    frame.c = frame.snap = [];
    this.changes++;
    if (this.depth === 0) {
      this.root = container;
      this.finished = true;
      this.state = END;
      this.dirty = CLEAN;
      return;
    }
    this.state = AFTER;
    this.dirty = this.depth - 1; // the parent already holds `container` at its key
  }

  /** Mark the frame on top (and so every frame below it) as changed since the last read. */
  protected touch(): void {
    this.changes++;
    const top = this.depth - 1;
    if (this.dirty < top) this.dirty = top;
  }

  protected keyDone(key: string): void {
    (this.frames[this.depth - 1] as Frame).k = key;
  }

  /** Bring `root` up to date with what was received. */
  private sync(): void {
    const depth = this.depth;
    const leafValue = this.leafValue();
    if (depth === 0) {
      if (!this.finished) this.root = leafValue;
    } else if (this.live) {
      const top = this.frames[depth - 1] as Frame;
      if (leafValue !== undefined) put(top.c, top.k, leafValue);
      this.root = (this.frames[0] as Frame).c;
    } else {
      let child = leafValue;
      for (let i = this.dirty < depth - 1 ? this.dirty : depth - 1; i >= 0; i--) {
        const frame = this.frames[i] as Frame;
        const copy: Container = frame.arr ? (frame.c as unknown[]).slice() : { ...frame.c };
        if (i < depth - 1) put(copy, frame.k, (this.frames[i + 1] as Frame).snap);
        else if (child !== undefined) put(copy, frame.k, child);
        frame.snap = copy;
        child = undefined;
      }
      this.root = (this.frames[0] as Frame).snap;
    }
    this.dirty = CLEAN;
  }
}
