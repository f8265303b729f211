/**
 * The project's own fixtures of the non-SSE formats (spec/fixtures/framing), read under every
 * chunking through their framing and wire format: Bedrock Converse and InvokeModel framed by AWS's
 * codec, Ollama NDJSON, Gemini's JSON array. Each gives the calls, text, reasoning, finish, usage
 * and error its `expected` states; the Bedrock binaries are what AWS's codec makes of their
 * descriptions.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { chunkings } from '../../helpers/chunking';
import { framedView, loadFramingFixtures, readFramed, type FramingExpected } from '../../helpers/framingFixtures';

const fixtures = loadFramingFixtures();

/** `expected` with ids the wire does not send left for the reader to generate. */
function comparable(expected: FramingExpected, actual: FramingExpected): FramingExpected {
  return { ...actual, toolCalls: actual.toolCalls.map((call, i) => (expected.toolCalls[i]?.id === null ? { ...call, id: null } : call)) };
}

it('has fixtures of every framing and format', () => {
  expect(new Set(fixtures.map((f) => `${f.framing} ${f.expected.provider}`))).toEqual(
    new Set(['aws-event-stream bedrock-converse', 'aws-event-stream bedrock-invoke-model', 'ndjson ollama', 'json-array gemini']),
  );
});

it("the .eventstream files are what AWS's codec makes of their .frames.json (scripts/framing-fixtures.mjs --check)", () => {
  expect(() => execFileSync(process.execPath, [resolve(__dirname, '../../../scripts/framing-fixtures.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
});

describe.each(fixtures.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
  it.each(chunkings(fixture.bytes))('reads as expected (%s)', (_chunking, chunks) => {
    const { events, error } = readFramed(fixture, chunks);
    const view = framedView(events, error);
    expect(comparable(fixture.expected, view)).toEqual(fixture.expected);
  });
});
