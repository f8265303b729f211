/**
 * Child process of `spec/fuzz/hostileWings.spec.ts` (bundled with esbuild, run with a heap limit):
 * one hostile-input case of the wings (request translators, schema conversion, retry waits,
 * `costOf`, the CLI) at four sizes that double, each timed (the best of three runs after a
 * warm-up). Prints one JSON line: `{ case, runs: [{ n, ms, outcome }], heapMb }`.
 *
 * An outcome is `ok`, `typed:<code>` (a `ToolStreamError`), `raw:<name>` (anything else thrown), or
 * what a case reports of itself (`retried`, `not-retried`, `clean`, `escape-sequence`).
 *
 * Imports only public entries (the sources of `rxjs-tool-calls`, `/advanced`, `/gateway`, `/tools`)
 * and the CLI's `main`, so the same file measures another checkout.
 *
 * Arguments: the case name.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { isToolStreamError, retryStream } from '../../../src/index';
import { httpProviderError } from '../../../src/advanced';
import { costOf, fromAnthropicRequest, toAnthropicRequest, toGeminiInteractionsRequest, toGeminiRequest, toResponsesRequest } from '../../../src/gateway/index';
import { toGeminiSchema, toolSpecs } from '../../../src/tools/index';
import { allowsStrict } from '../../../src/tools/specs/shared';
import { main } from '../../../src/cli';

type Outcome = string;

/** Timed runs after the warm-up: the best CPU time is kept. */
const REPEATS = 3;

/** What a call ended with; `check`: the value must be writable as JSON too (a request that cannot be sent is a failure). */
function outcomeOf(check: boolean, run: () => unknown): Outcome {
  try {
    const value = run();
    if (check) JSON.stringify(value);
    return 'ok';
  } catch (error) {
    if (isToolStreamError(error)) return `typed:${error.code}`;
    return `raw:${error instanceof Error ? error.name : typeof error}`;
  }
}

const user = { role: 'user', content: 'Hi' } as const;

function chatWithCalls(n: number): Parameters<typeof toResponsesRequest>[0] {
  const ids = Array.from({ length: n }, (_, i) => `c${i}`);
  return {
    model: 'm',
    messages: [
      user,
      { role: 'assistant', content: null, tool_calls: ids.map((id) => ({ id, type: 'function' as const, function: { name: 'f', arguments: '{"a":1}' } })) },
      ...ids.map((id) => ({ role: 'tool' as const, tool_call_id: id, content: 'r' })),
    ],
  };
}

function nestedText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function nestedObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

function withArguments(args: string): Parameters<typeof toResponsesRequest>[0] {
  return { model: 'm', messages: [user, { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: args } }] }] };
}

/** One case: the sizes it doubles through, a setup (untimed) and the run (timed) at a size. */
interface Case {
  readonly sizes: readonly number[];
  readonly setup: (n: number) => unknown;
  readonly run: (input: unknown, check: boolean) => Outcome | Promise<Outcome>;
}

const CASES: Record<string, Case> = {
  'responses: calls and results': { sizes: [25_000, 50_000, 100_000, 200_000], setup: chatWithCalls, run: (r, check) => outcomeOf(check, () => toResponsesRequest(r as never)) },
  'anthropic: calls and results': {
    sizes: [25_000, 50_000, 100_000, 200_000],
    setup: chatWithCalls,
    run: (r, check) => outcomeOf(check, () => toAnthropicRequest(r as never, { defaultMaxTokens: 64 })),
  },
  'gemini: calls and results': { sizes: [25_000, 50_000, 100_000, 200_000], setup: chatWithCalls, run: (r, check) => outcomeOf(check, () => toGeminiRequest(r as never)) },
  'gemini-interactions: calls and results': { sizes: [25_000, 50_000, 100_000, 200_000], setup: chatWithCalls, run: (r, check) => outcomeOf(check, () => toGeminiInteractionsRequest(r as never)) },
  'fromAnthropic: tool_use and tool_result blocks': {
    sizes: [25_000, 50_000, 100_000, 200_000],
    setup: (n) => {
      const ids = Array.from({ length: n }, (_, i) => `t${i}`);
      return {
        model: 'm',
        max_tokens: 64,
        messages: [
          user,
          { role: 'assistant', content: ids.map((id) => ({ type: 'tool_use', id, name: 'f', input: { a: 1 } })) },
          { role: 'user', content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'r' })) },
        ],
      };
    },
    run: (r, check) => outcomeOf(check, () => fromAnthropicRequest(r as never)),
  },
  'roles: an inherited name after n messages': {
    sizes: [25_000, 50_000, 100_000, 200_000],
    setup: (n) => ({ model: 'm', messages: [...Array.from({ length: n }, () => user), { role: 'constructor', content: 'x' }] }),
    run: (r, check) => outcomeOf(check, () => toAnthropicRequest(r as never, { defaultMaxTokens: 64 })),
  },
  'anthropic: arguments nested n deep': {
    sizes: [10_000, 20_000, 40_000, 80_000],
    setup: (n) => withArguments(nestedText(n)),
    run: (r, check) => outcomeOf(check, () => toAnthropicRequest(r as never, { defaultMaxTokens: 64 })),
  },
  'gemini: arguments nested n deep': { sizes: [10_000, 20_000, 40_000, 80_000], setup: (n) => withArguments(nestedText(n)), run: (r, check) => outcomeOf(check, () => toGeminiRequest(r as never)) },
  'gemini-interactions: arguments nested n deep': {
    sizes: [10_000, 20_000, 40_000, 80_000],
    setup: (n) => withArguments(nestedText(n)),
    run: (r, check) => outcomeOf(check, () => toGeminiInteractionsRequest(r as never)),
  },
  'fromAnthropic: tool_use input nested n deep': {
    sizes: [10_000, 20_000, 40_000, 80_000],
    setup: (n) => ({ model: 'm', max_tokens: 64, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: nestedObject(n) }] }] }),
    run: (r, check) => outcomeOf(check, () => fromAnthropicRequest(r as never)),
  },
  'toGeminiSchema: a $ref chain of n hops': {
    sizes: [1_000, 2_000, 4_000, 8_000],
    setup: (n) => {
      const defs: Record<string, unknown> = { D0: { type: 'string' } };
      for (let i = 1; i < n; i++) defs[`D${i}`] = { $ref: `#/$defs/D${i - 1}` };
      return { type: 'object', properties: { a: { $ref: `#/$defs/D${n - 1}` } }, $defs: defs };
    },
    run: (s, check) => outcomeOf(check, () => toGeminiSchema(s as never)),
  },
  'toGeminiSchema: allOf of two references, n levels': {
    sizes: [16, 32, 64, 128],
    setup: (n) => {
      const defs: Record<string, unknown> = { A0: { type: 'object', properties: { x: { type: 'string' } } } };
      for (let i = 1; i <= n; i++) defs[`A${i}`] = { allOf: [{ $ref: `#/$defs/A${i - 1}` }, { $ref: `#/$defs/A${i - 1}` }] };
      return { $ref: `#/$defs/A${n}`, $defs: defs };
    },
    run: (s, check) => outcomeOf(check, () => toGeminiSchema(s as never)),
  },
  'toGeminiSchema: items nested n deep': {
    sizes: [3_000, 6_000, 12_000, 24_000],
    setup: (n) => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 1; i < n; i++) schema = { type: 'array', items: schema };
      return schema;
    },
    run: (s, check) => outcomeOf(check, () => toGeminiSchema(s as never)),
  },
  'toolSpecs: a strict schema of n properties': {
    sizes: [25_000, 50_000, 100_000, 200_000],
    setup: (n) => {
      const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }]));
      return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    },
    run: (s, check) => outcomeOf(check, () => (allowsStrict(s as never) ? toolSpecs({ wide: { parameters: s as never } }, 'openai-chat') : 'not strict')),
  },
  'retry: Retry-After of n digits': {
    sizes: [100, 200, 400, 800],
    setup: (n) => '9'.repeat(n),
    run: async (digits) => {
      let attempts = 0;
      const seconds = Number(digits as string);
      try {
        await lastValueFrom(
          retryStream(
            () => {
              attempts++;
              return Promise.reject(httpProviderError(429, '{"error":{"message":"slow down"}}', '', 'http', seconds * 1000));
            },
            { backoff: () => 0, maxRetryAfterMs: Infinity },
          ).pipe(toArray()),
        );
        return 'completed';
      } catch (error) {
        return attempts === 1 && isToolStreamError(error, 'provider-error') ? 'not-retried' : `retried (${attempts} attempts)`;
      }
    },
  },
  'costOf: a price of n digits': {
    sizes: [10_000, 20_000, 40_000, 80_000],
    setup: (n) => '1'.repeat(n),
    run: (p, check) => outcomeOf(check, () => costOf({ inputTokens: 1 }, { input: p as string, output: 1 })),
  },
  'costOf: a round.mode typo': {
    sizes: [1, 2, 4, 8],
    setup: (n) => Array.from({ length: n * 2_000 }, (_, i) => ['half_up', 'HALF-UP', 'ceil', ''][i % 4]),
    run: (modes) => {
      const seen = new Set<Outcome>();
      for (const mode of modes as string[]) seen.add(outcomeOf(false, () => costOf({ outputTokens: 1_000_000 }, { input: 0, output: '0.125' }, { round: { places: 2, mode: mode as 'up' } })));
      return [...seen].join(',');
    },
  },
  'cli: a recording of n escape sequences': {
    sizes: [2_000, 4_000, 8_000, 16_000],
    setup: (n) => {
      const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const hostile = '\u001b]0;title\u0007\u001b[2J\u001b]52;c;AAAA\u0007\u009b2J\u202e';
      const events = [chunk({ role: 'assistant' })];
      for (let i = 0; i < n; i++) events.push(chunk({ content: `${hostile} ${i} ` }));
      events.push(chunk({ tool_calls: [{ index: 0, id: `id${hostile}`, type: 'function', function: { name: `f${hostile}`, arguments: '{}' } }] }), chunk({}, 'tool_calls'), 'data: [DONE]\n\n');
      return events;
    },
    run: async (events) => {
      let out = '';
      await main(['-'], {
        stdout: (t) => (out += t),
        stderr: (t) => (out += t),
        stdin: (async function* () {
          yield* events as string[];
        })(),
      });
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/.test(out) ? 'escape-sequence' : 'clean';
    },
  },
};

/** CPU milliseconds (user + system) since `start`: steadier than wall time on a shared machine. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** How many runs one timing takes: enough that the smallest size takes about 20 ms of CPU (at most 10,000). */
async function batchFor(c: Case, n: number): Promise<number> {
  const input = c.setup(n);
  await c.run(input, false);
  const start = process.cpuUsage();
  let runs = 0;
  while (runs < 10_000 && cpuMs(start) < 20) {
    await c.run(input, false);
    runs++;
  }
  return Math.max(1, runs);
}

async function measure(c: Case, n: number, batch: number): Promise<{ n: number; ms: number; outcome: Outcome }> {
  const input = c.setup(n);
  const outcome = await c.run(input, true); // warm-up, and the outcome (with the request written as JSON)
  let best = Infinity;
  for (let i = 0; i < REPEATS; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const start = process.cpuUsage();
    for (let j = 0; j < batch; j++) await c.run(input, false);
    best = Math.min(best, cpuMs(start) / batch);
  }
  return { n, ms: Math.round(best * 1000) / 1000, outcome };
}

async function runCase(name: string): Promise<void> {
  const c = CASES[name];
  if (c === undefined) throw new Error(`no case ${JSON.stringify(name)}; cases: ${Object.keys(CASES).join(' | ')}`);
  const batch = await batchFor(c, c.sizes[0] as number);
  const runs = [];
  for (const n of c.sizes) {
    runs.push(await measure(c, n, batch));
    // Partial results survive a later size that crashes or times out.
    process.stderr.write(`${JSON.stringify(runs[runs.length - 1])}\n`);
  }
  process.stdout.write(`${JSON.stringify({ case: name, batch, runs, heapMb: Math.round(process.memoryUsage().heapUsed / 1e6) })}\n`);
}

const [which = ''] = process.argv.slice(2);
if (which === '--list') process.stdout.write(`${JSON.stringify(Object.keys(CASES))}\n`);
else void runCase(which);
