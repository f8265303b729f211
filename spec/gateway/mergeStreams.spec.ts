import { filter, from, map, merge, toArray } from 'rxjs';
import { z } from 'zod';
import { type TestScheduler } from 'rxjs/testing';
import { isToolStreamError } from 'rxjs-tool-calls';
import { isMerged, type MergedItem, mergeStreams, tagSource } from 'rxjs-tool-calls/gateway';
import { anthropicEvent, openaiChunk, openaiDone, wireChunks } from 'rxjs-tool-calls/marbles';
import { testScheduler } from '../helpers/marbles';

function scheduler(): TestScheduler {
  return testScheduler();
}

/** A merged item as one short string: `source:kind:detail`. */
function view(item: MergedItem): string {
  switch (item.type) {
    case 'event':
      return `${item.source}:${item.event.type}`;
    case 'result': {
      const r = item.result;
      if (r.success) return `${item.source}:ok:${r.data.id}:${JSON.stringify(r.data.arguments)}`;
      return `${item.source}:fail:${r.error.toolCall.id}:${r.error.code}${'reason' in r.error ? `/${r.error.reason}` : ''}`;
    }
    case 'error':
      return `${item.source}:error:${isToolStreamError(item.error) ? item.error.code : String(item.error)}`;
    case 'complete':
      return `${item.source}:complete`;
  }
}

// Source a: OpenAI chat, one call `call_1` finishing in chunk b; the call completes at [DONE] (d),
// since a chat finish never closes calls (rule `when-complete`).
const openai = {
  a: openaiChunk({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":' }] }),
  b: openaiChunk({ toolCalls: [{ arguments: '"Paris"}' }], finishReason: 'tool_calls' }),
  d: openaiDone(),
};
// Source b: Anthropic Messages, one tool_use block with the SAME id `call_1`, ended by content_block_stop.
const anthropic = {
  s: anthropicEvent('message_start', { message: { id: 'msg_1', model: 'claude-x' } }),
  t: anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'call_1', name: 'get_time', input: {} } }),
  j: anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"tz":' } }),
  k: anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '"CET"}' } }),
  e: anthropicEvent('content_block_stop', { index: 0 }),
  m: [anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' } }), anthropicEvent('message_stop')],
};

const A = 'a:ok:call_1:{"city":"Paris"}';
const B = 'b:ok:call_1:{"tz":"CET"}';

describe('mergeStreams()', () => {
  it('interleaves two sources with different wire formats in virtual time, tagging every item', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = wireChunks('-a---b--d|', openai, { as: 'text' });
      const b = wireChunks('--s-t-jk--e-m|', anthropic); // bytes
      const a$ = cold(a.marbles, a.values);
      const b$ = cold(b.marbles, b.values);
      expectObservable(mergeStreams({ a: a$, b: b$ }, { events: false }).pipe(map(view))).toBe('--------ACB--(D|)', { A, B, C: 'a:complete', D: 'b:complete' });
      expectSubscriptions(a$.subscriptions).toBe('^--------!');
      expectSubscriptions(b$.subscriptions).toBe('^------------!');
    });
  });

  it('emits each event before the results it completes, and reads the bytes once', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = wireChunks('-a------b------d-----|', openai, { as: 'text' });
      const a$ = cold(a.marbles, a.values);
      expectObservable(mergeStreams({ a: a$ }).pipe(map(view))).toBe('-(mx)---x------(fRd)-(C|)', {
        m: 'a:metadata',
        x: 'a:tool-call-delta',
        f: 'a:finish',
        R: A,
        d: 'a:done',
        C: 'a:complete',
      });
      expectSubscriptions(a$.subscriptions).toBe('^--------------------!');
    });
  });

  it('one source failing is reported as its items and does not end the others', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const a = wireChunks('-a---b-----d---|', openai, { as: 'text' });
      const b = wireChunks('--s-t-j|', anthropic, { as: 'text' }); // cut mid-call: no content_block_stop, no message_stop
      const items = mergeStreams({ a: cold(a.marbles, a.values), b: cold(b.marbles, b.values) }, { events: false });
      expectObservable(items.pipe(map(view))).toBe('-------(IE)A---(C|)', {
        A,
        I: 'b:fail:call_1:incomplete/truncated',
        E: 'b:error:truncated',
        C: 'a:complete',
      });
    });
  });

  it('failFast: ends the merged stream with the first error and unsubscribes the other sources', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = wireChunks('-a-bd-----d---|', openai, { as: 'text' });
      const b = wireChunks('--s-t-j|', anthropic, { as: 'text' });
      const a$ = cold(a.marbles, a.values);
      const b$ = cold(b.marbles, b.values);
      const items = mergeStreams({ a: a$, b: b$ }, { events: false, failFast: true });
      expectObservable(items.pipe(map(view))).toBe(
        '----A--(IE#)',
        { A, I: 'b:fail:call_1:incomplete/truncated', E: 'b:error:truncated' },
        expect.objectContaining({ code: 'truncated', provider: 'anthropic' }),
      );
      expectSubscriptions(a$.subscriptions).toBe('^------!');
      expectSubscriptions(b$.subscriptions).toBe('^------!');
    });
  });

  it('a byte source failing with a network error: open calls incomplete (stream-ended), then that error as an item', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const reset = new Error('ECONNRESET');
      const b = wireChunks('--s-t-j', anthropic, { as: 'text' });
      const b$ = cold(`${b.marbles}-#`, b.values, reset);
      expectObservable(mergeStreams({ b: b$ }, { events: false }).pipe(map(view))).toBe('--------(IE|)', { I: 'b:fail:call_1:incomplete/stream-ended', E: 'b:error:Error: ECONNRESET' });
    });
  });

  it('early unsubscribe unsubscribes every source', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = wireChunks('-a-bd----|', openai, { as: 'text' });
      const b = wireChunks('--s-t-jk-e-m|', anthropic, { as: 'text' });
      const a$ = cold(a.marbles, a.values);
      const b$ = cold(b.marbles, b.values);
      expectObservable(mergeStreams({ a: a$, b: b$ }, { events: false }).pipe(map(view)), '------!').toBe('----A--', { A });
      expectSubscriptions(a$.subscriptions).toBe('^-----!');
      expectSubscriptions(b$.subscriptions).toBe('^-----!');
    });
  });

  it('an empty record completes immediately', () => {
    scheduler().run(({ expectObservable }) => {
      expectObservable(mergeStreams({})).toBe('|');
    });
  });

  it('completes when every source completed or failed, also when all failed', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const junk = wireChunks('-x|', { x: 'data: <html>\n\n' }, { as: 'text' });
      const b = wireChunks('--s-t-j|', anthropic, { as: 'text' });
      const out = mergeStreams({ junk: cold(junk.marbles, junk.values), b: cold(b.marbles, b.values) }, { events: false }).pipe(map(view));
      expectObservable(out).toBe('-X-----(IE|)', { X: 'junk:error:unknown-format', I: 'b:fail:call_1:incomplete/truncated', E: 'b:error:truncated' });
    });
  });

  it('per-source options override the shared ones (provider, events, limits)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const a = wireChunks('-a-------b------d-----|', openai, { as: 'text' });
      const b = wireChunks('-----s-t|', anthropic, { as: 'text' });
      const out = mergeStreams(
        {
          a: { bytes$: cold(a.marbles, a.values), provider: 'openai-chat', events: true },
          b: { bytes$: cold(b.marbles, b.values), maxToolCalls: 0 },
        },
        { events: false },
      ).pipe(map(view));
      expectObservable(out).toBe('-(mx)--E-x------(fAd)-(C|)', {
        m: 'a:metadata',
        x: 'a:tool-call-delta',
        E: 'b:error:too-many-tool-calls',
        f: 'a:finish',
        A,
        d: 'a:done',
        C: 'a:complete',
      });
    });
  });

  it('keeps ids as the wire sent them; with the source they are unique across sources', () => {
    const keys: string[] = [];
    const ids: string[] = [];
    scheduler().run(({ cold }) => {
      const a = wireChunks('-a-b-d|', openai, { as: 'text' });
      const b = wireChunks('-s-t-jk-e-m|', anthropic, { as: 'text' });
      mergeStreams({ a: cold(a.marbles, a.values), b: cold(b.marbles, b.values) })
        .pipe(filter(isMerged('result')))
        .subscribe((item) => {
          if (item.result.success) ids.push(item.result.data.id);
          keys.push(`${item.source}:${item.result.success ? item.result.data.id : item.result.error.toolCall.id}`);
        });
    });
    expect(ids).toEqual(['call_1', 'call_1']);
    expect(keys).toEqual(['a:call_1', 'b:call_1']);
  });

  it('isMerged narrows by type and by source', () => {
    let seen: string[] = [];
    scheduler().run(({ cold }) => {
      const a = wireChunks('-a-b-d|', openai, { as: 'text' });
      const b = wireChunks('-s-t-jk-e-m|', anthropic, { as: 'text' });
      mergeStreams({ a: cold(a.marbles, a.values), b: cold(b.marbles, b.values) })
        .pipe(
          filter(isMerged('event', 'b')),
          map((item) => `${item.source}:${item.event.type}`),
          toArray(),
        )
        .subscribe((all) => (seen = all));
    });
    expect(seen).toEqual(['b:metadata', 'b:tool-call-delta', 'b:tool-call-delta', 'b:tool-call-delta', 'b:tool-call-end', 'b:finish', 'b:done']);
  });
});

describe('tagSource()', () => {
  it('reads one source into tagged items that never error, composable with merge', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const a = wireChunks('-a---b-----d---|', openai, { as: 'text' });
      const b = wireChunks('--s-t-j|', anthropic, { as: 'text' });
      const out = merge(cold(a.marbles, a.values).pipe(tagSource('a', { events: false })), cold(b.marbles, b.values).pipe(tagSource('b', { events: false })));
      expectObservable(out.pipe(map(view))).toBe('-------(IE)A---(C|)', { A, I: 'b:fail:call_1:incomplete/truncated', E: 'b:error:truncated', C: 'a:complete' });
    });
  });
});

describe('mergeStreams() with tools', () => {
  it('validates each source’s calls with the shared schemas', () => {
    const items: unknown[] = [];
    const chunks = (args: string) => from([openaiChunk({ toolCalls: [{ index: 0, id: 'c', name: 'f', arguments: args }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()]);
    mergeStreams({ good: chunks('{"n":1}'), bad: chunks('{"n":"x"}') }, { tools: { f: z.object({ n: z.number() }) }, events: false })
      .pipe(filter(isMerged('result')))
      .subscribe((item) => items.push([item.source, item.result.success ? 'ok' : item.result.error.code]));
    expect(items).toEqual([
      ['good', 'ok'],
      ['bad', 'invalid-arguments'],
    ]);
  });
});
