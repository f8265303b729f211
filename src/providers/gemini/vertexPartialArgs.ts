/**
 * Vertex AI streamed function-call arguments (`streamFunctionCallArguments`): each `partialArgs[]`
 * entry names a `jsonPath` (`$.a.b[0]`) and a value; `stringValue` is appended to the string already
 * there, `numberValue`, `boolValue` and `nullValue` replace it. The builder keeps the arguments
 * object, and writes it as JSON text while the entries arrive, append-only: a string shows as it
 * grows, a number or a boolean whole, the moment its entry is read.
 *
 * The text is the object so far with the containers on the path of the last entry left open, and
 * the string there (its closing quote is written when the next entry goes elsewhere, or at the
 * call's end: a piece may follow even after an entry without `willContinue`). An entry that goes on from there (a new
 * key or array element, a piece of the open string, a path that leaves open containers for a new
 * branch) is appended; an entry that changes what the text already closed (a key written before, a
 * string whose closing quote was written, a value replaced) cannot be: the whole object is written
 * again, a restatement, with the new entry's path left open so the entries after it append again.
 *
 * @module
 */
import { asNumber, asRecord, asString } from '../decoder';
import { stringifyJson } from '../wire';

/** One step of a JSON path: an object key or an array index. */
export type JsonPathSegment = string | number;

/** A parsed `jsonPath`: its steps, and whether it ended with `[]` (it names an array). */
export interface ParsedJsonPath {
  /** The steps from the root: object keys and array indices. */
  readonly segments: JsonPathSegment[];
  /** The path ended with `[]` (e.g. `$.tags[]`): the value there is an array. */
  readonly array: boolean;
}

/** Parse `$`, `.key`, `[0]`, `['key']` / `["key"]` steps and a final `[]`; `undefined` when the path is malformed. */
export function parseJsonPath(path: string): ParsedJsonPath | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: JsonPathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === '[' && path[i + 1] === ']' && i + 2 === path.length) return segments.length === 0 ? undefined : { segments, array: true };
    if (c === '.') {
      let end = i + 1;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
      if (end === i + 1) return undefined;
      segments.push(path.slice(i + 1, end));
      i = end;
    } else if (c === '[') {
      const quote = path[i + 1];
      if (quote === "'" || quote === '"') {
        let key = '';
        let j = i + 2;
        for (; j < path.length && path[j] !== quote; j++) {
          if (path[j] === '\\' && j + 1 < path.length) j++;
          key += path[j];
        }
        if (path[j + 1] !== ']') return undefined;
        segments.push(key);
        i = j + 2;
      } else {
        const close = path.indexOf(']', i);
        const digits = close === -1 ? '' : path.slice(i + 1, close);
        if (!/^\d+$/.test(digits)) return undefined;
        segments.push(Number(digits));
        i = close + 1;
      }
    } else {
      return undefined;
    }
  }
  return { segments, array: false };
}

type Container = Record<string, unknown> | unknown[];

function own(container: Container, key: JsonPathSegment): unknown {
  if (Array.isArray(container)) return typeof key === 'number' ? container[key] : undefined;
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(container, key) ? container[key] : undefined;
}

/** Set an own property (never a prototype setter such as `__proto__`). */
function put(container: Container, key: JsonPathSegment, value: unknown): void {
  if (Array.isArray(container)) container[key as number] = value;
  else Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A piece of a string value as JSON text, without the quotes. */
function escaped(piece: string): string {
  return JSON.stringify(piece).slice(1, -1);
}

/**
 * A value written whole: its JSON text, and a space after a number (a number at the end of the text
 * so far could still grow, so a reader would hold it back; the space ends it).
 */
function whole(value: unknown): string {
  return typeof value === 'number' ? `${stringifyJson(value)} ` : stringifyJson(value);
}

/** One container open in the text written so far. */
interface OpenLevel {
  readonly container: Container;
  /** How many members of it the text has (the next one is preceded by a comma). */
  members: number;
}

/** What the builder hands on after a chunk's entries: text to append, or (`restated`) the whole text so far. */
export interface ArgumentsText {
  /** The JSON text to append to what was written (or, when `restated`, to write instead of it). */
  readonly text: string;
  /** An entry changed what the text already closed: `text` is the whole arguments so far. */
  readonly restated: boolean;
}

/** Accumulates `partialArgs` entries into one arguments object, and writes it as JSON text as they arrive. */
export class PartialArgsBuilder {
  private readonly root: Record<string, unknown>;
  /** The containers open in the text, the root first (each one a member of the one before). */
  private open: OpenLevel[] = [];
  /** The key (in the innermost open container) of the string whose closing quote is not written yet; `undefined` when none is open. */
  private stringKey: JsonPathSegment | undefined = undefined;
  /** Text written since the last {@link PartialArgsBuilder.take}. */
  private pending = '';
  /** An entry since the last `take` could not be appended: the next `take` restates the whole text. */
  private restate = false;
  /** The path of the last entry applied, and whether it opened a container or a string there (where a restatement leaves the text open). */
  private lastPath: JsonPathSegment[] = [];
  private lastOpens: 'container' | 'string' | undefined = undefined;

  /** Start from the `args` a part may already carry (copied, the input is not mutated). */
  constructor(initial?: Record<string, unknown>) {
    this.root = initial === undefined ? {} : (JSON.parse(stringifyJson(initial)) as Record<string, unknown>);
  }

  /** The text of the arguments at the start: the initial `args`, with the root object left open. */
  start(): string {
    this.pending = '';
    this.restate = false;
    return this.written([], undefined);
  }

  /** Apply one `partialArgs` entry; returns why it could not be applied, or `undefined`. */
  apply(value: unknown): string | undefined {
    const entry = asRecord(value);
    if (entry === undefined) return 'a partialArgs entry must be an object';
    const rawPath = asString(entry['jsonPath']);
    const parsed = rawPath === undefined ? undefined : parseJsonPath(rawPath);
    if (parsed === undefined || parsed.segments.length === 0) return `unsupported jsonPath ${JSON.stringify(entry['jsonPath'])}`;
    const path = parsed.segments;
    let append = false;
    let create = false;
    let leaf: unknown;
    if ('stringValue' in entry) {
      leaf = asString(entry['stringValue']);
      append = true;
    } else if ('numberValue' in entry) {
      leaf = asNumber(entry['numberValue']);
    } else if ('boolValue' in entry) {
      leaf = typeof entry['boolValue'] === 'boolean' ? entry['boolValue'] : undefined;
    } else if ('nullValue' in entry) {
      leaf = null;
    } else if ('listValue' in entry) {
      leaf = Array.isArray(entry['listValue']) ? JSON.parse(stringifyJson(entry['listValue'])) : asRecord(entry['listValue'])?.['values'];
      if (!Array.isArray(leaf)) leaf = undefined;
    } else if ('structValue' in entry) {
      const struct = asRecord(entry['structValue']);
      leaf = struct === undefined ? undefined : (JSON.parse(stringifyJson(struct)) as unknown);
    } else if (entry['willContinue'] === true) {
      return undefined; // nothing to set (a bare continuation)
    } else {
      // No value and no continuation: the path names an empty container (`$.tags[]` → [], `$.opts` → {}).
      leaf = parsed.array ? [] : {};
      create = true;
    }
    if (leaf === undefined) return `the value at ${rawPath} has the wrong type`;

    // The containers the path goes through, and the first step that made a new one.
    const containers: Container[] = [this.root];
    let made = path.length - 1;
    let container: Container = this.root;
    for (let step = 0; step < path.length; step++) {
      const key = path[step] as JsonPathSegment;
      if (Array.isArray(container) !== (typeof key === 'number')) return `${rawPath} does not match the shape built so far`;
      if (Array.isArray(container) && (key as number) > container.length) return `${rawPath} skips array positions`;
      if (step === path.length - 1) {
        const existing = own(container, key);
        if (create && existing !== undefined) return undefined; // the container is already there
        put(container, key, append && typeof existing === 'string' ? existing + (leaf as string) : leaf);
        this.write(path, containers, made, existing, leaf, append, create);
        return undefined;
      }
      let next = own(container, key);
      if (next === undefined || next === null) {
        if (next === null)
          made = -1; // a value the text already holds is replaced
        else if (made === path.length - 1) made = step;
        next = typeof path[step + 1] === 'number' ? [] : {};
        put(container, key, next);
      }
      if (typeof next !== 'object') return `${rawPath} does not match the shape built so far`;
      container = next as Container;
      containers.push(container);
    }
    return undefined;
  }

  /**
   * The text of the entries applied since the last call: to append, or the whole arguments so far
   * when one of them changed what was already written.
   */
  take(): ArgumentsText {
    if (this.restate) {
      this.restate = false;
      this.pending = '';
      return {
        text: this.written(this.lastOpens === 'container' ? this.lastPath : this.lastPath.slice(0, -1), this.lastOpens === 'string' ? this.lastPath[this.lastPath.length - 1] : undefined),
        restated: true,
      };
    }
    const text = this.pending;
    this.pending = '';
    return { text, restated: false };
  }

  /** The text that closes what is open: the open string's quote, then every open container (written after {@link PartialArgsBuilder.take}). */
  end(): string {
    let text = this.stringKey === undefined ? '' : '"';
    this.stringKey = undefined;
    for (let i = this.open.length - 1; i >= 0; i--) text += Array.isArray((this.open[i] as OpenLevel).container) ? ']' : '}';
    this.open = [];
    return text;
  }

  /** The arguments built so far, as JSON text. */
  json(): string {
    return stringifyJson(this.root);
  }

  /**
   * The text of one applied entry at `path`: appended when it goes on from what is open (`made`: the
   * first step that made a new container, `containers[i]` the container after step `i`), else a
   * restatement at the next `take`.
   */
  private write(path: JsonPathSegment[], containers: Container[], made: number, existing: unknown, leaf: unknown, append: boolean, create: boolean): void {
    this.lastPath = path;
    this.lastOpens = create ? 'container' : append ? 'string' : undefined;
    if (this.restate) return;
    const open = this.open;
    const depth = path.length; // the leaf's container is containers[depth - 1]
    // A piece of the string that is open: appended as it is.
    if (append && typeof existing === 'string' && this.stringKey === path[depth - 1] && open.length === depth && (open[depth - 1] as OpenLevel).container === containers[depth - 1]) {
      this.pending += escaped(leaf as string);
      return;
    }
    // Anything else is new text at the end: the containers it goes through that already were must be open.
    const kept = made === -1 || existing !== undefined ? -1 : made + 1; // how many containers of the path were there before
    if (kept === -1 || kept > open.length) return this.restateLater();
    for (let i = 0; i < kept; i++) if ((open[i] as OpenLevel).container !== containers[i]) return this.restateLater();
    let text = this.stringKey === undefined ? '' : '"';
    this.stringKey = undefined;
    for (let i = open.length - 1; i >= kept; i--) text += Array.isArray((open[i] as OpenLevel).container) ? ']' : '}';
    open.length = kept;
    for (let step = kept - 1; step < depth; step++) {
      const level = open[open.length - 1] as OpenLevel;
      const key = path[step] as JsonPathSegment;
      text += (level.members++ > 0 ? ',' : '') + (typeof key === 'string' ? `${JSON.stringify(key)}:` : '');
      if (step < depth - 1) {
        const next = containers[step + 1] as Container;
        text += Array.isArray(next) ? '[' : '{';
        open.push({ container: next, members: 0 });
      } else if (create) {
        text += Array.isArray(leaf) ? '[' : '{';
        open.push({ container: leaf as Container, members: 0 });
      } else if (append) {
        text += `"${escaped(leaf as string)}`;
        this.stringKey = key;
      } else {
        text += whole(leaf);
      }
    }
    this.pending += text;
  }

  private restateLater(): void {
    this.restate = true;
    this.pending = '';
  }

  /**
   * The whole arguments as text, with the containers along `chain` left open (in an object, the
   * chain's key is written last; in an array, only its last element can stay open) and, at the end
   * of the chain, the string at `openString` left open; the open containers become {@link open}.
   */
  private written(chain: JsonPathSegment[], openString: JsonPathSegment | undefined): string {
    const out: string[] = [];
    const open: OpenLevel[] = [];
    let container: Container = this.root;
    let stringKey: JsonPathSegment | undefined;
    for (let depth = 0; ; depth++) {
      const isArray = Array.isArray(container);
      out.push(isArray ? '[' : '{');
      const level: OpenLevel = { container, members: 0 };
      open.push(level);
      const atEnd = depth === chain.length;
      let special: JsonPathSegment | undefined = atEnd ? openString : chain[depth];
      const keys: JsonPathSegment[] = isArray ? Array.from({ length: (container as unknown[]).length }, (_, i) => i) : Object.keys(container);
      // An array element can stay open only when it is the last; a string only when it is one.
      if (special !== undefined && (isArray ? special !== keys.length - 1 : !keys.includes(special))) special = undefined;
      if (special !== undefined && atEnd && typeof own(container, special) !== 'string') special = undefined;
      if (special !== undefined && !atEnd && typeof own(container, special) !== 'object') special = undefined;
      let lastValue: unknown;
      for (const key of keys) {
        if (key === special) continue;
        const value = own(container, key);
        out.push(`${level.members++ > 0 ? ',' : ''}${typeof key === 'string' ? `${JSON.stringify(key)}:` : ''}${stringifyJson(value)}`);
        lastValue = value;
      }
      if (special === undefined) {
        if (typeof lastValue === 'number') out.push(' ');
        break;
      }
      out.push(`${level.members++ > 0 ? ',' : ''}${typeof special === 'string' ? `${JSON.stringify(special)}:` : ''}`);
      const next = own(container, special);
      if (atEnd) {
        out.push(`"${escaped(next as string)}`);
        stringKey = special;
        break;
      }
      container = next as Container;
    }
    this.open = open;
    this.stringKey = stringKey;
    return out.join('');
  }
}
