// Steady-state A/B of `readToolCalls()` on one bench scenario, two builds in one process:
//   node bench/steady-ab.mjs <scenario> [runs] --base DIR
// DIR is another checkout with a built dist/. After 5 warm-up rounds, runs both builds `runs`
// times (default 40), alternating which goes first, with no forced GC (the "steady" pass of
// bench/run.mjs), and prints the median and least wall ms of each. Used for regression checks
// where separate-process runs are too noisy (see BENCHMARKS-scale.md).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { from, lastValueFrom, reduce } from 'rxjs';
import { buildScenario } from './scenarios.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const at = argv.indexOf('--base');
if (at === -1 || argv[at + 1] === undefined) throw new Error('usage: node bench/steady-ab.mjs <scenario> [runs] --base DIR');
const base = path.resolve(argv[at + 1]);
const [scenario = 'chatty', runs = '40'] = argv.filter((_, i) => i !== at && i !== at + 1);
const s = buildScenario(scenario, {});
const libs = {
  before: await import(pathToFileURL(path.join(base, 'dist/index.js')).href),
  after: await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href),
};
const expected = s.expected.length;
async function run(lib) {
  const n = await lastValueFrom(
    from(s.chunks).pipe(
      lib.readToolCalls(),
      reduce((k) => k + 1, 0),
    ),
  );
  if (n !== expected) throw new Error(`${n} results, expected ${expected}`);
}
const times = { before: [], after: [] };
for (let i = 0; i < 5; i++) {
  await run(libs.before);
  await run(libs.after);
}
for (let i = 0; i < Number(runs); i++) {
  for (const key of i % 2 === 0 ? ['after', 'before'] : ['before', 'after']) {
    const t0 = performance.now();
    await run(libs[key]);
    times[key].push(performance.now() - t0);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (key) => `${median(times[key]).toFixed(2)} ms (least ${Math.min(...times[key]).toFixed(2)})`;
console.log(`${scenario}, steady, ${runs} runs each: before ${fmt('before')}, after ${fmt('after')}`);
