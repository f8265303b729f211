/**
 * Safe defaults bound memory. A call whose arguments grow to 100 MB ends with
 * `arguments-too-large` at the default `maxArgumentsSize` (64 MiB), its sibling still succeeds, and
 * the process (heap limited to 256 MB) never runs out of memory.
 */
import { join } from 'node:path';
import { bundleChild, lastJsonLine, type ChildScript } from '../helpers/childProcess';

interface Outcome {
  readonly results: ReadonlyArray<{ readonly success: boolean; readonly code?: string; readonly name: string }>;
  readonly streamError: string | null;
  readonly peakHeapMb: number;
}

describe('a 100 MB argument with the default limits, in a child process with --max-old-space-size=256', () => {
  let child: ChildScript | undefined;
  beforeAll(async () => {
    child = await bundleChild(join(__dirname, '../reliability/children/hugeArguments.ts'));
  }, 60_000);
  afterAll(() => child?.dispose());

  it('ends that call with arguments-too-large, keeps its sibling, and stays within the heap', async () => {
    if (child === undefined) throw new Error('not bundled');
    const result = await child.run(['100'], { maxOldSpaceMb: 256, timeoutMs: 240_000 });
    expect(result.outOfMemory).toBe(false);
    const outcome = lastJsonLine<Outcome>(result);
    expect(outcome.streamError).toBeNull();
    expect(outcome.results).toEqual([
      { success: false, code: 'arguments-too-large', name: 'upload' },
      { success: true, name: 'small' },
    ]);
    // The call's text up to the limit (64 MiB ≈ 67 MB) is held once, plus the chunk in hand: at most about twice the limit.
    expect(outcome.peakHeapMb).toBeLessThan(140);
  }, 250_000);
});
