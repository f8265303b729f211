// Partial tool-call arguments from the bytes: `node --expose-gc bench/partial-wire.mjs`.
//
// The arguments of bench/partial-json.mjs (the 10 KB / 100 KB / 1 MB "report" documents and the
// four adversarial shapes) as one tool call of an OpenAI Chat Completions stream, one `data:`
// chunk per 1–8 character argument fragment (bench/scenario-wire.mjs), in network chunks of
// 1–16,384 bytes. Readers, each from the same bytes:
//   - the floor of `npm run bench` (bench/impl/floor.mjs): streaming TextDecoder, split on blank
//     lines, JSON.parse of each event, append the arguments per call index, one JSON.parse per call
//     at the end — no partial values;
//   - `readStreamEvents({ provider: 'openai-chat' })` then `partialToolCalls()`, live and immutable
//     snapshots, every partial value consumed (as a UI does);
//   - `readToolCalls({ provider: 'openai-chat' })` (no partial values), for reference.
// Writes its section of docs/benchmarks.md (bench/results/partial-wire.md; `--no-write`: print
// only). The parser alone against append + one JSON.parse (no decoding in the floor): bench/partial-json.mjs.
import { loadSource } from './load-source.mjs';
import os from 'node:os';
import { eachData } from './impl/floor.mjs';
import { readCalls } from './impl/calls.mjs';
import { argumentsText, deepText, fragments, longStringText, sameJson, wideArrayText, wideObjectText } from './partial-json-data.mjs';
import { openaiChatSse } from './scenario-wire.mjs';
import { createRng, rechunk } from './scenarios.mjs';
import { measureAll, pairedRatio } from './interleaved.mjs';
import { sectionLink, writeSection } from './page.mjs';

const { partialToolCalls, readStreamEvents, readToolCalls, from } = await loadSource(
  'partialWire',
  "export { partialToolCalls, readStreamEvents, readToolCalls } from './src/index.ts';\nexport { from } from 'rxjs';\n",
);

const ROWS = [
  { label: '10 KB document', text: () => argumentsText(10_000) },
  { label: '100 KB document', text: () => argumentsText(100_000) },
  { label: '1 MB document', text: () => argumentsText(1_000_000) },
  { label: '160,000-element array', text: () => wideArrayText(160_000) },
  { label: '50,000-key object', text: () => wideObjectText(50_000) },
  { label: '1 MB string', text: () => longStringText(1_000_000) },
  { label: '100,000-deep nesting', text: () => deepText(100_000) },
];
const PROVIDER = { provider: 'openai-chat' };

/** The stream's bytes: one call whose arguments arrive as `frags`. */
function wire(frags, seed) {
  const sse = openaiChatSse(createRng(seed), [{ id: 'call_bench', name: 'write_report', fragments: frags }], { interleave: false });
  return rechunk(new TextEncoder().encode(sse), createRng(seed + 1));
}

function floor(chunks) {
  return readCalls(chunks, 'openai-chat', eachData)[0].arguments;
}

/** Every partial value of the call consumed; the final arguments returned. */
function partial(chunks, snapshots) {
  let last;
  let values = 0;
  from(chunks)
    .pipe(readStreamEvents(PROVIDER), partialToolCalls({ snapshots }))
    .subscribe((p) => {
      values++;
      last = p;
    });
  if (!last?.result?.success) throw new Error('partialToolCalls() did not read the call');
  return { value: last.result.data.arguments, values };
}

function results(chunks) {
  let value;
  from(chunks)
    .pipe(readToolCalls(PROVIDER))
    .subscribe((r) => {
      if (!r.success) throw r.error;
      value = r.data.arguments;
    });
  return value;
}

const rows = [];
for (const [n, row] of ROWS.entries()) {
  const text = row.text();
  const chunks = wire(fragments(text), 20251201 + n);
  const bytes = chunks.reduce((sum, c) => sum + c.length, 0);
  const expected = JSON.parse(text);
  const live = partial(chunks, 'live');
  const immutable = partial(chunks, 'immutable');
  for (const value of [floor(chunks), live.value, immutable.value, results(chunks)]) if (!sameJson(value, expected)) throw new Error(`mismatch at ${row.label}`);
  const readers = {
    floor: () => floor(chunks),
    live: () => partial(chunks, 'live'),
    immutable: () => partial(chunks, 'immutable'),
    results: () => results(chunks),
  };
  const m = await measureAll(readers, true);
  const steady = await measureAll(readers, false);
  rows.push({ label: row.label, chars: text.length, bytes, values: { live: live.values, immutable: immutable.values }, m, steady });
  console.error(`${row.label}: done`);
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const mb = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(0)} KB`);
/** "median ms (× floor); best ms (× floor)". */
const cell = (r, key, pass) => `${fmt(r[pass][key].median)} ms (**${ratio(r[pass][key].median, r[pass].floor.median)}**); best ${ratio(r[pass][key].best, r[pass].floor.best)}`;
/** The paired ratio (median over rounds of the per-round ratio) of `key` to `base` in `pass`. */
const paired = (r, key, base, pass) => pairedRatio(r[pass][key], r[pass][base]);
/** Goal marks on the paired ratios of both passes: live ≤ 1.5× the floor; immutable ≤ 2× live. */
const liveGoal = (r) => (paired(r, 'live', 'floor', 'm') <= 1.5 && paired(r, 'live', 'floor', 'steady') <= 1.5 ? '✓' : '✗');
const immutableGoal = (r) => (paired(r, 'immutable', 'live', 'm') <= 2 && paired(r, 'immutable', 'live', 'steady') <= 2 ? '✓' : '✗');
const lines = [
  '| arguments | SSE bytes | partial values (live / immutable) | floor, `gc()` before each run | `partialToolCalls()` live | immutable | `readToolCalls()` | no forced GC: floor | live | immutable | `readToolCalls()` | live ÷ floor, paired (gc / steady) | immutable ÷ live, paired (gc / steady) | live ≤ 1.5× floor | immutable ≤ 2× live |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | :---: |',
  ...rows.map(
    (r) =>
      `| ${r.label} (${r.chars.toLocaleString('en')} chars) | ${mb(r.bytes)} | ${r.values.live.toLocaleString('en')} / ${r.values.immutable.toLocaleString('en')} | ${fmt(r.m.floor.median)} ms; best ${fmt(r.m.floor.best)} | ${cell(r, 'live', 'm')} | ${cell(r, 'immutable', 'm')} | ${cell(r, 'results', 'm')} | ${fmt(r.steady.floor.median)} ms; best ${fmt(r.steady.floor.best)} | ${cell(r, 'live', 'steady')} | ${cell(r, 'immutable', 'steady')} | ${cell(r, 'results', 'steady')} | ${paired(r, 'live', 'floor', 'm').toFixed(2)}× / ${paired(r, 'live', 'floor', 'steady').toFixed(2)}× | ${paired(r, 'immutable', 'live', 'm').toFixed(2)}× / ${paired(r, 'immutable', 'live', 'steady').toFixed(2)}× | ${liveGoal(r)} | ${immutableGoal(r)} |`,
  ),
];
const cpus = os.cpus();
const markdown = `Command: \`node --expose-gc bench/partial-wire.mjs\` (builds the source with esbuild into \`.bench-out/\`). Node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores.

The arguments of ${sectionLink('partial-json')} (the "report" documents and the four
adversarial shapes) as one tool call of an OpenAI Chat Completions stream: one \`data:\` chunk per
1–8 character argument fragment, as the API sends them, in network chunks of 1–16,384 bytes.
**The floor** is the hand-written loop of \`npm run bench\` (bench/impl/floor.mjs): streaming
\`TextDecoder\`, split on blank lines, \`JSON.parse\` of each event, append the arguments per call
index, one \`JSON.parse\` at the end, no partial values. Each reader is warmed up, then the event loop
turns once (as a process has between streams), then the readers run in rounds, one run of each per
round in a rotating order, so that the machine's drifting speed weighs on all of them alike. Ours: \`readStreamEvents({ provider:
'openai-chat' })\` then \`partialToolCalls({ snapshots })\`, every partial value consumed; and
\`readToolCalls()\` (results only) for reference. Ratios: median ÷ the floor's median (best ÷ best)
in the same pass. The goals (live ≤ 1.5× the floor, immutable ≤ 2× live) are
marked on paired ratios: in each round, the reader's time ÷ the floor's (or live's) time in the same
round, the median over rounds (bench/interleaved.mjs), in both passes. The machine's speed drifts by
up to 2× over minutes; a paired ratio cancels the drift that separate medians or bests do not.

${lines.join('\n')}

Load average: ${os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(', ')} (the machine is shared: medians are noisy).
`;
console.log(markdown);
if (!process.argv.includes('--no-write')) console.log(`wrote ${writeSection('partial-wire', markdown).join(', ')}`);
