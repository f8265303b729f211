/**
 * The liveness rule for AG-UI: each run of the AG-UI conformance cases (written by `@ag-ui/encoder`)
 * fed one SSE event per chunk; after every chunk, every view shows each call's arguments as the
 * wire's own prefix at that event (see `harness.ts`).
 */
import { liveness } from './harness';
import { agUiReference } from './references';
import { agUiStreams } from './streams';

const streams = agUiStreams();

describe('liveness: AG-UI', () => {
  it('has streams with calls', () => {
    expect(streams.filter((s) => agUiReference(s.records).length > 0).length).toBeGreaterThan(0);
  });

  it.each(streams.map((s) => [s.name, s] as const))('%s: every argument fragment is visible in every view at the chunk that completed its record', (_name, stream) => {
    expect(stream.records).toHaveLength(stream.chunks.length);
    expect(liveness(stream, agUiReference)).toEqual([]);
  });
});
