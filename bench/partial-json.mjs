// Benchmark of the streaming partial-JSON parser: `node --expose-gc bench/partial-json.mjs`.
//
// Tool-call arguments arrive in 1–8 character fragments (seeded: see partial-json-data.mjs): a
// realistic "report" document of about 10 KB, 100 KB and 1 MB, and four adversarial shapes: a
// 160,000-element array, a 50,000-key object, a 1 MB string and 100,000-deep nesting. We time
// pushing every fragment AND reading the partial value after every fragment, in both snapshot
// modes, against the floor: appending the fragments and parsing the whole text once with
// JSON.parse (what any consumer that wants the arguments does, with no partial values at all).
// For the documents, also against re-parsing the accumulated text with the `partial-json`
// package after every fragment. Writes its section of docs/benchmarks.md (bench/results/partial-json.md;
// `--no-write`: print only).
import { build } from 'esbuild';
import os from 'node:os';
import v8 from 'node:v8';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as partialJsonParse, Allow } from 'partial-json';
import { sectionLink, writeSection } from './page.mjs';
import { argumentsText, deepText, fragments, longStringText, sameJson, wideArrayText, wideObjectText } from './partial-json-data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, '.bench-out', 'partialJson.mjs');
await build({ entryPoints: [join(root, 'src/parse/partialJson.ts')], bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile, logLevel: 'warning' });
const { PartialJsonParser } = await import(pathToFileURL(outfile).href);

const ROWS = [
  { label: '10 KB document', text: () => argumentsText(10_000), reparse: true },
  { label: '100 KB document', text: () => argumentsText(100_000), reparse: true },
  { label: '1 MB document', text: () => argumentsText(1_000_000), reparse: true },
  { label: '160,000-element array', text: () => wideArrayText(160_000) },
  { label: '50,000-key object', text: () => wideObjectText(50_000) },
  { label: '1 MB string', text: () => longStringText(1_000_000) },
  { label: '100,000-deep nesting', text: () => deepText(100_000) },
];
/** partial-json re-parses are sampled above this many fragments (the cost is extrapolated). */
const FULL_REPARSE_LIMIT = 5_000;
const REPARSE_SAMPLES = 300;
/** A run that takes longer than this is stopped (the quadratic cases of older versions). */
const DEADLINE_MS = 20_000;

const gc = globalThis.gc ?? (() => {});

class Timeout extends Error {
  constructor(done) {
    super('deadline');
    this.done = done;
  }
}

/** Median and best of `runs` timed runs after a warm-up, each after a full GC unless `collect` is false; fewer runs when one is slow. */
function measure(fn, collect = true) {
  const t0 = performance.now();
  fn(); // warm up
  const first = performance.now() - t0;
  const runs = first > 2_000 ? 1 : first > 200 ? 3 : first > 20 ? 7 : 15;
  const times = [];
  for (let i = 0; i < runs; i++) {
    if (collect) gc();
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], best: times[0] };
}

/** Heap bytes that one value made by `make` holds: 5 kept alive, after full GCs, per value. */
function heldPerValue(make) {
  const used = () => {
    gc();
    gc();
    return v8.getHeapStatistics().used_heap_size;
  };
  const kept = [];
  const before = used();
  for (let i = 0; i < 5; i++) kept.push(make());
  return (used() - before) / kept.length;
}

/** Push every fragment and read the value after each (what partialToolCalls() does); the final value with `final`. */
function ours(frags, snapshots, read = true, final = false) {
  const parser = new PartialJsonParser({ snapshots });
  const started = performance.now();
  let seen = 0;
  for (let i = 0; i < frags.length; i++) {
    parser.push(frags[i]);
    if (read && parser.value !== undefined) seen++;
    if ((i & 1023) === 0 && performance.now() - started > DEADLINE_MS) throw new Timeout(i / frags.length);
  }
  const value = parser.end();
  return final ? value : seen;
}

/** The floor, live and immutable, back to back with no forced GC (a process that keeps parsing): medians, or undefined when a run passed the deadline. */
function timedSteady(frags) {
  try {
    const floor = measure(() => {
      let acc = '';
      for (const fragment of frags) acc += fragment;
      return JSON.parse(acc);
    }, false);
    return { floor, live: measure(() => ours(frags, 'live'), false), immutable: measure(() => ours(frags, 'immutable'), false) };
  } catch (error) {
    if (error instanceof Timeout) return undefined;
    throw error;
  }
}

/** `measure(fn)`, or the fraction of the fragments done when one run passed the deadline. */
function timed(fn) {
  try {
    return measure(fn);
  } catch (error) {
    if (error instanceof Timeout) return { timeout: error.done };
    throw error;
  }
}

function reparse(frags) {
  if (frags.length <= FULL_REPARSE_LIMIT) {
    const { median } = measure(() => {
      let text = '';
      for (const fragment of frags) {
        text += fragment;
        partialJsonParse(text, Allow.ALL);
      }
    });
    return { ms: median, sampled: false };
  }
  // Time REPARSE_SAMPLES re-parses at evenly spaced fragment counts; the full cost is their mean
  // times the number of fragments (re-parse cost grows linearly with the prefix).
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
  const { median } = measure(() => {
    for (const prefix of prefixes) partialJsonParse(prefix, Allow.ALL);
  });
  return { ms: (median / prefixes.length) * frags.length, sampled: true };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const rows = [];
for (const row of ROWS) {
  const text = row.text();
  const frags = fragments(text);
  const check = new PartialJsonParser();
  for (const f of frags) check.push(f);
  if (!sameJson(check.end(), JSON.parse(text))) throw new Error(`mismatch at ${row.label}`);
  const floor = measure(() => {
    let acc = '';
    for (const fragment of frags) acc += fragment;
    return JSON.parse(acc);
  });
  const live = timed(() => ours(frags, 'live'));
  const immutable = timed(() => ours(frags, 'immutable'));
  const pushOnly = timed(() => ours(frags, 'live', false));
  const re = row.reparse ? reparse(frags) : undefined;
  const steady = timedSteady(frags);
  const heap = { ours: heldPerValue(() => ours(frags, 'live', false, true)), json: heldPerValue(() => JSON.parse(text)) };
  rows.push({ label: row.label, chars: text.length, fragments: frags.length, floor, live, immutable, pushOnly, re, heap, steady });
  console.error(`${row.label}: done`);
}

const mb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(0)} KB`);
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
/** "median ms (× base); best ms (× base)", or the deadline note. */
function cell(m, base) {
  if (m.timeout !== undefined) return `> ${DEADLINE_MS / 1000} s (stopped after ${(m.timeout * 100).toFixed(0)}% of the fragments)`;
  return `${fmt(m.median)} ms (**${ratio(m.median, base.median)}**); best ${fmt(m.best)} ms (${ratio(m.best, base.best)})`;
}
/** Goal check on best times (the least disturbed by other processes). */
function goal(m, base, limit) {
  if (m.timeout !== undefined) return '✗';
  return m.best / base.best <= limit ? '✓' : '✗';
}
const lines = [
  '| arguments | fragments | floor: append + one `JSON.parse` | live tree (push + read each) | immutable snapshots (push + read each) | immutable ÷ live (best) | push only | `partial-json` re-parse each fragment | heap held by the final value (of `JSON.parse`) | no forced GC: live / immutable (medians) |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map((r) => {
    const immLive =
      r.immutable.timeout === undefined && r.live.timeout === undefined
        ? `${ratio(r.immutable.best, r.live.best)} ${r.label.endsWith('document') ? goal(r.immutable, r.floor, 2) + ' (≤ 2× floor)' : goal(r.immutable, r.live, 2)}`
        : '—';
    return `| ${r.label} (${r.chars.toLocaleString('en')} chars) | ${r.fragments.toLocaleString('en')} | ${fmt(r.floor.median)} ms; best ${fmt(r.floor.best)} ms | ${cell(r.live, r.floor)} ${goal(r.live, r.floor, 1.5)} | ${cell(r.immutable, r.floor)} | ${immLive} | ${cell(r.pushOnly, r.floor)} | ${r.re === undefined ? '—' : `${fmt(r.re.ms)} ms (${ratio(r.re.ms, r.floor.median)})${r.re.sampled ? `, extrapolated from ${REPARSE_SAMPLES} sampled re-parses` : ''}`} | ${mb(r.heap.ours)} (${mb(r.heap.json)}) | ${r.steady === undefined ? '—' : `${ratio(r.steady.live.median, r.steady.floor.median)} / ${ratio(r.steady.immutable.median, r.steady.floor.median)}`} |`;
  }),
];
const cpus = os.cpus();
const machine = `Node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores`;
const markdown = `Command: \`node --expose-gc bench/partial-json.mjs\` (builds the source with esbuild into \`.bench-out/\`). ${machine}.

Arguments, cut into 1–8 character fragments (seeded): a "report" tool call (scalars, nested
objects, small arrays, a numeric table and long section bodies with escapes, non-ASCII and astral
characters, pretty-printed) of about 10 KB, 100 KB and 1 MB; and four adversarial shapes: \`{"rows": [...]}\`
with 160,000 numbers, an object of 50,000 keys, \`{"content": "…"}\` with a 1 MB string, and
\`[\` × 100,000 then \`]\` × 100,000 (default \`maxPartialDepth\`, 256). "push + read each" pushes every
fragment and reads \`parser.value\` after every one, as \`partialToolCalls()\` does.

**The floor** is appending every fragment to a string and parsing the whole text once with
\`JSON.parse\`: the least any consumer of streamed arguments does, with no partial values. Ratios
are against it (median against median, best against best). Goals (on best times): live ≤ 1.5× the
floor; immutable ≤ 2× live for the four shapes, ≤ 2× the floor for the documents. The next-to-last column is
the heap one final value holds (five kept alive, after full GCs), against that of \`JSON.parse\` on
the same text; the last one runs the floor, live and immutable again back to back with no forced
GC, as a process that keeps parsing does (a full GC throws away optimised code whose object shapes
died, which costs this parser more than the native \`JSON.parse\`). How fast JavaScript can parse these texts at all, whole and with no partial values:
${sectionLink('partial-bound')}.

${lines.join('\n')}

Load average while running: ${os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(', ')} (other processes share the machine: medians are noisy).
`;
console.log(markdown);
if (!process.argv.includes('--no-write')) console.log(`wrote ${writeSection('partial-json', markdown).join(', ')}`);
