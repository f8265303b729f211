// Many calls open at once: the composed card (`decodeSse()` → `openaiChat()` → `toolCalls()`)
// against the fused `readToolCalls()`, on one build, as the number of open calls grows. A chat
// stream opens n calls (one fragment each, interleaved by index), then finishes; every call is
// open until the terminator closes them all. Linear operators take about 4× as long for 4× the
// calls; `groupBy` + `mergeMap` (one group per call) pay O(n) to close each group.
//
//   node --expose-gc bench/open-calls.mjs [--dist DIR] [--base DIR] [--runs N] [--write]
//
// --dist: the checkout whose dist/ is measured (default this one); --base: another checkout's dist/
// measured the same way, in the same process, for a before/after row. --no-write: print only (else
// the section of docs/benchmarks.md, bench/results/open-calls.md, is written).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { from, mergeMap, filter, map } from 'rxjs';
import { writeSection } from './page.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const runs = Number(flag('--runs') ?? 5);
const SIZES = [1000, 4000, 16000, 64000];

/** A chat stream that opens n calls, then finishes: every call closes at `[DONE]`. */
function wire(n) {
  const chunks = [];
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: 'chatcmpl-open', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  for (let i = 0; i < n; i++) chunks.push(chunk({ tool_calls: [{ index: i, id: `call_${i}`, type: 'function', function: { name: 'f', arguments: `{"i":${i}}` } }] }));
  chunks.push(chunk({}, 'tool_calls'), 'data: [DONE]\n\n');
  return chunks;
}

/** The ways of reading one stream, for a build. */
function readers(lib) {
  const options = { maxToolCalls: Infinity };
  return {
    'readToolCalls() (fused)': (chunks) => from(chunks).pipe(lib.readToolCalls({ provider: 'openai-chat', ...options })),
    'decodeSse() → openaiChat() → toolCalls()': (chunks) => from(chunks).pipe(lib.decodeSse(), lib.openaiChat(), lib.toolCalls(options)),
    'groupToolCalls() → mergeMap (a group per call)': (chunks) =>
      from(chunks).pipe(
        lib.decodeSse(),
        lib.openaiChat(),
        lib.groupToolCalls(options),
        mergeMap((call$) => call$.pipe(filter((u) => u.result !== undefined))),
        map((u) => u.result),
      ),
  };
}

/** The median ms of reading `chunks` with `read`, checking that every call came out. */
function time(read, chunks, n) {
  const times = [];
  for (let r = 0; r < runs + 1; r++) {
    globalThis.gc?.();
    let count = 0;
    const start = performance.now();
    read(chunks).subscribe({ next: () => count++ });
    const ms = performance.now() - start;
    if (count !== n) throw new Error(`expected ${n} results, got ${count}`);
    if (r > 0) times.push(ms); // the first run warms up
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const builds = [['this build', path.resolve(flag('--dist') ?? root)]];
if (flag('--base') !== undefined) builds.push(['base', path.resolve(flag('--base'))]);
const rows = [];
for (const [label, dir] of builds) {
  const lib = await import(pathToFileURL(path.join(dir, 'dist/index.js')).href);
  for (const [reader, read] of Object.entries(readers(lib))) {
    const cells = [];
    for (const n of SIZES) cells.push(time(read, wire(n), n));
    rows.push({ label, reader, cells });
    console.log(`${label.padEnd(10)} ${reader.padEnd(48)} ${cells.map((ms) => ms.toFixed(1).padStart(9)).join(' ')} ms   64k ÷ 16k: ${(cells[3] / cells[2]).toFixed(1)}`);
  }
}

if (!args.includes('--no-write')) {
  const fused = rows.find((r) => r.label === 'this build' && r.reader.startsWith('readToolCalls'));
  const lines = [
    `Command: \`node --expose-gc bench/open-calls.mjs${flag('--base') === undefined ? '' : ' --base DIR'} --runs ${runs}\` (Node ${process.version}). Median ms of ${runs} runs after one warm-up; every call is open until \`[DONE]\`. "base" is the build given with \`--base\`, measured in the same process.`,
    '',
    `| build | reader | ${SIZES.map((n) => `${n.toLocaleString('en')} calls`).join(' | ')} | at 64,000 ÷ fused |`,
    `| --- | --- | ${SIZES.map(() => '---:').join(' | ')} | ---: |`,
    ...rows.map((r) => `| ${r.label} | ${r.reader} | ${r.cells.map((ms) => ms.toFixed(1)).join(' | ')} | ${(r.cells[3] / fused.cells[3]).toFixed(2)} |`),
    '',
  ];
  writeSection('open-calls', lines.join('\n'));
}
