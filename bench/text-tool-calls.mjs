// Benchmark of `textToolCalls()`: `npm run build && node bench/text-tool-calls.mjs`.
//
// An OpenAI-compatible chat stream (one SSE event per token, as vLLM / Ollama / llama.cpp send
// them) whose tool calls are written as text in `delta.content`, read with
// readStreamEvents() + textToolCalls() + toolCalls(), against the SAME calls sent natively as
// `delta.tool_calls` fragments, read with readStreamEvents() + toolCalls(). Same calls, same
// argument text, same fragment sizes; the ratio is text-embedded / native (median of 7 runs each,
// interleaved, after a warm-up). Reads the BUILT library only (dist/index.js). Writes its section
// of docs/benchmarks.md (bench/results/text.md) unless --no-write.
import { existsSync } from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { writeSection } from './page.mjs';

const DIST = new URL('../dist/index.js', import.meta.url);
if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run `npm run build` first');
const lib = await import(DIST.href);
const { textToolCalls } = await import(new URL('../dist/text.js', import.meta.url).href);
const { from, lastValueFrom, toArray } = await import('rxjs');
const { readStreamEvents, toolCalls } = lib;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const encoder = new TextEncoder();
const RUNS = 7;
const CALLS = 60;
const TOKEN = 4; // characters per token: the size of one content / arguments fragment

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The calls: names and ~1.5 KB of arguments each (strings with escapes and non-ASCII, numbers, nested lists). */
function makeCalls(seed) {
  const rnd = random(seed);
  const words = ['weather', 'Paris', 'São Paulo', 'say "hi"', 'a\\b', 'line\nbreak', '東京', 'x < y', '[draft]', 'ok'];
  const word = () => words[Math.floor(rnd() * words.length)];
  return Array.from({ length: CALLS }, (_, i) => ({
    name: `tool_${i % 7}`,
    args: {
      query: Array.from({ length: 30 }, word).join(' '),
      limit: Math.floor(rnd() * 100),
      ratio: Math.round(rnd() * 1e6) / 1e3,
      tags: Array.from({ length: 12 }, word),
      rows: Array.from({ length: 8 }, (_, r) => ({ id: r, label: word(), score: Math.round(rnd() * 100) / 10, ok: rnd() > 0.5 })),
      note: Array.from({ length: 40 }, word).join(', '),
    },
  }));
}

const tokens = (text) => {
  const out = [];
  for (let i = 0; i < text.length; i += TOKEN) out.push(text.slice(i, i + TOKEN));
  return out;
};
const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1733000000, model: 'bench' };
const event = (delta, finish = null) => encoder.encode(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
const PREAMBLE = "I'll look these up for you, one tool at a time, and then summarise what I find.\n";

/** The text a model writes for the calls, in a syntax. */
function written(calls, syntax) {
  if (syntax === 'hermes') return calls.map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: c.args })}\n</tool_call>\n`).join('');
  // qwen3-coder: each top-level argument as a parameter; non-strings as JSON text, typed back by the schema
  return calls
    .map(
      (c) =>
        `<tool_call>\n<function=${c.name}>\n${Object.entries(c.args)
          .map(([k, v]) => `<parameter=${k}>\n${typeof v === 'string' ? v : JSON.stringify(v)}\n</parameter>\n`)
          .join('')}</function>\n</tool_call>\n`,
    )
    .join('');
}

function textStream(calls, syntax) {
  const chunks = [event({ role: 'assistant', content: '' })];
  for (const t of tokens(PREAMBLE + written(calls, syntax))) chunks.push(event({ content: t }));
  chunks.push(event({}, 'stop'));
  chunks.push(encoder.encode('data: [DONE]\n\n'));
  return chunks;
}

function nativeStream(calls) {
  const chunks = [event({ role: 'assistant', content: '' })];
  for (const t of tokens(PREAMBLE)) chunks.push(event({ content: t }));
  calls.forEach((c, index) => {
    chunks.push(event({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const t of tokens(JSON.stringify(c.args))) chunks.push(event({ tool_calls: [{ index, function: { arguments: t } }] }));
  });
  chunks.push(event({}, 'tool_calls'));
  chunks.push(encoder.encode('data: [DONE]\n\n'));
  return chunks;
}

const SCHEMAS = Object.fromEntries(
  Array.from({ length: 7 }, (_, i) => [
    `tool_${i}`,
    { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' }, ratio: { type: 'number' }, tags: { type: 'array' }, rows: { type: 'array' }, note: { type: 'string' } } },
  ]),
);

const runText = (chunks, syntax) => lastValueFrom(from(chunks).pipe(readStreamEvents(), textToolCalls({ syntaxes: [syntax], tools: SCHEMAS }), toolCalls(), toArray()));
const runNative = (chunks) => lastValueFrom(from(chunks).pipe(readStreamEvents(), toolCalls(), toArray()));

function check(results, calls, label) {
  const got = results.map((r) => (r.success ? { name: r.data.name, args: r.data.arguments } : { error: r.error.code }));
  const want = calls.map((c) => ({ name: c.name, args: c.args }));
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${label}: wrong calls (first: ${JSON.stringify(got[0]).slice(0, 200)})`);
}

async function time(fn) {
  gc();
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const calls = makeCalls(20251130);
const native = nativeStream(calls);
const bytes = (chunks) => chunks.reduce((n, c) => n + c.length, 0);
const rows = [];
for (const syntax of ['hermes', 'qwen3-coder']) {
  const text = textStream(calls, syntax);
  check(await runText(text, syntax), calls, syntax);
  check(await runNative(native), calls, 'native');
  for (let i = 0; i < 2; i++) {
    await runText(text, syntax);
    await runNative(native);
  }
  const t = [];
  const n = [];
  for (let i = 0; i < RUNS; i++) {
    // interleaved, alternating which goes first
    if (i % 2 === 0) {
      t.push(await time(() => runText(text, syntax)));
      n.push(await time(() => runNative(native)));
    } else {
      n.push(await time(() => runNative(native)));
      t.push(await time(() => runText(text, syntax)));
    }
  }
  rows.push({ syntax, events: text.length, bytes: bytes(text), nativeEvents: native.length, nativeBytes: bytes(native), text: median(t), native: median(n) });
}

const cpus = os.cpus();
const lines = [
  `Command: \`node bench/text-tool-calls.mjs\` (part of \`npm run bench\`). ${CALLS} calls of ~${Math.round(JSON.stringify(calls[0].args).length / 100) / 10} KB arguments, ${TOKEN}-character tokens, one SSE event per token.`,
  `Node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (a shared machine: figures are noisy). Median of ${RUNS} interleaved runs after a warm-up; every run's calls are checked first.`,
  '',
  '| calls written as | SSE events (bytes) | text-embedded: readStreamEvents + textToolCalls + toolCalls | same calls native: readStreamEvents + toolCalls | ratio |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.syntax} | ${r.events.toLocaleString('en')} (${(r.bytes / 1e6).toFixed(2)} MB) vs ${r.nativeEvents.toLocaleString('en')} (${(r.nativeBytes / 1e6).toFixed(2)} MB) | ${r.text.toFixed(1)} ms | ${r.native.toFixed(1)} ms | ${(r.text / r.native).toFixed(2)}x |`,
  ),
];
console.log(lines.join('\n'));
if (!process.argv.includes('--no-write')) {
  console.log(`wrote ${writeSection('text', lines.join('\n')).join(', ')}`);
}
