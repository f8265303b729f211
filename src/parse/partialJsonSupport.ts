/**
 * Small pieces the streaming parser in `partialJson.ts` is built from: the path type,
 * the per-depth frame and the helpers that write and look up keys safely.
 *
 * @module
 */

/** A path into a JSON value: object keys are strings, array indexes numbers. */
export type JsonPath = ReadonlyArray<string | number>;

/** A JSON object or array under construction. */
export type Container = Record<string, unknown> | unknown[];

/** One open object or array: the parser keeps one per depth and reuses them. */
export class Frame {
  /** The container itself; it holds every completed child, and open child containers at their key. */
  c: Container = [];
  arr = false;
  /** The key (object) or index (array) of the child being parsed or parsed last. */
  k: string | number = 0;
  /** The number of members written to an object (an upper bound of its keys: a repeated key counts twice). */
  n = 0;
  /** What copying the frames below this one costs (see `copyCost`), fixed while this one is open. */
  base = 0;
  /** The snapshot last handed out for this container (immutable mode). */
  snap: Container = [];
}

/**
 * The cost of copying `frame`'s container for a snapshot, in rough machine instructions: an array
 * slice is a call plus a memory copy; an object is rebuilt key by key (and one of more than 1,000
 * keys is a hash table, ten times slower per key).
 */
export function copyCost(frame: Frame): number {
  if (frame.arr) return 100 + 8 * (frame.c as unknown[]).length;
  return 150 + frame.n * (frame.n > 1000 ? 600 : 60);
}

/**
 * Write `value` into `target` (the frame's container or a copy of it) at the frame's key, as
 * {@link put} does; array elements and object members are written at separate sites, so that
 * each stays a fast, single-kind store.
 */
export function store(frame: Frame, target: Container, value: unknown): void {
  if (frame.arr) {
    const array = target as unknown[];
    if (frame.k === array.length) array.push(value);
    else array[frame.k as number] = value;
  } else if (frame.k !== '__proto__') (target as Record<string, unknown>)[frame.k as string] = value;
  else put(target, '__proto__', value);
}

/** Write `value` at `key` as `JSON.parse` would (an own `__proto__` key stays a plain property). */
export function put(target: Container, key: string | number, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else (target as Record<string | number, unknown>)[key] = value;
}

/** True when `node` has a completed-or-open child at `segment`. */
export function hasChild(node: unknown, segment: string | number): boolean {
  if (Array.isArray(node)) return typeof segment === 'number' && Number.isInteger(segment) && segment >= 0 && segment < node.length;
  return typeof node === 'object' && node !== null && typeof segment === 'string' && Object.prototype.hasOwnProperty.call(node, segment);
}

/** True when every segment of `path` from `from` on exists below `node`. */
export function pathExists(node: unknown, path: JsonPath, from: number): boolean {
  let current = node;
  for (let i = from; i < path.length; i++) {
    const segment = path[i] as string | number;
    if (!hasChild(current, segment)) return false;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return true;
}

/** Whitespace JSON allows between tokens: space, tab, line feed, carriage return. */
export function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** The value of one hexadecimal digit, or -1. */
export function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 32;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

/** What a backslash followed by `c` stands for (`\n` → line feed …); '' for an invalid escape; 'u' starts `\uXXXX`. */
export function escapeFor(c: number): string {
  switch (c) {
    case 34:
      return '"';
    case 92:
      return '\\';
    case 47:
      return '/';
    case 98:
      return '\b';
    case 102:
      return '\f';
    case 110:
      return '\n';
    case 114:
      return '\r';
    case 116:
      return '\t';
    case 117:
      return 'u';
    default:
      return '';
  }
}

/**
 * The raw text of a value nested deeper than `maxPartialDepth`, collected (not parsed) until its
 * brackets balance; the parser then hands it to `JSON.parse`, which needs no stack for nesting.
 * Only strings (so that brackets inside them do not count) and brackets are looked at here.
 */
export class RawValue {
  /** The text so far, from the opening bracket. */
  text = '';
  /** Where the opening bracket is, in characters of the whole input. */
  start = 0;
  private level = 0;
  private inString = false;
  private escaped = false;

  /**
   * Start at an opening bracket.
   *
   * @param bracket `'['` or `'{'`.
   * @param start Its position in the whole input.
   */
  begin(bracket: string, start: number): void {
    this.text = bracket;
    this.start = start;
    this.level = 1;
    this.inString = this.escaped = false;
  }

  /**
   * Collect `s[i..n)` up to the bracket that closes the value.
   *
   * @return The position after that bracket, or -1 when the value goes on past `n`.
   */
  scan(s: string, i: number, n: number): number {
    let j = i;
    for (; j < n; j++) {
      const c = s.charCodeAt(j);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) this.inString = false;
      } else if (c === 34) this.inString = true;
      else if (c === 91 || c === 123) this.level++;
      else if ((c === 93 || c === 125) && --this.level === 0) {
        this.text += s.slice(i, j + 1);
        return j + 1;
      }
    }
    this.text += i === 0 ? s : s.slice(i);
    return -1;
  }
}
