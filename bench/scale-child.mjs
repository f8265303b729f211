// One measurement of bench/scale.mjs, in a fresh process (the parent passes `--expose-gc`):
//   node --expose-gc bench/scale-child.mjs <mode> <impl> <dist> [streams]
// Prints one JSON line. Modes:
//   cpu        `streams` streams open at once, fed round-robin (chunk k of every stream, then
//              chunk k + 1, …), then completed; one untimed round, then 5 timed rounds; user +
//              system CPU µs per stream of each round (GC included).
//   cpu-paired the same streams, this implementation and the floor in one process, alternating
//              rounds (one untimed round each, then 8 timed rounds each, a full GC before each):
//              the ratio of each round to the floor's round next to it (`ratios`), so that a
//              change of machine speed during the child (2x within a minute on a shared VM) cancels.
//   cpu-paired-open  the same, with 26 more streams of this implementation and 26 of the floor open
//              through every round and every GC, one at each stage (0 to 25 chunks fed): a server
//              always has other streams open, so the code's objects (and V8's optimised code that
//              refers to their hidden classes) outlive a full GC, as they do in a real process.
//   idle       heap after GC per open stream that received nothing (subject + subscription + state).
//   half       the same after the first 13 of the 26 chunks of every stream.
//   after-gc   one stream at a time (open, 26 chunks, complete) after 300 warm-up streams and one
//              turn of the event loop, each right after a full GC; wall µs of each of 31 streams.
//   first-socket  the first stream of this process, its bytes arriving one turn of the event loop
//              after its subscription (as from a socket): wall µs of subscribe + read (`us`), and
//              of that turn (`waitUs`).
//   first      the first stream of this process (modules loaded, nothing run), fed in the turn of
//              its subscription: wall µs.
//   second     the stream after one start-up stream and one turn of the event loop: wall µs.
import v8 from 'node:v8';
import { CALLS_PER_STREAM, opener, wireChunks } from './scale-impls.mjs';

const [mode, key, dist, streamsArg] = process.argv.slice(2);
const streams = Number(streamsArg ?? 10_000);
const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('run with --expose-gc');
const chunks = wireChunks();
const open = await opener(key, dist);

let results = 0;
const onResult = () => {
  results++;
};
const check = (n) => {
  if (results !== n * CALLS_PER_STREAM) throw new Error(`${key}: ${results} results from ${n} streams, expected ${n * CALLS_PER_STREAM}`);
  results = 0;
};
const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const used = () => v8.getHeapStatistics().used_heap_size;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fullGc = () => {
  gc();
  gc();
};

/** Open `n` streams and feed them chunks [from, to) round-robin. */
function feed(subjects, from, to) {
  for (let c = from; c < to; c++) {
    const chunk = chunks[c];
    for (let s = 0; s < subjects.length; s++) subjects[s].next(chunk);
  }
}
function openMany(n) {
  const subjects = new Array(n);
  for (let s = 0; s < n; s++) subjects[s] = open(onResult);
  return subjects;
}
/** One round: `streams` streams of `opener` open at once, fed round-robin, completed, checked. */
function round(opener) {
  const subjects = new Array(streams);
  for (let s = 0; s < streams; s++) subjects[s] = opener(onResult);
  feed(subjects, 0, chunks.length);
  for (const subject of subjects) subject.complete();
  check(streams);
}
function one() {
  const subject = open(onResult);
  for (const chunk of chunks) subject.next(chunk);
  subject.complete();
}

let out;
if (mode === 'cpu') {
  round(open);
  const perStream = [];
  for (let r = 0; r < 5; r++) {
    fullGc();
    await pause(100); // let concurrent sweeping (CPU of this process) finish outside the timing
    const t0 = cpuUs();
    round(open);
    perStream.push((cpuUs() - t0) / streams);
  }
  out = { perStream };
} else if (mode === 'cpu-paired' || mode === 'cpu-paired-open') {
  const floorOpen = await opener('floor', dist);
  // The other open streams (their results, if any, are not counted): kept until the output is printed.
  const others = [];
  if (mode === 'cpu-paired-open')
    for (const opener of [open, floorOpen])
      for (let stage = 0; stage < chunks.length; stage++) {
        const subject = opener(() => {});
        for (let c = 0; c < stage; c++) subject.next(chunks[c]);
        others.push(subject);
      }
  round(open);
  round(floorOpen);
  const ratios = [];
  for (let r = 0; r < 8; r++) {
    const us = {};
    for (const [name, opener] of r % 2 === 0
      ? [
          ['impl', open],
          ['floor', floorOpen],
        ]
      : [
          ['floor', floorOpen],
          ['impl', open],
        ]) {
      fullGc();
      await pause(50);
      const t0 = cpuUs();
      round(opener);
      us[name] = cpuUs() - t0;
    }
    ratios.push(us.impl / us.floor);
  }
  out = { ratios, others: others.length };
} else if (mode === 'idle' || mode === 'half') {
  // Warm up the code paths (and their lazily created shared objects) before the baseline.
  for (let i = 0; i < 50; i++) one();
  check(50);
  await pause(0); // a server returns to the event loop between requests (the library's resident streams are made then)
  fullGc();
  const base = used();
  const subjects = openMany(streams);
  if (mode === 'half') feed(subjects, 0, chunks.length / 2);
  fullGc();
  const bytes = (used() - base) / streams;
  feed(subjects, chunks.length / 2 - (mode === 'half' ? 0 : chunks.length / 2), chunks.length);
  for (const subject of subjects) subject.complete();
  check(streams); // the streams were alive and correct
  out = { bytesPerStream: bytes };
} else if (mode === 'after-gc') {
  for (let i = 0; i < 300; i++) one();
  check(300);
  await pause(0); // a server returns to the event loop between requests (the library's resident streams are made then)
  const us = [];
  for (let i = 0; i < 31; i++) {
    gc(); // one full GC, as a long-lived process has between two requests
    const t0 = performance.now();
    one();
    us.push((performance.now() - t0) * 1000);
  }
  check(31);
  out = { us };
} else if (mode === 'second') {
  one(); // what a server can do at start-up, before it accepts requests
  check(1);
  await pause(0);
  const t0 = performance.now();
  one();
  const us = (performance.now() - t0) * 1000;
  check(1);
  out = { us };
} else if (mode === 'first-socket') {
  const t0 = performance.now();
  const subject = open(onResult);
  const t1 = performance.now();
  await pause(0); // the request is on the network; its response's bytes come in a later turn
  const t2 = performance.now();
  for (const chunk of chunks) subject.next(chunk);
  subject.complete();
  const t3 = performance.now();
  check(1);
  out = { us: (t1 - t0 + (t3 - t2)) * 1000, waitUs: (t2 - t1) * 1000 };
} else if (mode === 'first') {
  const t0 = performance.now();
  one();
  const us = (performance.now() - t0) * 1000;
  check(1);
  out = { us };
} else {
  throw new Error(`unknown mode ${mode}`);
}
process.stdout.write(JSON.stringify(out) + '\n');
