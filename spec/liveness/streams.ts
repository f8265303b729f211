/**
 * The recorded streams of each format, cut into one chunk per framed record: the shared fixtures
 * (SSE, ../shared/fixtures, read in place) by their `api`, and the project's own framed fixtures
 * (spec/fixtures/framing: Bedrock event streams with their frames, Ollama NDJSON).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderName } from 'rxjs-tool-calls';
import { loadFixtures } from '../helpers/fixtures';
import { FRAMING_FIXTURES_DIR, loadFramingFixtures } from '../helpers/framingFixtures';
import { frameChunks, lineRecords, sseRecords, type LiveStream, type WireRecord } from './harness';

/** The format of a shared fixture, from its `api`. */
function formatOf(api: string): ProviderName {
  if (api.includes('openai-responses')) return 'openai-responses';
  if (api.includes('anthropic-messages')) return 'anthropic';
  if (api.startsWith('gemini')) return 'gemini';
  if (api.startsWith('cohere')) return 'cohere';
  return 'openai-chat';
}

/** Every recorded stream of `provider`, one chunk per record. */
export function liveStreams(provider: ProviderName): LiveStream[] {
  const out: LiveStream[] = [];
  for (const fixture of loadFixtures()) {
    if (formatOf(fixture.expected.api) !== provider) continue;
    out.push({ name: fixture.name, provider, ...sseRecords(fixture.bytes) });
  }
  for (const fixture of loadFramingFixtures()) {
    if (fixture.expected.provider !== provider) continue;
    if (fixture.framing === 'aws-event-stream') {
      const file = join(FRAMING_FIXTURES_DIR, `${fixture.name}.frames.json`);
      const frames = (JSON.parse(readFileSync(file, 'utf8')) as { frames: Array<Record<string, unknown>> }).frames;
      const records: WireRecord[] = frames.map((frame) =>
        'chunk' in frame ? { event: 'chunk', data: frame['chunk'] } : { event: String(frame['event'] ?? frame['exception']), data: frame['payload'] },
      );
      out.push({ name: fixture.name, provider, chunks: frameChunks(fixture.bytes), records });
    } else if (fixture.framing === 'ndjson') {
      out.push({ name: fixture.name, provider, ...lineRecords(fixture.bytes) });
    }
  }
  return out;
}
