// The non-SSE framings against the floor: decoding Bedrock Converse frames (AWS event stream) and
// Ollama NDJSON into tool calls. `node bench/framing.mjs [--quick]` (needs `npm run build`; not part
// of `npm run bench`). Prints markdown tables and writes its section of docs/benchmarks.md
// (bench/results/framing.md; `--no-write`: print only).
//
// For each benchmark scenario (bench/scenarios.mjs), the same calls are streamed three ways:
//   - SSE, the scenario's own bytes, read by the floor of `npm run bench` (bench/impl/floor.mjs);
//   - a Bedrock ConverseStream answer: one toolUse block per call, its arguments in toolUse.input
//     deltas cut as the scenario cuts them, each payload with Bedrock's random "p" padding, framed
//     by AWS's own codec (@smithy/eventstream-codec), delivered in the scenario's network chunks;
//   - an Ollama /api/chat NDJSON answer: the scenario's fragments as message.content lines, then
//     each call whole (Ollama has no argument fragments), in the same kind of chunks.
// The framed floors are the least work that reads them correctly, written as the SSE floor is: a
// hand loop over the frames (lengths, skip the headers, payload text, JSON.parse, append per block;
// no checksum) and over the lines (streaming TextDecoder, split on LF, JSON.parse). "floor + CRC"
// adds the two CRC-32 checks the specification requires, with Node's native zlib.crc32. The library
// row is `decodeAwsEventStream()` + `bedrockConverse()` + `toolCalls()` (CRC-32 in JavaScript) and
// `decodeNdjson()` + `ollamaChat()` + `toolCalls()`; "SSE library" is the same composition on the
// SSE bytes (`decodeSse()` + the scenario's format + `toolCalls()`), to show what the framing adds.
// Every row's calls are checked against the scenario's before anything is timed.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import v8 from 'node:v8';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';
import { from } from 'rxjs';
import { checkCalls } from './check.mjs';
import { readCalls } from './impl/calls.mjs';
import { eachData } from './impl/floor.mjs';
import { buildScenario, createRng, rechunk, seedFromName, splitFragments } from './scenarios.mjs';
import { writeSection } from './page.mjs';

const lib = await import('../dist/index.js').catch(() => {
  console.error('dist/index.js is missing: run `npm run build` first');
  process.exit(1);
});
const { anthropicMessages, bedrockConverse, decodeAwsEventStream, decodeNdjson, decodeSse, ollamaChat, openaiChat, openaiResponses, toolCalls } = lib;
const SSE_FORMATS = { 'openai-chat': openaiChat, anthropic: anthropicMessages, 'openai-responses': openaiResponses };

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const quick = process.argv.includes('--quick');
const runs = quick ? 5 : 15;
const SCENARIOS = ['chatty', 'anthropic', 'responses', 'chatty-16x'];

const encoder = new TextEncoder();
const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => encoder.encode(text),
);
const string = (value) => ({ type: 'string', value });

/** The scenario's calls, their arguments as JSON text cut like the scenario's fragments. */
function callsOf(scenario, rng) {
  const [min, max] = scenario.name.startsWith('chatty') ? [1, 8] : [4, 64];
  return scenario.expected.map((call) => ({ ...call, fragments: splitFragments(JSON.stringify(call.arguments), rng, min, max) }));
}

function converseBytes(calls, rng) {
  const frames = [];
  const pad = () => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.slice(0, rng.int(1, 40));
  const event = (type, payload) =>
    frames.push(
      codec.encode({
        headers: { ':event-type': string(type), ':content-type': string('application/json'), ':message-type': string('event') },
        body: encoder.encode(JSON.stringify({ ...payload, p: pad() })),
      }),
    );
  event('messageStart', { role: 'assistant' });
  calls.forEach((call, index) => {
    event('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: call.id, name: call.name } } });
    for (const input of call.fragments) event('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input } } });
    event('contentBlockStop', { contentBlockIndex: index });
  });
  event('messageStop', { stopReason: 'tool_use' });
  event('metadata', { usage: { inputTokens: 100, outputTokens: 200, totalTokens: 300 }, metrics: { latencyMs: 1000 } });
  return Buffer.concat(frames);
}

function ndjsonBytes(calls) {
  const at = '2025-11-30T00:00:00.000000Z';
  const lines = [];
  for (const call of calls) for (const content of call.fragments) lines.push(JSON.stringify({ model: 'qwen3:8b', created_at: at, message: { role: 'assistant', content }, done: false }));
  for (const call of calls)
    lines.push(
      JSON.stringify({ model: 'qwen3:8b', created_at: at, message: { role: 'assistant', content: '', tool_calls: [{ function: { name: call.name, arguments: call.arguments } }] }, done: false }),
    );
  lines.push(JSON.stringify({ model: 'qwen3:8b', created_at: at, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 100, eval_count: 200 }));
  return encoder.encode(lines.map((l) => `${l}\n`).join(''));
}

/** The Converse floor: frames by their lengths, headers skipped, payloads parsed, input appended per block. */
function converseFloor(chunks, checkCrc) {
  const decoder = new TextDecoder();
  const ids = [];
  const names = [];
  const args = [];
  let buffer = new Uint8Array(0);
  const read = (frame) => {
    const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    if (checkCrc && (crc32(frame.subarray(0, 8)) !== view.getUint32(8) || crc32(frame.subarray(0, frame.length - 4)) !== view.getUint32(frame.length - 4))) throw new Error('crc');
    const event = JSON.parse(decoder.decode(frame.subarray(12 + view.getUint32(4), frame.length - 4)));
    const index = event.contentBlockIndex;
    if (event.start?.toolUse) {
      ids[index] = event.start.toolUse.toolUseId;
      names[index] = event.start.toolUse.name;
      args[index] = '';
    } else if (event.delta?.toolUse) args[index] += event.delta.toolUse.input;
  };
  for (const chunk of chunks) {
    let bytes = chunk;
    if (buffer.length > 0) {
      bytes = new Uint8Array(buffer.length + chunk.length);
      bytes.set(buffer);
      bytes.set(chunk, buffer.length);
    }
    let pos = 0;
    while (bytes.length - pos >= 4) {
      const total = new DataView(bytes.buffer, bytes.byteOffset + pos, 4).getUint32(0);
      if (bytes.length - pos < total) break;
      read(bytes.subarray(pos, pos + total));
      pos += total;
    }
    buffer = pos === bytes.length ? new Uint8Array(0) : bytes.slice(pos);
  }
  if (buffer.length > 0) throw new Error('floor: input ended inside a frame');
  return args.map((text, i) => ({ id: ids[i], name: names[i], arguments: JSON.parse(text) }));
}

/** The NDJSON floor: streaming TextDecoder, split on LF, JSON.parse each line, whole calls collected. */
function ndjsonFloor(chunks) {
  const decoder = new TextDecoder();
  const calls = [];
  let pending = '';
  const line = (text) => {
    if (text.trim() === '') return;
    const chunk = JSON.parse(text);
    for (const call of chunk.message?.tool_calls ?? []) calls.push({ id: `call_${calls.length}`, name: call.function.name, arguments: call.function.arguments });
  };
  for (const chunk of chunks) {
    const text = pending + decoder.decode(chunk, { stream: true });
    let start = 0;
    let lf;
    while ((lf = text.indexOf('\n', start)) !== -1) {
      line(text.slice(start, lf));
      start = lf + 1;
    }
    pending = text.slice(start);
  }
  line(pending + decoder.decode());
  return calls;
}

function library(chunks, framing, format) {
  const calls = [];
  let failure;
  from(chunks)
    .pipe(framing(), format(), toolCalls())
    .subscribe({ next: (r) => (r.success ? calls.push({ id: r.data.id, name: r.data.name, arguments: r.data.arguments }) : (failure = r.error)), error: (e) => (failure = e) });
  if (failure !== undefined) throw failure;
  return calls;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Median ms of each implementation, rounds interleaved, a GC before each run. */
function time(impls) {
  for (const fn of Object.values(impls)) for (let i = 0; i < 3; i++) fn(); // warm up
  const times = Object.fromEntries(Object.keys(impls).map((k) => [k, []]));
  for (let round = 0; round < runs; round++) {
    for (const [label, fn] of Object.entries(impls)) {
      gc();
      const t0 = performance.now();
      fn();
      times[label].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

const rows = [];
for (const name of SCENARIOS) {
  const scenario = buildScenario(name);
  const rng = createRng(seedFromName(`${name}/framing`));
  const calls = callsOf(scenario, rng);
  const netRng = createRng(seedFromName(`${name}/framing/net`));
  const converse = rechunk(converseBytes(calls, rng), netRng);
  const ndjson = rechunk(ndjsonBytes(calls), netRng);
  const expectedNdjson = scenario.expected.map((c, i) => ({ ...c, id: `call_${i}` }));
  const impls = {
    sseFloor: () => readCalls(scenario.chunks, scenario.format, eachData),
    sseLibrary: () => library(scenario.chunks, decodeSse, SSE_FORMATS[scenario.format]),
    converseFloor: () => converseFloor(converse, false),
    converseFloorCrc: () => converseFloor(converse, true),
    converseLibrary: () => library(converse, decodeAwsEventStream, bedrockConverse),
    ndjsonFloor: () => ndjsonFloor(ndjson),
    ndjsonLibrary: () => library(ndjson, decodeNdjson, ollamaChat).map((c, i) => ({ ...c, id: `call_${i}` })),
  };
  for (const [label, fn] of Object.entries(impls)) {
    const problem = checkCalls(fn(), label.startsWith('ndjson') ? expectedNdjson : scenario.expected);
    if (problem !== null) throw new Error(`${name} ${label}: ${problem}`);
  }
  const t = time(impls);
  const bytesOf = (chunks) => chunks.reduce((n, c) => n + c.length, 0);
  rows.push({ name, sse: scenario.bytes.length, converse: bytesOf(converse), ndjson: bytesOf(ndjson), frames: calls.reduce((n, c) => n + c.fragments.length + 2, 3), t });
}

const ms = (x) => x.toFixed(2);
const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
const kb = (n) => `${(n / 1000).toFixed(0)} KB`;
const out = [];
out.push(`\nNode ${process.version}, median of ${runs} runs each (interleaved, GC before each run); ms to the calls.\n`);
out.push('| scenario | SSE floor (npm run bench) | SSE library | Converse bytes / frames | Converse floor | floor + CRC | Converse library | / floor | / floor + CRC | / SSE floor | / SSE library |');
out.push('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const lib = r.t.converseLibrary;
  out.push(
    `| ${r.name} | ${ms(r.t.sseFloor)} (${kb(r.sse)}) | ${ms(r.t.sseLibrary)} | ${kb(r.converse)} / ${r.frames} | ${ms(r.t.converseFloor)} | ${ms(r.t.converseFloorCrc)} | ${ms(lib)} | ${ratio(lib, r.t.converseFloor)} | ${ratio(lib, r.t.converseFloorCrc)} | ${ratio(lib, r.t.sseFloor)} | ${ratio(lib, r.t.sseLibrary)} |`,
  );
}
out.push('\n| scenario | SSE floor (npm run bench) | SSE library | NDJSON bytes | NDJSON floor | NDJSON library | / floor | / SSE floor | / SSE library |');
out.push('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const lib = r.t.ndjsonLibrary;
  out.push(
    `| ${r.name} | ${ms(r.t.sseFloor)} (${kb(r.sse)}) | ${ms(r.t.sseLibrary)} | ${kb(r.ndjson)} | ${ms(r.t.ndjsonFloor)} | ${ms(lib)} | ${ratio(lib, r.t.ndjsonFloor)} | ${ratio(lib, r.t.sseFloor)} | ${ratio(lib, r.t.sseLibrary)} |`,
  );
}

console.log(out.join('\n'));
if (!process.argv.includes('--no-write'))
  console.log(`wrote ${writeSection('framing', `Command: \`node bench/framing.mjs${process.argv.includes('--quick') ? ' --quick' : ''}\`.\n${out.join('\n')}`).join(', ')}`);
