/**
 * idleTimeout(): marble tests in virtual time, and the idleTimeoutMs option of readToolCalls().
 */
import { NEVER, Subject, VirtualTimeScheduler } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { idleTimeout, readToolCalls, ToolStreamError } from 'rxjs-tool-calls';
import { encodeChunks, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { testScheduler } from '../helpers/marbles';

function scheduler(): TestScheduler {
  return testScheduler('plain');
}

const timeoutError = new ToolStreamError('idle-timeout', { timeoutMs: 5 });

describe('idleTimeout(ms)', () => {
  it('mirrors a source that never stalls', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-4ms b-4ms c|').pipe(idleTimeout(5))).toBe('-a-4ms b-4ms c|');
    });
  });

  it('the timer restarts on every value; a silence of ms ends with IdleTimeoutError', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a--b--c----------d|');
      expectObservable(source.pipe(idleTimeout(5))).toBe('-a--b--c----#', undefined, timeoutError);
      expectSubscriptions(source.subscriptions).toBe('^-----------!');
    });
  });

  it('the first value is waited for just as long', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-------a|').pipe(idleTimeout(5))).toBe('-----#', undefined, timeoutError);
    });
  });

  it('errors and completion of the source pass through and stop the timer', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-#').pipe(idleTimeout(5))).toBe('-a-#');
      expectObservable(cold('-a-|').pipe(idleTimeout(5))).toBe('-a-|');
    });
  });

  it('unsubscribing stops the source at once (virtual time)', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a------');
      expectObservable(source.pipe(idleTimeout(5)), '^-!').toBe('-a-');
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });

  it('unsubscribing clears the real timer: nothing is left scheduled', () => {
    jest.useFakeTimers();
    try {
      const subscription = NEVER.pipe(idleTimeout(30_000)).subscribe();
      expect(jest.getTimerCount()).toBe(1);
      subscription.unsubscribe();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('values do not re-arm the timer: one timer per subscription, which waits again for what is left', () => {
    jest.useFakeTimers();
    const arm = jest.spyOn(globalThis, 'setInterval');
    try {
      const values = new Subject<number>();
      let failed: unknown;
      const seen: number[] = [];
      values.pipe(idleTimeout(1000)).subscribe({ next: (v) => seen.push(v), error: (e: unknown) => (failed = e) });
      for (let i = 0; i < 100; i++) {
        values.next(i);
        jest.advanceTimersByTime(50); // 5 s of values, 50 ms apart
      }
      expect([seen.length, failed, jest.getTimerCount()]).toEqual([100, undefined, 1]);
      expect(arm.mock.calls.length).toBeLessThanOrEqual(6); // once, then at most once per second of activity
      jest.advanceTimersByTime(949); // the last value came 50 ms ago: 1 ms short of its deadline
      expect(failed).toBeUndefined();
      jest.advanceTimersByTime(1);
      expect(failed).toMatchObject({ code: 'idle-timeout', timeoutMs: 1000 });
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      arm.mockRestore();
      jest.useRealTimers();
    }
  });

  it('rejects a timeout that is not a positive finite number with invalid-option (also as idleTimeoutMs of the readers)', () => {
    for (const ms of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => idleTimeout(ms)).toThrow(expect.objectContaining({ code: 'invalid-option', function: 'idleTimeout', option: 'ms' }));
      expect(() => readToolCalls({ idleTimeoutMs: ms })).toThrow(expect.objectContaining({ code: 'invalid-option', function: 'readToolCalls', option: 'options.idleTimeoutMs' }));
    }
  });
});

describe('readToolCalls with a stalled connection', () => {
  const wire = encodeChunks({
    a: openaiChunk({ toolCalls: [{ index: 0, id: 'call_1', name: 'get_weather', arguments: '{"city":' }] }),
    b: openaiChunk({ toolCalls: [{ index: 0, arguments: '"Paris"}' }], finishReason: 'tool_calls' }),
    c: openaiChunk({ toolCalls: [{ index: 1, id: 'call_2', name: 'get_time', arguments: '{"tz"' }] }),
    d: openaiDone(),
  });
  const A = { ok: { id: 'call_1', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' } };
  const incomplete = (id: string, name: string, raw: string) => ({ plain: { err: 'incomplete', id, name, raw, reason: 'idle-timeout' } });

  it('idleTimeout() on the bytes: open calls incomplete (idle-timeout), then IdleTimeoutError', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const bytes$ = cold('-a-----------d|', wire);
      expectObservable(bytes$.pipe(idleTimeout(5), readToolCalls())).toBe('------(X#)', { X: incomplete('call_1', 'get_weather', '{"city":') }, timeoutError);
    });
  });

  it('the idleTimeoutMs option does the same, for every open call', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values = { ...wire, b: encodeChunks({ x: openaiChunk({ toolCalls: [{ index: 0, arguments: '"Paris"}' }] }) }).x };
      const bytes$ = cold('-a-b-c---------d|', values);
      expectObservable(bytes$.pipe(readToolCalls({ idleTimeoutMs: 5 }))).toBe(
        '----------(XY#)',
        { X: { plain: { err: 'incomplete', id: 'call_1', name: 'get_weather', raw: '{"city":"Paris"}', reason: 'idle-timeout' } }, Y: incomplete('call_2', 'get_time', '{"tz"') },
        timeoutError,
      );
    });
  });

  it('a stream that keeps arriving completes normally', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a--b--d|', wire).pipe(readToolCalls({ idleTimeoutMs: 5 }))).toBe('-------A|', { A: { plain: A } }); // at [DONE]
    });
  });
});

describe('idleTimeout() past what one timer holds', () => {
  it('waits the whole of a silence longer than 2^31 − 1 ms (virtual time): it never fires early', () => {
    const scheduler = new VirtualTimeScheduler();
    let failedAt: number | undefined;
    NEVER.pipe(idleTimeout(5e9, scheduler)).subscribe({ error: () => (failedAt = scheduler.now()) });
    scheduler.flush();
    expect(failedAt).toBe(5e9);
  });

  it('arms no real timer past 2^31 − 1 ms (a longer one would fire after 1 ms)', () => {
    jest.useFakeTimers();
    const setInterval = jest.spyOn(globalThis, 'setInterval');
    const setTimeout = jest.spyOn(globalThis, 'setTimeout');
    try {
      let failed = false;
      const subscription = NEVER.pipe(idleTimeout(5e9)).subscribe({ error: () => (failed = true) });
      jest.advanceTimersByTime(2 ** 31);
      expect(failed).toBe(false);
      const delays = [...setInterval.mock.calls, ...setTimeout.mock.calls].map((call) => Number(call[1] ?? 0));
      expect(delays.length).toBeGreaterThan(0);
      expect(Math.max(...delays)).toBeLessThanOrEqual(2 ** 31 - 1);
      subscription.unsubscribe();
    } finally {
      setInterval.mockRestore();
      setTimeout.mockRestore();
      jest.useRealTimers();
    }
  });
});
