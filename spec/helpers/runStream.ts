import { catchError, connect, EMPTY, from, map, merge, type Observable } from 'rxjs';
import { readStreamEvents, type ReadStreamEventsOptions, type StreamEvent, type ToolCallResult, toolCalls, type ToolCallsOptions } from 'rxjs-tool-calls';

/** What one run of the whole pipeline produced. */
export interface RunOutcome {
  readonly results: ToolCallResult[];
  readonly text: string;
  readonly reasoning: string;
  readonly finishReason: string | null;
  readonly events: StreamEvent[];
  readonly error: unknown;
  readonly completed: boolean;
}

type Item = { kind: 'event'; event: StreamEvent } | { kind: 'result'; result: ToolCallResult };

const READ_KEYS = ['provider', 'idleTimeoutMs', 'maxEventSize', 'maxFrameSize', 'maxLineSize', 'maxElementSize'] as const;

/** The options of `readStreamEvents()` among `options` (each operator takes only its own). */
export function readOptionsOf(options: ReadStreamEventsOptions & ToolCallsOptions): ReadStreamEventsOptions {
  return Object.fromEntries(Object.entries(options).filter(([key]) => (READ_KEYS as readonly string[]).includes(key))) as ReadStreamEventsOptions;
}

/** The options of `toolCalls()` among `options`. */
export function callOptionsOf(options: ReadStreamEventsOptions & ToolCallsOptions): ToolCallsOptions {
  return Object.fromEntries(Object.entries(options).filter(([key]) => !(READ_KEYS as readonly string[]).includes(key))) as ToolCallsOptions;
}

/** Feed chunks through readStreamEvents + toolCalls synchronously and collect everything. */
export function runChunks(chunks: ReadonlyArray<Uint8Array | string>, options: ReadStreamEventsOptions & ToolCallsOptions = {}): RunOutcome {
  return runObservable(from(chunks), options);
}

export function runObservable(bytes$: Observable<Uint8Array | string>, options: ReadStreamEventsOptions & ToolCallsOptions = {}): RunOutcome {
  const results: ToolCallResult[] = [];
  const events: StreamEvent[] = [];
  let text = '';
  let reasoning = '';
  let finishReason: string | null = null;
  let error: unknown;
  let completed = false;
  let n = 0;
  bytes$
    .pipe(
      readStreamEvents(readOptionsOf(options)),
      connect((events$) =>
        merge(
          // The events branch leaves the error to the results branch: erroring first would end the
          // merge before toolCalls() reported the open calls as incomplete.
          events$.pipe(
            map((event): Item => ({ kind: 'event', event })),
            catchError(() => EMPTY),
          ),
          events$.pipe(
            toolCalls({ generateId: () => `gen_${n++}`, ...callOptionsOf(options) }),
            map((result): Item => ({ kind: 'result', result })),
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
        const e = item.event;
        events.push(e);
        if (e.type === 'text-delta') text += e.text;
        else if (e.type === 'reasoning-delta') reasoning += e.text;
        else if (e.type === 'finish') finishReason = e.rawReason;
      },
      error: (e: unknown) => (error = e),
      complete: () => (completed = true),
    });
  return { results, text, reasoning, finishReason, events, error, completed };
}
