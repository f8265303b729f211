/**
 * Comparing typed errors in marble tests by what they mean (name, code, fields), not by identity or
 * stack trace. Framework-agnostic: bring your test framework's deep-equality assertion.
 *
 * @module
 */

/** The plain view of a typed error that {@link normalizeErrors} compares. */
export interface NormalizedError {
  /** The error's `name`, `'ToolStreamError'` for the library's errors. */
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
 * normalizeErrors({ kind: 'E', error: new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no [DONE]' }) })
 * // { kind: 'E', error: { name: 'ToolStreamError', code: 'truncated', provider: 'openai-chat', detail: 'no [DONE]' } }
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
      const field = (value as unknown as Record<string, unknown>)[key];
      if (field !== undefined) out[key] = walk(field, seen); // a field set to undefined is the same as one left out
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
 * `actual` cut to the shape of `expected` where `expected` holds a partial error: wherever `actual`
 * has a typed error and `expected` a plain object with a `code` (not an `Error`), the error is
 * reduced to the fields that object names (`name` and `code` included when named), each compared
 * the same way. Elsewhere `actual` is kept (arrays and plain objects walked alongside `expected`).
 */
function project(actual: unknown, expected: unknown, open: Set<object>): unknown {
  if (typeof actual !== 'object' || actual === null || typeof expected !== 'object' || expected === null || open.has(actual)) return actual;
  open.add(actual);
  try {
    if (isCodedError(actual) && isPlainObject(expected) && 'code' in expected) {
      const out: Record<string, unknown> = {};
      const fields = actual as unknown as Record<string, unknown>;
      for (const key of Object.keys(expected)) if (key === 'name' || key === 'code' || fields[key] !== undefined) out[key] = project(fields[key], expected[key], open);
      return out;
    }
    if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((item, i) => project(item, expected[i], open));
    if (isPlainObject(actual) && isPlainObject(expected)) {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(actual)) out[key] = project(actual[key], expected[key], open);
      return out;
    }
    return actual;
  } finally {
    open.delete(actual);
  }
}

/**
 * Wrap a deep-equality assertion so typed errors compare by `name`, `code` and fields (see
 * {@link normalizeErrors}); pass the result to `new TestScheduler(…)`.
 *
 * 1. An expected typed error (`new ToolStreamError('truncated', { … })`) is compared whole: name, code and
 *    every field (a field left out of its constructor must be absent, or `undefined`, on the actual).
 * 2. An expected plain object with a `code`, where the actual value is a typed error, is a partial
 *    error: only the fields it names are compared (`{ code: 'truncated' }` matches any truncated
 *    error; `{ code: 'provider-error', status: 429 }` also checks the status).
 * 3. Stacks, messages and error identities never matter.
 *
 * @example
 * ```ts
 * import { expect } from '@jest/globals';
 * import { TestScheduler } from 'rxjs/testing';
 * import { readToolCalls } from 'rxjs-tool-calls';
 * import { toolStreamErrorMatcher } from 'rxjs-tool-calls/marbles';
 *
 * const scheduler = new TestScheduler(toolStreamErrorMatcher((actual, expected) => expect(actual).toEqual(expected)));
 * scheduler.run(({ cold, expectObservable }) => {
 *   const bytes$ = cold('-a|', { a: 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n' });
 *   expectObservable(bytes$.pipe(readToolCalls({ provider: 'openai-chat' }))).toBe('--#', undefined, { code: 'truncated', provider: 'openai-chat' });
 * });
 * // or with node:assert: new TestScheduler(toolStreamErrorMatcher(assert.deepStrictEqual))
 * ```
 *
 * @param assertDeepEqual Your framework's deep-equality assertion (it throws on a difference).
 * @return The assertion `TestScheduler` takes.
 */
export function toolStreamErrorMatcher(assertDeepEqual: DeepEqualAssertion): (actual: unknown, expected: unknown) => void {
  return (actual, expected) => compareWithoutStacks(actual, expected, assertDeepEqual);
}

/**
 * Compare once, as {@link toolStreamErrorMatcher} does: typed errors by name, code and fields; an
 * expected plain object with a `code` compares only the fields it names.
 *
 * @example
 * ```ts
 * import assert from 'node:assert';
 * import { ToolStreamError } from 'rxjs-tool-calls';
 * import { compareWithoutStacks } from 'rxjs-tool-calls/marbles';
 *
 * const caught = new ToolStreamError('provider-error', { provider: 'openai-chat', message: 'Rate limited', status: 429, retryable: true });
 * compareWithoutStacks(caught, { code: 'provider-error', status: 429 }, assert.deepStrictEqual); // passes
 * compareWithoutStacks(caught, new ToolStreamError('provider-error', { provider: 'openai-chat', message: 'other text', status: 429, retryable: true }), assert.deepStrictEqual); // passes: messages are not compared
 * ```
 *
 * @param actual What the code under test produced (errors anywhere inside it).
 * @param expected What it should be: typed errors, or partial errors as plain objects with a `code`.
 * @param assertDeepEqual Your framework's deep-equality assertion.
 */
export function compareWithoutStacks(actual: unknown, expected: unknown, assertDeepEqual: DeepEqualAssertion): void {
  assertDeepEqual(normalizeErrors(project(actual, expected, new Set())), normalizeErrors(expected));
}
