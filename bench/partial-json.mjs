// Benchmark of the streaming partial-JSON parser: `node bench/partial-json.mjs`.
//
// Tool-call arguments of about 10 KB, 100 KB and 1 MB (seeded: see partial-json-data.mjs) arrive
// in 1–8 character fragments. We time pushing every fragment AND reading the partial value after
// every fragment, against one JSON.parse of the whole text, and against re-parsing the accumulated
// text with the `partial-json` package after every fragment. Writes BENCHMARKS-partial.md.
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as partialJsonParse, Allow } from 'partial-json';
import { argumentsText, fragments } from './partial-json-data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, '.bench-out', 'partialJson.mjs');
await build({ entryPoints: [join(root, 'src/parse/partialJson.ts')], bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile, logLevel: 'warning' });
const { PartialJsonParser } = await import(pathToFileURL(outfile).href);

const SIZES = [
  ['10 KB', 10_000],
  ['100 KB', 100_000],
  ['1 MB', 1_000_000],
];
/** partial-json re-parses are sampled above this many fragments (the cost is extrapolated). */
const FULL_REPARSE_LIMIT = 5_000;
const REPARSE_SAMPLES = 300;

const gc = globalThis.gc ?? (() => {});
const best = new Map();
function median(fn, runs) {
  fn(); // warm up
  const times = [];
  for (let i = 0; i < runs; i++) {
    gc();
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  best.set(fn, times[0]);
  return times[Math.floor(times.length / 2)];
}

function ours(frags, snapshots) {
  const parser = new PartialJsonParser({ snapshots });
  let seen = 0;
  for (const fragment of frags) {
    parser.push(fragment);
    if (parser.value !== undefined) seen++;
  }
  parser.end();
  return seen;
}

function reparse(frags) {
  if (frags.length <= FULL_REPARSE_LIMIT) {
    const ms = median(() => {
      let text = '';
      for (const fragment of frags) {
        text += fragment;
        partialJsonParse(text, Allow.ALL);
      }
    }, 3);
    return { ms, sampled: false };
  }
  // Time REPARSE_SAMPLES re-parses at evenly spaced fragment counts; the full cost is their mean
  // times the number of fragments (re-parse cost grows linearly with the prefix, so evenly spaced
  // samples give an unbiased mean).
  const prefixes = [];
  let text = '';
  const step = frags.length / REPARSE_SAMPLES;
  let next = step / 2;
  frags.forEach((fragment, i) => {
    text += fragment;
    if (i >= next) {
      prefixes.push(text);
      next += step;
    }
  });
  const ms = median(() => {
    for (const prefix of prefixes) partialJsonParse(prefix, Allow.ALL);
  }, 3);
  return { ms: (ms / prefixes.length) * frags.length, sampled: true };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const rows = [];
for (const [label, chars] of SIZES) {
  const text = argumentsText(chars);
  const frags = fragments(text);
  const check = new PartialJsonParser();
  for (const f of frags) check.push(f);
  if (JSON.stringify(check.end()) !== JSON.stringify(JSON.parse(text))) throw new Error(`mismatch at ${label}`);
  const runs = chars >= 1_000_000 ? 7 : 15;
  const fJson = () => JSON.parse(text);
  const fImm = () => ours(frags, 'immutable');
  const fLive = () => ours(frags, 'live');
  const fPush = () => {
    const parser = new PartialJsonParser();
    for (const fragment of frags) parser.push(fragment);
    parser.end();
  };
  // The least any streaming consumer does: append every fragment, parse once at the end (no partial values).
  const fConcat = () => {
    let acc = '';
    for (const fragment of frags) acc += fragment;
    return JSON.parse(acc);
  };
  const jsonParse = median(fJson, runs * 3);
  const concat = median(fConcat, runs);
  const immutable = median(fImm, runs);
  const live = median(fLive, runs);
  const pushOnly = median(fPush, runs);
  const bests = { jsonParse: best.get(fJson), concat: best.get(fConcat), immutable: best.get(fImm), live: best.get(fLive), pushOnly: best.get(fPush) };
  const re = reparse(frags);
  rows.push({ label, chars: text.length, fragments: frags.length, jsonParse, concat, immutable, live, pushOnly, re, bests });
  console.error(`${label}: done`);
}

const ratio = (ms, base) => `${(ms / base).toFixed(1)}x`;
const cell = (r, key) => `${fmt(r[key])} ms (${ratio(r[key], r.jsonParse)}); best ${fmt(r.bests[key])} ms (${ratio(r.bests[key], r.bests.jsonParse)})`;
const lines = [
  '| arguments | fragments | one `JSON.parse` | append fragments + one `JSON.parse` (no partial values) | ours, immutable snapshots (push + read each) | ours, live tree (push + read each) | ours, push only | `partial-json` re-parse each fragment |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map((r) =>
    `| ${r.label} (${r.chars.toLocaleString('en')} chars) | ${r.fragments.toLocaleString('en')} | ${fmt(r.jsonParse)} ms; best ${fmt(r.bests.jsonParse)} ms | ${cell(r, 'concat')} | ${cell(r, 'immutable')} | ${cell(r, 'live')} | ${cell(r, 'pushOnly')} | ${fmt(r.re.ms)} ms (${ratio(r.re.ms, r.jsonParse)})${r.re.sampled ? `, extrapolated from ${REPARSE_SAMPLES} sampled re-parses` : ''} |`,
  ),
];
const cpus = os.cpus();
const machine = `Node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores`;
const markdown = `## Streaming partial JSON (\`src/parse/partialJson.ts\`)

Command: \`node bench/partial-json.mjs\` (builds the source with esbuild into \`.bench-out/\`). ${machine}.

Arguments: a seeded "report" tool call (scalars, nested objects, small arrays, a numeric table and
long section bodies with escapes, non-ASCII and astral characters), pretty-printed, cut into 1–8
character fragments (seeded). Times are medians (and the best run); ratios are against one
\`JSON.parse\` of the whole text (median against median, best against best). "push + read each" pushes every fragment and reads \`parser.value\` after every one.

${lines.join('\n')}

Load average while running: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} (other processes share the machine: medians are noisy).
`;
writeFileSync(join(root, 'BENCHMARKS-partial.md'), markdown);
console.log(markdown);
