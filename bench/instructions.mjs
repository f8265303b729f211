// Instructions per run of `readToolCalls()` on a bench scenario, for A/B checks that wall time on a
// shared machine is too noisy for. Run it under callgrind twice, with ROUNDS and with 0, and divide
// the difference by ROUNDS (start-up, module loading and the 3 warm-up runs cancel out):
//
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null --smc-check=all \
//     node --single-threaded bench/instructions.mjs DIR SCENARIO ROUNDS
//
// DIR is a checkout with a built dist/ (this one, or another for "before"); SCENARIO a name of
// bench/scenarios.mjs. With --single-threaded (no background compiler or GC threads), instruction
// counts move less than wall time between runs (not by nothing: bench/instructions-ab.mjs); they do not show cache
// misses (see bench/scale.mjs for many open streams).
import { pathToFileURL } from 'node:url';
import { from, lastValueFrom, reduce } from 'rxjs';
import { buildScenario } from './scenarios.mjs';

const [dir, name, rounds] = process.argv.slice(2);
if (dir === undefined || name === undefined || rounds === undefined) throw new Error('usage: node bench/instructions.mjs DIR SCENARIO ROUNDS');
const lib = await import(pathToFileURL(`${dir}/dist/index.js`).href);
const scenario = buildScenario(name, {});
const run = () =>
  lastValueFrom(
    from(scenario.chunks).pipe(
      lib.readToolCalls(),
      reduce((n) => n + 1, 0),
    ),
  );
for (let i = 0; i < 3; i++) await run();
for (let i = 0; i < Number(rounds); i++) await run();
