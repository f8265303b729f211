/**
 * The AI SDK as an interop oracle of `geminiInteractions()`: `@ai-sdk/google`'s
 * `google.interactions()` (4.0.121) reads the same bytes through a `fetch` that replays them, in a
 * child process (the package is ESM-only), and the calls it reconstructs — ids, names, parsed
 * arguments — its text, reasoning, finish and output tokens must be ours. Run on our recorded-shape
 * streams and on 300 generated turns (arguments in random pieces, multi-byte text, thoughts, status
 * updates or not).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { isToolStreamError } from 'rxjs-tool-calls';
import { bundleChild, lastJsonLine, type ChildScript } from '../../helpers/childProcess';
import { loadOwnFixtures } from '../../helpers/fixtures';
import { interactionsStream, interactionsTurnArb } from '../../helpers/interactionsWire';
import { runChunks, type RunOutcome } from '../../helpers/runStream';

interface OracleView {
  readonly calls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly input: unknown }>;
  readonly providerTools: ReadonlyArray<{ readonly id: string; readonly name: string; readonly kind: 'call' | 'result' }>;
  readonly text: string;
  readonly reasoning: string;
  readonly finish: string | undefined;
  readonly rawFinish: string | undefined;
  readonly outputTokens: number | undefined;
  readonly errors: ReadonlyArray<string>;
}

/** Our reading of a stream, in the oracle's terms. */
function ours(outcome: RunOutcome): Omit<OracleView, 'rawFinish' | 'errors'> & { readonly failed: boolean } {
  const finish = outcome.events.filter((e) => e.type === 'finish').at(-1);
  const usage = outcome.events.filter((e) => e.type === 'usage').at(-1);
  type Tool = OracleView['providerTools'][number];
  const providerTools = outcome.events.flatMap((e): Tool[] => {
    if (e.type !== 'provider-tool') return [];
    if (e.status !== 'running') return [{ id: e.id, name: e.tool, kind: 'result' }];
    return e.input !== undefined && e.raw !== undefined && !('call_id' in e.raw) ? [{ id: e.id, name: e.tool, kind: 'call' }] : [];
  });
  return {
    calls: outcome.results.flatMap((r) => (r.success ? [{ id: r.data.id, name: r.data.name, input: r.data.arguments }] : [])),
    providerTools: providerTools.filter((t, i) => providerTools.findIndex((u) => u.id === t.id && u.kind === t.kind) === i),
    text: outcome.text,
    reasoning: outcome.reasoning,
    finish: finish?.type === 'finish' ? finish.reason : undefined,
    outputTokens: usage?.type === 'usage' ? usage.outputTokens : undefined,
    failed: outcome.error !== undefined,
  };
}

/** The oracle's view in the same terms. */
function theirs(view: OracleView): ReturnType<typeof ours> {
  return {
    calls: view.calls,
    providerTools: view.providerTools,
    text: view.text,
    reasoning: view.reasoning,
    finish: view.errors.length > 0 ? undefined : view.finish,
    outputTokens: view.errors.length > 0 ? undefined : view.outputTokens,
    failed: view.errors.length > 0,
  };
}

let child: ChildScript;
let dir: string;

beforeAll(async () => {
  child = await bundleChild(path.join(__dirname, 'children/aiSdkOracle.ts'));
  dir = mkdtempSync(path.join(os.tmpdir(), 'interactions-oracle-'));
}, 120_000);

afterAll(() => {
  child?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** The oracle's views of `streams`, in one child run. */
async function oracle(streams: ReadonlyArray<string>): Promise<OracleView[]> {
  const file = path.join(dir, `streams-${streams.length}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(streams));
  return lastJsonLine<OracleView[]>(await child.run([file], { timeoutMs: 120_000 }));
}

describe('geminiInteractions() against @ai-sdk/google google.interactions()', () => {
  const fixtures = loadOwnFixtures().filter((f) => f.expected.api === 'gemini-interactions');

  it('reads our recorded-shape streams alike: calls (id, name, arguments), text, reasoning, finish, output tokens, server tools, errors', async () => {
    const texts = fixtures.map((f) => new TextDecoder().decode(f.bytes));
    const views = await oracle(texts);
    fixtures.forEach((fixture, i) => {
      const outcome = runChunks([fixture.bytes]);
      expect([fixture.name, ours(outcome)]).toEqual([fixture.name, theirs(views[i]!)]);
      if (outcome.error !== undefined) expect(isToolStreamError(outcome.error, 'provider-error')).toBe(true);
    });
    // The oracle saw what the fixtures hold: calls in some, a server tool in one, an error in one.
    expect(views.some((v) => v.calls.length === 2)).toBe(true);
    expect(views.some((v) => v.providerTools.length === 2)).toBe(true);
    expect(views.some((v) => v.errors.length > 0)).toBe(true);
    expect(views.filter((v) => v.rawFinish === 'requires_action').every((v) => v.finish === 'tool-calls')).toBe(true);
  }, 120_000);

  it('reads 300 generated turns alike (arguments in random pieces, multi-byte text, thoughts, with and without status updates)', async () => {
    const turns = fc.sample(interactionsTurnArb, { numRuns: 300, seed: 40_2 });
    const texts = turns.map(interactionsStream);
    const views = await oracle(texts);
    const differ: string[] = [];
    texts.forEach((text, i) => {
      const mine = ours(runChunks([text]));
      const expected = theirs(views[i]!);
      if (JSON.stringify(mine) !== JSON.stringify(expected)) differ.push(`${text}\nours: ${JSON.stringify(mine)}\nai-sdk: ${JSON.stringify(expected)}`);
    });
    expect(differ.slice(0, 3)).toEqual([]);
    expect(views.filter((v) => v.calls.length > 0).length).toBeGreaterThan(100);
  }, 120_000);
});
