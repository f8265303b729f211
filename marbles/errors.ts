/**
 * Comparing typed errors in marble tests by what they mean (name, code, fields), not by identity or
 * stack trace. Framework-agnostic: bring your test framework's deep-equality assertion.
 *
 * @module
 */

/** The plain view of a typed error that {@link normalizeErrors} compares. */
export interface NormalizedError {
  /** The error's `name`, e.g. `'TruncatedStreamError'`. */
  readonly name: string;
  /** The error's `code`, e.g. `'truncated'` (or a Node system error's `'ECONNRESET'`), normalized like the other fields. */
  readonly code: unknown;
  /** The error's other own enumerable fields (`provider`, `detail`, `toolCall`, …), normalized; not `stack` or `message`. */
  readonly [field: string]: unknown;
}

/** A typed error: an `Error` with a `code` (every error of this library, Node's system errors, …). */
function isCodedError(value: unknown): value is Error & { code: unknown } {
  return value instanceof Error && 'code' in value && (value as { code: unknown }).code !== undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A deep copy of `value` in which every typed error (an `Error` with a `code`) is replaced by a
 * plain object of its `name`, `code` and own enumerable fields (also normalized). The stack, the
 * message (built from the fields) and the error's identity no longer matter. Arrays and plain
 * objects (such as `TestScheduler` frames and notifications) are walked; other values are kept.
 *
 * ```ts
 * normalizeErrors({ kind: 'E', error: new TruncatedStreamError({ provider: 'openai-chat', detail: 'no [DONE]' }) })
 * // { kind: 'E', error: { name: 'TruncatedStreamError', code: 'truncated', provider: 'openai-chat', detail: 'no [DONE]' } }
 * ```
 */
export function normalizeErrors(value: unknown): unknown {
  return walk(value, new Map());
}

function walk(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (isCodedError(value)) {
    const out: Record<string, unknown> = { name: value.name };
    seen.set(value, out);
    out['code'] = walk(value.code, seen);
    for (const key of Object.keys(value)) {
      if (key === 'stack' || key === 'message' || key === 'name' || key === 'code') continue;
      out[key] = walk((value as unknown as Record<string, unknown>)[key], seen);
    }
    return out;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(walk(item, seen));
    return out;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    seen.set(value, out);
    for (const key of Object.keys(value)) out[key] = walk(value[key], seen);
    return out;
  }
  return value;
}

/** A deep-equality assertion that throws when its arguments differ (`expect(a).toEqual(e)`, `assert.deepStrictEqual`, …). */
export type DeepEqualAssertion = (actual: unknown, expected: unknown) => void;

/**
 * Wrap a deep-equality assertion so typed errors compare by `name`, `code` and fields (see
 * {@link normalizeErrors}); pass the result to `new TestScheduler(…)`.
 *
 * ```ts
 * const scheduler = new TestScheduler(toolStreamErrorMatcher((a, e) => expect(a).toEqual(e)));
 * // or with node:assert
 * const scheduler = new TestScheduler(toolStreamErrorMatcher(assert.deepStrictEqual));
 * ```
 */
export function toolStreamErrorMatcher(assertDeepEqual: DeepEqualAssertion): (actual: unknown, expected: unknown) => void {
  return (actual, expected) => assertDeepEqual(normalizeErrors(actual), normalizeErrors(expected));
}

/**
 * Compare once: `assertDeepEqual(normalizeErrors(actual), normalizeErrors(expected))`.
 *
 * ```ts
 * compareWithoutStacks(caught, new ProviderError({ … }), assert.deepStrictEqual);
 * ```
 */
export function compareWithoutStacks(actual: unknown, expected: unknown, assertDeepEqual: DeepEqualAssertion): void {
  assertDeepEqual(normalizeErrors(actual), normalizeErrors(expected));
}
