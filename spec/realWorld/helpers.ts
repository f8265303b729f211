/**
 * Shared helpers of the `spec/realWorld/` suite: streams reconstructed from public bug reports of
 * other clients, each written as our own small SSE text and run through the whole pipeline
 * (bytes → readStreamEvents → toolCalls) under every chunking of `chunkings()` (whole, one byte per
 * chunk, seeded random). Every chunking must give the same outcome; the outcome is then compared
 * with what the identity rules (docs/providers.md) say a correct client reports.
 */
import { catchError, concat, connect, EMPTY, from, map, merge, throwError, type Observable } from 'rxjs';
import { isToolStreamError, readStreamEvents, type StreamEvent, type ToolCallResult, toolCalls } from 'rxjs-tool-calls';
import { sseEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { chunkings } from '../helpers/chunking';
import { runChunks, runObservable, type RunOutcome } from '../helpers/runStream';

/** One result as the suite compares it: a success, or a failure with its code. */
export type CallSummary =
  | {
      readonly id: string;
      readonly name: string;
      readonly args: unknown;
      /** `data.repaired` (`'repeated'` / `'cumulative'` / `'split'`), only when the library repaired the text. */
      readonly repaired?: unknown;
      /** `data.kind` (`'custom'` for a custom tool's call), only when set. */
      readonly kind?: unknown;
    }
  | {
      /** `error.code` as a string (new codes such as `missing-name` do not exist in the union yet). */
      readonly code: string;
      readonly id: string;
      readonly name: string;
      readonly raw: string;
      /** `error.reason` of an `incomplete` failure. */
      readonly reason?: string;
    };

/** What one stream gave, as the suite compares it. */
export interface Summary {
  readonly results: CallSummary[];
  readonly text: string;
  /** The last `finish` of each choice as `reason/raw` (prefixed `choice:` when a choice other than 0 finished); `null` when none. */
  readonly finish: string | null;
  /** `'completed'`, or the `code` of the typed error that ended the stream (`String(error)` for a foreign one). */
  readonly end: string;
}

/**
 * A summary plus the stream's error object (from the whole-text run), for assertions on its fields.
 * `error` is not enumerable, so `expect(run).toEqual(outcome(…))` compares the summary only.
 */
export interface Run extends Summary {
  readonly error: unknown;
}

function withError(summary: Summary, error: unknown): Run {
  return Object.defineProperty({ ...summary }, 'error', { value: error, enumerable: false }) as Run;
}

function summarizeResult(r: ToolCallResult): CallSummary {
  if (r.success) {
    const repaired = (r.data as unknown as Record<string, unknown>)['repaired'];
    return { id: r.data.id, name: r.data.name, args: r.data.arguments, ...(repaired === undefined ? {} : { repaired }), ...(r.data.kind === undefined ? {} : { kind: r.data.kind }) };
  }
  const e = r.error;
  const reason = 'reason' in e ? (e as { reason?: unknown }).reason : undefined;
  return { code: String(e.code), id: e.toolCall.id, name: e.toolCall.name, raw: e.toolCall.rawArguments, ...(typeof reason === 'string' ? { reason } : {}) };
}

function lastFinishes(events: ReadonlyArray<StreamEvent>): string | null {
  const last = new Map<number, string>();
  for (const e of events) if (e.type === 'finish') last.set(e.choice, `${e.reason}/${e.rawReason}`);
  if (last.size === 0) return null;
  if (last.size === 1 && last.has(0)) return last.get(0) ?? null;
  return [...last.entries()]
    .sort(([a], [b]) => a - b)
    .map(([choice, f]) => `${choice}:${f}`)
    .join(' ');
}

function endOf(outcome: Pick<RunOutcome, 'error' | 'completed'>): string {
  if (outcome.completed) return 'completed';
  if (isToolStreamError(outcome.error)) return String(outcome.error.code);
  return outcome.error === undefined ? 'still open' : `foreign: ${String(outcome.error)}`;
}

/** Reduce one run of the pipeline to what the suite compares. */
export function summarize(outcome: RunOutcome): Summary {
  return { results: outcome.results.map(summarizeResult), text: outcome.text, finish: lastFinishes(outcome.events), end: endOf(outcome) };
}

function agree(outcomes: ReadonlyArray<readonly [string, Summary]>): Summary {
  const whole = outcomes[0]?.[1];
  if (whole === undefined) throw new Error('no chunking');
  for (const [how, got] of outcomes) expect({ how, got }).toEqual({ how, got: whole });
  return whole;
}

/** Run the SSE text `wire` under every chunking; all must agree. */
export function runWire(...wire: string[]): Run {
  return runBytes(toBytes(wire.join('')));
}

/** Run `bytes` (any framing: SSE, an AWS event stream, NDJSON) under every chunking; all must agree. */
export function runBytes(bytes: Uint8Array): Run {
  const runs = chunkings(bytes).map(([how, chunks]) => [how, runChunks(chunks)] as const);
  const summary = agree(runs.map(([how, outcome]) => [how, summarize(outcome)] as const));
  return withError(summary, runs[0]?.[1].error);
}

/**
 * Run `wire` under every chunking, delivered by `source(chunks)` (e.g. a source that errors after
 * the last chunk, as a cut connection does), and wait for each run to end; all must agree.
 */
export async function runSource(source: (chunks: Uint8Array[]) => Observable<Uint8Array | string>, ...wire: string[]): Promise<Run> {
  const bytes = toBytes(wire.join(''));
  const runs: Array<readonly [string, RunOutcome]> = [];
  for (const [how, chunks] of chunkings(bytes)) runs.push([how, await collect(source(chunks))]);
  const summary = agree(runs.map(([how, outcome]) => [how, summarize(outcome)] as const));
  return withError(summary, runs[0]?.[1].error);
}

/** Run the whole pipeline over an asynchronous byte source and resolve when it ends (the async twin of `runObservable`). */
export function collect(bytes$: Observable<Uint8Array | string>): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const results: ToolCallResult[] = [];
    const events: StreamEvent[] = [];
    let text = '';
    let reasoning = '';
    let n = 0;
    const done = (error: unknown, completed: boolean): void => {
      const finish = [...events].reverse().find((e) => e.type === 'finish');
      resolve({ results, text, reasoning, finishReason: finish?.type === 'finish' ? finish.rawReason : null, events, error, completed });
    };
    bytes$
      .pipe(
        readStreamEvents(),
        connect((events$) =>
          merge(
            events$.pipe(
              map((event) => ({ kind: 'event' as const, event })),
              catchError(() => EMPTY),
            ),
            events$.pipe(
              toolCalls({ generateId: () => `gen_${n++}` }),
              map((result) => ({ kind: 'result' as const, result })),
            ),
          ),
        ),
      )
      .subscribe({
        next(item) {
          if (item.kind === 'result') {
            results.push(item.result);
            return;
          }
          events.push(item.event);
          if (item.event.type === 'text-delta') text += item.event.text;
          else if (item.event.type === 'reasoning-delta') reasoning += item.event.text;
        },
        error: (e: unknown) => done(e, false),
        complete: () => done(undefined, true),
      });
  });
}

/** Chunks, then the error a cut connection gives (synchronously, as a plain observable). */
export function chunksThenError(chunks: Uint8Array[], error: () => unknown): Observable<Uint8Array> {
  return concat(from(chunks), throwError(error));
}

/** Run the pipeline synchronously over `source` once (no chunkings); for cases where the source is the point. */
export function runOnce(source: Observable<Uint8Array | string>): Run {
  const result = runObservable(source);
  return withError(summarize(result), result.error);
}

/**
 * undici's error for a connection the server closed mid-body: `TypeError: terminated` whose cause
 * is a `SocketError` with `code: 'UND_ERR_SOCKET'` (vercel/ai#9775, ericc-ch/copilot-api#148).
 */
export function undiciTerminated(): TypeError {
  const cause = Object.assign(new Error('other side closed'), { name: 'SocketError', code: 'UND_ERR_SOCKET' });
  return new TypeError('terminated', { cause });
}

// ---------------------------------------------------------------------------------------------
// Literal wire builders for quirks the marbles builders cannot express.
// ---------------------------------------------------------------------------------------------

/** A `chat.completion.chunk` with literal choices. */
export const chat = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
  sseEvent({ data: JSON.stringify({ id: 'chatcmpl-rw', object: 'chat.completion.chunk', created: 0, model: 'm', choices, ...extra }) });

/** Choice 0's delta with tool-call fragments, optionally with a finish reason. */
export const calls = (toolCalls: unknown[], finishReason: string | null = null): string => chat([{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: finishReason }]);

/** Choice 0 with an empty delta and a finish reason. */
export const finishChunk = (reason: string): string => chat([{ index: 0, delta: {}, finish_reason: reason }]);

/** Choice 0 with visible text. */
export const textChunk = (content: string, finishReason: string | null = null): string => chat([{ index: 0, delta: { content }, finish_reason: finishReason }]);

/** One tool-call fragment as the wire writes it; a key is left out when its field is `undefined` (use `null` to send `null`). */
export function tc(fields: { index?: number; id?: string | null; name?: string | null; args?: string | null; type?: boolean }): Record<string, unknown> {
  const fn: Record<string, unknown> = {};
  if (fields.name !== undefined) fn['name'] = fields.name;
  if (fields.args !== undefined) fn['arguments'] = fields.args;
  return {
    ...(fields.index === undefined ? {} : { index: fields.index }),
    ...(fields.id === undefined ? {} : { id: fields.id }),
    ...(fields.type === false ? {} : fields.id === undefined ? {} : { type: 'function' }),
    function: fn,
  };
}

/** A Gemini chunk with raw parts (nameless `functionCall`s, `partialArgs`, …) and optional candidate fields. */
export const gemini = (parts: unknown[], candidate: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): string =>
  sseEvent({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, ...candidate }], ...extra }) });

/** The expected summary of a stream (`text` defaults to `''`). */
export const outcome = (results: CallSummary[], finish: string | null, end = 'completed', text = ''): Summary => ({ results, text, finish, end });

/** Expected success. */
export const ok = (id: string, name: string, args: unknown, repaired?: 'repeated' | 'cumulative' | 'split'): CallSummary => ({ id, name, args, ...(repaired === undefined ? {} : { repaired }) });

/** Expected failure (`reason` only for `incomplete`). */
export const failed = (code: string, id: string, name: string, raw: string, reason?: string): CallSummary => ({ code, id, name, raw, ...(reason === undefined ? {} : { reason }) });
