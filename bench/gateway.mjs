// The example gateway against a pass-through proxy (and a hand-written translation) on the same stack: `node bench/gateway.mjs`
// (part of `npm run bench`). Prints a markdown table and writes its section of docs/benchmarks.md
// (bench/results/gateway.md; `--no-write`: print only); `--profile` adds where the gateway's CPU goes.
//
//   --streams N,M   concurrent streams per round (default 100,1000)
//   --rounds R      timed rounds per target, size and scenario (default 5; one untimed round first)
//   --gap MS        the paced scenario's pause between two upstream writes of a stream (default 20)
//   --node-flags F  extra Node/V8 flags for both children (e.g. "--single-threaded" to keep V8's
//                   compiler and GC threads out of the CPU figures)
//   --profile       then run the gateway alone under --cpu-prof (--profile-streams N, default 1000,
//                   paced) and summarise the profile by source folder and by function
//
// One scripted Anthropic upstream in this process (bench/gateway-wire.mjs: per stream, a text
// block and one tool call of ~200 characters in 8-character fragments, ~32 writes) feeds three
// children (bench/gateway-child.mjs, bundled from src/ with esbuild): the gateway
// (examples/gateway/gateway.mjs: Anthropic → OpenAI chat, with its log line per request), the
// pass-through (node:http + fetch, each chunk written as it comes) and the same translation written
// by hand for this stream shape (no library). The clients (node:http, one keep-alive agent per
// target) are in this process too. Each round sends N requests at once to one target; the order of
// the targets rotates from round to round, and each ratio is the median over rounds of one
// target's round ÷ the other's in the same round, so a change of machine speed during the run
// cancels. Scenarios: paced (a write every --gap ms per stream, as a model
// streams) for the latency and CPU rows; flood (each stream written whole at once) for throughput.
//   CPU per stream: the target process's user + system CPU over the round ÷ N.
//   latency: from the upstream's write of a stream's first argument fragment to its client's read
//   of it (one clock: both in this process); p50 of the round.
//   throughput: N ÷ the round's wall time (first request sent → last response ended).
// Every stream's call is checked (id, name, arguments byte for byte, one per stream, a proper end).
import { fork } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { checkStream, MARKER, streamOf, upstreamWrites } from './gateway-wire.mjs';
import { entryAliases } from './load-source.mjs';
import { writeSection } from './page.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, '.bench-out');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i !== -1 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const sizes = option('--streams', '100,1000').split(',').map(Number);
const rounds = Number(option('--rounds', 5));
const gapMs = Number(option('--gap', 20));
const profile = argv.includes('--profile');
const profileStreams = Number(option('--profile-streams', 1000));
const nodeFlags = option('--node-flags', '').split(' ').filter(Boolean);
const log = (s) => process.stderr.write(`${s}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

// ---- the upstream ---------------------------------------------------------------------------
function startUpstream() {
  const state = { gap: gapMs, stamps: new Map() };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const s = streamOf(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const { writes, firstArgument } = upstreamWrites(s);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const gap = state.gap;
      if (gap === 0) {
        state.stamps.set(s, performance.now());
        res.end(writes.join(''));
        return;
      }
      let i = 0;
      const step = () => {
        if (res.destroyed) return;
        if (i === firstArgument) state.stamps.set(s, performance.now());
        res.write(writes[i++]);
        if (i < writes.length) setTimeout(step, gap);
        else res.end();
      };
      step();
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${server.address().port}`, state, server })));
}

// ---- the targets ----------------------------------------------------------------------------
async function bundleChild() {
  mkdirSync(OUT, { recursive: true });
  const outfile = path.join(OUT, 'gateway-child.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'bench/gateway-child.mjs')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'external',
    alias: entryAliases(),
    logLevel: 'warning',
  });
  return outfile;
}

function startTarget(file, mode, upstream, execArgv = []) {
  const child = fork(file, [mode, upstream], { execArgv: [...nodeFlags, ...execArgv], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const waiting = [];
  child.on('message', (message) => waiting.shift()?.(message));
  const next = () => new Promise((resolve) => waiting.push(resolve));
  return next().then((ready) => ({
    mode,
    child,
    port: ready.port,
    agent: new http.Agent({ keepAlive: true, maxSockets: Infinity }),
    async cpu() {
      child.send({ type: 'cpu' });
      return (await next()).us;
    },
    stop() {
      this.agent.destroy();
      child.send({ type: 'exit' });
      return new Promise((resolve) => child.on('exit', resolve));
    },
  }));
}

// ---- one round ------------------------------------------------------------------------------
function request(target, s) {
  const body = JSON.stringify({
    model: 'claude-sonnet-4-5',
    stream: true,
    messages: [{ role: 'user', content: `stream ${s}` }],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
  });
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: '/v1/chat/completions',
        method: 'POST',
        agent: target.agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.setEncoding('utf8');
        let text = '';
        let seenAt;
        res.on('data', (chunk) => {
          if (seenAt === undefined) {
            const from = Math.max(0, text.length - MARKER.length);
            text += chunk;
            if (text.indexOf(MARKER, from) !== -1) seenAt = performance.now();
          } else text += chunk;
        });
        res.on('end', () => resolve({ s, text, seenAt, status: res.statusCode }));
        res.on('error', () => resolve({ s, text, seenAt, status: res.statusCode }));
      },
    );
    req.on('error', () => resolve({ s, text: '', seenAt: undefined, status: 0 }));
    req.end(body);
  });
}

let nextStream = 0;
async function round(target, upstream, n, gap) {
  upstream.state.gap = gap;
  upstream.state.stamps.clear();
  const first = nextStream;
  nextStream += n;
  const cpu0 = await target.cpu();
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: n }, (_, i) => request(target, first + i)));
  const wall = performance.now() - t0;
  const cpu1 = await target.cpu();
  const wire = target.mode === 'proxy' ? 'anthropic' : 'chat';
  const latencies = [];
  const tally = { ok: 0, lost: 0, duplicated: 0, corrupted: 0 };
  for (const r of results) {
    const check = checkStream(wire, r.s, r.text);
    for (const key of Object.keys(tally)) if (check[key]) tally[key]++;
    const stamp = upstream.state.stamps.get(r.s);
    if (r.seenAt !== undefined && stamp !== undefined) latencies.push(r.seenAt - stamp);
  }
  return { cpuUs: (cpu1 - cpu0) / n, p50: median(latencies), p99: percentile(latencies, 99), throughput: (n / wall) * 1000, wall, tally };
}

/** Timed rounds of every target, the order rotating per round; per round the ratios between targets. */
async function pairedRounds(targets, upstream, n, gap) {
  for (const target of targets) await round(target, upstream, n, gap);
  const rows = [];
  for (let r = 0; r < rounds; r++) {
    const order = [...targets.slice(r % targets.length), ...targets.slice(0, r % targets.length)];
    const got = {};
    for (const target of order) got[target.mode] = await round(target, upstream, n, gap);
    rows.push(got);
    log(
      `  n=${n} gap=${gap} round ${r + 1}: ${targets.map(({ mode }) => `${mode} cpu ${got[mode].cpuUs.toFixed(0)} µs p50 ${got[mode].p50.toFixed(1)} ms ${got[mode].throughput.toFixed(0)}/s`).join(' | ')}`,
    );
  }
  const of = (mode, key) => median(rows.map((row) => row[mode][key]));
  const ratio = (key, a = 'gateway', b = 'proxy') => median(rows.map((row) => row[a][key] / row[b][key]));
  const tally = (mode) =>
    rows.reduce(
      (sum, row) => ({
        ok: sum.ok + row[mode].tally.ok,
        lost: sum.lost + row[mode].tally.lost,
        duplicated: sum.duplicated + row[mode].tally.duplicated,
        corrupted: sum.corrupted + row[mode].tally.corrupted,
      }),
      { ok: 0, lost: 0, duplicated: 0, corrupted: 0 },
    );
  return { of, ratio, tally };
}

// ---- the profile summary --------------------------------------------------------------------
/** The group a source belongs to: a library folder, rxjs, the example, or a part of Node. */
function groupOf(source, url, name) {
  if (name.startsWith('(')) return name; // (garbage collector), (program), (idle)
  if (source !== undefined) {
    const rel = source.replace(/^.*?\/(src|examples|node_modules|bench)\//, '$1/');
    if (rel.startsWith('src/')) {
      const parts = rel.split('/');
      return parts.length > 2 ? `library ${parts.slice(0, parts[1] === 'providers' ? 3 : 2).join('/')}` : `library ${rel}`;
    }
    if (rel.startsWith('node_modules/rxjs')) return 'rxjs';
    if (rel.startsWith('examples/gateway')) return 'the gateway example';
    if (rel.startsWith('bench/')) return 'the gateway example (bench child)';
    return rel;
  }
  if (url.includes('undici')) return 'node: undici (fetch)';
  if (/node:_http|node:http/.test(url)) return 'node: http';
  if (/node:net|node:internal\/(stream_base|net)/.test(url)) return 'node: net';
  if (url.includes('node:internal/streams') || url.includes('webstreams')) return 'node: streams';
  if (url === '') return 'node: native';
  return 'node: other';
}

/** Self time (µs) by group and by function of the profile in `dir`, its sources mapped through the bundle's source map. */
function readProfile(dir, bundle) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  const prof = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  const map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')));
  const bundleUrl = `file://${bundle}`;
  const interval = (prof.endTime - prof.startTime) / prof.samples.length;
  const groups = new Map();
  const functions = new Map();
  for (const node of prof.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const self = node.hitCount * interval;
    if (self === 0 || functionName === '(idle)') continue;
    let source;
    let line = lineNumber + 1;
    if (url === bundleUrl && lineNumber >= 0) {
      const entry = map.findEntry(lineNumber, columnNumber);
      if (entry?.originalSource !== undefined) {
        source = entry.originalSource;
        line = entry.originalLine + 1;
      }
    }
    const group = groupOf(source, url, functionName);
    groups.set(group, (groups.get(group) ?? 0) + self);
    const where = source === undefined ? url.replace(/^node:/, '') : source.replace(/^.*?\/(src|examples|node_modules|bench)\//, '$1/');
    const key = `${functionName || '(anonymous)'} — ${where}:${line}`;
    functions.set(key, (functions.get(key) ?? 0) + self);
  }
  return { groups, functions };
}

/** The two profiles side by side, in µs of CPU per stream. */
function summarise(gatewayProfile, proxyProfile, streams) {
  const us = (v) => (v === undefined ? '–' : (v / streams).toFixed(0));
  const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
  const lines = [
    '',
    `Where the CPU goes, µs per stream (${streams} streams: ${profileStreams} paced × ${rounds} rounds per target, under --cpu-prof; idle excluded). Totals: gateway ${us(sum(gatewayProfile.groups))}, pass-through ${us(sum(proxyProfile.groups))}.`,
    '',
    '| where | gateway | pass-through | difference |',
    '|---|---:|---:|---:|',
  ];
  const names = new Set([...gatewayProfile.groups.keys(), ...proxyProfile.groups.keys()]);
  const rows = [...names].map((name) => [name, gatewayProfile.groups.get(name) ?? 0, proxyProfile.groups.get(name) ?? 0]).sort((a, b) => b[1] - b[2] - (a[1] - a[2]));
  for (const [name, g, p] of rows) lines.push(`| ${name} | ${us(g)} | ${us(p)} | ${((g - p) / streams).toFixed(0)} |`);
  lines.push('', '| gateway function (top 30 by self time) | µs per stream | pass-through |', '|---|---:|---:|');
  for (const [key, self] of [...gatewayProfile.functions].sort((a, b) => b[1] - a[1]).slice(0, 30))
    lines.push(`| ${key.replace(/\|/g, '\\|')} | ${us(self)} | ${us(proxyProfile.functions.get(key))} |`);
  return lines.join('\n');
}

// ---- the run --------------------------------------------------------------------------------
const bundle = await bundleChild();
const upstream = await startUpstream();
const loadBefore = os.loadavg()[0];
const gateway = await startTarget(bundle, 'gateway', upstream.origin);
const proxy = await startTarget(bundle, 'proxy', upstream.origin);
const handWritten = await startTarget(bundle, 'hand-written', upstream.origin);
const targets = [gateway, proxy, handWritten];
const table = [];
for (const n of sizes) {
  log(`${n} streams, paced (${gapMs} ms):`);
  const paced = await pairedRounds(targets, upstream, n, gapMs);
  log(`${n} streams, flood:`);
  const flood = await pairedRounds(targets, upstream, n, 0);
  table.push({ n, paced, flood });
}
await Promise.all(targets.map((target) => target.stop()));

const x = (v) => `${v.toFixed(2)}×`;
const lines = [
  `Gateway vs pass-through, ${rounds} rounds per row, the three targets in rotating order (median of per-round ratios); Node ${process.version}, ${os.cpus().length} cores, load ${loadBefore.toFixed(2)} → ${os.loadavg()[0].toFixed(2)}.`,
  '"Hand-written" is the same Anthropic → OpenAI chat translation written by hand for this one stream shape, with no library, checks, log line, usage or cost (`handWritten` in bench/gateway-child.mjs): the floor of any gateway that reads what it relays.',
  '',
  '| streams | scenario | measure | gateway | pass-through | hand-written | gateway ÷ pass-through | hand-written ÷ pass-through | gateway ÷ hand-written | goal |',
  '|---:|---|---|---:|---:|---:|---:|---:|---:|---|',
];
for (const { n, paced, flood } of table) {
  const goal = (ok, text) => `${text} ${ok ? '✓' : '✗'}`;
  lines.push(
    `| ${n} | paced ${gapMs} ms | CPU per stream (µs) | ${paced.of('gateway', 'cpuUs').toFixed(0)} | ${paced.of('proxy', 'cpuUs').toFixed(0)} | ${paced.of('hand-written', 'cpuUs').toFixed(0)} | ${x(paced.ratio('cpuUs'))} | ${x(paced.ratio('cpuUs', 'hand-written', 'proxy'))} | ${x(paced.ratio('cpuUs', 'gateway', 'hand-written'))} | ${goal(paced.ratio('cpuUs') <= 1.15, '≤ 1.15×')} |`,
    `| ${n} | paced ${gapMs} ms | first tool-argument byte, upstream → client, p50 (ms) | ${paced.of('gateway', 'p50').toFixed(2)} | ${paced.of('proxy', 'p50').toFixed(2)} | ${paced.of('hand-written', 'p50').toFixed(2)} | ${x(paced.ratio('p50'))} | ${x(paced.ratio('p50', 'hand-written', 'proxy'))} | ${x(paced.ratio('p50', 'gateway', 'hand-written'))} | ${n >= 1000 ? goal(paced.ratio('p50') <= 1.5, '≤ 1.5×') : '(≤ 1.5× at 1,000)'} |`,
    `| ${n} | paced ${gapMs} ms | … p99 (ms) | ${paced.of('gateway', 'p99').toFixed(2)} | ${paced.of('proxy', 'p99').toFixed(2)} | ${paced.of('hand-written', 'p99').toFixed(2)} | ${x(paced.ratio('p99'))} | ${x(paced.ratio('p99', 'hand-written', 'proxy'))} | ${x(paced.ratio('p99', 'gateway', 'hand-written'))} |  |`,
    `| ${n} | flood | CPU per stream (µs) | ${flood.of('gateway', 'cpuUs').toFixed(0)} | ${flood.of('proxy', 'cpuUs').toFixed(0)} | ${flood.of('hand-written', 'cpuUs').toFixed(0)} | ${x(flood.ratio('cpuUs'))} | ${x(flood.ratio('cpuUs', 'hand-written', 'proxy'))} | ${x(flood.ratio('cpuUs', 'gateway', 'hand-written'))} | ${goal(flood.ratio('cpuUs') <= 1.15, '≤ 1.15×')} |`,
    `| ${n} | flood | throughput (streams/s) | ${flood.of('gateway', 'throughput').toFixed(0)} | ${flood.of('proxy', 'throughput').toFixed(0)} | ${flood.of('hand-written', 'throughput').toFixed(0)} | ${x(flood.ratio('throughput'))} | ${x(flood.ratio('throughput', 'hand-written', 'proxy'))} | ${x(flood.ratio('throughput', 'gateway', 'hand-written'))} | ${goal(flood.ratio('throughput') >= 0.95, '≥ 0.95×')} |`,
  );
  for (const [name, run] of [
    ['paced', paced],
    ['flood', flood],
  ]) {
    const [g, p, h] = ['gateway', 'proxy', 'hand-written'].map((mode) => run.tally(mode));
    const clean = [g, p, h].every((t) => t.lost + t.duplicated + t.corrupted === 0);
    const cell = (t) => `${t.ok} / ${t.lost} / ${t.duplicated} / ${t.corrupted}`;
    lines.push(`| ${n} | ${name} | calls exact / lost / duplicated / corrupted | ${cell(g)} | ${cell(p)} | ${cell(h)} | | | | ${goal(clean, 'none lost, duplicated or corrupted')} |`);
  }
}
console.log(lines.join('\n'));
if (!argv.includes('--no-write')) log(`wrote ${writeSection('gateway', `Command: \`node bench/gateway.mjs${argv.length > 0 ? ` ${argv.join(' ')}` : ''}\`.\n\n${lines.join('\n')}`).join(', ')}`);

if (profile) {
  const dirs = { gateway: path.join(OUT, 'gateway-profile'), proxy: path.join(OUT, 'proxy-profile') };
  for (const dir of Object.values(dirs)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  log(`profile: ${profileStreams} paced streams × ${rounds} rounds through each target`);
  const profiled = [
    await startTarget(bundle, 'gateway', upstream.origin, ['--cpu-prof', '--cpu-prof-dir', dirs.gateway]),
    await startTarget(bundle, 'proxy', upstream.origin, ['--cpu-prof', '--cpu-prof-dir', dirs.proxy]),
  ];
  for (const target of profiled) await round(target, upstream, profileStreams, gapMs);
  for (let r = 0; r < rounds; r++) for (const target of r % 2 === 0 ? profiled : [...profiled].reverse()) await round(target, upstream, profileStreams, gapMs);
  await Promise.all(profiled.map((target) => target.stop()));
  // The untimed first round is in the profile too.
  console.log(summarise(readProfile(dirs.gateway, bundle), readProfile(dirs.proxy, bundle), profileStreams * (rounds + 1)));
}
upstream.server.closeAllConnections();
upstream.server.close();
