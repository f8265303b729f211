/**
 * Usage per source in a merge: each source's `complete` (or `error`) item carries its last usage
 * report; `totalUsage()` by `source` gives the total, over those items or live over the events.
 */
import { concat, from, lastValueFrom, map, type Observable, takeLast, throwError, toArray } from 'rxjs';
import { type MergedItem, mergeStreams, tagSource, totalUsage } from 'rxjs-tool-calls/gateway';
import { anthropicEvent, openaiChunk, openaiDone, wireChunks } from 'rxjs-tool-calls/marbles';
import { testScheduler } from '../helpers/marbles';

const chat = [
  openaiChunk({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiChunk({ usage: { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48, prompt_tokens_details: { cached_tokens: 32 } } }),
  openaiDone(),
];
const claudeStart = anthropicEvent('message_start', { message: { id: 'msg_1', model: 'claude-x', usage: { input_tokens: 20, output_tokens: 1 } } });
const claudeBody = [
  anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_time', input: {} } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"tz":"CET"}' } }),
  anthropicEvent('content_block_stop', { index: 0 }),
];
const claudeEnd = [anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 30 } }), anthropicEvent('message_stop')];
const claude = [claudeStart, ...claudeBody, ...claudeEnd];

const chatUsage = { inputTokens: 40, outputTokens: 8, totalTokens: 48, cachedInputTokens: 32 };
const claudeUsage = { inputTokens: 20, outputTokens: 30, totalTokens: 50 };

const finalItems = (items: MergedItem[]) =>
  items.filter((i) => i.type === 'complete' || i.type === 'error').map((i) => [i.source, i.type, i.type === 'complete' || i.type === 'error' ? i.usage : undefined]);
const bySource = { usageOf: (item: MergedItem) => (item.type === 'complete' || item.type === 'error' ? item.usage : undefined), streamOf: (item: MergedItem) => item.source };
const live = { usageOf: (item: MergedItem) => (item.type === 'event' && item.event.type === 'usage' ? item.event : undefined), streamOf: (item: MergedItem) => item.source };

describe('mergeStreams usage', () => {
  it('each complete item carries its source’s last usage report (Anthropic: message_delta’s, not message_start’s)', async () => {
    const items = await lastValueFrom(mergeStreams({ openai: from(chat), claude: from(claude) }).pipe(toArray()));
    expect(finalItems(items)).toEqual([
      ['openai', 'complete', chatUsage],
      ['claude', 'complete', claudeUsage],
    ]);
  });

  it('also with events: false (the usage events are not emitted, the complete item still has them)', async () => {
    const items = await lastValueFrom(mergeStreams({ openai: from(chat), claude: from(claude) }, { events: false }).pipe(toArray()));
    expect(items.some((i) => i.type === 'event')).toBe(false);
    expect(finalItems(items)).toEqual([
      ['openai', 'complete', chatUsage],
      ['claude', 'complete', claudeUsage],
    ]);
  });

  it('a failed source’s error item carries what it reported before failing; a source that reported nothing has no usage', async () => {
    const cut: Observable<string> = concat(
      from([claudeStart, ...claudeBody]),
      throwError(() => new Error('ECONNRESET')),
    );
    const bare = [openaiChunk({ content: 'hi' }), openaiChunk({ finishReason: 'stop' }), openaiDone()];
    const items = await lastValueFrom(mergeStreams({ claude: cut, bare: from(bare) }).pipe(toArray()));
    expect(finalItems(items)).toEqual([
      ['claude', 'error', { inputTokens: 20, outputTokens: 1, totalTokens: 21 }],
      ['bare', 'complete', undefined],
    ]);
    expect(items.filter((i) => i.type === 'complete').every((i) => !('usage' in i))).toBe(true);
  });

  it('the total by source: totalUsage() over the final items equals totalUsage() over the live events', async () => {
    const merged = mergeStreams({ openai: from(chat), claude: from(claude) });
    const final = await lastValueFrom(merged.pipe(totalUsage(bySource), takeLast(1)));
    const running = await lastValueFrom(merged.pipe(totalUsage(live), toArray()));
    expect(final).toEqual({ inputTokens: 60, outputTokens: 38, totalTokens: 98, cachedInputTokens: 32 });
    expect(running.at(-1)).toEqual(final);
    expect(running.length).toBe(3); // chat's one report, Anthropic's two (the second replaces the first)
  });

  it('in virtual time: the usage goes on the complete item, after the source’s last event', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const a = wireChunks('-s-b-e|', { s: claudeStart, b: claudeBody, e: claudeEnd }, { as: 'text' });
      const view = (item: MergedItem) => (item.type === 'complete' ? `complete ${JSON.stringify(item.usage)}` : item.type);
      expectObservable(cold(a.marbles, a.values).pipe(tagSource('a', { events: false }), map(view))).toBe('---r--(c|)', { r: 'result', c: `complete ${JSON.stringify(claudeUsage)}` });
    });
  });

  it('keeps no usage between subscriptions', async () => {
    const merged = mergeStreams({ claude: from(claude) }).pipe(takeLast(1));
    expect(await lastValueFrom(merged)).toEqual({ source: 'claude', type: 'complete', usage: claudeUsage });
    expect(await lastValueFrom(merged)).toEqual({ source: 'claude', type: 'complete', usage: claudeUsage });
  });
});
