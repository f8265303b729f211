import fc from 'fast-check';
import { from, lastValueFrom, takeLast, toArray } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import type { StreamEvent, UsageEvent, Usage } from 'rxjs-tool-calls';
import { totalUsage, addUsage } from 'rxjs-tool-calls/gateway';
import { standardCases } from '../../helpers/standardCases';
import { testScheduler } from '../../helpers/marbles';

const usage = (inputTokens: number, outputTokens: number, extra: Partial<UsageEvent> = {}): UsageEvent => ({
  type: 'usage',
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
  raw: {},
  ...extra,
});
const done: StreamEvent = { type: 'done' };
const text: StreamEvent = { type: 'text-delta', choice: 0, text: 'hi' };

function scheduler(): TestScheduler {
  return testScheduler();
}

describe('addUsage', () => {
  it('adds count by count, keeping one-sided counts and leaving absent ones out', () => {
    expect(addUsage({ inputTokens: 10, outputTokens: 5, totalTokens: 15 }, { inputTokens: 20, outputTokens: 1, totalTokens: 21, reasoningTokens: 1 })).toEqual({
      inputTokens: 30,
      outputTokens: 6,
      totalTokens: 36,
      reasoningTokens: 1,
    });
    expect(addUsage({}, {})).toEqual({});
  });

  it('reads only the counts of a usage event', () => {
    expect(addUsage(usage(1, 2, { cachedInputTokens: 1 }), {})).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: 3, cachedInputTokens: 1 });
  });

  it('is commutative and associative, with {} as identity (property)', () => {
    const count = fc.option(fc.nat(1_000_000), { nil: undefined });
    const anyUsage = fc
      .record({ inputTokens: count, outputTokens: count, totalTokens: count, reasoningTokens: count, cachedInputTokens: count, cacheWriteInputTokens: count })
      .map((u) => JSON.parse(JSON.stringify(u)) as Usage);
    fc.assert(
      fc.property(anyUsage, anyUsage, anyUsage, (a, b, c) => {
        expect(addUsage(a, b)).toEqual(addUsage(b, a));
        expect(addUsage(addUsage(a, b), c)).toEqual(addUsage(a, addUsage(b, c)));
        expect(addUsage(a, {})).toEqual(a);
      }),
    );
  });
});

describe('totalUsage', () => {
  standardCases(() => totalUsage(), [usage(1, 1), done, usage(2, 2)]);

  it('takes the last report of a stream and adds up streams ended by done (the doc diagram)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values = { a: usage(10, 1), b: usage(10, 5), c: usage(20, 2), d: done };
      expectObservable(cold('--a--b--d--c--d--|', values).pipe(totalUsage())).toBe('--A--B-----C-----|', {
        A: { inputTokens: 10, outputTokens: 1, totalTokens: 11 },
        B: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
        C: { inputTokens: 30, outputTokens: 7, totalTokens: 37 },
      });
    });
  });

  it('emits nothing for events without usage and passes errors through', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const error = new Error('cut');
      expectObservable(cold('-t-a-t-#', { t: text, a: usage(3, 4) }, error).pipe(totalUsage())).toBe('---A---#', { A: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } }, error);
    });
  });

  it('Anthropic: the message_delta report replaces the message_start one', async () => {
    const events: StreamEvent[] = [usage(20, 1), text, usage(20, 30), done];
    expect(await lastValueFrom(from(events).pipe(totalUsage(), takeLast(1)))).toEqual({ inputTokens: 20, outputTokens: 30, totalTokens: 50 });
  });

  it('sums a tool loop by step (usageOf / streamOf)', async () => {
    type Item = { type: 'event'; step: number; event: StreamEvent } | { type: 'step-end'; step: number };
    const items: Item[] = [
      { type: 'event', step: 0, event: usage(100, 1) },
      { type: 'event', step: 0, event: usage(100, 40) },
      { type: 'step-end', step: 0 },
      { type: 'event', step: 1, event: usage(150, 2, { reasoningTokens: 2 }) },
      { type: 'event', step: 1, event: usage(150, 60, { reasoningTokens: 20 }) },
    ];
    const totals = await lastValueFrom(
      from(items).pipe(totalUsage({ usageOf: (item: Item) => (item.type === 'event' && item.event.type === 'usage' ? item.event : undefined), streamOf: (item) => item.step }), toArray()),
    );
    expect(totals).toHaveLength(4);
    expect(totals.at(-1)).toEqual({ inputTokens: 250, outputTokens: 100, totalTokens: 350, reasoningTokens: 20 });
  });

  it('sums interleaved sources of a merge by source', async () => {
    const items = [
      { source: 'a', usage: usage(1, 1) },
      { source: 'b', usage: usage(5, 5) },
      { source: 'a', usage: usage(1, 3) },
      { source: 'b', usage: usage(5, 9) },
    ];
    const total = await lastValueFrom(from(items).pipe(totalUsage({ usageOf: (item) => item.usage, streamOf: (item) => item.source }), takeLast(1)));
    expect(total).toEqual({ inputTokens: 6, outputTokens: 12, totalTokens: 18 });
  });

  it('treats all items as one stream when streamOf is not given', async () => {
    const total = await lastValueFrom(from([usage(1, 1), usage(2, 2)]).pipe(totalUsage({ usageOf: (u: UsageEvent) => u }), takeLast(1)));
    expect(total).toEqual({ inputTokens: 2, outputTokens: 2, totalTokens: 4 });
  });

  it('keeps no state between subscriptions', async () => {
    const source = from([usage(1, 1), done, usage(2, 2)]).pipe(totalUsage(), takeLast(1));
    expect(await lastValueFrom(source)).toEqual({ inputTokens: 3, outputTokens: 3, totalTokens: 6 });
    expect(await lastValueFrom(source)).toEqual({ inputTokens: 3, outputTokens: 3, totalTokens: 6 });
  });
});
