// Interleaved timing for benchmarks whose readers are compared as ratios (bench/partial-wire.mjs,
// bench/partial-object.mjs): the machine's speed drifts on a shared VM, so every reader runs once
// per round rather than all runs of one reader, then all of the next.

const gc = globalThis.gc ?? (() => {});

/**
 * Median and best of each reader's timed runs, after a warm-up of each and one turn of the event
 * loop (as a process has between two streams: the library makes its resident streams then). The
 * readers' runs are interleaved (one run of each per round, in a rotating order) so that the
 * machine's speed, which drifts on a shared VM, weighs on all of them alike. Each run after a full
 * GC unless `collect` is false. `rounds` keeps each reader's times in round order, for
 * {@link pairedRatio}.
 */
export async function measureAll(readers, collect) {
  const entries = Object.entries(readers);
  let slowest = 0;
  for (const [, fn] of entries) {
    const t0 = performance.now();
    fn();
    slowest = Math.max(slowest, performance.now() - t0);
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  const rounds = slowest > 400 ? 11 : slowest > 40 ? 15 : 21;
  const times = entries.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < entries.length; k++) {
      const at = (k + round) % entries.length;
      if (collect) gc();
      const t = performance.now();
      entries[at][1]();
      times[at].push(performance.now() - t);
    }
  }
  return Object.fromEntries(
    entries.map(([key], at) => {
      const sorted = [...times[at]].sort((a, b) => a - b);
      return [key, { median: sorted[Math.floor(sorted.length / 2)], best: sorted[0], runs: rounds, rounds: times[at] }];
    }),
  );
}

/**
 * The median over rounds of `a`'s time ÷ `b`'s time in the same round: a paired ratio, which the
 * machine's drift between rounds does not move (both runs of a round see the same machine).
 */
export function pairedRatio(a, b) {
  const ratios = a.rounds.map((t, i) => t / b.rounds[i]).sort((x, y) => x - y);
  return ratios[Math.floor(ratios.length / 2)];
}
