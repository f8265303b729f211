// Instructions per `readToolCalls()` run of every steady scenario, this checkout against another
// build, counted by callgrind (repeatable where wall time on a shared machine is not):
//
//   node bench/instructions-ab.mjs --base DIR [--rounds N] [--warm W] [--scenarios a,b] [--write]
//
// DIR is a checkout with a built dist/ (e.g. a worktree of an earlier commit); this checkout's
// dist/ must be built too. Each count is (run with W + N rounds − run with W rounds) / N, so
// start-up, module loading, the warm-up runs and the optimising compiles of the first W rounds
// cancel out (W defaults to N). With W = 0 the compiles land in the measured rounds, and a build
// with more code to compile reads several percent dearer the fewer rounds there are. Node runs with
// --single-threaded (no background compiler or GC threads). Counts still move between runs (V8's
// heap growth reads allocation per millisecond, so a loaded machine changes when GCs come): compare
// rows of one run. --write puts the table in its section of docs/benchmarks.md
// (bench/results/instructions.md).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSection } from './page.mjs';
import { SCENARIO_NAMES } from './scenarios.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const base = flag('--base');
if (base === undefined) throw new Error('usage: node bench/instructions-ab.mjs --base DIR [--rounds N] [--write]');
const rounds = Number(flag('--rounds') ?? 4);
const warm = Number(flag('--warm') ?? rounds);
const only = flag('--scenarios')?.split(',') ?? SCENARIO_NAMES;

/** The instructions callgrind counted for one process. */
function count(dir, scenario, n) {
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', '--smc-check=all', process.execPath, '--single-threaded', path.join(root, 'bench/instructions.mjs'), dir, scenario, String(n)],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const match = /Collected : (\d+)/.exec(run.stderr);
  if (run.status !== 0 || match === null) throw new Error(`callgrind failed for ${dir} ${scenario} ${n}:\n${run.stderr.slice(-2000)}`);
  return Number(match[1]);
}

const perRun = (dir, scenario) => (count(dir, scenario, warm + rounds) - count(dir, scenario, warm)) / rounds;

const rows = [];
for (const scenario of only) {
  const before = perRun(path.resolve(base), scenario);
  const after = perRun(root, scenario);
  const row = { scenario, before, after, ratio: after / before };
  rows.push(row);
  console.log(`${scenario.padEnd(12)} before ${(before / 1e6).toFixed(2)} M  after ${(after / 1e6).toFixed(2)} M  after ÷ before ${row.ratio.toFixed(3)}`);
}

if (args.includes('--write')) {
  const head = (cmd) => spawnSync('git', ['-C', cmd, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  const lines = [
    `Against \`${head(path.resolve(base))}\`. Command: \`node bench/instructions-ab.mjs --base DIR --rounds ${rounds} --warm ${warm}${only === SCENARIO_NAMES ? '' : ` --scenarios ${only.join(',')}`} --write\` (node --single-threaded under valgrind ${spawnSync('valgrind', ['--version'], { encoding: 'utf8' }).stdout.trim()}, Node ${process.version}).`,
    '',
    `Instructions per \`readToolCalls()\` run of each steady scenario (callgrind; start-up, warm-up and the first ${warm} rounds' compiles subtracted). "before" is the base build, "after" this checkout.`,
    '',
    '| scenario | before (M instructions) | after (M instructions) | after ÷ before |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.scenario} | ${(r.before / 1e6).toFixed(2)} | ${(r.after / 1e6).toFixed(2)} | ${r.ratio.toFixed(3)} |`),
    '',
  ];
  writeSection('instructions', lines.join('\n'));
}
