/**
 * Shared pieces of the `textToolCalls()` specs: event builders, and a synchronous run of text
 * deltas through `textToolCalls()` + `toolCalls()` that collects what a user would see.
 */
import { catchError, connect, EMPTY, from, map, merge, type Observable } from 'rxjs';
import { type FinishReason, type StreamEvent, type ToolCallResult, toolCalls } from 'rxjs-tool-calls';
import { textToolCalls, type TextToolCallsOptions } from 'rxjs-tool-calls/text';
import { plain } from '../helpers/plain';

/** A `text-delta` of `choice`. */
export const text = (t: string, choice = 0): StreamEvent => ({ type: 'text-delta', choice, text: t });
/** A `finish` with `reason` (raw reason: the OpenAI spelling). */
export const finish = (reason: FinishReason = 'stop', choice = 0): StreamEvent => ({ type: 'finish', choice, reason, rawReason: reason === 'tool-calls' ? 'tool_calls' : reason });
/** The terminator. */
export const done: StreamEvent = { type: 'done' };

/** What one run produced, in comparable form. */
export interface TextRun {
  /** Every event `textToolCalls()` emitted, in order. */
  readonly events: StreamEvent[];
  /** The visible text, concatenated. */
  readonly visible: string;
  /** The reasoning text, concatenated. */
  readonly reasoning: string;
  /** `toolCalls()`'s results, plain (ids generated `gen_0`, `gen_1`, … ; metadata dropped). */
  readonly results: unknown[];
  /** The finish reasons that came out. */
  readonly finishes: string[];
  /** The error the run ended with, if any. */
  readonly error: unknown;
}

/** Run the source through `textToolCalls(options)` and `toolCalls()`, synchronously. */
export function runEvents(source: Observable<StreamEvent>, options?: TextToolCallsOptions): TextRun {
  const events: StreamEvent[] = [];
  const results: ToolCallResult[] = [];
  let n = 0;
  let error: unknown;
  source
    .pipe(
      textToolCalls(options),
      connect((events$) =>
        merge(
          // the events branch leaves the error to the results branch, which reports open calls first
          events$.pipe(
            map((event) => ({ event })),
            catchError(() => EMPTY),
          ),
          events$.pipe(
            toolCalls({ generateId: () => `gen_${n++}` }),
            map((result) => ({ result })),
          ),
        ),
      ),
    )
    .subscribe({
      next: (item) => {
        if ('event' in item) events.push(item.event);
        else results.push(item.result);
      },
      error: (e: unknown) => (error = e),
    });
  let visible = '';
  let reasoning = '';
  const finishes: string[] = [];
  for (const e of events) {
    if (e.type === 'text-delta') visible += e.text;
    else if (e.type === 'reasoning-delta') reasoning += e.text;
    else if (e.type === 'finish') finishes.push(e.reason);
  }
  return { events, visible, reasoning, results: results.map(plain), finishes, error };
}

/** Run text deltas (then `finish: stop` and `done`) through `textToolCalls(options)` and `toolCalls()`. */
export function runText(chunks: readonly string[], options?: TextToolCallsOptions): TextRun {
  return runEvents(from([...chunks.map((c) => text(c)), finish('stop'), done]), options);
}

/** The successful calls of a run as `{ name, arguments }`; fails the test on a failed call. */
export function callsOf(run: TextRun): Array<{ name: string; arguments: unknown }> {
  return run.results.map((r) => {
    const ok = (r as { ok?: { name: string; arguments: unknown } }).ok;
    if (ok === undefined) throw new Error(`a call failed: ${JSON.stringify(r)}`);
    return { name: ok.name, arguments: ok.arguments };
  });
}

/** `text` cut at the given positions. */
export function cutAt(t: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (t.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(t.slice(prev, p));
    prev = p;
  }
  out.push(t.slice(prev));
  return out;
}

/** One SSE `data:` event of a JSON payload. */
export const sse = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

/** Ollama 0.x `/v1/chat/completions`: `role` on every delta, `system_fingerprint: fp_ollama`, `stop` even for calls. */
export function ollama(model: string, tokens: readonly string[]): string {
  const base = { id: 'chatcmpl-417', object: 'chat.completion.chunk', created: 1733000000, model, system_fingerprint: 'fp_ollama' };
  const chunks = tokens.map((content) => sse({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }] }));
  chunks.push(sse({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'stop' }] }));
  return `${chunks.join('')}data: [DONE]\n\n`;
}
