/**
 * The three marble diagrams of `retryStream()`'s doc comment, as tests: a retry before output
 * (metadata held back), a resume by SSE id after a cut mid-event, and a plain chat stream cut after
 * output (ended with `delivered`, or started over with `restart: true`).
 */
import { retryStream, type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { CHAT_PLAIN, CHAT_WITH_IDS, cut, eventsOf, httpError, virtualTime } from '../helpers/retryWire';

describe('retryStream() doc diagrams', () => {
  it('1: a 429 before any output is retried; the metadata of the failed attempt is not seen, the new one waits for the text', async () => {
    const wire = {
      m: openaiChunk({ role: 'assistant' }),
      t: openaiChunk({ content: 'Hi' }),
      x: openaiChunk({ toolCalls: [{ id: 'call_1', name: 'f', arguments: '{}' }] }),
      f: openaiChunk({ finishReason: 'tool_calls' }),
      d: openaiDone(),
    };
    const [m, t, x, f, d] = await eventsOf([wire.m, wire.t, wire.x, wire.f, wire.d]);
    const error = httpError(429);
    virtualTime().run(({ cold, expectObservable }) => {
      const attempts = [cold('--m--#', wire, error), cold('--m--t----x--(fd|)', wire)];
      expectObservable(retryStream((ctx) => attempts[ctx.attempt - 1] ?? cold('#'), { backoff: () => 2 })).toBe('-----r------(mt)-x--(FD|)', {
        r: { type: 'retry', attempt: 2, error, delayMs: 2 },
        m,
        t,
        x,
        F: f,
        D: d,
      });
    });
  });

  it('2: a cut mid-event on a stream with SSE ids is resumed after the last whole event; the call continues', async () => {
    const [a, b, c, e, f, d] = CHAT_WITH_IDS as [string, string, string, string, string, string];
    const [m, t, x, y, z, F, D] = await eventsOf(CHAT_WITH_IDS);
    const wire = { a, b, p: c.slice(0, 12), c, e, f, d };
    const contexts: unknown[] = [];
    virtualTime().run(({ cold, expectObservable }) => {
      const attempts = [cold('--a---b--p#', wire, cut()), cold('--c--e-----f--(d|)', wire)];
      const result = retryStream((ctx) => (contexts.push(ctx.lastEventId), attempts[ctx.attempt - 1] ?? cold('#')), { backoff: () => 2 });
      expectObservable(result).toBe('--(mt)x---r---y--z--------(FD|)', { m, t, x, y, z, F, D, r: { type: 'retry', attempt: 2, error: cut(), delayMs: 2 } } as Record<string, StreamEvent>);
    });
    expect(contexts).toEqual([undefined, '2']);
  });

  it('3: a plain chat stream cut after output ends with delivered; with restart: true it starts over after a restart event', async () => {
    const wire = { a: CHAT_PLAIN[0] as string, b: CHAT_PLAIN[1] as string, f: CHAT_PLAIN[4] as string, d: CHAT_PLAIN[5] as string };
    const [m, t, x, F, D] = await eventsOf([wire.a, wire.b, wire.f, wire.d]);
    const delivered = new ToolStreamError('connection-lost', {
      source: 'test',
      byteOffset: 0,
      delivered: { text: ['Checking. '], reasoning: [''], toolCalls: [{ id: 'call_1', name: 'get_weather', index: 0, choice: 0, rawArguments: '{"ci', complete: false }] },
    });
    virtualTime().run(({ cold, expectObservable }) => {
      const attempts = () => [cold('--a---b--#', wire, cut()), cold('--a---b--f--(d|)', wire)];
      const plain = attempts();
      expectObservable(retryStream((ctx) => plain[ctx.attempt - 1] ?? cold('#'), { backoff: () => 2 })).toBe('--(mt)x--#', { m, t, x }, delivered);
      const again = attempts();
      const values = { m, t, x, F, D, r: { type: 'retry', attempt: 2, error: cut(), delayMs: 2 }, R: { type: 'restart', attempt: 2, error: cut() } } as Record<string, StreamEvent>;
      expectObservable(retryStream((ctx) => again[ctx.attempt - 1] ?? cold('#'), { backoff: () => 2, restart: true })).toBe('--(mt)x--r-R-(mt)x-----(FD|)', values);
    });
  });
});
