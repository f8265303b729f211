/**
 * Conformance: every recorded provider stream in ../shared/fixtures, and our own streams in the
 * shape of a format's recordings (spec/fixtures/sse: Gemini's Interactions API, which the shared
 * fixtures do not cover), with `provider: 'auto'`, under several chunkings (whole, every byte,
 * seeded random), reproduces its `.expected.json`.
 */
import { isToolStreamError } from 'rxjs-tool-calls';
import { chunkings } from '../helpers/chunking';
import { loadFixtures, loadOwnFixtures, type Expected, type Fixture } from '../helpers/fixtures';
import { runChunks, type RunOutcome } from '../helpers/runStream';

const shared = loadFixtures();
const own = loadOwnFixtures();
const fixtures = [...shared, ...own];

it('covers all 40 shared fixtures', () => {
  expect(shared).toHaveLength(40);
});

it('covers our own streams of every format the shared fixtures lack', () => {
  expect(new Set(own.map((f) => f.expected.api))).toEqual(new Set(['gemini-interactions']));
  expect(own.length).toBeGreaterThanOrEqual(5);
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
  // A failed Responses stream ends with provider-error at its `error` event; the later
  // `response.failed` status (the expected "finish reason") is the same failure, not a finish.
  if (!(expected.errors !== undefined && expected.finishReason === 'failed')) expect(outcome.finishReason).toBe(expected.finishReason);
  // Anthropic server-run tools (server_tool_use, mcp_tool_use) are provider-tool events, never calls to run.
  const serverRun = (call: Expected['toolCalls'][number]): boolean => {
    const type = (call as { type?: unknown }).type;
    return type === 'server_tool_use' || type === 'mcp_tool_use';
  };
  for (const call of expected.toolCalls.filter(serverRun)) {
    const runs = outcome.events.filter((e) => e.type === 'provider-tool' && e.id === call.id);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((e) => e.type === 'provider-tool' && e.tool === call.name)).toBe(true);
    expect(runs.filter((e) => e.type === 'provider-tool' && e.input !== undefined).at(-1)).toMatchObject({ input: call.arguments });
  }
  const calls = expected.toolCalls.filter((call) => !serverRun(call));
  expect(outcome.results).toHaveLength(calls.length);
  calls.forEach((call, i) => {
    const result = outcome.results[i];
    if (result === undefined) throw new Error(`missing result ${i}`);
    const got = result.success ? result.data : result.error.toolCall;
    expect(got.name).toBe(call.name);
    expect(got.index).toBe(call.index);
    if (call.id !== null) expect(got.id).toBe(call.id);
    else expect(got.id).toMatch(/^gen_\d+$/);
    // Anthropic input that arrives whole in content_block_start has no fragments ("" expected):
    // we keep its JSON text as rawArguments; the parsed arguments are compared below.
    if (call.rawArguments !== null && !(call.rawArguments === '' && call.arguments !== null)) expect(got.rawArguments).toBe(call.rawArguments);
    if (call.arguments === null) {
      expect(result.success).toBe(false);
      if (!result.success)
        expect(result.error.code).toBe(call.blockStopped === false || expected.finishReason === 'length' || expected.finishReason === 'max_tokens' ? 'incomplete' : 'malformed-arguments');
    } else {
      expect(result.success && result.data.arguments).toEqual(call.arguments);
    }
    if (call.itemId !== undefined && result.success) expect(result.data.providerMetadata?.['itemId']).toBe(call.itemId);
  });
  if (expected.usage !== undefined) {
    const usage = outcome.events.filter((e) => e.type === 'usage').at(-1);
    const { type: _type, raw: _raw, ...counts } = usage?.type === 'usage' ? usage : { type: 'usage', raw: undefined };
    expect(counts).toEqual(expected.usage);
  }
  for (const tool of expected.providerTools ?? []) {
    const runs = outcome.events.filter((e) => e.type === 'provider-tool' && e.id === tool.id);
    expect(runs.every((e) => e.type === 'provider-tool' && e.tool === tool.tool)).toBe(true);
    if (tool.input !== undefined) expect(runs.filter((e) => e.type === 'provider-tool' && e.input !== undefined).at(-1)).toMatchObject({ input: tool.input });
    if (tool.result !== undefined) expect(runs.at(-1)).toMatchObject({ status: 'completed', result: tool.result });
  }
}

describe.each(fixtures.map((f): [string, Fixture] => [f.name, f]))('%s', (_name, fixture) => {
  it.each(chunkings(fixture.bytes))('reproduces the expected calls, text and finish reason (%s)', (_how, chunks) => {
    check(runChunks(chunks), fixture.expected);
  });
});
