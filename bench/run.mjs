// Benchmark runner: `npm run bench` (= node bench/run.mjs).
//
//   --runs N          timed runs per scenario x implementation (default 7)
//   --warmup N        warm-up rounds before timing (default 2)
//   --quick           --runs 3 --warmup 1
//   --scenarios a,b   only these scenarios (default: all)
//   --impls a,b       only these implementations (keys: floor, eventsource-parser, sdk, ai-sdk, library, library-partial)
//   --no-heap         skip the per-child peak-heap probes
//   --no-write        print only; do not write bench/results/pipeline.md (the pipeline section of
//                     docs/benchmarks.md) / bench/chart.svg / .bench-out/results.json
//   --seed N          scenario seed (default 20251130)
//
// Every implementation's output is checked against the scenario's expected calls before it is
// timed; a wrong answer is reported as such and never timed. Timing is interleaved: each round
// runs every implementation once (rotating the starting implementation), after a GC.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { buildScenario, SCENARIO_NAMES, SCALING } from './scenarios.mjs';
import { IMPLEMENTATIONS } from './impl/index.mjs';
import { checkCalls } from './check.mjs';
import { writeSection } from './page.mjs';
import { ratioChart } from './svg.mjs';
import { tables } from './tables.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));

// ----- options ---------------------------------------------------------------------------------
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  if (i !== -1 && argv[i + 1] !== undefined) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(name + '='));
  return eq ? eq.slice(name.length + 1) : fallback;
};
const quick = flag('--quick');
const runs = Number(option('--runs', quick ? 3 : 7));
const warmup = Number(option('--warmup', quick ? 1 : 2));
const seed = Number(option('--seed', 20251130));
const scenarioNames = option('--scenarios', SCENARIO_NAMES.join(',')).split(',').filter(Boolean);
const implKeys = option('--impls', IMPLEMENTATIONS.map((i) => i.key).join(','))
  .split(',')
  .filter(Boolean);
const heap = !flag('--no-heap');
const write = !flag('--no-write');
for (const name of scenarioNames) if (!SCENARIO_NAMES.includes(name)) throw new Error(`unknown scenario ${name}`);
const impls = implKeys.map((key) => {
  const impl = IMPLEMENTATIONS.find((i) => i.key === key);
  if (!impl) throw new Error(`unknown implementation ${key}`);
  return impl;
});
if (!impls.some((i) => i.key === 'floor')) impls.unshift(IMPLEMENTATIONS[0]); // ratios need the floor

// A GC between runs, without requiring `node --expose-gc` on the command line.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const MB = 1e6; // bytes; MB/s and ms/MB use decimal megabytes
const started = Date.now();
const loadAtStart = os.loadavg()[0];
const log = (...a) => process.stderr.write(a.join(' ') + '\n');

// ----- load implementations --------------------------------------------------------------------
const unavailable = new Map(); // key -> reason
for (const impl of impls) {
  try {
    const reason = await impl.load();
    if (reason) unavailable.set(impl.key, reason);
  } catch (error) {
    unavailable.set(impl.key, `failed to load: ${error.message}`);
  }
}

// ----- measure ---------------------------------------------------------------------------------
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** results[scenario][implKey] = { status: 'ok' | 'skip' | 'wrong' | 'error', reason?, times?, heap? } */
const results = {};
const scenarioInfo = {};
for (const name of scenarioNames) {
  const scenario = buildScenario(name, { seed });
  scenarioInfo[name] = {
    description: scenario.description,
    format: scenario.format,
    bytes: scenario.bytes.length,
    chunks: scenario.chunks.length,
    events: scenario.sseText.split('\n\n').length - 1,
    calls: scenario.expected.length,
  };
  const row = (results[name] = {});
  const live = [];
  for (const impl of impls) {
    if (unavailable.has(impl.key)) {
      row[impl.key] = { status: 'skip', reason: unavailable.get(impl.key) };
      continue;
    }
    const supported = impl.supports(scenario.format);
    if (supported !== true) {
      row[impl.key] = { status: 'skip', reason: `n/a: ${supported}` };
      continue;
    }
    try {
      const wrong = checkCalls(await impl.run(scenario.chunks, scenario.format), scenario.expected);
      if (wrong) {
        row[impl.key] = { status: 'wrong', reason: `wrong output: ${wrong}` };
        continue;
      }
    } catch (error) {
      row[impl.key] = { status: 'error', reason: `threw: ${error?.message ?? error}` };
      continue;
    }
    row[impl.key] = { status: 'ok', times: [], steadyTimes: [] };
    live.push(impl);
  }
  log(`${name}: ${(scenario.bytes.length / MB).toFixed(2)} MB, ${scenario.chunks.length} network chunks, checked ${live.map((i) => i.key).join(', ') || 'nothing'}`);
  // Pass 1: a forced full GC before every run (each run starts cold-ish: the GC also clears the
  // JIT's type feedback for object shapes no longer alive). Pass 2: no forced GC, round-robin: the
  // steady state of a process that keeps streaming.
  for (const [pass, forceGc] of [
    ['times', true],
    ['steadyTimes', false],
  ]) {
    for (let round = 0; round < warmup + runs; round++) {
      for (let k = 0; k < live.length; k++) {
        const impl = live[(k + round) % live.length];
        if (forceGc) gc();
        const t0 = performance.now();
        await impl.run(scenario.chunks, scenario.format);
        const ms = performance.now() - t0;
        if (round >= warmup) row[impl.key][pass].push(ms);
      }
    }
  }
  for (const impl of live) {
    const r = row[impl.key];
    r.median = median(r.times);
    r.steady = median(r.steadyTimes);
    r.min = Math.min(...r.times);
    r.max = Math.max(...r.times);
  }
  log(`  ${live.map((i) => `${i.key} ${row[i.key].median.toFixed(1)} ms`).join(' | ')}`);
}

// ----- peak heap, one fresh child per scenario x implementation --------------------------------
if (heap) {
  for (const name of scenarioNames) {
    for (const impl of impls) {
      const r = results[name][impl.key];
      if (r.status !== 'ok') continue;
      const child = spawnSync(process.execPath, ['--expose-gc', '--max-semi-space-size=1', `${HERE}heap-probe.mjs`, name, impl.key, String(seed)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
      const line = child.stdout.trim().split('\n').pop();
      try {
        const probe = JSON.parse(line);
        if (probe.wrong) r.heapNote = `probe saw wrong output: ${probe.wrong}`;
        r.heap = probe;
      } catch {
        r.heapNote = `probe failed: ${(child.stderr || '').trim().split('\n').slice(-1)[0]}`;
      }
    }
    log(
      `heap ${name}: ${impls
        .map((i) => (results[name][i.key].heap ? `${i.key} ${(results[name][i.key].heap.delta / MB).toFixed(1)} MB` : null))
        .filter(Boolean)
        .join(' | ')}`,
    );
  }
}

// ----- report ----------------------------------------------------------------------------------
const cpus = os.cpus();
const machine = `Node ${process.version} · ${cpus[0]?.model.trim() ?? 'unknown CPU'} · ${cpus.length} cores · ${os.platform()} ${os.arch()} · ${new Date().toISOString().slice(0, 10)}`;
const command = ['node bench/run.mjs', ...argv].join(' ');
const versionOf = (pkg) => {
  try {
    return JSON.parse(readFileSync(`${ROOT}node_modules/${pkg}/package.json`, 'utf8')).version;
  } catch {
    return '?';
  }
};
const describeImpl = (i) => `- **${i.label}** (\`${i.key}\`)${i.packages ? ': ' + i.packages.map((p) => `${p}@${versionOf(p)}`).join(', ') : ''}`;
const { scenarioTable, scalingTable } = tables({ impls, results, scenarioInfo, scenarioNames, SCALING, MB });

const sections = [];
for (const name of scenarioNames) {
  const info = scenarioInfo[name];
  sections.push(
    `#### ${name}\n\n${info.description} — ${info.format}, ${(info.bytes / MB).toFixed(2)} MB of SSE, ${info.events} events, ${info.chunks} network chunks (1–16384 B), ${info.calls} call(s)\n\n${scenarioTable(name)}`,
  );
}
const scaling = scalingTable();
const elapsed = ((Date.now() - started) / 1000).toFixed(0);
const skippedBy = new Map(); // "label: reason" -> scenario names
for (const n of scenarioNames) {
  for (const i of impls) {
    const r = results[n][i.key];
    if (r.status === 'ok') continue;
    const k = `**${i.label}**: ${r.reason}`;
    skippedBy.set(k, [...(skippedBy.get(k) ?? []), n]);
  }
}
const skipped = [...skippedBy].map(([k, names]) => `- ${k} (${names.length === scenarioNames.length ? 'all scenarios' : names.join(', ')})`);

const markdown = `- Machine: ${machine}
- Command: \`${command}\`
- Load average (1 min) at start: ${loadAtStart.toFixed(2)} on ${cpus.length} cores${loadAtStart > cpus.length * 0.5 ? ' — the machine was shared with other work, so min–max spreads are wide; compare medians and ratios within this run' : ''}
- Runs: ${runs} timed per scenario × implementation after ${warmup} warm-up round(s), interleaved round-robin, GC before each run; total wall time ${elapsed} s
- MB = 10^6 bytes of SSE input. "× floor" = median ÷ the floor's median on the same bytes in the same run.
- Two passes per scenario. "median ms": a forced full GC before every run, so each run starts cold-ish (the GC also clears the JIT's type feedback for object shapes no longer alive, and resets allocation-site feedback). "steady ms": the same round-robin with no forced GC, the steady state of a process that keeps streaming. They differ far more for code with many property-access sites on parsed JSON (this library's adapters, the SDKs) than for a ten-line loop (the floor).
- Peak heap Δ: a fresh \`node --expose-gc\` child per scenario × implementation runs once to warm up, collects garbage, then runs again while sampling \`v8.getHeapStatistics().used_heap_size\` before every network chunk and at the end (result alive); the figure is peak − baseline (baseline includes the input chunks and loaded modules). The 1 MB young generation makes scavenges frequent, so the figure tracks live data instead of the default 16 MB nursery filling with garbage; it still includes garbage not yet collected, so read it as heap pressure, not exact retained size.
- Every implementation's calls (id, name, parsed arguments) are checked against the scenario's expected calls before timing.

Options: \`npm run bench -- --quick\` (3 runs after 1 warm-up), \`node bench/run.mjs --scenarios chatty,parallel --impls floor,library --no-heap --no-write\`; the library rows read \`dist/\` (\`npm run build\` first).

### Implementations

${impls.map(describeImpl).join('\n')}

### Results

![ratio to floor](../bench/chart.svg)

${sections.join('\n\n')}
${scaling ? `\n#### scaling (chatty at 1x / 4x / 16x)\n\nTime per MB of input; a linear implementation keeps it flat (last ÷ first ≈ 1).\n\n${scaling}\n` : ''}
${skipped.length ? `\n### Not measured\n\n${skipped.join('\n')}\n` : ''}`;

const groups = scenarioNames.map((name) => ({
  name,
  bars: impls.map((impl) => {
    const r = results[name][impl.key];
    const floor = results[name].floor;
    if (r.status === 'ok' && floor.status === 'ok') return { label: impl.label, ratio: r.median / floor.median };
    return { label: impl.label, ratio: null, note: r.status === 'skip' ? r.reason.split(':')[0] : r.status };
  }),
}));
const svg = ratioChart({ title: 'Median time ÷ floor, runs after a forced GC (log scale; steady ratios: docs/benchmarks.md)', subtitle: machine, groups, series: impls.map((i) => i.label) });

process.stdout.write(`\n${machine}\n${command}\n\n`);
for (const name of scenarioNames) process.stdout.write(`${name} (${(scenarioInfo[name].bytes / MB).toFixed(2)} MB)\n${scenarioTable(name)}\n\n`);
if (scaling) process.stdout.write(`scaling (ms per MB)\n${scaling}\n\n`);

if (write) {
  writeSection('pipeline', markdown);
  writeFileSync(`${HERE}chart.svg`, svg);
  mkdirSync(`${ROOT}.bench-out`, { recursive: true });
  writeFileSync(`${ROOT}.bench-out/results.json`, JSON.stringify({ machine, command, runs, warmup, seed, scenarioInfo, results }, null, 2));
  log(`wrote bench/results/pipeline.md, docs/benchmarks.md, bench/chart.svg, .bench-out/results.json (${elapsed} s)`);
}
