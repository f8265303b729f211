/**
 * How deep a JSON value nests, for what the library writes from untrusted input (the request
 * translators, the tool specs, the Gemini schema conversion): the `maxDepth` option, checked, and
 * the walk that finds the first place too deep, with its JSON path.
 *
 * @module
 */
import type { OptionCheck } from './options';

/** The default `maxDepth` of the request translators, `toGeminiSchema()` and `toolSpecs()`: 512 levels. */
export const DEFAULT_MAX_REQUEST_DEPTH = 512;

/** The largest `maxDepth` accepted: 1,024 levels (`JSON.stringify` and the Gemini schema conversion recurse per level: a few thousand levels overflow the stack, and less when called from deep in it). */
export const MAX_REQUEST_DEPTH = 1024;

/** The check of a `maxDepth` option: a whole number from 1 to {@link MAX_REQUEST_DEPTH}. */
export const aMaxDepth: OptionCheck = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_REQUEST_DEPTH ? undefined : `a whole number from 1 to ${MAX_REQUEST_DEPTH}`;

/** One container on the walk of {@link jsonProblem}: its key in its parent, for the path of an error. */
interface WalkFrame {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string | number | undefined;
  readonly parent: WalkFrame | undefined;
}

function framePath(frame: WalkFrame, root: string): string {
  const keys: Array<string | number> = [];
  for (let f: WalkFrame | undefined = frame; f !== undefined && f.key !== undefined; f = f.parent) keys.push(f.key);
  let path = root;
  for (let i = keys.length - 1; i >= 0; i--) path = fieldPath(path, keys[i] as string | number);
  return path;
}

/**
 * Why `value` cannot be written as JSON within `maxDepth` levels, with the JSON path (under `path`)
 * of the first place that shows it: a container nested deeper than `maxDepth` (an object or array is
 * one level; a cycle is infinitely deep) or a `bigint`. `undefined` when it can. Iterative: no stack
 * per level; a subtree reached twice (shared) is walked again only when reached deeper than before.
 */
export function jsonProblem(value: unknown, maxDepth: number, path: string): { readonly path: string; readonly detail: string } | undefined {
  const walked = new Map<object, number>(); // not weak: it lives for this call only, and a Map is faster
  const stack: WalkFrame[] = [{ value, depth: 1, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop() as WalkFrame;
    const node = frame.value;
    if (typeof node === 'bigint') return { path: framePath(frame, path), detail: 'a bigint cannot be written as JSON' };
    if (typeof node !== 'object' || node === null) continue;
    if (frame.depth > maxDepth) return { path: framePath(frame, path), detail: `nested deeper than ${maxDepth} levels (the maxDepth option)` };
    const before = walked.get(node);
    if (before !== undefined && before >= frame.depth) continue;
    walked.set(node, frame.depth);
    const depth = frame.depth + 1;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], depth, key: i, parent: frame });
    } else {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: (node as Record<string, unknown>)[key], depth, key, parent: frame });
      }
    }
  }
  return undefined;
}

/** The path of `key` inside `path` (`'messages[2]'` + `'content'` → `'messages[2].content'`). */
export function fieldPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}
