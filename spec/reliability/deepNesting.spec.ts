/**
 * Deep nesting never crashes (issues 19 and 20 item 1): `partialToolCalls()` on arguments nested
 * 1,000,000 deep, in a child process with a 512 MB heap, ends with the full parse (or, when the
 * text never closes, a typed `malformed-arguments` with its position); and `jsonErrorPosition`
 * (behind `parseArguments`) uses no stack per level.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parseArguments } from '../../src/parse/arguments';
import { jsonErrorPosition } from '../../src/parse/jsonErrorPosition';

describe('jsonErrorPosition: no recursion', () => {
  it.each([5_000, 20_000, 1_000_000])('%i unterminated "[": the error is at the end, no RangeError', (n) => {
    expect(jsonErrorPosition('['.repeat(n))).toBe(n);
    expect(jsonErrorPosition(`${'[{"a":'.repeat(n)}1`)).toBe(6 * n + 1);
  });

  it('finds an error at the bottom of 100,000 levels, and none in valid text that deep', () => {
    const n = 100_000;
    expect(jsonErrorPosition(`${'['.repeat(n)}1,]${']'.repeat(n)}`)).toBe(n + 2);
    expect(jsonErrorPosition(`${'{"k":['.repeat(n)}true${']}'.repeat(n)}`)).toBeUndefined();
    expect(jsonErrorPosition(`${'['.repeat(n)}${']'.repeat(n)}x`)).toBe(2 * n);
  });

  it('parseArguments reports unterminated deep text as a failure with its position', () => {
    for (const n of [5_000, 50_000]) {
      const parsed = parseArguments('['.repeat(n));
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.position).toBe(n);
    }
  });
});

describe('partialToolCalls() on 1,000,000 levels, in a child process with --max-old-space-size=512', () => {
  let dir = '';
  let script = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deep-arguments-'));
    script = join(dir, 'deepArguments.cjs');
    await build({ entryPoints: [join(__dirname, 'child/deepArguments.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: script, logLevel: 'warning' });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Run the child; its outcome (one JSON line), after checking it exited normally. */
  function run(...args: string[]): Record<string, unknown> {
    const child = spawnSync(process.execPath, ['--max-old-space-size=512', script, ...args], { encoding: 'utf8', timeout: 240_000, maxBuffer: 1 << 20 });
    expect({ status: child.status, signal: child.signal, stderr: child.stderr.slice(0, 2000) }).toEqual({ status: 0, signal: null, stderr: '' });
    return JSON.parse(child.stdout) as Record<string, unknown>;
  }

  it.each(['immutable', 'live'])('%s snapshots: completes with the full parse; partial values stop at maxPartialDepth', (snapshots) => {
    const outcome = run('1000000', snapshots, 'closed');
    expect(outcome).toMatchObject({ streamError: null, success: true, depth: 1_000_000, shownDepth: 257 });
    // A value per level up to the limit (and a few more), not one per fragment.
    expect(outcome.values).toBeLessThan(2_000);
  }, 250_000);

  it('text that never closes: a typed malformed-arguments with the position, no RangeError', () => {
    const outcome = run('1000000', 'immutable', 'open');
    expect(outcome).toMatchObject({ streamError: null, success: false, code: 'malformed-arguments', typed: true, position: 1_000_000 });
  }, 250_000);
});
