/**
 * The liveness rule for OpenAI Responses: each recorded stream fed one record per chunk; after every chunk,
 * every view shows each call's arguments as the wire's own prefix at that record (see `harness.ts`).
 */
import { liveness } from './harness';
import { openaiResponsesReference } from './references';
import { liveStreams } from './streams';

const streams = liveStreams('openai-responses');

describe('liveness: OpenAI Responses', () => {
  it('has recorded streams', () => {
    expect(streams.length).toBeGreaterThan(0);
  });

  it.each(streams.map((s) => [s.name, s] as const))('%s: every argument fragment is visible in every view at the chunk that completed its record', (_name, stream) => {
    expect(stream.records).toHaveLength(stream.chunks.length);
    expect(liveness(stream, openaiResponsesReference)).toEqual([]);
  });
});
