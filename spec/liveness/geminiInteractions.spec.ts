/**
 * The liveness rule for Gemini's Interactions API: each of our own streams (spec/fixtures/sse) fed one
 * SSE event per chunk; after every chunk, every view shows each call's arguments as the wire's own
 * prefix at that event (see `harness.ts`).
 */
import { liveness } from './harness';
import { geminiInteractionsReference } from './references';
import { liveStreams } from './streams';

const streams = liveStreams('gemini-interactions');

describe('liveness: Gemini Interactions', () => {
  it('has streams', () => {
    expect(streams.length).toBeGreaterThan(0);
  });

  it.each(streams.map((s) => [s.name, s] as const))('%s: every argument fragment is visible in every view at the chunk that completed its record', (_name, stream) => {
    expect(stream.records).toHaveLength(stream.chunks.length);
    expect(liveness(stream, geminiInteractionsReference)).toEqual([]);
  });
});
