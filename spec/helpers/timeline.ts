/**
 * Byte-by-byte runs that record *when* things happen: for every result, tool-call update and
 * meaningful SSE event, the number of bytes that had arrived when it was emitted. The truncation
 * tests use it as the oracle for "which calls were complete before the cut".
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { connect, map, merge, Subject } from 'rxjs';
import { decodeSse, isToolStreamError, readStreamEvents, type ToolCallResult, type ToolCallUpdate } from 'rxjs-tool-calls';
import { detectFormat } from 'rxjs-tool-calls/advanced';
import { toolCallUpdates } from './updates';
import { loadFixtures, loadOwnFixtures } from './fixtures';
import { runChunks, type RunOutcome } from './runStream';

/** Every stream of the suite: our examples, the shared fixtures (read in place) and our own streams of the formats they lack. */
export function allStreams(): Array<[string, Uint8Array]> {
  return [
    ['examples/weather.sse', new Uint8Array(readFileSync(resolve(__dirname, '../../examples/weather.sse')))],
    ...[...loadFixtures(), ...loadOwnFixtures()].map((f): [string, Uint8Array] => [f.name, f.bytes]),
  ];
}

/** A canonical text of everything a run produced (typed errors through their `toJSON`). */
export function fingerprint(outcome: RunOutcome): string {
  return JSON.stringify({ events: outcome.events, results: outcome.results, error: errorPrint(outcome.error), completed: outcome.completed });
}

export function errorPrint(error: unknown): unknown {
  if (error === undefined) return undefined;
  return isToolStreamError(error) ? error.toJSON() : `UNTYPED ${String(error)}`;
}

export interface Timed<T> {
  /** Bytes received when it was emitted; `Infinity` when emitted at the end of input. */
  readonly offset: number;
  readonly value: T;
}

export interface Timeline {
  readonly bytes: Uint8Array;
  readonly results: ReadonlyArray<Timed<string>>;
  readonly updates: ReadonlyArray<Timed<ToolCallUpdate>>;
  /** When the first SSE event that tells the format was dispatched (`Infinity`: never). */
  readonly firstMeaningful: number;
  /** When the `done` event was emitted (`Infinity`: never before the end of input). */
  readonly done: number;
  readonly terminal: { readonly offset: number; readonly error: unknown };
}

/** Feed `bytes` one byte at a time and record when every result and update was emitted. */
export function timeline(bytes: Uint8Array): Timeline {
  let offset = 0;
  const results: Array<Timed<string>> = [];
  const updates: Array<Timed<ToolCallUpdate>> = [];
  let done = Infinity;
  let terminal: { offset: number; error: unknown } | undefined;
  const input = new Subject<Uint8Array>();
  let n = 0;
  input
    .pipe(
      readStreamEvents(),
      connect((events$) =>
        merge(
          events$.pipe(
            toolCallUpdates({ generateId: () => `gen_${n++}` }),
            map((u) => ({ u })),
          ),
          events$.pipe(map((e) => ({ e }))),
        ),
      ),
    )
    .subscribe({
      next(item) {
        if ('e' in item) {
          if (item.e.type === 'done' && done === Infinity) done = offset;
          return;
        }
        updates.push({ offset, value: item.u });
        if (item.u.result !== undefined) results.push({ offset, value: JSON.stringify(item.u.result) });
      },
      error: (error: unknown) => (terminal = { offset, error }),
      complete: () => (terminal = { offset, error: undefined }),
    });
  let firstMeaningful = Infinity;
  const sse = new Subject<Uint8Array>();
  sse.pipe(decodeSse()).subscribe((event) => {
    if (firstMeaningful === Infinity && detectFormat(event) !== undefined) firstMeaningful = offset;
  });
  for (let i = 0; i < bytes.length; i++) {
    offset = i + 1;
    const byte = bytes.subarray(i, i + 1);
    input.next(byte);
    sse.next(byte);
  }
  offset = Infinity;
  input.complete();
  sse.complete();
  if (terminal === undefined) throw new Error('the byte-by-byte run did not terminate');
  return { bytes, results, updates, firstMeaningful, done, terminal };
}

const codeOf = (error: unknown): string => (error === undefined ? 'complete' : isToolStreamError(error) ? error.code : `UNTYPED ${String(error)}`);

/**
 * Run the first `k` bytes as one chunk and check it against the timeline. Returns what is wrong,
 * or `undefined`. The rules:
 * 1. every result emitted by the full run after at most `k` bytes comes first, identical;
 * 2. then every call open after `k` bytes, as `incomplete` (`truncated`) with the id, name and
 *    argument text it had then; then `truncated`;
 * 3. except: a cut after the full run's own error gives that run exactly; a cut before the first
 *    meaningful event gives `unknown-format`; a cut after the terminator completes normally; a
 *    cut after which the format's decoder is satisfied (every choice finished) completes, either
 *    with nothing open or with exactly the full run's results (a chat stream's calls complete at
 *    the end of the stream when every choice finished, the terminator being all that is missing).
 */
export function checkPrefix(t: Timeline, k: number): string | undefined {
  const out = runChunks([t.bytes.subarray(0, k)]);
  if (out.error === undefined && !out.completed) return `k=${k}: neither completed nor errored`;
  if (out.error !== undefined && !isToolStreamError(out.error)) return `k=${k}: untyped error ${String(out.error)}`;
  const got = out.results.map((r: ToolCallResult) => JSON.stringify(r));
  const code = codeOf(out.error);
  if (t.terminal.error !== undefined && t.terminal.offset <= k) {
    const full = t.results.map((r) => r.value);
    if (code !== codeOf(t.terminal.error)) return `k=${k}: expected the full run's ${codeOf(t.terminal.error)}, got ${code}`;
    return same(got, full) ? undefined : `k=${k}: results differ from the full run's`;
  }
  const before = t.results.filter((r) => r.offset <= k).map((r) => r.value);
  if (!same(got.slice(0, before.length), before)) return `k=${k}: the ${before.length} results complete before the cut differ: ${JSON.stringify(got.slice(0, before.length)).slice(0, 400)}`;
  const rest = out.results.slice(before.length);
  if (k < t.firstMeaningful) return code === 'unknown-format' && rest.length === 0 ? undefined : `k=${k}: expected unknown-format before the first event, got ${code}`;
  if (k >= t.done) return code === 'complete' && rest.length === 0 ? undefined : `k=${k}: expected completion after the terminator, got ${code} with ${rest.length} more results`;
  // A chat stream cut after every choice finished is complete (rule `when-complete`): the calls still
  // open at the cut complete then, exactly as the full run completes them at its terminator.
  if (code === 'complete')
    return rest.length === 0 ||
      same(
        got,
        t.results.map((r) => r.value),
      )
      ? undefined
      : `k=${k}: completed with ${rest.length} calls beyond those complete before the cut, unlike the full run`;
  if (code !== 'truncated') return `k=${k}: expected truncated, got ${code}`;
  const open = openCalls(t, k);
  if (rest.length !== open.length) return `k=${k}: ${open.length} calls were open, got ${rest.length} more results`;
  for (let i = 0; i < rest.length; i++) {
    const r = rest[i]!;
    const o = open[i]!;
    if (r.success || r.error.code !== 'incomplete' || r.error.reason !== 'truncated') return `k=${k}: open call ${o.id} is not incomplete/truncated: ${JSON.stringify(r)}`;
    const c = r.error.toolCall;
    if (c.id !== o.id || c.name !== o.name || c.rawArguments !== o.rawArguments) return `k=${k}: open call ${JSON.stringify(o)} reported as ${JSON.stringify(c)}`;
  }
  return undefined;
}

/** The calls opened after at most `k` bytes whose result came later, as they were then. */
function openCalls(t: Timeline, k: number): ToolCallUpdate[] {
  const last = new Map<number, ToolCallUpdate>();
  const closed = new Set<number>();
  for (const u of t.updates) {
    if (u.offset > k) break;
    last.set(u.value.key, u.value);
    if (u.value.result !== undefined) closed.add(u.value.key);
  }
  return [...last.values()].filter((u) => !closed.has(u.key)).sort((a, b) => a.key - b.key);
}

function same(a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
