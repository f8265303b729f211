/**
 * Reading untrusted JSON values and writing JSON without throwing: helpers every stage shares.
 * Imports nothing.
 *
 * @module
 */

/** `value` as a plain object, or `undefined` (arrays, null and primitives are not records). */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** `value` when it is a string, else `undefined`. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `value` when it is a finite number, else `undefined`. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * `JSON.stringify` that never throws, the one used wherever a value is written for people or for a
 * tool message: JSON when it can be (deep nesting included), else `String(value)` (cycles, BigInt).
 */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch (error) {
    if (error instanceof RangeError) {
      try {
        return stringifyDeep(value);
      } catch {
        // not plain JSON either: fall through
      }
    }
    return String(value);
  }
}

/**
 * `JSON.stringify` of a value parsed from JSON (plain objects, arrays, strings, numbers, booleans,
 * null), at any nesting depth: the engine's own when it can, else an iterative writer (the engine's
 * recurses and throws a `RangeError` a few thousand levels deep, where `JSON.parse` does not).
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyDeep(value);
  }
}

interface Frame {
  readonly container: Record<string, unknown> | unknown[];
  readonly keys: string[] | undefined;
  next: number;
}

function stringifyDeep(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (value: unknown): void => {
    if (value === null || typeof value !== 'object') {
      out.push(JSON.stringify(value) ?? 'null');
      return;
    }
    const isArray = Array.isArray(value);
    out.push(isArray ? '[' : '{');
    stack.push({ container: value as Record<string, unknown> | unknown[], keys: isArray ? undefined : Object.keys(value), next: 0 });
  };
  open(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const { container, keys } = frame;
    const length = keys === undefined ? (container as unknown[]).length : keys.length;
    if (frame.next >= length) {
      out.push(keys === undefined ? ']' : '}');
      stack.pop();
      continue;
    }
    const i = frame.next++;
    if (i > 0) out.push(',');
    if (keys === undefined) {
      open((container as unknown[])[i]);
    } else {
      const key = keys[i] as string;
      out.push(JSON.stringify(key), ':');
      open((container as Record<string, unknown>)[key]);
    }
  }
  return out.join('');
}
