/**
 * Where one text holds several JSON documents back to back (`{…}{…}`, `{…} {…}`): the boundaries
 * found by a string-aware bracket scan, without parsing. Imports nothing.
 *
 * @module
 */

/** True for the whitespace JSON allows between tokens. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * The pieces of `text` when it is two or more JSON objects or arrays one after another, with only
 * whitespace around and between them (each piece without the whitespace); `undefined` otherwise
 * (one document, a scalar at the top level, brackets that do not balance, text between documents).
 * The pieces are not parsed: a piece whose brackets balance may still be invalid JSON, so callers
 * parse each one. O(n), and allocates only the pieces it returns.
 *
 * @param text The text to split.
 * @param maxPieces Stop (and answer `undefined`) past this many pieces.
 */
export function splitJsonDocuments(text: string, maxPieces = Infinity): string[] | undefined {
  const n = text.length;
  const starts: number[] = [];
  const ends: number[] = [];
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c !== 0x7b && c !== 0x5b) return undefined; // `{` or `[`
    if (starts.length >= maxPieces) return undefined;
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < n; i++) {
      const d = text.charCodeAt(i);
      if (inString) {
        if (d === 0x5c)
          i++; // a backslash: the next character is escaped
        else if (d === 0x22) inString = false;
      } else if (d === 0x22) inString = true;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) break;
        if (depth < 0) return undefined;
      }
    }
    if (i >= n) return undefined; // the last document never closed
    starts.push(start);
    ends.push(++i);
  }
  if (starts.length < 2) return undefined;
  return starts.map((start, k) => text.slice(start, ends[k]));
}

/**
 * Whether JSON value `a` could be an earlier snapshot of `b` as one call's arguments grow: the same
 * value, or `b` with strings that continue `a`'s, members and elements added (values parsed from
 * JSON; nested deeper than 64 levels: `false`).
 */
export function growsInto(a: unknown, b: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof a === 'string') return typeof b === 'string' && b.startsWith(a);
  if (typeof a !== 'object' || a === null) return a === b;
  if (typeof b !== 'object' || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const later = b as unknown[];
    if (later.length < a.length) return false;
    for (let i = 0; i < a.length; i++) if (!growsInto(a[i], later[i], depth + 1)) return false;
    return true;
  }
  const later = b as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    if (!Object.prototype.hasOwnProperty.call(later, key)) return false;
    if (!growsInto((a as Record<string, unknown>)[key], later[key], depth + 1)) return false;
  }
  return true;
}

/** Whether each of `values` could be an earlier snapshot of the next ({@link growsInto}): one call resent as it grew, not several calls. */
export function isSnapshotChain(values: readonly unknown[]): boolean {
  for (let i = 1; i < values.length; i++) if (!growsInto(values[i - 1], values[i])) return false;
  return true;
}
