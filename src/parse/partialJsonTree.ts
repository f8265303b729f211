/**
 * The structural half of the streaming parser in `partialJson.ts`: the stack of open containers,
 * where each completed token goes, the open path, and values nested deeper than `maxPartialDepth`
 * (collected raw and parsed by `JSON.parse` once complete). Snapshots are built on top of this in
 * {@link PartialJsonParser}.
 *
 * @module
 * @internal
 */
import { jsonErrorPosition } from './jsonErrorPosition';
import { Frame, RawValue, copyCost, isSpace, store, type Container, type JsonPath } from './partialJsonSupport';
import { AFTER, ARR_FIRST, COLON, DEEP, END, ERR, ESC, HEX, LEAF_DEEP, LEAF_NONE, LIT, NUM, OBJ_FIRST, OBJ_KEY, PartialJsonScanner, STR, VALUE } from './partialJsonScanner';

/** `dirty` when no frame changed since the last snapshot. */
export const CLEAN = -2;

/** Containers, the open path and deep values; see {@link PartialJsonParser}. */
export abstract class PartialJsonTree extends PartialJsonScanner {
  /**
   * One frame per open container, reused across opens (`frames[0]` is the root).
   *
   * @internal
   */
  protected readonly frames: Frame[] = [];
  /** How many containers are open. */
  protected depth = 0;
  /** The deepest frame changed since the last snapshot (all shallower ones are stale too); CLEAN when none. */
  protected dirty = CLEAN;
  /** Counts visible changes. */
  protected changes = 0;
  /** The root value once complete (or the root scalar, or the last snapshot: see the subclass). */
  protected root: unknown = undefined;
  /** True once the root value is complete. */
  protected finished = false;
  /** Containers nested deeper than this are collected raw and parsed whole. */
  private readonly maxDepth: number;
  /** The value nested too deep, while it is being collected. */
  private readonly raw = new RawValue();
  /** What a value nested too deep shows until it is complete: an empty array or object. */
  private shell: Container = [];
  /** The open path, computed at most once per change of the path. */
  private path: JsonPath | undefined = undefined;

  protected constructor(partialLiterals: boolean, maxDepth: number) {
    super(partialLiterals);
    this.maxDepth = maxDepth;
  }

  /** Read the next fragment. Never throws: invalid JSON sets the error and later pushes are ignored. */
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
      if (state === DEEP) {
        const end = this.raw.scan(fragment, i, n);
        if (end < 0) break;
        this.finishDeep();
        if (this.state === ERR) return;
        i = end;
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
          this.startValue(fragment, c, i - 1);
          break;
        case ARR_FIRST:
          if (c === 93) this.close();
          else this.startValue(fragment, c, i - 1);
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

  /** The input ended: complete a root number, or record why the text is incomplete. */
  protected finishInput(): void {
    if (this.failure !== undefined || this.finished) return;
    if (this.state === NUM && this.depth === 0) {
      this.finishNumber('', 0);
      if (this.finished) return;
    }
    if (this.state === DEEP) {
      // The first error inside the raw text, else its end (jsonErrorPosition gives the text's length then).
      const text = this.raw.text;
      this.raw.text = '';
      const at = jsonErrorPosition(text) ?? text.length;
      return this.failAbsolute(at < text.length ? 'Invalid JSON in a value nested deeper than maxPartialDepth' : 'Unexpected end of JSON input', this.raw.start + at);
    }
    if (this.failure === undefined) this.fail(this.offset === 0 && this.state === VALUE ? 'Unexpected end of JSON input (no value)' : 'Unexpected end of JSON input', 0);
  }

  /** The path of the value being received (see `openPath`), cached until it changes. */
  protected currentPath(): JsonPath | undefined {
    if (this.finished) return undefined;
    if (this.path !== undefined) return this.path;
    const path: Array<string | number> = [];
    const depth = this.depth;
    for (let i = 0; i < depth; i++) {
      if (i === depth - 1 && this.leaf === LEAF_NONE) break;
      path.push((this.frames[i] as Frame).k);
    }
    return (this.path = Object.freeze(path));
  }

  protected override leafValue(): unknown {
    return this.leaf === LEAF_DEEP ? this.shell : super.leafValue();
  }

  private startValue(fragment: string, c: number, at: number): void {
    this.path = undefined;
    if (this.depth > 0) {
      const top = this.frames[this.depth - 1] as Frame;
      if (top.arr) top.k = (top.c as unknown[]).length;
      else top.n++;
    }
    if (c === 34) this.startString(false);
    else if (c === 123 || c === 91) {
      if (this.depth < this.maxDepth) this.open(c === 91);
      else this.startDeep(c === 91, at);
    } else if (c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110) this.startScalar(fragment, at);
    else this.fail(`Unexpected character ${JSON.stringify(String.fromCharCode(c))}, expected a value`, at);
  }

  /** Complete the value being received with `value`. */
  protected complete(value: unknown): void {
    this.leaf = LEAF_NONE;
    this.path = undefined;
    if (this.depth === 0) {
      this.changes++;
      this.root = value;
      this.finished = true;
      this.state = END;
      this.dirty = CLEAN;
      return;
    }
    const top = this.frames[this.depth - 1] as Frame;
    store(top, top.c, value);
    this.state = AFTER;
    this.touch();
  }

  private open(arr: boolean): void {
    const container: Container = arr ? [] : {};
    let base = 0;
    if (this.depth > 0) {
      const parent = this.frames[this.depth - 1] as Frame;
      store(parent, parent.c, container);
      base = parent.base + copyCost(parent);
    }
    let frame = this.frames[this.depth];
    if (frame === undefined) {
      frame = new Frame();
      this.frames.push(frame);
    }
    frame.c = container;
    frame.arr = arr;
    frame.k = arr ? 0 : '';
    frame.n = 0;
    frame.base = base;
    this.depth++;
    this.state = arr ? ARR_FIRST : OBJ_FIRST;
    this.touch();
  }

  private close(): void {
    this.path = undefined;
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

  /** A container opens deeper than `maxPartialDepth`: show it empty and collect its text. */
  private startDeep(arr: boolean, at: number): void {
    this.state = DEEP;
    this.leaf = LEAF_DEEP;
    this.shell = arr ? [] : {};
    this.raw.begin(arr ? '[' : '{', this.offset + at);
    this.touch();
  }

  /** The value nested too deep is complete: parse it whole. */
  private finishDeep(): void {
    const text = this.raw.text;
    this.raw.text = '';
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const at = jsonErrorPosition(text);
      const message = error instanceof Error ? error.message : String(error);
      return this.failAbsolute(`Invalid JSON in a value nested deeper than maxPartialDepth (${message})`, this.raw.start + (at ?? 0));
    }
    this.complete(value);
  }
}
