/**
 * The liveness rule for OpenAI Realtime: each session of the Realtime reader's spec fed one WebSocket
 * message (a record) per chunk; after every chunk, every view shows each call's arguments as the
 * wire's own prefix at that message (see `harness.ts`).
 */
import { liveness } from './harness';
import { openaiRealtimeReference } from './references';
import { realtimeStreams } from './streams';

const streams = realtimeStreams();

describe('liveness: OpenAI Realtime', () => {
  it('has sessions', () => {
    expect(streams.length).toBeGreaterThan(0);
  });

  it.each(streams.map((s) => [s.name, s] as const))('%s: every argument fragment is visible in every view at the chunk that completed its record', (_name, stream) => {
    expect(stream.records).toHaveLength(stream.chunks.length);
    expect(liveness(stream, openaiRealtimeReference)).toEqual([]);
  });
});
