/**
 * Usage wherever providers put it, normalised as everywhere else: Groq's
 * `x_groq.usage`, Moonshot / Kimi's `choices[i].usage`, DeepSeek's `prompt_cache_hit_tokens`, usage
 * on every chunk with zeros until the last. Each case is our own small stream shaped like the one in
 * the named public report, read under every chunking; the last `usage` event is what a client bills.
 */
import { readStreamEvents, type StreamEvent, type UsageEvent } from 'rxjs-tool-calls';
import { openaiDone, toBytes } from 'rxjs-tool-calls/marbles';
import { from, lastValueFrom, toArray } from 'rxjs';
import { chunkings } from '../helpers/chunking';
import { calls, chat, tc } from './helpers';

/** The counts of the last usage event (its `raw` left out), the same under every chunking. */
async function lastUsage(...wire: string[]): Promise<Omit<UsageEvent, 'raw' | 'type'> | undefined> {
  const seen: unknown[] = [];
  for (const [, chunks] of chunkings(toBytes(wire.join('')))) {
    const events: StreamEvent[] = await lastValueFrom(from(chunks).pipe(readStreamEvents(), toArray()));
    const usage = events.filter((e): e is UsageEvent => e.type === 'usage').at(-1);
    if (usage === undefined) seen.push(undefined);
    else {
      const { raw: _raw, type: _type, ...counts } = usage;
      seen.push(counts);
    }
  }
  for (const s of seen) expect(s).toEqual(seen[0]);
  return seen[0] as Omit<UsageEvent, 'raw' | 'type'> | undefined;
}

const DONE = openaiDone();

describe('real-world usage: where OpenAI-compatible servers put it', () => {
  it('vercel/ai#1651: Groq puts usage in `x_groq.usage` of the last chunk', async () => {
    const last = chat([{ index: 0, delta: {}, finish_reason: 'tool_calls' }], {
      x_groq: { id: 'req_01', usage: { queue_time: 0.07, prompt_tokens: 23, prompt_time: 0.006, completion_tokens: 19, completion_time: 0.02, total_tokens: 42, total_time: 0.03 } },
    });
    expect(await lastUsage(calls([tc({ index: 0, id: 'call_g', name: 'f', args: '{}' })]), last, DONE)).toEqual({ inputTokens: 23, outputTokens: 19, totalTokens: 42 });
  });

  it('earendil-works/pi#2017: Moonshot / Kimi put usage in `choices[0].usage` of the finishing chunk', async () => {
    const last = chat([{ index: 0, delta: {}, finish_reason: 'tool_calls', usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, cached_tokens: 100 } }]);
    expect(await lastUsage(calls([tc({ index: 0, id: 'get_weather:0', name: 'get_weather', args: '{"city":"Beijing"}' })]), last, DONE)).toEqual({
      inputTokens: 120,
      outputTokens: 30,
      totalTokens: 150,
      cachedInputTokens: 100,
    });
  });

  it('NousResearch/hermes-agent#52022: DeepSeek reports the cached part as `prompt_cache_hit_tokens`', async () => {
    const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_cache_hit_tokens: 80, prompt_cache_miss_tokens: 20 };
    expect(await lastUsage(chat([{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }], { usage }), DONE)).toEqual({
      inputTokens: 100,
      outputTokens: 10,
      totalTokens: 110,
      cachedInputTokens: 80,
    });
  });

  it('router-for-me/CLIProxyAPI#3076: usage on every chunk, zeros until the last one: the last event carries the real counts', async () => {
    const zero = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    expect(
      await lastUsage(
        chat([{ index: 0, delta: { content: 'He' }, finish_reason: null }], { usage: zero }),
        chat([{ index: 0, delta: { content: 'llo' }, finish_reason: null }], { usage: zero }),
        chat([{ index: 0, delta: {}, finish_reason: 'stop' }], { usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 } }),
        DONE,
      ),
    ).toEqual({ inputTokens: 12, outputTokens: 2, totalTokens: 14 });
  });

  it('the top-level `usage` wins over a choice’s own when a chunk carries both', async () => {
    const both = chat([{ index: 0, delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 1, completion_tokens: 1 } }], { usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } });
    expect(await lastUsage(both, DONE)).toEqual({ inputTokens: 5, outputTokens: 6, totalTokens: 11 });
  });
});
