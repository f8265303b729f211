import assert from 'node:assert';
import { throwError, timer, map, concat, of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { ToolStreamError } from 'rxjs-tool-calls';
import { compareWithoutStacks, normalizeErrors, toolStreamErrorMatcher } from 'rxjs-tool-calls/marbles';
import { fail, ok } from '../../src/result';

const call = { id: 'call_1', name: 'get_weather', index: 0, choice: 0, rawArguments: '{"ci' };

describe('normalizeErrors', () => {
  it('keeps name, code and own fields of a typed error, not the stack or the message', () => {
    expect(normalizeErrors(new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no [DONE]' }))).toEqual({
      name: 'ToolStreamError',
      code: 'truncated',
      provider: 'openai-chat',
      detail: 'no [DONE]',
    });
  });

  it('walks arrays, plain objects and nested errors, and keeps other values', () => {
    const bytes = Uint8Array.of(1);
    const inner = new Error('plain');
    const cause = Object.assign(new Error('ECONNRESET'), { code: 'ECONNRESET', errno: -104 });
    const wrapped = Object.assign(new ToolStreamError('truncated', { provider: 'http', detail: 'cut' }), { cause });
    Object.defineProperty(wrapped, 'cause', { enumerable: true });
    expect(normalizeErrors([{ a: wrapped, b: bytes, c: inner, d: null }])).toEqual([
      { a: { name: 'ToolStreamError', code: 'truncated', provider: 'http', detail: 'cut', cause: { name: 'Error', code: 'ECONNRESET', errno: -104 } }, b: bytes, c: inner, d: null },
    ]);
  });

  it('copies cycles without looping', () => {
    const cyclic: Record<string, unknown> = { x: 1 };
    cyclic['self'] = cyclic;
    const out = normalizeErrors(cyclic) as Record<string, unknown>;
    expect(out['self']).toBe(out);
  });
});

describe('compareWithoutStacks', () => {
  it('accepts equal typed errors made in different places', () => {
    const make = (): ToolStreamError<'incomplete'> => new ToolStreamError('incomplete', { toolCall: call, reason: 'stream-ended' });
    const a = make();
    const b = make();
    expect(a.stack).not.toBe(b.stack);
    compareWithoutStacks(fail(a), fail(b), assert.deepStrictEqual);
  });

  it('rejects errors that differ in a field, the code or the class', () => {
    expect(() =>
      compareWithoutStacks(
        new ToolStreamError('incomplete', { toolCall: call, reason: 'stream-ended' }),
        new ToolStreamError('incomplete', { toolCall: call, reason: 'truncated' }),
        assert.deepStrictEqual,
      ),
    ).toThrow(assert.AssertionError);
    expect(() =>
      compareWithoutStacks(
        new ToolStreamError('incomplete', { toolCall: call, reason: 'stream-ended' }),
        new ToolStreamError('incomplete', { toolCall: { ...call, id: 'call_2' }, reason: 'stream-ended' }),
        assert.deepStrictEqual,
      ),
    ).toThrow(assert.AssertionError);
    expect(() =>
      compareWithoutStacks(
        new ToolStreamError('unknown-tool', { toolCall: call, availableTools: [] }),
        new ToolStreamError('incomplete', { toolCall: call, reason: 'stream-ended' }),
        assert.deepStrictEqual,
      ),
    ).toThrow(assert.AssertionError);
  });

  it('accepts the same error from a second copy of the class (dual CJS/ESM package), which node:assert rejects', () => {
    class CopiedTruncatedStreamError extends Error {
      readonly code = 'truncated' as const;
      constructor(
        readonly provider: string,
        readonly detail: string,
      ) {
        super(`The ${provider} stream ended before it was complete: ${detail}`);
        this.name = 'ToolStreamError';
      }
    }
    const actual = new ToolStreamError('truncated', { provider: 'http', detail: 'cut' });
    const copy = new CopiedTruncatedStreamError('http', 'cut');
    expect(() => assert.deepStrictEqual(actual, copy)).toThrow(assert.AssertionError);
    compareWithoutStacks(actual, copy, assert.deepStrictEqual);
  });

  it('lets the expected error be written as a plain object', () => {
    compareWithoutStacks(
      new ToolStreamError('truncated', { provider: 'http', detail: 'cut' }),
      { name: 'ToolStreamError', code: 'truncated', provider: 'http', detail: 'cut' },
      assert.deepStrictEqual,
    );
  });
});

describe('toolStreamErrorMatcher with TestScheduler', () => {
  it('passes when the stream errors with an equal typed error', () => {
    const scheduler = new TestScheduler(toolStreamErrorMatcher(assert.deepStrictEqual));
    scheduler.run(({ expectObservable }) => {
      const source = concat(
        timer(2).pipe(map(() => ok('a'))),
        throwError(() => new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no [DONE]' })),
      );
      expectObservable(source).toBe('--(a#)', { a: ok('a') }, new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no [DONE]' }));
    });
  });

  it('fails when a field differs', () => {
    const scheduler = new TestScheduler(toolStreamErrorMatcher((a, e) => expect(a).toEqual(e)));
    expect(() =>
      scheduler.run(({ expectObservable }) => {
        expectObservable(throwError(() => new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'A' }))).toBe(
          '#',
          undefined,
          new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'B' }),
        );
      }),
    ).toThrow();
  });

  it('compares typed errors inside emitted values', () => {
    const scheduler = new TestScheduler(toolStreamErrorMatcher(assert.deepStrictEqual));
    scheduler.run(({ expectObservable }) => {
      expectObservable(of(fail(new ToolStreamError('incomplete', { toolCall: call, reason: 'length' })))).toBe('(a|)', {
        a: fail(new ToolStreamError('incomplete', { toolCall: call, reason: 'length' })),
      });
    });
  });
});

describe('partial expected errors', () => {
  const strict = toolStreamErrorMatcher(assert.deepStrictEqual);
  const truncated = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no [DONE]' });

  it('a plain object with a code compares only the fields it names', () => {
    expect(() => compareWithoutStacks(truncated, { code: 'truncated' }, assert.deepStrictEqual)).not.toThrow();
    expect(() => compareWithoutStacks(truncated, { code: 'truncated', provider: 'openai-chat' }, assert.deepStrictEqual)).not.toThrow();
    expect(() => compareWithoutStacks(truncated, { code: 'truncated', name: 'ToolStreamError' }, assert.deepStrictEqual)).not.toThrow();
  });

  it('a named field that differs, a different code or a field the error lacks fails', () => {
    expect(() => compareWithoutStacks(truncated, { code: 'truncated', provider: 'anthropic' }, assert.deepStrictEqual)).toThrow();
    expect(() => compareWithoutStacks(truncated, { code: 'provider-error' }, assert.deepStrictEqual)).toThrow();
    expect(() => compareWithoutStacks(truncated, { code: 'truncated', status: 500 }, assert.deepStrictEqual)).toThrow();
  });

  it('an expected Error is still compared whole', () => {
    expect(() => compareWithoutStacks(truncated, new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'other' }), assert.deepStrictEqual)).toThrow();
  });

  it('works inside TestScheduler frames, nested in values, with node:assert', () => {
    const scheduler = new TestScheduler(strict);
    scheduler.run(({ cold, expectObservable }) => {
      const results = cold('-a|', { a: fail(new ToolStreamError('unknown-tool', { toolCall: call, availableTools: ['x'] })) });
      expectObservable(results).toBe('-a|', { a: { success: false, error: { code: 'unknown-tool', availableTools: ['x'] } } });
      expectObservable(throwError(() => truncated)).toBe('#', undefined, { code: 'truncated' });
    });
    expect(() =>
      new TestScheduler(strict).run(({ expectObservable }) => {
        expectObservable(throwError(() => truncated)).toBe('#', undefined, { code: 'truncated', detail: 'something else' });
      }),
    ).toThrow();
  });
});

describe('error constructors: fields that may be absent are optional', () => {
  it('builds errors without them; such fields read undefined and compare equal to an explicit undefined', async () => {
    const { ToolStreamError } = await import('rxjs-tool-calls');
    const short = new ToolStreamError('provider-error', { provider: 'openai-chat', message: 'Rate limited', retryable: true, status: 429 });
    expect(short.status).toBe(429);
    expect(short.providerCode).toBeUndefined();
    expect(short.message).toContain('Rate limited');
    const full = new ToolStreamError('provider-error', {
      provider: 'openai-chat',
      message: 'Rate limited',
      retryable: true,
      status: 429,
      providerCode: undefined,
      type: undefined,
      payload: undefined,
    });
    expect(() => compareWithoutStacks(short, full, assert.deepStrictEqual)).not.toThrow();
    const lost = new ToolStreamError('connection-lost', { source: 'fetch' });
    expect(lost.byteOffset).toBeUndefined();
    expect(lost.retryable).toBe(true);
  });
});

describe('the doc example of toolStreamErrorMatcher', () => {
  it('runs as written', async () => {
    const { readToolCalls } = await import('rxjs-tool-calls');
    const scheduler = new TestScheduler(toolStreamErrorMatcher((actual, expected) => expect(actual).toEqual(expected)));
    scheduler.run(({ cold, expectObservable }) => {
      const bytes$ = cold('-a|', { a: 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n' });
      expectObservable(bytes$.pipe(readToolCalls({ provider: 'openai-chat' }))).toBe('--#', undefined, { code: 'truncated', provider: 'openai-chat' });
    });
  });
});
