/**
 * The liveness rule for the AI SDK UI message stream: each of its conformance cases (written by the
 * `ai` package's `streamText` over its mock model) fed one SSE event per chunk; after every chunk,
 * every view shows each call's arguments as the wire's own prefix at that event (see `harness.ts`).
 */
import { AI_SDK_UI_CASES } from '../helpers/uiCases';
import { liveness, type LiveStream } from './harness';
import { aiSdkUiReference } from './references';
import { aiSdkUiStreams } from './streams';

let streams: Map<string, LiveStream>;
beforeAll(async () => {
  streams = new Map((await aiSdkUiStreams()).map((s) => [s.name, s]));
});

describe('liveness: AI SDK UI', () => {
  it('has streams with calls', () => {
    expect([...streams.values()].filter((s) => aiSdkUiReference(s.records).length > 0).length).toBeGreaterThan(0);
  });

  it.each(Object.keys(AI_SDK_UI_CASES))('%s: every argument fragment is visible in every view at the chunk that completed its record', (name) => {
    const stream = streams.get(name) as LiveStream;
    expect(stream.records).toHaveLength(stream.chunks.length);
    expect(liveness(stream, aiSdkUiReference)).toEqual([]);
  });
});
