// Peak-heap probe, run in a fresh `node --expose-gc --max-semi-space-size=1` child per scenario x
// implementation (the runner passes the flags):
//   node --expose-gc --max-semi-space-size=1 bench/heap-probe.mjs <scenario> <impl-key> [seed]
// Builds the scenario, loads the implementation, runs it once to warm up (lazy imports, JIT), then
// collects garbage, takes the baseline heapUsed, and runs it again over an iterable that samples
// heapUsed before every network chunk is handed over and once more when the run returns (result
// still alive). Prints one JSON line: { baseline, peak, delta } in bytes.
import v8 from 'node:v8';
import { buildScenario } from './scenarios.mjs';
import { byKey } from './impl/index.mjs';
import { checkCalls } from './check.mjs';

const [scenarioName, implKey, seedArg] = process.argv.slice(2);
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
const scenario = buildScenario(scenarioName, seedArg ? { seed: Number(seedArg) } : {});
const impl = byKey(implKey);
const skip = await impl.load();
if (skip) {
  process.stdout.write(JSON.stringify({ skip }) + '\n');
  process.exit(0);
}

const used = () => v8.getHeapStatistics().used_heap_size;
let peak = 0;
function* sampled(chunks) {
  for (const chunk of chunks) {
    const now = used();
    if (now > peak) peak = now;
    yield chunk;
  }
}

const warm = await impl.run(scenario.chunks, scenario.format);
const wrong = checkCalls(warm, scenario.expected);
globalThis.gc();
globalThis.gc();
const baseline = used();
peak = baseline;
const result = await impl.run(sampled(scenario.chunks), scenario.format);
const end = used();
if (end > peak) peak = end;
const wrongAgain = checkCalls(result, scenario.expected);
process.stdout.write(JSON.stringify({ baseline, peak, delta: peak - baseline, wrong: wrong ?? wrongAgain ?? null }) + '\n');
