import { from, lastValueFrom, NEVER, Observable, of, Subject, toArray } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { z } from 'zod';
import { type ToolCall, type ToolCallResult, ToolStreamError } from 'rxjs-tool-calls';
import { runTools, tool, type ToolRunResult } from 'rxjs-tool-calls/tools';
import { contextOf } from '../../src/parse/validate';
import { fail, ok } from '../../src/result';
import { standardCases } from '../helpers/standardCases';
import { testScheduler } from '../helpers/marbles';

function call(name: string, args: unknown, id = `call_${name}`, index = 0): ToolCall {
  return { id, name, index, choice: 0, arguments: args, rawArguments: JSON.stringify(args) };
}
const okCall = (name: string, args: unknown, id?: string, index?: number): ToolCallResult => ok(call(name, args, id, index));

function scheduler(): TestScheduler {
  return testScheduler();
}

const echo = { echo: tool({ execute: (args) => args }) };

describe('runTools', () => {
  standardCases(() => runTools(echo), [okCall('echo', { a: 1 })]);

  it('completes at once on an empty source', async () => {
    await expect(lastValueFrom(of<ToolCallResult>().pipe(runTools(echo), toArray()))).resolves.toEqual([]);
  });

  it('runs a tool with validated arguments and passes the call with them', async () => {
    const tools = { double: tool({ schema: z.object({ n: z.coerce.number() }), execute: ({ n }, { call: c }) => ({ n: n * 2, id: c.id }) }) };
    const [run] = await lastValueFrom(of(okCall('double', { n: '21' })).pipe(runTools(tools), toArray()));
    expect(run).toEqual({ success: true, data: { name: 'double', call: { ...call('double', { n: 21 }), rawArguments: '{"n":"21"}' }, output: { n: 42, id: 'call_double' } } });
  });

  it('reports every kind of failure as a typed result, never cancelling the others', async () => {
    const cut = new ToolStreamError('incomplete', { toolCall: { id: 'c0', name: 'x', index: 0, choice: 0, rawArguments: '{"a' }, reason: 'stream-ended' });
    const boom = new Error('boom');
    const tools = {
      strict: tool({ schema: z.object({ n: z.number() }), execute: ({ n }) => n }),
      throws: tool({
        execute: () => {
          throw boom;
        },
      }),
      rejects: tool({ execute: () => Promise.reject(new Error('nope')) }),
      errs: tool({ execute: () => new Observable<number>((s) => s.error(new Error('obs'))) }),
      fine: tool({ execute: async () => 'ok' }),
    };
    const source = of<ToolCallResult[]>(fail(cut), okCall('missing', {}), okCall('strict', { n: 'x' }), okCall('throws', {}), okCall('rejects', {}), okCall('errs', {}), okCall('fine', {}));
    const runs = await lastValueFrom(source.pipe(runTools(tools), toArray()));
    const codes = runs.map((r) => (r.success ? `ok:${String(r.data.output)}` : r.error.code));
    expect(codes.sort()).toEqual(['incomplete', 'invalid-arguments', 'ok:ok', 'tool-failed', 'tool-failed', 'tool-failed', 'unknown-tool'].sort());
    expect(runs.find((r) => !r.success && r.error.code === 'incomplete')).toEqual({ success: false, error: cut });
    const thrown = runs.find((r) => !r.success && r.call?.name === 'throws');
    expect(thrown?.error).toMatchObject({ name: 'ToolStreamError', code: 'tool-failed' });
    expect(thrown?.error?.cause).toBe(boom);
    expect(thrown?.error?.message).toBe('Tool throws (call_throws) failed: boom');
    const unknown = runs.find((r) => !r.success && r.error.code === 'unknown-tool');
    expect(unknown?.call?.name).toBe('missing');
    expect(unknown?.error?.message).toContain('available: strict, throws, rejects, errs, fine');
  });

  it('unsubscribing aborts every running tool: the abort event fires and observables are unsubscribed', async () => {
    const aborted: string[] = [];
    let observableTornDown = false;
    const started = new Subject<void>();
    const tools = {
      slowPromise: tool({
        execute: (_args, { signal }) =>
          new Promise((resolve) => {
            signal.addEventListener('abort', () => aborted.push(`promise:${(signal.reason as Error).name}`));
            started.next();
            setTimeout(resolve, 10_000).unref();
          }),
      }),
      slowObservable: tool({
        execute: (_args, { signal }) => {
          signal.addEventListener('abort', () => aborted.push('observable'));
          return new Observable<number>(() => () => (observableTornDown = true));
        },
      }),
    };
    const subscription = of(okCall('slowPromise', {}), okCall('slowObservable', {})).pipe(runTools(tools)).subscribe();
    expect(aborted).toEqual([]);
    subscription.unsubscribe();
    expect(aborted).toEqual(['promise:AbortError', 'observable']);
    expect(observableTornDown).toBe(true);
    started.complete();
  });

  it('does not abort a tool that finished', async () => {
    let signal: AbortSignal | undefined;
    const tools = { quick: tool({ execute: (_a, ctx) => ((signal = ctx.signal), 1) }) };
    await lastValueFrom(of(okCall('quick', {})).pipe(runTools(tools)));
    expect(signal?.aborted).toBe(false);
  });

  it('times out a tool: tool-timeout, its signal aborted with the error', async () => {
    let reason: unknown;
    const tools = {
      hangs: tool({ timeoutMs: 20, execute: (_a, { signal }) => new Promise(() => signal.addEventListener('abort', () => (reason = signal.reason))) }),
      quick: tool({ execute: () => 1 }),
    };
    const runs = await lastValueFrom(of(okCall('hangs', {}), okCall('quick', {})).pipe(runTools(tools, { timeoutMs: 1 }), toArray()));
    expect(runs.map((r) => (r.success ? r.data.name : r.error.code))).toEqual(['quick', 'tool-timeout']);
    const timeout = runs[1]?.error;
    expect(timeout).toMatchObject({ name: 'ToolStreamError', code: 'tool-timeout' });
    expect(timeout).toMatchObject({ code: 'tool-timeout', timeoutMs: 20, toolCall: contextOf(call('hangs', {})) });
    expect(reason).toBe(timeout);
  });

  it('failFast: emits the failure, aborts the others and ends with the error', async () => {
    let otherAborted = false;
    const tools = {
      slow: tool({ execute: (_a, { signal }) => new Promise(() => signal.addEventListener('abort', () => (otherAborted = true))) }),
      bad: tool({ execute: () => Promise.reject(new Error('bad')) }),
    };
    const seen: ToolRunResult[] = [];
    const error = await new Promise((resolve) =>
      of(okCall('slow', {}), okCall('bad', {}))
        .pipe(runTools(tools, { failFast: true }))
        .subscribe({ next: (r) => seen.push(r), error: resolve }),
    );
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'tool-failed' });
    expect(seen).toEqual([{ success: false, error, call: call('bad', {}) }]);
    expect(otherAborted).toBe(true);
  });

  describe('marbles', () => {
    const tools = (delays: Record<string, string>, scheduled: TestScheduler) => ({
      t: tool({ execute: (args: unknown) => scheduled.createColdObservable(delays[String(args)] ?? '(x|)', { x: `out-${String(args)}` }) }),
    });
    const results = { A: okCall('t', 'a', 'A'), B: okCall('t', 'b', 'B'), C: okCall('t', 'c', 'C') };
    const run = (id: string, args: string): ToolRunResult => ({ success: true, data: { name: 't', call: call('t', args, id), output: `out-${args}` } });

    it('concurrency 2 runs two at once; concurrency 1 one after the other', () => {
      const s = scheduler();
      s.run(({ cold, expectObservable }) => {
        const delays = { a: '----(x|)', b: '--(x|)', c: '-(x|)' };
        const source = cold<ToolCallResult>('(ABC|)', results);
        const values = { a: run('A', 'a'), b: run('B', 'b'), c: run('C', 'c') };
        expectObservable(source.pipe(runTools(tools(delays, s), { concurrency: 2 }))).toBe('--bc(a|)', values);
        expectObservable(source.pipe(runTools(tools(delays, s), { concurrency: 1 }))).toBe('----a-b(c|)', values);
        expectObservable(source.pipe(runTools(tools(delays, s)))).toBe('-cb-(a|)', values);
      });
    });

    it('emits a tool output before the source completes', () => {
      const s = scheduler();
      s.run(({ cold, expectObservable }) => {
        const source = cold<ToolCallResult>('-A------B---|', results);
        expectObservable(source.pipe(runTools(tools({ a: '--(x|)', b: '-(x|)' }, s)))).toBe('---a-----b--|', { a: run('A', 'a'), b: run('B', 'b') });
      });
    });

    it('on a source error, lets running tools finish, then errors', () => {
      const s = scheduler();
      s.run(({ cold, expectObservable }) => {
        const boom = new Error('boom');
        const source = cold<ToolCallResult>('-A-#', results, boom);
        expectObservable(source.pipe(runTools(tools({ a: '----(x|)' }, s)))).toBe('-----(a#)', { a: run('A', 'a') }, boom);
      });
    });

    it('times out on the scheduler and unsubscribes the tool observable', () => {
      const s = scheduler();
      s.run(({ cold, expectObservable, expectSubscriptions }) => {
        const slow = cold('------(x|)', { x: 1 });
        const source = cold<ToolCallResult>('A|', results);
        const timed = { t: tool({ timeoutMs: 3, execute: () => slow }) };
        const error = new ToolStreamError('tool-timeout', { toolCall: contextOf(call('t', 'a', 'A')), timeoutMs: 3 });
        expectObservable(source.pipe(runTools(timed))).toBe('---(e|)', { e: { success: false, error, call: call('t', 'a', 'A') } });
        expectSubscriptions(slow.subscriptions).toBe('^--!');
      });
    });

    it('a tool that never answers keeps the output open until unsubscribed', () => {
      const s = scheduler();
      s.run(({ cold, expectObservable }) => {
        const source = cold<ToolCallResult>('A|', results);
        expectObservable(source.pipe(runTools({ t: tool({ execute: () => NEVER }) })), '^--!').toBe('---');
      });
    });
  });
});

describe('runTools() with a validator that throws', () => {
  const throwing = (async: boolean) => ({
    '~standard': {
      version: 1 as const,
      vendor: 'test',
      validate: (value: unknown) => {
        if (async) return Promise.reject(new Error('validator bug'));
        throw new Error(`validator bug on ${JSON.stringify(value)}`);
      },
    },
  });

  it.each([false, true])('async=%s: that call fails with invalid-arguments; its sibling still runs', async (async) => {
    const tools = { bad: tool({ schema: throwing(async), execute: () => 'never' }), good: tool({ execute: () => 'ran' }) };
    const calls = from([
      ok({ id: 'a', name: 'bad', index: 0, choice: 0, arguments: { x: 1 }, rawArguments: '{"x":1}' }),
      ok({ id: 'b', name: 'good', index: 1, choice: 0, arguments: {}, rawArguments: '{}' }),
    ]);
    const results = await lastValueFrom(calls.pipe(runTools(tools), toArray()));
    const byId = Object.fromEntries(results.map((r) => [r.success ? r.data.call.id : r.error.toolCall.id, r]));
    expect(byId['a']?.success).toBe(false);
    expect(byId['a']?.error).toMatchObject({ code: 'invalid-arguments', issues: [{ message: expect.stringContaining('the validator threw: validator bug'), path: [] }] });
    expect(byId['b']).toMatchObject({ success: true, data: { output: 'ran' } });
  });
});
