/**
 * Partial values scale linearly with the arguments, whatever their shape.
 *
 * No timing: each case counts the work the values themselves prove was done, from outside, at a
 * size n and 4n, in 1–8 character fragments through `partialToolCalls()`:
 * - containers not shared with the previous value (immutable snapshots share unchanged parts, so
 *   every member of a container that is new was copied);
 * - `openPath` arrays that are new (their length was written);
 * - characters handed to `Number()` (how `allowPartialLiterals` reads a number being received).
 * Linear work grows about 4× from n to 4n; the quadratic behaviour these guard against grew 16×.
 */
import { from, toArray } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { partialToolCalls, type PartialToolCall, type PartialToolCallsOptions } from '../../src/operators/partialToolCalls';
import { textPieces } from '../helpers/chunking';

/** Cut `text` into seeded pieces of 1–8 characters. */
const fragments = (text: string, seed = 7): string[] => textPieces(text, seed);

/** The partial values of one call whose arguments are `text`, cut by `cut`. */
function partials(text: string, options: PartialToolCallsOptions = {}, cut: (text: string) => string[] = fragments): PartialToolCall[] {
  const events: StreamEvent[] = [
    { type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'f', argumentsDelta: '' },
    ...cut(text).map((argumentsDelta): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta })),
    { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
  ];
  let out: PartialToolCall[] = [];
  from(events)
    .pipe(partialToolCalls(options), toArray())
    .subscribe((values) => (out = values));
  return out;
}

function isContainer(value: unknown): value is Record<string | number, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Members of the containers in `current` that are not shared (by identity) with `previous`. */
function newMembers(previous: unknown, current: unknown): number {
  let count = 0;
  const stack: Array<[unknown, unknown]> = [[previous, current]];
  while (stack.length > 0) {
    const [before, now] = stack.pop() as [unknown, unknown];
    if (now === before || !isContainer(now)) continue;
    const keys = Object.keys(now);
    count += keys.length;
    const comparable = isContainer(before) && Array.isArray(before) === Array.isArray(now);
    for (const key of keys) {
      const child = now[key];
      if (isContainer(child)) stack.push([comparable ? (before as Record<string, unknown>)[key] : undefined, child]);
    }
  }
  return count;
}

interface Work {
  readonly chars: number;
  /** Members of containers copied into new values. */
  readonly copied: number;
  /** Elements of new `openPath` arrays. */
  readonly pathCells: number;
}

/** The work the partial values of `text` prove was done; checks that the last value is the full parse. */
function workOf(text: string, options: PartialToolCallsOptions = {}): Work {
  const values = partials(text, options);
  let copied = 0;
  let pathCells = 0;
  let previous: PartialToolCall | undefined;
  for (const value of values) {
    copied += newMembers(previous?.arguments, value.arguments);
    if (value.openPath !== undefined && value.openPath !== previous?.openPath) pathCells += value.openPath.length;
    previous = value;
  }
  const last = values.at(-1);
  expect(last?.result?.success).toBe(true);
  expect(JSON.stringify(last?.arguments)).toBe(JSON.stringify(JSON.parse(text)));
  return { chars: text.length, copied, pathCells };
}

const wideArray = (n: number): string => JSON.stringify({ rows: Array.from({ length: n }, (_, i) => (i % 3 === 0 ? `row ${i}` : i % 3 === 1 ? i * 7 : i / 8)) });
const wideObject = (n: number): string => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, i % 2 === 0 ? `value ${i}` : i])));
const longString = (n: number): string => JSON.stringify({ content: 'a\\"é😀 '.repeat(n / 5) });
const deepNesting = (n: number): string => '['.repeat(n) + ']'.repeat(n);

describe.each([
  ['a wide array (numbers and strings)', wideArray, 3_000],
  ['a wide object', wideObject, 800],
  ['a long string', longString, 50_000],
  ['deep nesting', deepNesting, 1_000],
])('%s: partial values cost O(n) in total', (_name, make, n) => {
  it.each(['immutable', 'live'] as const)('%s snapshots: the work at 4n is about 4 times the work at n', (snapshots) => {
    const small = workOf(make(n), { snapshots });
    const large = workOf(make(4 * n), { snapshots });
    // Linear: ~4×, and bounded per character of input. Quadratic (before): ~16×. Paths deeper
    // than maxPartialDepth (256) are not shown: at most 256²/2 cells for the deepest ones.
    expect(large.pathCells).toBeLessThanOrEqual(Math.max(6 * small.pathCells, 2_000));
    expect(large.pathCells).toBeLessThanOrEqual(large.chars + 256 * 256);
    if (snapshots === 'live') return; // one tree, mutated in place: nothing is copied
    expect(large.copied).toBeLessThanOrEqual(Math.max(6 * small.copied, 2_000));
    expect(large.copied).toBeLessThanOrEqual(8 * large.chars);
  });
});

describe('allowPartialLiterals on a long number', () => {
  /** Characters of strings converted by Number() while `run` runs. */
  function convertedBy(run: () => void): number {
    const real = globalThis.Number;
    let converted = 0;
    globalThis.Number = new Proxy(real, {
      apply(target, self, args: unknown[]) {
        if (typeof args[0] === 'string') converted += args[0].length;
        return Reflect.apply(target, self, args) as number;
      },
    });
    try {
      run();
    } finally {
      globalThis.Number = real;
    }
    return converted;
  }

  const oneByOne = (text: string): string[] => Array.from(text);

  it.each([
    ['an integer', (n: number) => `{"n": ${'7'.repeat(n)}}`],
    ['a fraction', (n: number) => `{"n": 0.${'3'.repeat(n)}}`],
    ['an exponent', (n: number) => `{"n": 1e-${'0'.repeat(n)}5}`],
  ])('%s of 4,000 and 16,000 digits, one digit per fragment: linear reading', (_name, make) => {
    const work = (digits: number): number =>
      convertedBy(() => {
        const values = partials(make(digits), { allowPartialLiterals: true }, oneByOne);
        expect(values.at(-1)?.result?.success).toBe(true);
        expect(values.length).toBeGreaterThan(2);
      });
    const small = work(4_000);
    const large = work(16_000);
    expect(large).toBeLessThanOrEqual(Math.max(6 * small, 100_000));
    expect(large).toBeLessThanOrEqual(40 * 16_000);
  });

  it('still shows the value of the digits received so far', () => {
    const text = `[${'9'.repeat(400)}1.25e2, -0.000${'4'.repeat(30)}]`;
    const seen = partials(text, { allowPartialLiterals: true }, oneByOne).map((p) => JSON.stringify(p.arguments));
    expect(seen).toContain('[99]');
    expect(seen).toContain(`[${Number('9'.repeat(308))}]`);
    expect(seen).toContain('[null]'); // 309 nines and more: Infinity (JSON shows null)
    expect(seen).toContain(`[null,${Number('-0.000' + '4'.repeat(20))}]`);
    expect(seen.at(-1)).toBe(JSON.stringify(JSON.parse(text)));
  });
});
