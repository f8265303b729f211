import { isDeepStrictEqual } from 'node:util';

/**
 * The benchmark's scenario generators (bench/scenarios.mjs) must be deterministic, and the floor
 * implementation must reproduce every scenario's expected calls — otherwise the bench measures
 * wrong answers.
 */
import type * as ScenariosNs from '../../bench/scenarios.mjs';
import type * as FloorNs from '../../bench/impl/floor.mjs';
import type * as CheckNs from '../../bench/check.mjs';

type ScenariosModule = typeof ScenariosNs;
type Floor = (typeof FloorNs)['default'];
type CheckCalls = (typeof CheckNs)['checkCalls'];

let scenarios: ScenariosModule;
let floor: Floor;
let checkCalls: CheckCalls;

// Each scenario is built once here and reused (the large ones take a while to generate).
const built = new Map<string, ReturnType<ScenariosModule['buildScenario']>>();
function scenario(name: string) {
  if (!built.has(name)) built.set(name, scenarios.buildScenario(name));
  return built.get(name)!;
}

beforeAll(async () => {
  scenarios = await import('../../bench/scenarios.mjs');
  floor = (await import('../../bench/impl/floor.mjs')).default;
  ({ checkCalls } = await import('../../bench/check.mjs'));
});

describe('bench scenarios', () => {
  it('the PRNG is deterministic per seed', () => {
    const a = scenarios.createRng(42);
    const b = scenarios.createRng(42);
    const c = scenarios.createRng(43);
    const seqA = Array.from({ length: 8 }, () => a.next());
    expect(Array.from({ length: 8 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 8 }, () => c.next())).not.toEqual(seqA);
  });

  const names = ['chatty', 'parallel', 'bulk', 'anthropic', 'responses', 'chatty-4x', 'chatty-16x'];

  it('lists every scenario', () => {
    expect(scenarios.SCENARIO_NAMES).toEqual(names);
  });

  it.each(names)('%s: same bytes, chunking and expected calls on every build', (name) => {
    const one = scenario(name);
    const two = scenarios.buildScenario(name);
    expect(Buffer.from(two.bytes).equals(Buffer.from(one.bytes))).toBe(true);
    expect(two.chunks.map((c) => c.length)).toEqual(one.chunks.map((c) => c.length));
    expect(Buffer.concat(one.chunks).equals(Buffer.from(one.bytes))).toBe(true);
    expect(isDeepStrictEqual(two.expected, one.expected)).toBe(true);
    expect(one.chunks.every((c) => c.length >= 1 && c.length <= 16384)).toBe(true);
  });

  it('a different seed gives different bytes', () => {
    const a = scenario('chatty');
    const b = scenarios.buildScenario('chatty', { seed: 7 });
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(false);
  });

  it.each(names)('%s: the floor reproduces the expected calls', async (name) => {
    const { chunks, format, expected } = scenario(name);
    expect(checkCalls(await floor.run(chunks, format), expected)).toBeNull();
  });

  it('the check rejects a wrong answer', async () => {
    const { chunks, format, expected } = scenario('anthropic');
    const calls = await floor.run(chunks, format);
    const tampered = calls.map((call, i) => (i === 1 ? { ...call, arguments: { ...(call.arguments as object), done: false } } : call));
    expect(checkCalls(tampered, expected)).toMatch(/arguments differ/);
    expect(checkCalls(calls.slice(1), expected)).toMatch(/expected 4 calls/);
  });

  it('parallel carries every escape kind and raw multi-byte UTF-8', () => {
    const text = scenario('parallel').sseText;
    // Inside the chunk JSON the argument text is itself a JSON string, so escapes appear doubled.
    for (const needle of ['\\\\n', '\\\\\\"', '\\\\u00e9', '\\\\ud83d\\\\ude00', '😀', 'é', '日本語']) expect(text).toContain(needle);
  });
});
