// Scaling benchmark: is every operator linear? `node --expose-gc bench/scaling.mjs` (part of
// `npm run bench`; needs `npm run build`).
//
//   --dist DIR      the build to measure (default ./dist): e.g. a build of another branch
//   --quick         base sizes / 4 (a smoke run)
//   --budget S      stop doubling a row once one size took more than S seconds (default 20)
//   --only a,b      only the rows whose key contains one of these strings
//   --no-write      print only; do not write its section of docs/benchmarks.md (bench/results/scaling.md)
//
// Each row doubles n four times (n, 2n, 4n, 8n, 16n) and prints the CPU time per unit (µs of
// user + system CPU of this process, which a busy machine disturbs less than wall time; GC work
// included, as it is part of the cost) and the
// ratio of the last to the first: about 1 is linear, about 16 is quadratic. Inputs are built
// before timing; each size runs 3 times (once when a run takes more than 2 s) and the least time
// is kept. Every run's output is checked (counts of results, events or items) before it counts.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { asapScheduler, from, lastValueFrom, mergeMap, observeOn, reduce } from 'rxjs';
import { writeSection } from './page.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i !== -1 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const quick = argv.includes('--quick');
const budgetMs = Number(option('--budget', 20)) * 1000;
const only = option('--only', '')
  .split(',')
  .filter((s) => s !== '');
const dist = path.resolve(ROOT, option('--dist', 'dist'));
const lib = await import(pathToFileURL(path.join(dist, 'index.js')).href);
const { anthropicEvent, geminiChunk, geminiInteractionsEvent, openaiChunk, openaiDone } = await import(pathToFileURL(path.join(dist, 'marbles.js')).href);
const { accumulateToolCalls, groupToolCalls, partialToolCalls, readStreamEvents, readToolCalls, toolCalls } = lib;
// tool() and toolLoop() moved to the tools entry; older builds (for --dist) export them from the main one.
const { tool, toolLoop } = lib.toolLoop === undefined ? await import(pathToFileURL(path.join(dist, 'tools.js')).href) : lib;
// SseParser moved to the advanced entry; older builds (for --dist) export it from the main one.
const SseParser = lib.SseParser ?? (await import(pathToFileURL(path.join(dist, 'advanced.js')).href)).SseParser;

// ----- inputs -----------------------------------------------------------------------------------

/** Wire text in network-sized string chunks (64 KB). */
function chunked(text) {
  const out = [];
  for (let i = 0; i < text.length; i += 65536) out.push(text.slice(i, i + 65536));
  return out;
}

/** n parallel chat calls, one fragment each, all closed by one finish and [DONE]. */
function manyCallsWire(n) {
  let text = openaiChunk({ role: 'assistant' });
  for (let i = 0; i < n; i++) text += openaiChunk({ toolCalls: [{ index: i, id: `call_${i}`, name: 'f', arguments: `{"i":${i}}` }] });
  return chunked(text + openaiChunk({ finishReason: 'tool_calls' }) + openaiDone());
}

/** n chat chunks, each a new call index with `finish_reason` set. */
function chatFinishesWire(n) {
  let text = '';
  for (let i = 0; i < n; i++) text += openaiChunk({ toolCalls: [{ index: i, id: `call_${i}`, name: 'f', arguments: '{}' }], finishReason: 'tool_calls' });
  return chunked(text + openaiDone());
}

/** n Gemini chunks, each a whole function call with `finishReason`. */
function geminiFinishesWire(n) {
  let text = '';
  for (let i = 0; i < n; i++) text += geminiChunk({ functionCalls: [{ name: 'f', args: { i } }], finishReason: 'STOP' });
  return chunked(text);
}

/** n Anthropic tool_use blocks, each followed by a `message_delta`. */
function anthropicDeltasWire(n) {
  let text = anthropicEvent('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], usage: { input_tokens: 1, output_tokens: 0 } } });
  for (let i = 0; i < n; i++) {
    text += anthropicEvent('content_block_start', { index: i, content_block: { type: 'tool_use', id: `toolu_${i}`, name: 'f', input: {} } });
    text += anthropicEvent('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: `{"i":${i}}` } });
    text += anthropicEvent('content_block_stop', { index: i });
    text += anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: i + 1 } });
  }
  return chunked(text + anthropicEvent('message_stop'));
}

/** The StreamEvents of a wire (decoded once, outside the timing). */
const eventsOf = (chunks, provider) =>
  lastValueFrom(
    from(chunks).pipe(
      readStreamEvents({ provider }),
      reduce((all, e) => (all.push(e), all), []),
    ),
  );

const count = (source$) => lastValueFrom(source$.pipe(reduce((n) => n + 1, 0)));

// ----- rows -------------------------------------------------------------------------------------
// Each row: key, label, unit, base n, prepare(n) → input, run(input) → a count, expected(n) → that count.

/** No limit on the number of calls (the default, 1,024, would end these streams). */
const UNLIMITED = { maxToolCalls: Number.MAX_SAFE_INTEGER };
/**
 * n Gemini Interactions function_call steps, each streamed (start, two arguments_deltas, stop), then
 * `interaction.completed` restating all n as its final steps (each matched to the call it restates).
 */
function interactionsCallsWire(n) {
  const ev = geminiInteractionsEvent;
  let text = ev('interaction.created', { interaction: { id: 'v1_bench', status: 'in_progress', model: 'm' } });
  const steps = [];
  for (let i = 0; i < n; i++) {
    text += ev('step.start', { index: i, step: { type: 'function_call', id: `fc_${i}`, name: 'f', arguments: {} } });
    text += ev('step.delta', { index: i, delta: { type: 'arguments_delta', arguments: '{"i":' } });
    text += ev('step.delta', { index: i, delta: { type: 'arguments_delta', arguments: `${i}}` } });
    text += ev('step.stop', { index: i });
    steps.push({ type: 'function_call', id: `fc_${i}`, name: 'f', arguments: { i } });
  }
  return chunked(text + ev('interaction.completed', { interaction: { id: 'v1_bench', status: 'requires_action', model: 'm', steps } }));
}

const callRow = (key, label, base, make) => ({ key, label, unit: 'call', base, ...make });
const ROWS = [
  callRow('calls/readToolCalls', 'many calls: `readToolCalls()`', 4000, {
    prepare: manyCallsWire,
    run: (c) => count(from(c).pipe(readToolCalls({ provider: 'openai-chat', ...UNLIMITED }))),
    expected: (n) => n,
  }),
  callRow('calls/gemini-interactions', 'many calls: `readToolCalls()` of Gemini Interactions steps, restated in `interaction.completed`', 4000, {
    prepare: interactionsCallsWire,
    run: (c) => count(from(c).pipe(readToolCalls({ provider: 'gemini-interactions', ...UNLIMITED }))),
    expected: (n) => n,
  }),
  callRow('calls/toolCalls', 'many calls: `toolCalls()`', 4000, {
    prepare: (n) => eventsOf(manyCallsWire(n), 'openai-chat'),
    run: (e) => count(from(e).pipe(toolCalls(UNLIMITED))),
    expected: (n) => n,
  }),
  callRow('calls/groupToolCalls', 'many calls: `groupToolCalls()`', 4000, {
    prepare: (n) => eventsOf(manyCallsWire(n), 'openai-chat'),
    run: (e) =>
      count(
        from(e).pipe(
          groupToolCalls(UNLIMITED),
          mergeMap((call$) => call$.pipe(reduce((k) => k + 1, 0))),
        ),
      ),
    expected: (n) => n,
  }),
  callRow('calls/partialToolCalls', 'many calls: `partialToolCalls()`', 4000, {
    prepare: (n) => eventsOf(manyCallsWire(n), 'openai-chat'),
    run: async (e) =>
      new Set(
        await lastValueFrom(
          from(e).pipe(
            partialToolCalls(UNLIMITED),
            reduce((ids, p) => (ids.push(p.id), ids), []),
          ),
        ),
      ).size,
    expected: (n) => n,
  }),
  callRow('calls/accumulateToolCalls', 'many calls: `accumulateToolCalls()`', 250, {
    prepare: (n) => eventsOf(manyCallsWire(n), 'openai-chat'),
    run: async (e) => (await lastValueFrom(from(e).pipe(accumulateToolCalls(UNLIMITED)))).length,
    expected: (n) => n,
  }),
  {
    key: 'finishes/chat',
    label: 'many finishes: chat `finish_reason` on every chunk, new index each',
    unit: 'chunk',
    base: 4000,
    prepare: chatFinishesWire,
    run: (c) => count(from(c).pipe(readToolCalls({ provider: 'openai-chat', ...UNLIMITED }))),
    expected: (n) => n,
  },
  {
    key: 'finishes/gemini',
    label: 'many finishes: Gemini `finishReason` on every chunk',
    unit: 'chunk',
    base: 4000,
    prepare: geminiFinishesWire,
    run: (c) => count(from(c).pipe(readToolCalls({ provider: 'gemini', ...UNLIMITED }))),
    expected: (n) => n,
  },
  {
    key: 'finishes/anthropic',
    label: 'many finishes: Anthropic `message_delta` after every block',
    unit: 'block',
    base: 4000,
    prepare: anthropicDeltasWire,
    run: (c) => count(from(c).pipe(readToolCalls({ provider: 'anthropic', ...UNLIMITED }))),
    expected: (n) => n,
  },
  ...['sync', 'async'].map((timing) => ({
    key: `steps/toolLoop-${timing}`,
    label: `many steps: \`toolLoop()\`, ${timing === 'sync' ? 'synchronous' : 'asynchronous (asap)'} requests`,
    unit: 'step',
    base: 625,
    prepare: (n) => n,
    run: (n, deadline) => loopSteps(n, timing, deadline),
    expected: (n) => n,
  })),
  { key: 'lines/SseParser', label: 'many `data:` lines in one event: `SseParser`', unit: 'line', base: 250_000, prepare: (n) => n, run: dataLines, expected: (n) => n },
];

const loopCall = [openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'f', arguments: '{}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()];
const loopAnswer = [openaiChunk({ role: 'assistant', content: 'Done.' }), openaiChunk({ finishReason: 'stop' }), openaiDone()];
const loopTools = { f: tool({ execute: () => 'ok' }) };

/** Steps started by a toolLoop of n steps; 'hang' when it neither completed nor errored, 'budget' when stopped. */
function loopSteps(n, timing, deadline) {
  return new Promise((resolve) => {
    let steps = 0;
    let settled = false;
    const answer = (chunks) => (timing === 'sync' ? from(chunks) : from(chunks).pipe(observeOn(asapScheduler)));
    const request = (_messages, step) => answer(step < n - 1 ? loopCall : loopAnswer);
    const finish = (result) => {
      settled = true;
      clearInterval(watch);
      resolve(result);
    };
    const watch = setInterval(() => {
      if (performance.now() > deadline) {
        subscription.unsubscribe();
        finish({ stopped: `over budget at step ${steps}` });
      }
    }, 50);
    const subscription = toolLoop(request, loopTools, { format: 'openai-chat', messages: [{ role: 'user', content: 'go' }], maxSteps: n }).subscribe({
      next: (item) => item.type === 'step-start' && steps++,
      error: (error) => finish({ stopped: `error at step ${steps}: ${error?.code ?? error?.name ?? error}` }),
      complete: () => finish(steps),
    });
    // A synchronous loop is over when subscribe returns: if it neither completed nor errored, it hangs.
    if (timing === 'sync' && !settled) {
      subscription.unsubscribe();
      finish({ stopped: `hangs: neither completes nor errors (${steps} steps started)` });
    }
  });
}

/** One event of n `data:x` lines, in 64 KB byte chunks. */
const lineChunk = new TextEncoder().encode('data:x\n'.repeat(8192));
function dataLines(n) {
  const parser = new SseParser({ maxEventSize: 1 << 30 });
  let length = -1;
  const onEvent = (event) => (length = event.data.length);
  let left = n;
  for (; left >= 8192; left -= 8192) parser.push(lineChunk, onEvent);
  parser.push('data:x\n'.repeat(left) + '\n', onEvent);
  return length === 2 * n - 1 ? n : length;
}

// ----- measuring ----------------------------------------------------------------------------------

const gc = globalThis.gc ?? (() => {});
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function measure(row, n) {
  const input = await row.prepare(n);
  // A full GC, then a pause so that its concurrent sweeping (CPU time of this process) is over.
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const wall0 = performance.now();
    const cpu0 = cpuMs();
    const got = await row.run(input, wall0 + budgetMs);
    const cpu = cpuMs() - cpu0;
    const wall = performance.now() - wall0;
    if (typeof got === 'object' && got !== null) return { stopped: got.stopped, wallMs: wall };
    if (got !== row.expected(n)) throw new Error(`${row.key} n=${n}: got ${got}, expected ${row.expected(n)}`);
    best = Math.min(best, cpu);
    if (wall > budgetMs) return { ms: best, overBudget: true };
    if (wall > 2000) break;
  }
  return { ms: best };
}

const fmt = (us) => (us >= 100 ? us.toFixed(0) : us >= 10 ? us.toFixed(1) : us.toFixed(2));
const results = [];
for (const row of ROWS) {
  if (only.length > 0 && !only.some((s) => row.key.includes(s))) continue;
  const base = quick ? Math.max(1, Math.round(row.base / 4)) : row.base;
  await measure(row, base); // warm up (JIT)
  await measure(row, base);
  const cells = [];
  for (let k = 0; k < 5; k++) {
    const n = base * 2 ** k;
    const m = await measure(row, n);
    cells.push({ n, ...m });
    process.stderr.write(`${row.key} n=${n}: ${m.stopped ?? `${fmt((m.ms * 1000) / n)} µs/${row.unit}`}\n`);
    if (m.stopped !== undefined || m.overBudget) break;
  }
  results.push({ row, cells });
}

// ----- report -----------------------------------------------------------------------------------

const header = ['n', '2n', '4n', '8n', '16n'];
const lines = [`| row | unit | ${header.join(' | ')} | last / first |`, `| --- | --- | ${header.map(() => '---:').join(' | ')} | ---: |`];
for (const { row, cells } of results) {
  const timed = cells.filter((c) => c.ms !== undefined);
  const tds = header.map((_, k) => {
    const c = cells[k];
    if (c === undefined) return '—';
    if (c.stopped !== undefined) return `${c.stopped} (n = ${c.n.toLocaleString('en')})`;
    return `${fmt((c.ms * 1000) / c.n)} µs (n = ${c.n.toLocaleString('en')}${c.overBudget ? `, over ${budgetMs / 1000} s: the row stops` : ''})`;
  });
  const first = timed[0];
  const last = timed[timed.length - 1];
  const ratio = timed.length < 2 ? '—' : `${(last.ms / last.n / (first.ms / first.n) || 0).toFixed(2)}${timed.length < 5 ? ` (${first.n.toLocaleString('en')} → ${last.n.toLocaleString('en')})` : ''}`;
  lines.push(`| ${row.label} | ${row.unit} | ${tds.join(' | ')} | ${ratio} |`);
}
const table = lines.join('\n');
const cpus = os.cpus();
const command = `node --expose-gc bench/scaling.mjs${argv.length > 0 ? ` ${argv.join(' ')}` : ''}`;
const markdown = `Command: \`${command}\` (part of \`npm run bench\`), over \`${path.relative(ROOT, dist).startsWith('..') ? dist : path.relative(ROOT, dist)}\`. Node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, load average ${os.loadavg()[0].toFixed(2)}.
CPU time (user + system) of this process per unit, least of 3 runs (1 when a run takes over 2 s); a row stops doubling once a run takes over ${budgetMs / 1000} s. The last column is the time per unit at the largest n over that at the first: about 1 is linear (the goal), about 16 quadratic over four doublings.

${table}
`;
console.log(markdown);
if (!argv.includes('--no-write')) console.log(`wrote ${writeSection('scaling', markdown).join(', ')}`);
