// The one benchmarks page, docs/benchmarks.md, assembled from one generated file per benchmark
// script: `node bench/page.mjs` re-assembles it (each script does so itself after writing its file).
//
// Why a file per script and an assembler, not one file every script edits: the scripts run on
// their own (a whole `npm run bench` takes hours, one script minutes), so each rewrites only its
// own result, bench/results/<name>.md, whole; no script parses or splices the others' text, a
// script that fails half-way leaves the rest of the page as it was, and the page is always the
// same function of the results (spec/bench/page.spec.ts checks the committed page is).
//
// A result file is the section's body: markdown whose headings start at ###, after one first line
// `<!-- measured: COMMIT DATE -->` saying which commit it was measured on. The page gives every
// section its title (## …), that line, and says how to run the script; a section not measured yet
// says so.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The page's sections, in order: `name` (its result file), `title`, `command` (how to measure it)
 * and `about` (one paragraph, written here, saying what is measured and against what).
 */
export const SECTIONS = [
  {
    name: 'pipeline',
    title: 'The pipeline against the floor and the peers',
    command: 'npm run bench (bench/run.mjs)',
    about:
      'Seeded scenarios, re-chunked into random 1–16,384-byte network chunks, through `readToolCalls()` and the other readers of tool calls, against the floor (a hand-written loop that decodes the same calls and does nothing else) and the peers (eventsource-parser, the official SDKs, the AI SDK).',
  },
  {
    name: 'sse',
    title: 'SSE framing alone',
    command: 'node --expose-gc bench/sse-parser.mjs',
    about: 'The SSE parser of `decodeSse()` against eventsource-parser 3 and a hand loop: framing only, no JSON.',
  },
  {
    name: 'partial-json',
    title: 'Partial JSON: the parser alone',
    command: 'node --expose-gc bench/partial-json.mjs',
    about:
      'The incremental JSON parser behind `partialToolCalls()`, `chatState()` and `partialObject()` against appending the fragments and one `JSON.parse`, and against re-parsing after every fragment.',
  },
  {
    name: 'partial-bound',
    title: 'Partial JSON: how fast JavaScript parses it at all',
    command: 'node --expose-gc bench/partial-json-bound.mjs 15 --write',
    about: 'For scale: what a whole-text parser written in JavaScript, with no fragments and no partial values, costs on the same inputs.',
  },
  {
    name: 'partial-wire',
    title: 'Partial arguments from the bytes',
    command: 'node --expose-gc bench/partial-wire.mjs',
    about: 'The same arguments as one tool call of an OpenAI stream, through `readStreamEvents()` + `partialToolCalls()`, against the floor of the pipeline section.',
  },
  {
    name: 'structured',
    title: 'Structured output',
    command: 'node --expose-gc bench/partial-object.mjs',
    about: '`partialObject()` on a 100 KB answer in 1–8 character deltas, against the floor and the AI SDK’s `streamObject`.',
  },
  {
    name: 'text',
    title: 'Tool calls written as text',
    command: 'node bench/text-tool-calls.mjs',
    about: '`textToolCalls()` on calls written in the text (Hermes, Qwen3-Coder XML) against the same calls sent natively.',
  },
  {
    name: 'encode',
    title: 'Re-encoding for gateways',
    command: 'node bench/encode.mjs',
    about: '`readStreamEvents()` → each encoder of `rxjs-tool-calls/gateway`, against decoding alone and the floor.',
  },
  {
    name: 'gateway',
    title: 'The example gateway against a pass-through',
    command: 'node bench/gateway.mjs',
    about: 'Concurrent streams through examples/gateway (Anthropic → OpenAI chat) and through a pass-through proxy on the same stack, in the same run.',
  },
  {
    name: 'websocket',
    title: 'Tool loops over the Responses WebSocket mode',
    command: 'node bench/websocket.mjs',
    about:
      'A 20-step `toolLoop()` against one local stand-in of the Responses API, over HTTP (the whole conversation every step) and over `responsesWebSocket()` (one socket, only the new items with `previous_response_id`): the bytes each step sends and the wall time, with the server cost the section states.',
  },
  {
    name: 'framing',
    title: 'Other framings: AWS event stream and NDJSON',
    command: 'node bench/framing.mjs',
    about: 'Bedrock Converse (AWS event stream) and Ollama (NDJSON) answers carrying the scenarios’ calls, against hand-written floors of each framing.',
  },
  {
    name: 'scaling',
    title: 'Scaling: time per unit as n doubles',
    command: 'node --expose-gc bench/scaling.mjs',
    about: 'Many calls, many finishes, many `toolLoop()` steps and many `data:` lines in one event, each doubled four times: flat time per unit is linear work.',
  },
  {
    name: 'scale',
    title: 'Many open streams and cold starts',
    command: 'node --expose-gc bench/scale.mjs',
    about: '10,000 streams open at once, fed round-robin (CPU and heap per stream), one stream right after a full GC, the first stream of a fresh process.',
  },
  {
    name: 'open-calls',
    title: 'Many calls open at once: composed against fused',
    command: 'node --expose-gc bench/open-calls.mjs',
    about:
      'A chat stream that opens n calls and closes them all at its end, through `readToolCalls()`, the composed `decodeSse()` → `openaiChat()` → `toolCalls()`, and `groupToolCalls()` with a group per call: linear work grows 4× for 4× the calls.',
  },
  {
    name: 'instructions',
    title: 'Instructions per run against another build',
    command: 'node bench/instructions-ab.mjs --base <other checkout> --rounds 5 --warm 5',
    about:
      'callgrind counts of the instructions one `readToolCalls()` run of each scenario takes, this checkout against another build: steadier than wall time on a shared machine, though not exact (compare the rows of one run).',
  },
  {
    name: 'ab',
    title: 'Same-process A/B against another build',
    command: 'node --expose-gc bench/steady-ab.mjs all 30 --base <other checkout> --both --write',
    about: '`readToolCalls()` of this checkout and of another build, loaded in one process and run alternately: far less noisy than separate processes, for regression checks.',
  },
];

/** The GitHub anchor of a heading. */
export function slug(title) {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** A markdown link to section `name` of the page (for a section's body to point at another). */
export function sectionLink(name, text) {
  const section = SECTIONS.find((s) => s.name === name);
  if (section === undefined) throw new Error(`bench/page.mjs: no section ${name}`);
  return `[${text ?? section.title}](#${slug(section.title)})`;
}

/** The commit the working tree is at (short hash, "+ local changes" when tracked files differ), or `unknown`. */
export function currentCommit(root = ROOT) {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const hash = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? hash : `${hash}+local-changes`;
  } catch {
    return 'unknown';
  }
}

/** One result file's text: the measured-on line, then the body. */
export function resultText(body, commit, date) {
  return `<!-- measured: ${commit} ${date} -->\n${body.trim()}\n`;
}

/** A result file's commit, date and body (`undefined` fields when its first line is not the measured-on line). */
export function parseResult(text) {
  const match = /^<!-- measured: (\S+)(?: (\S+))? -->\n/.exec(text);
  return match === null ? { commit: undefined, date: undefined, body: text.trim() } : { commit: match[1], date: match[2], body: text.slice(match[0].length).trim() };
}

/** The scenarios of the headline table, in order, with the words that say what each is. */
export const HEADLINE_SCENARIOS = [
  ['chatty', 'chatty (1 call, 1–8 char fragments)'],
  ['parallel', 'parallel (8 interleaved calls, escapes, UTF-8)'],
  ['bulk', 'bulk (5 MB in 64 KB fragments)'],
  ['anthropic', 'anthropic'],
  ['responses', 'responses'],
  ['chatty-16x', 'chatty 16x (21 MB)'],
];

/** The rows of the headline, by the implementation labels of bench/run.mjs's tables. */
const HEADLINE_ROWS = {
  library: 'rxjs-tool-calls readToolCalls',
  live: "readToolCalls + partial (snapshots: 'live')",
  sdk: 'official SDK (openai / @anthropic-ai/sdk)',
  ai: 'Vercel AI SDK streamText',
};

/**
 * The headline table (the README's, and the top of the page), read from the pipeline section's
 * per-scenario tables: ratios to the floor, steady and after a forced GC. `undefined` when the
 * pipeline section is not measured or lacks a scenario or row.
 */
export function headlineTable(results = readResults()) {
  const text = results.pipeline;
  if (text === undefined) return undefined;
  const { body } = parseResult(text);
  const cells = (scenario, label) => {
    const at = body.indexOf(`\n#### ${scenario}\n`);
    if (at === -1) return undefined;
    const next = body.indexOf('\n####', at + 1);
    const row = body
      .slice(at, next === -1 ? undefined : next)
      .split('\n')
      .find((line) => line.startsWith(`| ${label} |`));
    if (row === undefined) return undefined;
    // | implementation | runs | median ms | min–max ms | MB/s | × floor | steady ms | steady × floor | peak heap Δ MB |
    const c = row.split('|').map((x) => x.trim());
    return { afterGc: c[6], steady: c[8] };
  };
  const lines = ["| scenario | `readToolCalls` steady / after a forced GC | partial values (`snapshots: 'live'`) steady | openai SDK | Vercel AI SDK |", '|---|---:|---:|---:|---:|'];
  for (const [scenario, words] of HEADLINE_SCENARIOS) {
    const row = Object.fromEntries(Object.entries(HEADLINE_ROWS).map(([k, label]) => [k, cells(scenario, label)]));
    if (Object.values(row).some((c) => c === undefined)) return undefined;
    lines.push(`| ${words} | ${row.library.steady} / ${row.library.afterGc} | ${row.live.steady} | ${row.sdk.steady} | ${row.ai.steady} |`);
  }
  const { commit } = parseResult(text);
  return `${lines.join('\n')}\n\nRatios to a hand-written loop that decodes the same calls and does nothing else (the floor; lower is faster), medians of interleaved runs on seeded scenarios in random 1–16,384-byte network chunks, measured on commit \`${commit ?? 'unknown'}\`. "Steady": a process that keeps streaming; "after a forced GC": each run right after a full GC with no stream open, which frees the hidden classes V8 optimised the library's code for, so that run also pays for compiling it again (builds before 0.2 kept streams of their own open to avoid it).`;
}

/** The page, from the result files' texts by section name (a missing one: not measured yet). */
export function pageText(results) {
  const unknown = Object.keys(results).filter((name) => !SECTIONS.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`bench/page.mjs: results without a section: ${unknown.join(', ')}`);
  const parts = [
    '# Benchmarks',
    '',
    '<!-- Generated by `node bench/page.mjs` from bench/results/*.md: do not edit; re-run the benchmark instead. -->',
    '',
    'What the library costs against the least work that gives the same answer (the **floor**: a hand-written loop',
    'for that one job), and against other libraries, on this repository’s seeded scenarios. Each section is written by',
    'one script and says the commit it was measured on; figures of different sections may come from different',
    'commits and runs. The machine is a shared 2-core VM: compare ratios within one table, not milliseconds across',
    'tables.',
    '',
    '```sh',
    'npm run build && npm run bench     # every section but the A/B and the framings (hours)',
    'npm run bench -- --quick           # bench/run.mjs only accepts --quick: 3 runs after 1 warm-up',
    'node bench/page.mjs                # re-assemble this page from bench/results/',
    '```',
    '',
    'Each script writes bench/results/NAME.md (`--no-write`: print only) and re-assembles this page.',
    '',
    ...SECTIONS.map((s) => `- [${s.title}](#${slug(s.title)}) · \`${s.command}\``),
  ];
  const headline = headlineTable(results);
  if (headline !== undefined) parts.push('', '## Headline', '', headline);
  for (const section of SECTIONS) {
    parts.push('', `## ${section.title}`, '', section.about, '');
    const text = results[section.name];
    if (text === undefined) {
      parts.push(`Not measured yet: run \`${section.command}\`.`);
      continue;
    }
    const { commit, date, body } = parseResult(text);
    parts.push(`Measured on commit \`${commit ?? 'unknown'}\`${date === undefined ? '' : ` (${date})`} with \`${section.command}\`.`, '', body);
  }
  return `${parts.join('\n')}\n`;
}

/** The result files under `dir`, by section name. */
export function readResults(dir = path.join(ROOT, 'bench/results')) {
  const results = {};
  for (const { name } of SECTIONS) {
    const file = path.join(dir, `${name}.md`);
    if (existsSync(file)) results[name] = readFileSync(file, 'utf8');
  }
  return results;
}

/** Write docs/benchmarks.md from bench/results/ (under `root`). */
export function assemblePage(root = ROOT) {
  const file = path.join(root, 'docs/benchmarks.md');
  writeFileSync(file, pageText(readResults(path.join(root, 'bench/results'))));
  return file;
}

/**
 * Write section `name`'s result (its body: markdown with headings from ###) as measured on the
 * current commit today, then re-assemble the page.
 *
 * @return The files written (relative to the root).
 */
export function writeSection(name, body, { root = ROOT, commit = currentCommit(root), date = new Date().toISOString().slice(0, 10) } = {}) {
  if (!SECTIONS.some((s) => s.name === name)) throw new Error(`bench/page.mjs: no section ${name}`);
  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.md`), resultText(body, commit, date));
  assemblePage(root);
  return [`bench/results/${name}.md`, 'docs/benchmarks.md'];
}

// `node bench/page.mjs`: re-assemble the page; `node bench/page.mjs --headline`: print the headline
// table (what README.md shows between its BENCH-HEADLINE markers).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv.includes('--headline')) console.log(headlineTable() ?? 'bench/page.mjs: the pipeline section is not measured');
  else console.log(`wrote ${path.relative(ROOT, assemblePage())}`);
}
