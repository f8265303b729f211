/**
 * Rebuilds the arguments object of a Vertex AI streamed function call
 * (`streamFunctionCallArguments`): each `partialArgs[]` entry names a `jsonPath` (`$.a.b[0]`) and a
 * value; `stringValue` is appended to the string already there, `numberValue`, `boolValue` and
 * `nullValue` replace it.
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

/** Accumulates `partialArgs` entries into one arguments object. */
export class PartialArgsBuilder {
  private readonly root: Record<string, unknown>;

  /** Start from the `args` a part may already carry (copied, the input is not mutated). */
  constructor(initial?: Record<string, unknown>) {
    this.root = initial === undefined ? {} : (JSON.parse(stringifyJson(initial)) as Record<string, unknown>);
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

    let container: Container = this.root;
    for (let step = 0; step < path.length; step++) {
      const key = path[step] as JsonPathSegment;
      if (Array.isArray(container) !== (typeof key === 'number')) return `${rawPath} does not match the shape built so far`;
      if (Array.isArray(container) && (key as number) > container.length) return `${rawPath} skips array positions`;
      if (step === path.length - 1) {
        const existing = own(container, key);
        if (create && existing !== undefined) return undefined; // the container is already there
        put(container, key, append && typeof existing === 'string' ? existing + (leaf as string) : leaf);
        return undefined;
      }
      let next = own(container, key);
      if (next === undefined || next === null) {
        next = typeof path[step + 1] === 'number' ? [] : {};
        put(container, key, next);
      }
      if (typeof next !== 'object') return `${rawPath} does not match the shape built so far`;
      container = next as Container;
    }
    return undefined;
  }

  /** The arguments built so far, as JSON text. */
  json(): string {
    return stringifyJson(this.root);
  }
}
