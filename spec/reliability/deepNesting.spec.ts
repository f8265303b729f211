/**
 * Deep nesting never crashes: `partialToolCalls()` on arguments nested
 * 1,000,000 deep, in a child process with a 512 MB heap, ends with the full parse (or, when the
 * text never closes, a typed `malformed-arguments` with its position); and `jsonErrorPosition`
 * (behind `parseArguments`) uses no stack per level.
 */
import { join } from 'node:path';
import { bundleChild, lastJsonLine, type ChildScript } from '../helpers/childProcess';
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
  let child: ChildScript | undefined;
  beforeAll(async () => {
    child = await bundleChild(join(__dirname, 'children/deepArguments.ts'));
  }, 60_000);
  afterAll(() => child?.dispose());

  /** Run the child; its outcome (one JSON line), after checking it exited normally with nothing on stderr. */
  async function run(...args: string[]): Promise<Record<string, unknown>> {
    if (child === undefined) throw new Error('not bundled');
    const result = await child.run(args, { maxOldSpaceMb: 512, timeoutMs: 240_000 });
    expect(result.stderr.slice(0, 2000)).toBe('');
    return lastJsonLine<Record<string, unknown>>(result);
  }

  it.each(['immutable', 'live'])(
    '%s snapshots: completes with the full parse; partial values stop at maxPartialDepth',
    async (snapshots) => {
      const outcome = await run('1000000', snapshots, 'closed');
      expect(outcome).toMatchObject({ streamError: null, success: true, depth: 1_000_000, shownDepth: 257 });
      // A value per level up to the limit (and a few more), not one per fragment.
      expect(outcome.values).toBeLessThan(2_000);
    },
    250_000,
  );

  it('text that never closes: a typed malformed-arguments with the position, no RangeError', async () => {
    const outcome = await run('1000000', 'immutable', 'open');
    expect(outcome).toMatchObject({ streamError: null, success: false, code: 'malformed-arguments', typed: true, position: 1_000_000 });
  }, 250_000);
});
