// Soak test of the built package (dist/): `npm run soak` (= build, then node --expose-gc scripts/soak.mjs).
// 1. 10,000 streams one after another in one process: the heap after GC must stay flat.
// 2. 1,000 concurrent streams, subscribed, half-delivered and kept open (with an idle timeout):
//    the heap they hold, per stream. Then they are unsubscribed and the heap must come back.
// Prints the figures as Markdown for docs/reliability.md; exits 1 when the heap grew.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { Subject } from 'rxjs';
import { readToolCalls } from '../dist/index.js';

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc scripts/soak.mjs');
  process.exit(2);
}
const SEQUENTIAL = Number(process.env.SOAK_STREAMS ?? 10_000);
const CONCURRENT = Number(process.env.SOAK_CONCURRENT ?? 1_000);
const bytes = new Uint8Array(readFileSync(new URL('../examples/weather.sse', import.meta.url)));
const chunks = [];
for (let at = 0; at < bytes.length; at += 256) chunks.push(bytes.subarray(at, at + 256));

const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const mb = (n) => `${(n / 1024 / 1024).toFixed(2)} MB`;

// 1. Sequential.
function runOne() {
  const input = new Subject();
  let results = 0;
  let ended = false;
  input.pipe(readToolCalls({ idleTimeoutMs: 60_000 })).subscribe({ next: () => results++, complete: () => (ended = true), error: () => (ended = true) });
  for (const chunk of chunks) input.next(chunk);
  input.complete();
  if (!ended || results !== 2) throw new Error(`stream ended=${ended} with ${results} results`);
}
for (let i = 0; i < 200; i++) runOne(); // warm up the JIT before the first measurement
const start = heap();
const samples = [];
const t0 = performance.now();
for (let i = 1; i <= SEQUENTIAL; i++) {
  runOne();
  if (i % (SEQUENTIAL / 5) === 0) samples.push(heap());
}
const seconds = (performance.now() - t0) / 1000;
const end = heap();
const growth = end - start;

// 2. Concurrent, half-delivered, kept open.
const half = chunks.slice(0, Math.floor(chunks.length / 2));
const before = heap();
const open = [];
for (let i = 0; i < CONCURRENT; i++) {
  const input = new Subject();
  const subscription = input.pipe(readToolCalls({ idleTimeoutMs: 60_000 })).subscribe({ error: () => undefined });
  for (const chunk of half) input.next(chunk);
  open.push({ input, subscription });
}
const held = heap() - before;
for (const { subscription } of open) subscription.unsubscribe();
open.length = 0;
const released = heap() - before;

const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${mb(os.totalmem())} RAM, ${os.platform()} ${os.release()}, Node ${process.version}`;
console.log(`machine: ${machine}`);
console.log(`| sequential streams | ${SEQUENTIAL} (examples/weather.sse, 256-byte chunks, ${(SEQUENTIAL / seconds).toFixed(0)} streams/s) |`);
console.log(`| heap after GC, start → end | ${mb(start)} → ${mb(end)} (${growth >= 0 ? '+' : ''}${(growth / 1024).toFixed(0)} KB) |`);
console.log(`| heap after GC, every ${SEQUENTIAL / 5} streams | ${samples.map(mb).join(', ')} |`);
console.log(`| concurrent open streams | ${CONCURRENT} (subscribed, ${half.reduce((n, c) => n + c.length, 0)} of ${bytes.length} bytes delivered, idle timer running) |`);
console.log(`| heap held by them | ${mb(held)}, ${(held / CONCURRENT / 1024).toFixed(1)} KB per stream |`);
console.log(`| heap after unsubscribing them | ${released >= 0 ? '+' : ''}${(released / 1024).toFixed(0)} KB over the baseline |`);
// Flat: under 1 MB growth over 10,000 streams (≈ 100 bytes a stream would still pass; a leak of one
// stream's state, several KB, would not).
const flat = growth < 1024 * 1024 && released < 1024 * 1024;
console.log(flat ? 'soak: heap flat' : 'soak: HEAP GREW');
process.exitCode = flat ? 0 : 1;
