// Same-process A/B of `readToolCalls()` on bench scenarios, two builds in one process:
//   node --expose-gc bench/steady-ab.mjs <scenario[,scenario…]|all> [runs] --base DIR [--gc | --both] [--write [--label TEXT]]
// DIR is another checkout with a built dist/. Per scenario, after 5 warm-up rounds, runs both
// builds `runs` times (default 40), alternating which goes first, with no forced GC (the "steady"
// pass of bench/run.mjs), or with `--gc` a full GC before every run (its "median" pass), or both
// passes with `--both`; prints the median and least wall ms of each. `--write` also writes the
// figures as its section of docs/benchmarks.md (bench/results/ab.md; `--label` says what the base
// build is). Used for regression checks where separate-process runs are too noisy.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { from, lastValueFrom, reduce } from 'rxjs';
import { buildScenario, SCENARIO_NAMES } from './scenarios.mjs';
import { writeSection } from './page.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const valueOf = (flag) => {
  const at = argv.indexOf(flag);
  if (at === -1) return undefined;
  const value = argv[at + 1];
  if (value === undefined) throw new Error(`${flag} needs a value`);
  argv.splice(at, 2);
  return value;
};
const flag = (name) => {
  const at = argv.indexOf(name);
  if (at !== -1) argv.splice(at, 1);
  return at !== -1;
};
const baseArg = valueOf('--base');
if (baseArg === undefined) throw new Error('usage: node --expose-gc bench/steady-ab.mjs <scenario[,…]|all> [runs] --base DIR [--gc | --both] [--write [--label TEXT]]');
const base = path.resolve(baseArg);
const write = flag('--write');
const label = valueOf('--label');
const both = flag('--both');
const passes = both ? [false, true] : [flag('--gc')];
if (passes.includes(true) && typeof globalThis.gc !== 'function') throw new Error('--gc and --both need node --expose-gc');
const [which = 'chatty', runs = '40'] = argv;
const scenarios = which === 'all' ? SCENARIO_NAMES : which.split(',');
const libs = {
  before: await import(pathToFileURL(path.join(base, 'dist/index.js')).href),
  after: await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href),
};
const loadBefore = os.loadavg()[0];

async function run(lib, s) {
  const n = await lastValueFrom(
    from(s.chunks).pipe(
      lib.readToolCalls(),
      reduce((k) => k + 1, 0),
    ),
  );
  if (n !== s.expected.length) throw new Error(`${n} results, expected ${s.expected.length}`);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const rows = [];
for (const name of scenarios) {
  const s = buildScenario(name, {});
  for (const forceGc of passes) {
    const times = { before: [], after: [] };
    for (let i = 0; i < 5; i++) {
      await run(libs.before, s);
      await run(libs.after, s);
    }
    for (let i = 0; i < Number(runs); i++) {
      for (const key of i % 2 === 0 ? ['after', 'before'] : ['before', 'after']) {
        if (forceGc) globalThis.gc();
        const t0 = performance.now();
        await run(libs[key], s);
        times[key].push(performance.now() - t0);
      }
    }
    const row = { name, pass: forceGc ? 'full GC before each run' : 'steady' };
    for (const key of ['before', 'after']) row[key] = { median: median(times[key]), least: Math.min(...times[key]) };
    rows.push(row);
    const fmt = (t) => `${t.median.toFixed(2)} ms (least ${t.least.toFixed(2)})`;
    console.log(`${name}, ${row.pass}, ${runs} runs each: before ${fmt(row.before)}, after ${fmt(row.after)}, after ÷ before ${(row.after.median / row.before.median).toFixed(3)}`);
  }
}

if (write) {
  const cell = (t) => `${t.median.toFixed(1)} (${t.least.toFixed(1)})`;
  const lines = [
    `Command: \`node --expose-gc bench/steady-ab.mjs ${which} ${runs} --base ${baseArg}${both ? ' --both' : passes[0] ? ' --gc' : ''}${label === undefined ? '' : ` --label '${label}'`} --write\`. Node ${process.version}, ${os.cpus()[0]?.model.trim() ?? 'cpu'}, ${os.cpus().length} cores; load average (1 min) ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after.`,
    '',
    `"before" is \`${baseArg}/dist\`${label === undefined ? '' : ` (${label})`}, "after" this checkout's \`dist/\`: both loaded in one process, \`readToolCalls()\` on the same chunks, ${runs} runs each after 5 warm-up rounds, alternating which build goes first. Median wall ms (least in brackets).`,
    '',
    '| scenario | pass | before | after | after ÷ before (medians) |',
    '| --- | --- | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.name} | ${r.pass} | ${cell(r.before)} | ${cell(r.after)} | ${(r.after.median / r.before.median).toFixed(3)} |`),
    '',
  ];
  console.log(`wrote ${writeSection('ab', lines.join('\n')).join(', ')}`);
}
