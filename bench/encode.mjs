// Re-encoding benchmark: `node bench/encode.mjs` (part of `npm run bench`; needs `npm run build`).
// Prints a table and writes its section of docs/benchmarks.md (bench/results/encode.md).
//
//   --runs N          timed runs per scenario x row (default 7)
//   --warmup N        warm-up rounds before timing (default 2)
//   --quick           --runs 3 --warmup 1
//   --scenarios a,b   only these scenarios of bench/scenarios.mjs (default: all)
//   --seed N          scenario seed (default 20251130)
//   --no-write        print only; do not write bench/results/encode.md
//
// Rows, all over the same network chunks: the floor of `bench/run.mjs` (a hand-written loop that
// decodes the calls), `readStreamEvents()` alone (the decode an encoder starts from), and
// `readStreamEvents()` → `encodeX()` for each target format (collecting the SSE text, as a gateway
// writing it to a socket would). Before timing, each encoded stream is read back with
// `readToolCalls()` and must give the scenario's calls (ids, names, arguments), else the row says so.
//
// "encode ÷ decode" is (decode → encode − decode) ÷ decode: the cost of re-encoding relative to the
// cost of decoding. The goal is at most 1.00 (re-encoding costs at most as much again as decoding).
// Timing is interleaved: each round runs every row once (rotating the starting row), after a GC.
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { existsSync } from 'node:fs';
import { buildScenario, SCENARIO_NAMES } from './scenarios.mjs';
import { checkCalls } from './check.mjs';
import { writeSection } from './page.mjs';
import floor from './impl/floor.mjs';

const DIST = new URL('../dist/index.js', import.meta.url);
if (!existsSync(DIST)) {
  console.error('dist/index.js is missing: run `npm run build` first');
  process.exit(1);
}
// The readers from the main entry, the encoders from the gateway wing.
const lib = { ...(await import(DIST.href)), ...(await import(new URL('../dist/gateway.js', import.meta.url).href)) };
const { from } = await import('rxjs');
for (const name of [
  'readStreamEvents',
  'readToolCalls',
  'encodeOpenAIChat',
  'encodeOpenAIResponses',
  'encodeAnthropicMessages',
  'encodeGemini',
  'encodeGeminiInteractions',
  'encodeAiSdkUi',
  'encodeAgUi',
]) {
  if (typeof lib[name] !== 'function') {
    console.error(`dist/ has no \`${name}\` export (main entry or rxjs-tool-calls/gateway)`);
    process.exit(1);
  }
}

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i !== -1 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const quick = argv.includes('--quick');
const runs = Number(option('--runs', quick ? 3 : 7));
const warmup = Number(option('--warmup', quick ? 1 : 2));
const seed = Number(option('--seed', 20251130));
const scenarioNames = option('--scenarios', SCENARIO_NAMES.join(',')).split(',').filter(Boolean);
const write = !argv.includes('--no-write');
for (const name of scenarioNames) if (!SCENARIO_NAMES.includes(name)) throw new Error(`unknown scenario ${name}`);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const log = (...a) => process.stderr.write(a.join(' ') + '\n');

/** Run an observable to completion; `onValue` sees each value. */
function drain(observable, onValue) {
  return new Promise((resolve, reject) => observable.subscribe({ next: onValue, error: reject, complete: resolve }));
}

const TARGETS = [
  ['chat', 'encodeOpenAIChat'],
  ['responses', 'encodeOpenAIResponses'],
  ['anthropic', 'encodeAnthropicMessages'],
  ['gemini', 'encodeGemini'],
  ['interactions', 'encodeGeminiInteractions'],
  ['ai-sdk-ui', 'encodeAiSdkUi'],
  ['ag-ui', 'encodeAgUi'],
];

/** The rows: each returns a result to check (or null) and is timed as a whole. */
const ROWS = [
  { key: 'floor', label: 'floor (bench/run.mjs)', run: (chunks, format) => floor.run(chunks, format) },
  {
    key: 'decode',
    label: 'readStreamEvents()',
    run: async (chunks) => {
      let n = 0;
      await drain(from(chunks).pipe(lib.readStreamEvents()), () => n++);
      return null;
    },
  },
  ...TARGETS.map(([key, fn]) => ({
    key: `encode-${key}`,
    label: `readStreamEvents() → ${fn}()`,
    encoded: true,
    run: async (chunks) => {
      const parts = [];
      await drain(from(chunks).pipe(lib.readStreamEvents(), lib[fn]()), (sse) => parts.push(sse));
      return parts;
    },
  })),
];

/** Read an encoded stream back: its calls, for the correctness check. */
async function callsOf(parts) {
  const calls = [];
  await drain(from([parts.join('')]).pipe(lib.readToolCalls()), (r) => {
    if (!r.success) throw r.error;
    calls.push({ id: r.data.id, name: r.data.name, arguments: r.data.arguments });
  });
  return calls;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const loadStart = os.loadavg();
const results = {};
for (const name of scenarioNames) {
  const scenario = buildScenario(name, { seed });
  const row = (results[name] = { bytes: scenario.bytes.length, format: scenario.format });
  const live = [];
  for (const r of ROWS) {
    try {
      const out = await r.run(scenario.chunks, scenario.format);
      const wrong = r.key === 'floor' ? checkCalls(out, scenario.expected) : r.encoded ? checkCalls(await callsOf(out), scenario.expected) : null;
      if (wrong) {
        row[r.key] = { status: `wrong: ${wrong}` };
        continue;
      }
      row[r.key] = { status: 'ok', times: [] };
      live.push(r);
    } catch (error) {
      row[r.key] = { status: `threw: ${error?.message ?? error}` };
    }
  }
  for (let round = 0; round < warmup + runs; round++) {
    for (let k = 0; k < live.length; k++) {
      const r = live[(k + round) % live.length];
      gc();
      const t0 = performance.now();
      await r.run(scenario.chunks, scenario.format);
      const ms = performance.now() - t0;
      if (round >= warmup) row[r.key].times.push(ms);
    }
  }
  for (const r of live) row[r.key].median = median(row[r.key].times);
  log(`${name}: ${live.map((r) => `${r.key} ${row[r.key].median.toFixed(1)} ms`).join(' | ')}`);
}

const cpus = os.cpus();
const machine = `Node ${process.version} · ${cpus[0]?.model.trim() ?? 'unknown CPU'} · ${cpus.length} cores · load ${loadStart.map((l) => l.toFixed(2)).join(' ')} at start, ${os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')} at end · ${runs} runs, ${warmup} warm-up, GC before each run`;
const command = `node bench/encode.mjs${argv.length ? ` ${argv.join(' ')}` : ''}`;
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '–');
const header = ['| scenario | MB | pipeline | median ms | MB/s | × floor | encode ÷ decode |', '|---|---:|---|---:|---:|---:|---:|'];
const lines = [];
for (const name of scenarioNames) {
  const row = results[name];
  const mb = row.bytes / 1e6;
  const f = row.floor?.median;
  const d = row.decode?.median;
  for (const r of ROWS) {
    const cell = row[r.key];
    const first = r === ROWS[0] ? `| ${name} (${row.format}) | ${mb.toFixed(2)} ` : '| | ';
    if (cell?.status !== 'ok') {
      lines.push(`${first}| ${r.label} | ${cell?.status ?? '–'} | | | |`);
      continue;
    }
    const m = cell.median;
    const ratio = r.encoded && d !== undefined ? ((m - d) / d || 0).toFixed(2) : '';
    lines.push(`${first}| ${r.label} | ${m.toFixed(1)} | ${(mb / (m / 1000)).toFixed(0)} | ${f === undefined ? '–' : x(m / f)} | ${ratio} |`);
  }
}
const table = [...header, ...lines].join('\n');
console.log(`\n${machine}\n${command}\n\n${table}`);

if (write) {
  const markdown = `Command: \`${command}\` (part of \`npm run bench\`). ${machine}.

Each scenario of \`bench/scenarios.mjs\` in its network chunks. Rows: the floor of \`bench/run.mjs\` (a hand-written
loop that decodes the calls), \`readStreamEvents()\` alone (the decoding an encoder starts from), and
\`readStreamEvents()\` → each encoder, collecting the SSE text as a gateway writing it to a socket would. Before
timing, every encoded stream is read back with \`readToolCalls()\` and must give the scenario's calls (ids, names,
arguments); a wrong one is reported in its row and not timed. Median of interleaved runs, GC before each.

"encode ÷ decode" is (decode → encode − decode) ÷ decode: what re-encoding costs relative to decoding. The goal is at
most 1.00 (re-encoding costs at most as much again as decoding), i.e. decode → encode at most twice the decode row.

${table}
`;
  log(`wrote ${writeSection('encode', markdown).join(', ')}`);
}
