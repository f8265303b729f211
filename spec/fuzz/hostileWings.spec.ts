/**
 * Hostile input to the wings: request translators, schema conversion, retry waits,
 * `costOf` and the CLI, each case in its own child process with a heap limit (384 MB) and a time
 * limit, at four sizes that double. A case passes when every run ends as it should (a result, or
 * the typed error it should; never a raw `TypeError` / `RangeError` / `URIError`, a crash, an
 * out-of-memory or a time-out) and its CPU time grows about linearly: the growth exponent (the
 * least-squares slope of log time over log size) is at most {@link MAX_EXPONENT}. Linear work
 * measures 0.8 to 1.5 here: at these sizes the machine itself grows faster than linearly (walking
 * the keys of a 400,000-key object grows with an exponent of 1.2 to 1.3: cache misses, GC); the
 * quadratic and exponential behaviours this suite guards against measured 2.5 and more, or did not
 * finish. A case over the bound is measured once more before it fails (the machine is shared).
 *
 * The child (`children/hostileWings.ts`) prints what it measured; `HOSTILE_WINGS_REPORT=1` prints
 * the table of exponents.
 */
import { join } from 'node:path';
import { bundleChild, type ChildResult, type ChildScript } from '../helpers/childProcess';

/** The largest growth exponent accepted. */
const MAX_EXPONENT = 1.75;

interface Run {
  readonly n: number;
  readonly ms: number;
  readonly outcome: string;
}

/** Each case and the outcomes its runs may end with. */
const EXPECTED: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ['responses: calls and results', ['ok']],
  ['anthropic: calls and results', ['ok']],
  ['gemini: calls and results', ['ok']],
  ['gemini-interactions: calls and results', ['ok']],
  ['fromAnthropic: tool_use and tool_result blocks', ['ok']],
  ['roles: an inherited name after n messages', ['typed:unsupported-request']],
  ['anthropic: arguments nested n deep', ['typed:unsupported-request']],
  ['gemini: arguments nested n deep', ['typed:unsupported-request']],
  ['gemini-interactions: arguments nested n deep', ['typed:unsupported-request']],
  ['fromAnthropic: tool_use input nested n deep', ['typed:unsupported-request']],
  ['toGeminiSchema: a $ref chain of n hops', ['ok']],
  ['toGeminiSchema: allOf of two references, n levels', ['typed:unsupported-request']],
  ['toGeminiSchema: items nested n deep', ['typed:unsupported-request']],
  ['toolSpecs: a strict schema of n properties', ['ok']],
  ['retry: Retry-After of n digits', ['not-retried']],
  ['costOf: a price of n digits', ['typed:invalid-option']],
  ['costOf: a round.mode typo', ['typed:invalid-option']],
  ['cli: a recording of n escape sequences', ['clean']],
];

/** The least-squares slope of log2(ms) over log2(n). */
function exponent(runs: readonly Run[]): number {
  const xs = runs.map((r) => Math.log2(r.n));
  const ys = runs.map((r) => Math.log2(Math.max(r.ms, 0.001)));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * ((ys[i] as number) - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

/** The runs a child printed (its last line), or why there are none. */
function runsOf(result: ChildResult): readonly Run[] {
  const last = result.stdout.trim().split('\n').at(-1) ?? '';
  if (result.code !== 0 || last === '') {
    const how = result.timedOut ? 'timed out' : result.outOfMemory ? 'ran out of memory' : `exited ${result.code ?? result.signal}`;
    throw new Error(`the child ${how}; it had measured:\n${result.stderr.slice(-3000)}`);
  }
  return (JSON.parse(last) as { runs: Run[] }).runs;
}

const report: string[] = [];
afterAll(() => {
  if (process.env['HOSTILE_WINGS_REPORT'] === '1') process.stdout.write(`${report.join('\n')}\n`);
});

describe('hostile input to the wings, each case in a child process (--max-old-space-size=384)', () => {
  let child: ChildScript | undefined;
  beforeAll(async () => {
    child = await bundleChild(join(__dirname, 'children/hostileWings.ts'));
  }, 60_000);
  afterAll(() => child?.dispose());

  async function measure(name: string): Promise<readonly Run[]> {
    if (child === undefined) throw new Error('not bundled');
    const result = await child.run([name], { maxOldSpaceMb: 384, timeoutMs: 100_000, nodeFlags: ['--expose-gc', '--max-semi-space-size=64'] });
    return runsOf(result);
  }

  it.each(EXPECTED)(
    '%s: ends as it should at every size, and grows about linearly',
    async (name, outcomes) => {
      let runs = await measure(name);
      for (const run of runs) expect(`${run.n}: ${run.outcome}`).toBe(`${run.n}: ${outcomes.includes(run.outcome) ? run.outcome : outcomes.join(' | ')}`);
      let growth = exponent(runs);
      if (growth > MAX_EXPONENT) {
        runs = await measure(name);
        growth = Math.min(growth, exponent(runs));
      }
      report.push(`${name}: exponent ${growth.toFixed(2)} (${runs.map((r) => `${r.n}: ${r.ms} ms`).join(', ')})`);
      expect(growth).toBeLessThanOrEqual(MAX_EXPONENT);
    },
    240_000,
  );
});
