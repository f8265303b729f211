/**
 * Conformance: every recorded provider stream in ../shared/fixtures, with `provider: 'auto'`, under
 * several chunkings (whole, every byte, seeded random), reproduces its `.expected.json`.
 */
import { isToolStreamError } from '../../src/errors';
import { chunkings } from '../helpers/chunking';
import { loadFixtures, type Expected, type Fixture } from '../helpers/fixtures';
import { runChunks, type RunOutcome } from '../helpers/runStream';

import { detectFormat } from '../../src/providers/detect';
import { DECODERS } from '../../src/providers/registry';
import { SseParser } from '../../src/sse';
import type { SseEvent } from '../../src/events';

/** The format the auto-detector picks for a fixture (from its first meaningful event). */
function formatOf(f: Fixture): string | null | undefined {
  const events: SseEvent[] = [];
  const parser = new SseParser();
  parser.push(f.bytes, (e) => events.push(e));
  parser.end((e) => events.push(e));
  for (const e of events) {
    const format = detectFormat(e);
    if (format !== undefined) return format;
  }
  return undefined;
}

const fixtures = loadFixtures().filter((f) => {
  const format = formatOf(f);
  return typeof format === 'string' && DECODERS[format as keyof typeof DECODERS] !== undefined;
});

function check(outcome: RunOutcome, expected: Expected): void {
  if (expected.errors !== undefined && expected.errors.length > 0) {
    expect(isToolStreamError(outcome.error) && outcome.error.code).toBe('provider-error');
  } else {
    expect(outcome.error).toBeUndefined();
    expect(outcome.completed).toBe(true);
  }
  expect(outcome.text).toBe(expected.text);
  if (expected.reasoning !== undefined) expect(outcome.reasoning).toBe(expected.reasoning);
  expect(outcome.finishReason).toBe(expected.finishReason);
  expect(outcome.results).toHaveLength(expected.toolCalls.length);
  expected.toolCalls.forEach((call, i) => {
    const result = outcome.results[i];
    if (result === undefined) throw new Error(`missing result ${i}`);
    const got = result.success ? result.data : result.error.toolCall;
    expect(got.name).toBe(call.name);
    expect(got.index).toBe(call.index);
    if (call.id !== null) expect(got.id).toBe(call.id);
    else expect(got.id).toMatch(/^gen_\d+$/);
    if (call.rawArguments !== null) expect(got.rawArguments).toBe(call.rawArguments);
    if (call.arguments === null) {
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error.code).toBe(call.blockStopped === false || expected.finishReason === 'length' || expected.finishReason === 'max_tokens' ? 'incomplete' : 'malformed-arguments');
    } else {
      expect(result.success && result.data.arguments).toEqual(call.arguments);
    }
    if (call.itemId !== undefined && result.success) expect(result.data.providerMetadata?.['itemId']).toBe(call.itemId);
  });
}

describe.each(fixtures.map((f): [string, Fixture] => [f.name, f]))('%s', (_name, fixture) => {
  it.each(chunkings(fixture.bytes))('reproduces the expected calls, text and finish reason (%s)', (_how, chunks) => {
    check(runChunks(chunks), fixture.expected);
  });
});
