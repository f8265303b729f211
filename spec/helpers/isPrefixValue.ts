/**
 * "Is `partial` a prefix of `full`?" for JSON values: what a streaming parser may show before the
 * whole value has arrived, given the final value.
 *
 * - `undefined` is a prefix of anything (nothing shown yet).
 * - A string is a prefix of a string that starts with it.
 * - A number, boolean or null is a prefix only of itself (they are never shown partially).
 * - An array is a prefix of a longer-or-equal array when every element but its last equals the
 *   corresponding one, and its last is a prefix of the corresponding one.
 * - An object is a prefix of an object that has every key it has, each value a prefix of the
 *   corresponding one, and at most one value that is not equal yet (the one being received).
 *
 * So no field changes type or disappears, strings and arrays only grow, and completed fields
 * never change. Use it between each shown value and the final one, and between successive values.
 */
export type Path = ReadonlyArray<string | number>;

/** True when `partial` is a prefix of `full` (see the module comment). */
export function isPrefixValue(partial: unknown, full: unknown, options?: { allowPartialLiterals?: boolean }): boolean {
  return prefixMismatch(partial, full, options) === undefined;
}

/** Why `partial` is not a prefix of `full` (a path and a reason), or `undefined` when it is. */
export function prefixMismatch(partial: unknown, full: unknown, options?: { allowPartialLiterals?: boolean }, path: Path = []): string | undefined {
  const at = (reason: string): string => `${path.length ? path.map(String).join('.') : '(root)'}: ${reason}`;
  if (partial === undefined) return undefined;
  if (typeof partial === 'string') {
    if (typeof full !== 'string') return at(`string shown, final is ${describe(full)}`);
    return full.startsWith(partial) ? undefined : at(`string ${JSON.stringify(partial.slice(0, 40))} is not a prefix of the final string`);
  }
  if (partial === null || typeof partial !== 'object') {
    if (Object.is(partial, full)) return undefined;
    if (options?.allowPartialLiterals && typeof partial === typeof full) return undefined;
    return at(`${describe(partial)} ${JSON.stringify(partial)} shown, final is ${JSON.stringify(full)}`);
  }
  if (Array.isArray(partial)) {
    if (!Array.isArray(full)) return at(`array shown, final is ${describe(full)}`);
    if (partial.length > full.length) return at(`array of ${partial.length} shown, final has ${full.length}`);
    for (let i = 0; i < partial.length; i++) {
      const last = i === partial.length - 1;
      const why = last
        ? prefixMismatch(partial[i], full[i], options, [...path, i])
        : deepEqual(partial[i], full[i])
          ? undefined
          : `${[...path, i].join('.')}: completed element differs from the final one`;
      if (why) return why;
    }
    return undefined;
  }
  if (full === null || typeof full !== 'object' || Array.isArray(full)) return at(`object shown, final is ${describe(full)}`);
  let open = 0;
  for (const key of Object.keys(partial)) {
    if (!Object.prototype.hasOwnProperty.call(full, key)) return at(`key ${JSON.stringify(key)} is not in the final value`);
    const p = (partial as Record<string, unknown>)[key];
    const f = (full as Record<string, unknown>)[key];
    const why = prefixMismatch(p, f, options, [...path, key]);
    if (why) return why;
    if (!deepEqual(p, f)) open++;
  }
  return open > 1 ? at(`${open} fields are still growing; at most one may be`) : undefined;
}

/** Structural equality of JSON values (`Object.is` for numbers, own enumerable keys for objects). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Every path in a JSON value (the root `[]` included), depth first. */
export function allPaths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => allPaths(v, [...path, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) allPaths(v, [...path, k], out);
  return out;
}

/** The value at `path`, or `undefined`. */
export function getPath(value: unknown, path: Path): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
