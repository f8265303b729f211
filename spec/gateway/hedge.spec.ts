/**
 * `hedge()` in virtual time: the next request only while none has answered, the first to produce
 * output wins and the others are unsubscribed, failures before output fall through to the next
 * request, unsubscription cancels everything.
 */
import { lastValueFrom, NEVER, VirtualTimeScheduler } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { StreamEvent } from 'rxjs-tool-calls';
import { hedge } from 'rxjs-tool-calls/gateway';
import { anthropicEvent, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { eventsOf, httpError, virtualTime } from '../helpers/retryWire';

const CHAT = { m: openaiChunk({ role: 'assistant' }), t: openaiChunk({ content: 'Hi' }), f: openaiChunk({ finishReason: 'stop' }), d: openaiDone() };
const ANTHROPIC = {
  s: anthropicEvent('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], usage: { input_tokens: 3, output_tokens: 1 } } }),
  b: anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  t: anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello' } }),
  e: anthropicEvent('message_stop'),
};

async function values(): Promise<Record<string, StreamEvent>> {
  const [m, t, f, d] = await eventsOf([CHAT.m, CHAT.t, CHAT.f, CHAT.d]);
  const [am, au, at, ad] = await eventsOf([ANTHROPIC.s, ANTHROPIC.b, ANTHROPIC.t, ANTHROPIC.e]);
  return { m: m!, t: t!, F: f!, D: d!, M: am!, U: au!, T: at!, E: ad! };
}

function run(test: (helpers: Parameters<Parameters<TestScheduler['run']>[0]>[0], scheduler: TestScheduler) => void): void {
  const scheduler = virtualTime();
  scheduler.run((helpers) => test(helpers, scheduler));
}

describe('hedge()', () => {
  it('follows the doc diagram: the second request answers first, the first is unsubscribed then', async () => {
    const v = await values();
    run(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const slow = cold('--m--------------t--f--(d|)', CHAT);
      const fast = cold('--s--t-----(e|)', ANTHROPIC);
      expectObservable(hedge([() => slow, () => fast], { afterMs: 5, scheduler })).toBe('----------(MUT)-(E|)', v);
      expectSubscriptions(slow.subscriptions).toBe('^---------!');
      expectSubscriptions(fast.subscriptions).toBe('-----^----------!');
    });
  });

  it('a request that answers within afterMs is the only one made', async () => {
    const v = await values();
    run(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const first = cold('--m--t--f--(d|)', CHAT);
      const second = cold('--t', CHAT);
      expectObservable(hedge([() => first, () => second], { afterMs: 6, scheduler })).toBe('-----(mt)--(FD|)', v);
      expectSubscriptions(second.subscriptions).toBe([]);
    });
  });

  it('starts the third request afterMs after the second; the first to answer wins', async () => {
    const v = await values();
    run(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const a = cold('-------------t', CHAT);
      const b = cold('-----------t', CHAT);
      const c = cold('--t--f--(d|)', CHAT);
      expectObservable(hedge([() => a, () => b, () => c], { afterMs: 4, scheduler })).toBe('----------(mt)--(FD|)', v);
      expectSubscriptions(a.subscriptions).toBe('^---------!');
      expectSubscriptions(b.subscriptions).toBe('----^-----!');
      expectSubscriptions(c.subscriptions).toBe('--------^-------!');
    });
  });

  it('a failure before output makes the next request at once; when all failed, the last error ends the stream', async () => {
    const v = await values();
    const busy = httpError(503);
    const down = httpError(502);
    run(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const failing = cold('--#', CHAT, busy);
      const next = cold('--t--f--(d|)', CHAT);
      expectObservable(hedge([() => failing, () => next], { afterMs: 100, scheduler })).toBe('----(mt)--(FD|)', v);
      expectSubscriptions(next.subscriptions).toBe('--^-------!');
      expectObservable(hedge([() => cold('--#', CHAT, busy), () => cold('---#', CHAT, down)], { afterMs: 1, scheduler })).toBe('----#', undefined, down);
    });
  });

  it("after winning, the winner's error ends the stream (no fallback then)", async () => {
    const v = await values();
    const cut = httpError(500);
    run(({ cold, expectObservable }, scheduler) => {
      expectObservable(hedge([() => cold('--t---#', CHAT, cut), () => cold('--t', CHAT)], { afterMs: 3, scheduler })).toBe('--(mt)#', v, cut);
    });
  });

  it('unsubscribing cancels every request and the wait', () => {
    run(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const a = cold('-------t', CHAT);
      const b = cold('-------t', CHAT);
      const c = cold('-------t', CHAT);
      expectObservable(hedge([() => a, () => b, () => c], { afterMs: 3, scheduler }), '^----!').toBe('-');
      expectSubscriptions(a.subscriptions).toBe('^----!');
      expectSubscriptions(b.subscriptions).toBe('---^-!');
      expectSubscriptions(c.subscriptions).toBe([]);
    });
  });

  it('needs at least one request', async () => {
    await expect(lastValueFrom(hedge([], { afterMs: 1 }))).rejects.toThrow(TypeError);
  });
});

describe('hedge() with a wait longer than one timer holds', () => {
  it('starts the next request after the whole of afterMs (5e9 ms, past 2^31 − 1), never early', () => {
    const scheduler = new VirtualTimeScheduler();
    let startedAt: number | undefined;
    const subscription = hedge(
      [
        () => NEVER,
        () => {
          startedAt = scheduler.now();
          return NEVER;
        },
      ],
      { afterMs: 5e9, scheduler },
    ).subscribe({ error: () => undefined });
    scheduler.flush();
    expect(startedAt).toBe(5e9);
    subscription.unsubscribe();
  });
});
