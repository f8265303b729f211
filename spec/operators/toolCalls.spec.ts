import { mergeMap, take, toArray, map } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { accumulateToolCalls, groupToolCalls, type StreamEvent, type ToolCallSnapshot, toolCalls, ToolStreamError } from 'rxjs-tool-calls';
import { plainValue } from '../helpers/plain';
import { testScheduler } from '../helpers/marbles';

const provError = new ToolStreamError('provider-error', { provider: 'openai-chat', providerCode: 'x', type: undefined, message: 'boom', status: 500, retryable: true, payload: {} });

function scheduler(): TestScheduler {
  return testScheduler('plain');
}

let n = 0;
const opts = () => {
  n = 0;
  return { generateId: () => `gen_${n++}` };
};

const ev = {
  a0: { type: 'tool-call-delta', choice: 0, index: 0, id: 'A', name: 'get_weather', argumentsDelta: '' },
  a1: { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"ci' },
  a2: { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: 'ty":"Paris"}' },
  b0: { type: 'tool-call-delta', choice: 0, index: 1, id: 'B', name: 'get_time', argumentsDelta: '' },
  b1: { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '{"tz":' },
  b2: { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '"CET"}' },
  bx: { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '{"tz":CET}' },
  t: { type: 'text-delta', choice: 0, text: 'hi' },
  f: { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
  l: { type: 'finish', choice: 0, reason: 'length', rawReason: 'length' },
  u: { type: 'usage', raw: {} },
  d: { type: 'done' },
} satisfies Record<string, StreamEvent>;

const A = { success: true, data: { id: 'A', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' } };
const B = { success: true, data: { id: 'B', name: 'get_time', index: 1, choice: 0, arguments: { tz: 'CET' }, rawArguments: '{"tz":"CET"}' } };
const incomplete = (id: string, name: string, raw: string, reason: string) => ({ plain: { err: 'incomplete', id, name, raw, reason } });

describe('toolCalls()', () => {
  it('emits each call once its choice finishes, interleaved fragments included', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-b-c-d-e-f-g-u-x-|', { a: ev.a0, b: ev.b0, c: ev.a1, d: ev.b1, e: ev.t, f: ev.a2, g: ev.b2, u: ev.f, x: ev.d });
      expectObservable(src.pipe(toolCalls(opts()))).toBe('---------------(AB)|', { A, B });
    });
  });

  it('a malformed call never ends its sibling', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-b-c-d-e-f----|', { a: ev.a0, b: ev.b0, c: ev.a1, d: ev.bx, e: ev.a2, f: ev.f });
      const malformed = new ToolStreamError('malformed-arguments', { toolCall: { id: 'B', name: 'get_time', index: 1, choice: 0, rawArguments: '{"tz":CET}' }, parseError: 'x', position: 6 });
      expectObservable(src.pipe(toolCalls(opts()))).toBe('-----------(AM)-|', { A, M: { success: false, error: malformed } });
    });
  });

  it('reports the JSON error position and message for malformed arguments', () => {
    const results: unknown[] = [];
    scheduler().run(({ cold }) => {
      cold('-a-b-f|', { a: ev.b0, b: ev.bx, f: ev.f })
        .pipe(toolCalls(opts()))
        .subscribe((r) => results.push(r));
    });
    const r = results[0] as { success: false; error: ToolStreamError<'malformed-arguments'> };
    expect(r.error.code).toBe('malformed-arguments');
    expect(r.error.position).toBe(6);
    expect(r.error.parseError).toMatch(/JSON/);
    expect(r.error.toolCall).toEqual({ id: 'B', name: 'get_time', index: 1, choice: 0, rawArguments: '{"tz":CET}' });
  });

  it('empty or whitespace-only arguments mean {}', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const ws = { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: ' \n ' } as const;
      const src = cold('-a-b-w-f---|', { a: ev.a0, b: ev.b0, w: ws, f: ev.f });
      expectObservable(
        src.pipe(
          toolCalls(opts()),
          map((r) => r.success && r.data.arguments),
        ),
      ).toBe('-------(xy)|', { x: {}, y: {} });
    });
  });

  it('completes calls at [DONE] when no finish reason came', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-b-c-d|', { a: ev.a0, b: ev.a1, c: ev.a2, d: ev.d });
      expectObservable(src.pipe(toolCalls(opts()))).toBe('-------A|', { A });
    });
  });

  it('does not complete a call merely because its arguments parse', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-b-c----f|', { a: ev.a0, b: ev.a1, c: ev.a2, f: ev.f });
      expectObservable(src.pipe(toolCalls(opts()))).toBe('----------A|', { A });
    });
  });

  it('emits a call at its tool-call-end, before the choice finishes', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const end = { type: 'tool-call-end', choice: 0, index: 0 } as const;
      const src = cold('-a-b-c-e-x-y-z-f|', { a: ev.a0, b: ev.a1, c: ev.a2, e: end, x: ev.b0, y: ev.b1, z: ev.b2, f: ev.f });
      expectObservable(src.pipe(toolCalls(opts()))).toBe('-------A-------B|', { A, B });
    });
  });

  it('a tool-call-end marked incomplete gives an incomplete result', () => {
    const results: unknown[] = [];
    scheduler().run(({ cold }) => {
      const end = { type: 'tool-call-end', choice: 0, index: 0, incomplete: true } as const;
      cold('-a-b-e-f|', { a: ev.a0, b: ev.a1, e: end, f: ev.f })
        .pipe(toolCalls(opts()))
        .subscribe((r) => results.push(r));
    });
    expect(results.map(plainValue)).toEqual([{ err: 'incomplete', id: 'A', name: 'get_weather', raw: '{"ci', reason: 'not-closed' }]);
  });

  it('a provider error emits complete calls, then open calls as incomplete, then the error', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const end = { type: 'tool-call-end', choice: 0, index: 0 } as const;
      const src = cold('-a-b-c-e-x-y-#', { a: ev.a0, b: ev.a1, c: ev.a2, e: end, x: ev.b0, y: ev.b1 }, provError);
      expectObservable(src.pipe(toolCalls(opts()))).toBe('-------A-----(I#)', { A, I: incomplete('B', 'get_time', '{"tz":', 'provider-error') }, provError);
    });
    const results: unknown[] = [];
    let error: unknown;
    scheduler().run(({ cold }) => {
      cold('-a-b-#', { a: ev.b0, b: ev.b1 }, provError)
        .pipe(toolCalls(opts()))
        .subscribe({ next: (r) => results.push(plainValue(r)), error: (e: unknown) => (error = e) });
    });
    expect(results).toEqual([{ err: 'incomplete', id: 'B', name: 'get_time', raw: '{"tz":', reason: 'provider-error' }]);
    expect(error).toBe(provError);
  });

  it('a truncated stream reports open calls incomplete with reason truncated', () => {
    const results: unknown[] = [];
    scheduler().run(({ cold }) => {
      cold('-a-b-#', { a: ev.a0, b: ev.a1 }, new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'cut' }))
        .pipe(toolCalls(opts()))
        .subscribe({ next: (r) => results.push(plainValue(r)), error: () => undefined });
    });
    expect(results).toEqual([{ err: 'incomplete', id: 'A', name: 'get_weather', raw: '{"ci', reason: 'truncated' }]);
  });

  it('finish with length: unparseable arguments are incomplete, parseable ones succeed', () => {
    const results: unknown[] = [];
    scheduler().run(({ cold }) => {
      cold('-a-b-c-x-y-l|', { a: ev.a0, b: ev.a1, c: ev.a2, x: ev.b0, y: ev.b1, l: ev.l })
        .pipe(toolCalls(opts()))
        .subscribe((r) => results.push(plainValue(r)));
    });
    expect(results).toEqual([{ ok: A.data }, { err: 'incomplete', id: 'B', name: 'get_time', raw: '{"tz":', reason: 'length' }]);
  });

  it('too many tool calls: open calls incomplete, then the typed error', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-b-c|', { a: ev.a0, b: ev.a1, c: ev.b0 });
      expectObservable(src.pipe(toolCalls({ maxToolCalls: 1 }))).toBe(
        '-----(I#)',
        { I: incomplete('A', 'get_weather', '{"ci', 'too-many-tool-calls') },
        new ToolStreamError('too-many-tool-calls', { limit: 1 }),
      );
    });
  });

  it('arguments over the size limit fail that call only', () => {
    const results: unknown[] = [];
    scheduler().run(({ cold }) => {
      cold('-a-b-c-x-y-z-f|', { a: ev.a0, b: ev.a1, c: ev.a2, x: ev.b0, y: ev.b1, z: ev.b2, f: ev.f })
        .pipe(
          toolCalls({ maxArgumentsSize: 12 }),
          map((r) => (r.success ? r.data.name : r.error.code)),
        )
        .subscribe((r) => results.push(r));
    });
    expect(results).toEqual(['arguments-too-large', 'get_time']);
  });

  it('ignores events that are not about tool calls, and completes with nothing when there are no calls', () => {
    const stop: StreamEvent = { type: 'finish', choice: 0, reason: 'stop', rawReason: 'stop' };
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-t-u-f-d|', { t: ev.t, u: ev.u, f: stop, d: ev.d }).pipe(toolCalls())).toBe('--------|');
    });
  });

  it('a tool-calls finish that no call came for gives one missing-tool-calls failure at the end of the stream (a late call would still count) (rule `missing-calls`)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const results = cold('-t-u-f-d|', { t: ev.t, u: ev.u, f: ev.f, d: ev.d }).pipe(
        toolCalls({ generateId: () => 'gen_0' }),
        map((r) => (r.success ? 'ran' : `${r.error.code} ${r.error.toolCall.id} ${r.error.toolCall.name === '' ? '(no name)' : r.error.toolCall.name}`)),
      );
      expectObservable(results).toBe('-------m|', { m: 'missing-tool-calls gen_0 (no name)' });
    });
  });

  it('early unsubscribe unsubscribes the source', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-c-f|', { a: ev.a0, b: ev.a1, c: ev.a2, f: ev.f });
      expectObservable(src.pipe(toolCalls()), '---!').toBe('---');
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('unsubscribes through mergeMap and works with a synchronous source cut by take', () => {
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-c-f|', { a: ev.a0, b: ev.a1, c: ev.a2, f: ev.f });
      const outer = hot('x------|');
      expectObservable(outer.pipe(mergeMap(() => src.pipe(toolCalls()))), '----!').toBe('-----');
      expectSubscriptions(src.subscriptions).toBe('^---!');
    });
    const sync: StreamEvent[] = [ev.a0, ev.a1, ev.a2, ev.f, ev.b0, ev.b1, ev.b2, ev.f];
    let seen: unknown[] = [];
    scheduler().run(({ cold }) => {
      cold<StreamEvent>('(abcdefgh|)', Object.fromEntries(sync.map((e, i) => ['abcdefgh'[i] ?? '', e])))
        .pipe(toolCalls(opts()), take(1), toArray())
        .subscribe((r) => (seen = r as unknown[]));
    });
    expect(seen.map(plainValue)).toEqual([{ ok: A.data }]);
  });
});

describe('groupToolCalls()', () => {
  it('gives each call its own stream that completes when the call closes', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-b-c-d-e-f-g-u---|', { a: ev.a0, b: ev.b0, c: ev.a1, d: ev.b1, e: ev.a2, f: ev.b2, g: ev.t, u: ev.f });
      const raws = src.pipe(
        groupToolCalls(opts()),
        mergeMap((g) =>
          g.pipe(
            map((u) => `${u.id}:${u.rawArguments}${u.result ? '!' : ''}`),
            toArray(),
          ),
        ),
      );
      expectObservable(raws).toBe('---------------(xy)|', {
        x: ['A:', 'A:{"ci', 'A:{"city":"Paris"}', 'A:{"city":"Paris"}!'],
        y: ['B:', 'B:{"tz":', 'B:{"tz":"CET"}', 'B:{"tz":"CET"}!'],
      });
    });
  });

  it('keeps the source subscribed while a group is watched after the outer subscription ended (take(1) of the groups)', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-c-d-e-f-g-u---|', { a: ev.a0, b: ev.b0, c: ev.a1, d: ev.b1, e: ev.a2, f: ev.b2, g: ev.t, u: ev.f });
      const first = src.pipe(
        groupToolCalls(opts()),
        take(1),
        mergeMap((g) =>
          g.pipe(
            map((u) => `${u.id}:${u.rawArguments}${u.result ? '!' : ''}`),
            toArray(),
          ),
        ),
      );
      expectObservable(first).toBe('---------------(x|)', { x: ['A:', 'A:{"ci', 'A:{"city":"Paris"}', 'A:{"city":"Paris"}!'] });
      // the source is released once the last watched group ended
      expectSubscriptions(src.subscriptions).toBe('^--------------!');
    });
  });

  it('releases the source when the outer subscription ends and no group is watched', () => {
    scheduler().run(({ cold, expectSubscriptions }) => {
      const src = cold('-a-b-c-d-e-f-g-u---|', { a: ev.a0, b: ev.b0, c: ev.a1, d: ev.b1, e: ev.a2, f: ev.b2, g: ev.t, u: ev.f });
      src.pipe(groupToolCalls(opts()), take(1)).subscribe();
      expectSubscriptions(src.subscriptions).toBe('^!');
    });
  });
});

describe('accumulateToolCalls()', () => {
  it('emits a snapshot after every change to a call', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-t-b-c-f|', { a: ev.a0, t: ev.t, b: ev.a1, c: ev.a2, f: ev.f });
      const view = src.pipe(
        accumulateToolCalls(opts()),
        map((calls) => calls.map((c) => `${c.name}=${c.rawArguments}:${c.status}${c.result?.success ? '+' : ''}`).join(',')),
      );
      expectObservable(view).toBe('-x---y-z-w|', {
        x: 'get_weather=:streaming',
        y: 'get_weather={"ci:streaming',
        z: 'get_weather={"city":"Paris"}:streaming',
        w: 'get_weather={"city":"Paris"}:complete+',
      });
    });
  });

  it('closes the open calls incomplete when the source fails (one last array), then passes the error; arrays are immutable', () => {
    const snapshots: Array<ReadonlyArray<ToolCallSnapshot>> = [];
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-b-#', { a: ev.a0, b: ev.a1 }, provError);
      const out = src.pipe(accumulateToolCalls(opts()));
      out.subscribe({ next: (s) => snapshots.push(s), error: () => undefined });
      expectObservable(out.pipe(map((s) => s.map((c) => c.status).join()))).toBe('-x-x-(y#)', { x: 'streaming', y: 'complete' }, provError);
    });
    expect(snapshots[0]).not.toBe(snapshots[1]);
    const last = snapshots[2]?.[0]?.result;
    expect(last?.success === false && last.error.code).toBe('incomplete');
  });

  it('closes the open calls complete when the source completes, as groupToolCalls() does', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-b-|', { a: ev.a0, b: ev.a1 });
      expectObservable(
        src.pipe(
          accumulateToolCalls(opts()),
          map((s) => s.map((c) => c.status).join()),
        ),
      ).toBe('-x-x-(y|)', { x: 'streaming', y: 'complete' });
    });
  });
});
