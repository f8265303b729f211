// The partial-value rows of bench/scale.mjs: the same inputs and the same "push every fragment and
// read the value after each" loop as bench/partial-json.mjs, for one or two source trees side by
// side (each tree's src/parse/partialJson.ts bundled with esbuild into .bench-out/).
import { build } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { argumentsText, fragments } from './partial-json-data.mjs';

const SIZES = [
  { label: '10 KB', chars: 10_000 },
  { label: '100 KB', chars: 100_000 },
  { label: '1 MB', chars: 1_000_000 },
];
const gc = globalThis.gc ?? (() => {});

/** Median and best of timed runs after a warm-up (fewer runs when one is slow). */
function measure(fn) {
  const t0 = performance.now();
  fn();
  const first = performance.now() - t0;
  const runs = first > 200 ? 5 : first > 20 ? 9 : 21;
  const times = [];
  for (let i = 0; i < runs; i++) {
    gc();
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], best: times[0] };
}

function pushAndRead(Parser, frags, snapshots) {
  const parser = new Parser({ snapshots });
  let seen = 0;
  for (let i = 0; i < frags.length; i++) {
    parser.push(frags[i]);
    if (parser.value !== undefined) seen++;
  }
  parser.end();
  return seen;
}

/**
 * The markdown section: per size, the floor (append + one JSON.parse) and, per tree, live values
 * and immutable snapshots, best and median against the floor's.
 *
 * @param {{ name: string, root: string }[]} roots
 */
export async function partialRows(roots) {
  const parsers = [];
  for (const { name, root } of roots) {
    const outfile = join(root, '.bench-out', `scale-partialJson.mjs`);
    await build({ entryPoints: [join(root, 'src/parse/partialJson.ts')], bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile, logLevel: 'warning' });
    parsers.push({ name, Parser: (await import(pathToFileURL(outfile).href)).PartialJsonParser });
  }
  const ratio = (m, floor) => `${m.best.toFixed(2)} ms (**${(m.best / floor.best).toFixed(2)}×**); median ${(m.median / floor.median).toFixed(2)}×`;
  const header = ['arguments', 'fragments', 'floor: append + one `JSON.parse` (best)', ...parsers.flatMap((p) => [`live, ${p.name}`, `immutable, ${p.name}`])];
  const lines = [
    `| ${header.join(' | ')} |`,
    `| --- | ${header
      .slice(1)
      .map(() => '---:')
      .join(' | ')} |`,
  ];
  const goals = [];
  for (const size of SIZES) {
    const text = argumentsText(size.chars);
    const frags = fragments(text);
    const floor = measure(() => {
      let acc = '';
      for (const fragment of frags) acc += fragment;
      return JSON.parse(acc);
    });
    const cells = [];
    for (const { name, Parser } of parsers) {
      const live = measure(() => pushAndRead(Parser, frags, 'live'));
      const immutable = measure(() => pushAndRead(Parser, frags, 'immutable'));
      cells.push(ratio(live, floor), ratio(immutable, floor));
      if (name !== 'before')
        goals.push(
          `${size.label}: live ${(live.best / floor.best).toFixed(2)}× (goal ≤ 1.5×: ${live.best / floor.best <= 1.5 ? 'met' : 'not met'}), immutable ${(immutable.best / floor.best).toFixed(2)}× (goal ≤ 2×: ${immutable.best / floor.best <= 2 ? 'met' : 'not met'})`,
        );
    }
    lines.push(`| ${size.label} (${text.length.toLocaleString('en')} chars) | ${frags.length.toLocaleString('en')} | ${floor.best.toFixed(2)} ms | ${cells.join(' | ')} |`);
    process.stderr.write(`partial ${size.label}: done\n`);
  }
  return `
### Live partial values, 1–8 character fragments

Push every fragment into \`PartialJsonParser\` and read \`value\` after each (what \`partialToolCalls()\` does), against the floor of appending the fragments and one \`JSON.parse\` (inputs of bench/partial-json.mjs). Best time and its ratio to the floor's best; the median ratio after it. Run in this process (\`--expose-gc\`), after the rows above.

${lines.join('\n')}

Goals, on best times: ${goals.join('; ')}.
`;
}
