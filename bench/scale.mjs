// Server-scale benchmark: `node --expose-gc bench/scale.mjs` (part of `npm run bench`; needs
// `npm run build`). Writes its section of docs/benchmarks.md (bench/results/scale.md).
//
//   --base DIR      another checkout (its built dist/ and its src/) measured side by side as "before"
//   --streams N     streams open at once in the CPU and memory rows (default 10,000)
//   --reps N        child processes per CPU / memory / after-GC cell (default 3; 11 for the first and second streams)
//   --no-partial    skip the partial-value rows
//   --no-write      print only; do not write bench/results/scale.md
//
// Every cell runs in fresh `node --expose-gc` children (bench/scale-child.mjs), children of all
// implementations interleaved; the figure is the median over children (each child's own figure is
// the median of its rounds). Every child checks that each stream yielded its 2 calls. Rows:
// CPU per stream with N streams open at once fed round-robin (and the library paired with the floor
// in one process, alternating rounds); heap per idle and half-delivered
// open stream; one small stream right after a full GC; the first stream of a fresh process (bytes
// one event-loop turn after the subscription, and in the subscription's turn); live
// partial values (and immutable snapshots) at 10 KB / 100 KB / 1 MB of arguments in 1–8 char
// fragments against appending + one JSON.parse (as bench/partial-json.mjs).
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMPLS } from './scale-impls.mjs';
import { partialRows } from './scale-partial.mjs';
import { writeSection } from './page.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i !== -1 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const base = option('--base', undefined);
const streams = Number(option('--streams', 10_000));
const reps = Number(option('--reps', 3));
const log = (s) => process.stderr.write(`${s}\n`);
const loads = [os.loadavg()[0]];

/** The columns: the library after (this checkout), before (`--base`), then the references. */
const COLUMNS = [
  ...IMPLS.filter((i) => i.usesDist).map((i) => ({ ...i, id: `${i.key}@after`, root: ROOT, label: `${i.label}${base ? ', after' : ''}` })),
  ...(base ? IMPLS.filter((i) => i.usesDist).map((i) => ({ ...i, id: `${i.key}@before`, root: path.resolve(base), label: `${i.label}, before` })) : []),
  ...IMPLS.filter((i) => !i.usesDist).map((i) => ({ ...i, id: i.key, root: ROOT })),
];

function child(mode, column, n) {
  const args = ['--expose-gc', path.join(ROOT, 'bench/scale-child.mjs'), mode, column.key, path.join(column.root, 'dist'), String(n)];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`${mode} ${column.id}: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop());
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** mode → column id → the outputs of its children (run once per mode, children interleaved). */
const runs = new Map();
function outputsOf(mode, times, n, columns = COLUMNS) {
  if (!runs.has(mode)) {
    const per = new Map(columns.map((c) => [c.id, []]));
    for (let r = 0; r < times; r++) {
      for (const column of r % 2 === 0 ? columns : [...columns].reverse()) per.get(column.id).push(child(mode, column, n));
      loads.push(os.loadavg()[0]);
    }
    runs.set(mode, per);
  }
  return runs.get(mode);
}
/** mode → column id → median over children of `pick(child output)`. */
function measure(mode, times, pick, n = streams, columns = COLUMNS) {
  const medians = new Map([...outputsOf(mode, times, n, columns)].map(([id, outputs]) => [id, median(outputs.map(pick))]));
  log(`${mode}: ${[...medians].map(([id, x]) => `${id} ${x.toFixed(2)}`).join(', ')}`);
  return medians;
}

/** A row of a cold-start mode: wall µs, over at least 11 children (one stream per child is noisy). */
function cold(label, mode, pick, goal) {
  return { label, unit: 'µs', goal, values: measure(mode, Math.max(reps, 11), pick) };
}

const rows = [
  {
    label: `${streams.toLocaleString('en')} streams open at once, fed round-robin: CPU per stream (26 events, 2 calls)`,
    unit: 'µs',
    goal: 1.3,
    values: measure('cpu', reps, (o) => median(o.perStream)),
  },
  {
    label: "the same, each implementation and the floor in one process, rounds alternating: median ratio of a round to the floor's next to it",
    ratio: true,
    goal: 1.3,
    values: measure(
      'cpu-paired',
      reps,
      (o) => median(o.ratios),
      streams,
      COLUMNS.filter((c) => c.key === 'library'),
    ),
  },
  {
    label: 'the same, with 26 more streams of each of the two open through every round, one at each stage (a server always has other streams open)',
    ratio: true,
    goal: 1.3,
    values: measure(
      'cpu-paired-open',
      reps,
      (o) => median(o.ratios),
      streams,
      COLUMNS.filter((c) => c.key === 'library' || c.key === 'library-auto'),
    ),
  },
  { label: 'heap per idle open stream (after GC)', unit: 'B', absGoal: 1536, values: measure('idle', reps, (o) => o.bytesPerStream) },
  { label: 'heap per half-delivered open stream (13 of 26 events, after GC)', unit: 'B', absGoal: 3072, values: measure('half', reps, (o) => o.bytesPerStream) },
  { label: 'one small stream right after a full GC (wall, median of 31 per child)', unit: 'µs', values: measure('after-gc', reps, (o) => median(o.us)) },
  cold('the first stream in a fresh process, its bytes one event-loop turn after its subscription, as from a socket (wall of subscribe + read)', 'first-socket', (o) => o.us),
  cold('the same process: wall of that turn between the subscription and the first byte (where builds before 0.2 read their warm-up stream)', 'first-socket', (o) => o.waitUs),
  cold("the first stream in a fresh process, fed in its subscription's own turn (wall; modules loaded before)", 'first', (o) => o.us),
  cold('the stream after one start-up stream and one event-loop turn (wall; code compiled, not optimised yet)', 'second', (o) => o.us),
];

const fmt = (x, unit) => (unit === 'B' ? `${(x / 1024).toFixed(2)} KB` : x >= 100 ? `${x.toFixed(0)} µs` : `${x.toFixed(1)} µs`);
const floorId = 'floor';
const header = ['measure', ...COLUMNS.map((c) => c.label), 'goal'];
const lines = [`| ${header.join(' | ')} |`, `| --- | ${COLUMNS.map(() => '---:').join(' | ')} | --- |`];
for (const row of rows) {
  const floorValue = row.values.get(floorId);
  const cells = COLUMNS.map((c) => {
    const v = row.values.get(c.id);
    if (row.ratio) return c.id === floorId ? '1×' : v === undefined ? '—' : `${v.toFixed(2)}×`;
    return c.id === floorId ? fmt(v, row.unit) : `${fmt(v, row.unit)} (${(v / floorValue).toFixed(2)}×)`;
  });
  // A goal is met when both readers of this checkout (named and auto-detecting) meet it, where the row has both.
  const afters = ['library@after', 'library-auto@after'].map((id) => row.values.get(id)).filter((v) => v !== undefined);
  const met = (limit, of) => (afters.every((v) => of(v) <= limit) ? 'met' : 'not met');
  const goal =
    row.absGoal !== undefined
      ? `≤ ${fmt(row.absGoal, 'B')}: ${met(row.absGoal, (v) => v)}`
      : row.goal !== undefined
        ? `≤ ${row.goal}× floor: ${met(row.goal, (v) => (row.ratio ? v : v / floorValue))}`
        : '(no goal)';
  lines.push(`| ${row.label} | ${cells.join(' | ')} | ${goal} |`);
}

let partial = '';
if (!argv.includes('--no-partial')) {
  const roots = [{ name: base ? 'after' : 'this checkout', root: ROOT }, ...(base ? [{ name: 'before', root: path.resolve(base) }] : [])];
  partial = await partialRows(roots);
  loads.push(os.loadavg()[0]);
}

const cpus = os.cpus();
const command = `node --expose-gc bench/scale.mjs${argv.length > 0 ? ` ${argv.join(' ')}` : ''}`;
const markdown = `Command: \`${command}\` (part of \`npm run bench\`). Node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores; load average (1 min) during the run ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}.
${base ? `"before" is the build in \`${path.relative(ROOT, path.resolve(base)) || base}\`, "after" this checkout's \`dist/\`, measured in the same run, children interleaved.\n` : ''}
Each stream is an RxJS \`Subject\` with one subscription, fed 26 OpenAI chat events (one per chunk, as bytes) carrying 2 tool calls.
**Floor in a Subject**: TextDecoder + split on blank lines + \`JSON.parse\` + per-index append, in that one subscription.
Every cell is the median over ${reps} fresh \`node --expose-gc\` children (${Math.max(reps, 11)} for the first and second streams), interleaved; × = ratio to the floor in the same run.
CPU: user + system of the child over the whole life of the ${streams.toLocaleString('en')} streams (open, feed round-robin, complete; GC included), median of 5 rounds after one warm-up round. The paired row runs \`readToolCalls({ provider: 'openai-chat' })\` and the floor in one child, 8 rounds each, alternating (a full GC before each round), and takes the median of the ratios of neighbouring rounds: a change of machine speed during the child cancels out; each implementation's own CPU row moves by ±25 % between runs. Between two rounds nothing else is open, so the full GC frees the hidden classes ("maps") of every object the code handled, and V8 throws away the optimised code that refers to them (\`--trace-deopt\`: "weak objects") and compiles it again in the next round; builds before 0.2 kept streams of their own open for the life of the process, which kept those maps. The row after it keeps 26 more streams of each of the two open through every round, one at each stage of the 26 events, as any server has.
Heap: \`used_heap_size\` after two full GCs with ${streams.toLocaleString('en')} streams open, minus the same before opening them, per stream.

${lines.join('\n')}
${partial}`;
console.log(markdown);
if (!argv.includes('--no-write')) console.log(`wrote ${writeSection('scale', markdown).join(', ')}`);
