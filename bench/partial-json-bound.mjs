// A yardstick for the partial-value goals (live values ≤ 1.5× "append the fragments + one
// JSON.parse"): how fast can JavaScript read the same text at all?
//   node --expose-gc bench/partial-json-bound.mjs [runs] [--write]
// `--write` writes its section of docs/benchmarks.md (bench/results/partial-bound.md).
// For each input of bench/partial-json.mjs it times, in one process, interleaved, no forced GC:
//   floor      append the 1–8 character fragments, then one JSON.parse (the goal's reference)
//   JSON.parse JSON.parse of the whole text alone (no appends)
//   scan       a JavaScript loop that reads every character once and tracks strings, escapes and
//              nesting, building nothing (less than any parser written in JavaScript does)
//   JS parse   a whole-text recursive-descent JSON parser in JavaScript (one string, no fragments,
//              no partial values, no state kept between calls), checked against JSON.parse
//   least live (the 1 MB string only) a reader written for exactly `{"key":"…"}` that, after every
//              fragment, appends its decoded text and stores the grown string in the object: the
//              least any reader showing live values does per fragment on that shape
// An incremental parser that shows partial values does at least what "JS parse" does (every
// character, every value built), plus the fragment boundaries and the values. Median and least ms.
import os from 'node:os';
import { argumentsText, deepText, fragments, longStringText, sameJson, wideArrayText, wideObjectText } from './partial-json-data.mjs';
import { jsParse, leastLiveString, scan } from './partial-json-readers.mjs';
import { sectionLink, writeSection } from './page.mjs';

const argv = process.argv.slice(2);
const writeAt = argv.indexOf('--write');
const write = writeAt !== -1;
if (write) argv.splice(writeAt, 1);
const runs = Number(argv[0] ?? 15);

const INPUTS = [
  ['10 KB document', () => argumentsText(10_000)],
  ['100 KB document', () => argumentsText(100_000)],
  ['1 MB document', () => argumentsText(1_000_000)],
  ['160,000-element array', () => wideArrayText(160_000)],
  ['50,000-key object', () => wideObjectText(50_000)],
  ['1 MB string', () => longStringText(1_000_000)],
  ['100,000-deep nesting', () => deepText(100_000)],
];

function floor(frags) {
  let text = '';
  for (const f of frags) text += f;
  return JSON.parse(text);
}

const median = (xs) => [...xs].sort((p, q) => p - q)[xs.length >> 1];
const rows = [];
for (const [label, make] of INPUTS) {
  const text = make();
  const frags = fragments(text);
  if (!sameJson(jsParse(text), JSON.parse(text))) throw new Error(`JS parse differs from JSON.parse on ${label}`);
  const cases = { floor: () => floor(frags), native: () => JSON.parse(text), scan: () => scan(text), js: () => jsParse(text) };
  if (label === '1 MB string') {
    if (!sameJson(leastLiveString(frags), JSON.parse(text))) throw new Error('the least live reader differs from JSON.parse');
    cases.live = () => leastLiveString(frags);
  }
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (const k of Object.keys(cases)) cases[k](); // warm up
  for (let r = 0; r < runs; r++) {
    const order = r % 2 === 0 ? Object.keys(cases) : Object.keys(cases).reverse();
    for (const k of order) {
      const t0 = performance.now();
      cases[k]();
      times[k].push(performance.now() - t0);
    }
  }
  const row = { label, chars: text.length, fragments: frags.length };
  for (const k of Object.keys(cases)) row[k] = { median: median(times[k]), least: Math.min(...times[k]) };
  rows.push(row);
  const f = (k) => `${row[k].median.toFixed(2)} (${row[k].least.toFixed(2)}) ${(row[k].median / row.floor.median).toFixed(2)}×`;
  console.log(`${label}: floor ${f('floor')}, JSON.parse ${f('native')}, scan ${f('scan')}, JS parse ${f('js')}${row.live ? `, least live ${f('live')}` : ''}`);
}

if (write) {
  const cell = (row, k) => `${row[k].median.toFixed(2)} ms (${row[k].least.toFixed(2)}) **${(row[k].median / row.floor.median).toFixed(2)}×**`;
  const lines = [
    `Command: \`node --expose-gc bench/partial-json-bound.mjs ${runs} --write\`. Node ${process.version}, ${os.cpus()[0]?.model.trim() ?? 'cpu'}, ${os.cpus().length} cores; load average (1 min) ${os.loadavg()[0].toFixed(2)} at the end.`,
    '',
    `Same inputs as ${sectionLink('partial-json')}, one process,` +
      " interleaved, no forced GC; median ms (least in brackets), × = median ÷ the floor's median. " +
      '**scan** reads every character once in a JavaScript loop and builds nothing; **JS parse** is a whole-text recursive-descent parser in JavaScript ' +
      '(one string, no fragments, no partial values; checked equal to `JSON.parse`). An incremental parser that shows partial values does at least ' +
      'what JS parse does, plus fragment boundaries and the values it shows. **least live** (1 MB string only) is a reader written for exactly ' +
      '`{"key":"…"}` that appends each fragment\'s decoded text and stores the grown string after every fragment: the least per-fragment work of any reader showing live values there. ' +
      'JS parse and least live move by several tenths between runs (V8 optimises them differently from process to process): run the script more than once before reading much into one figure.',
    '',
    '| arguments | chars | fragments | floor: append + one `JSON.parse` | `JSON.parse` alone | scan (builds nothing) | JS parse (whole text) | least live (shape-specific) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.chars.toLocaleString('en-US')} | ${r.fragments.toLocaleString('en-US')} | ${cell(r, 'floor')} | ${cell(r, 'native')} | ${cell(r, 'scan')} | ${cell(r, 'js')} | ${r.live ? cell(r, 'live') : '—'} |`,
    ),
    '',
  ];
  console.log(`wrote ${writeSection('partial-bound', lines.join('\n')).join(', ')}`);
}
