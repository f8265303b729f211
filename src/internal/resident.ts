/**
 * Resident streams: per pipeline and format, one subscription that reads a short stream of that
 * format (`WireFormatDefinition.warmup`, stopping inside a tool call) and is never completed.
 *
 * V8's optimised code for the hot path depends on the hidden classes of the per-stream objects
 * (the rxjs subscriber, the stages, the SSE parser, the decoder, the tracker, the calls). A hidden
 * class is collected with the last object that has it, and the code built on it is thrown away: a
 * process that runs a full GC while no stream is open (a server between two requests) then re-warms
 * the whole path on its next stream, at several times the cost of a hand-written loop. A resident
 * stream keeps one object of each kind alive, about 3 KB per pipeline and format used.
 *
 * Pipelines of events (`partialToolCalls()`, `partialObject()`) keep theirs the same way, fed
 * events that leave a tool call (or a document) open.
 *
 * It is made in a microtask after the first subscription that needs it (the first stream's own
 * synchronous work does not wait for it), its output goes nowhere, and a failure only forgets it.
 *
 * Warm-up: in the same microtask, before the resident, the pipeline reads a whole short stream of
 * the format once, to its end, and drops it. V8 compiles a function the first time it runs; a
 * stream's bytes come from a socket, at least one turn of the event loop after its subscription, so
 * the first stream of a process finds the whole path (the end of a stream included) compiled
 * instead of compiling about 140 functions while it reads (README, "Many open streams").
 *
 * @module
 */
import { Subject, type OperatorFunction } from 'rxjs';

/** key (the pipeline: its build function, or the operator) → variant (format name) → the resident's input (`null` while it is being made, or when it failed). */
const residents = new Map<unknown, Map<string, Subject<unknown> | null>>();

/**
 * Make the resident stream of the pipeline `key` for `variant`, once: in a microtask, `read()`
 * subscribed to a subject that is fed `inputs()` and never completed.
 *
 * @param key The pipeline (what its subscriptions share, e.g. the stage chain's build function).
 * @param variant One resident per variant (the format name, `'auto'` for auto-detection).
 * @param read The operator of the resident (made with the format only: no user callbacks or limits).
 * @param inputs What the resident reads: a warm-up stream that stops inside a tool call.
 * @param whole A stream read once to its end before the resident is made (the warm-up), or nothing.
 */
export function keepResident<I>(key: unknown, variant: string, read: () => OperatorFunction<I, unknown>, inputs: () => Iterable<I>, whole?: () => Iterable<I>): void {
  let byVariant = residents.get(key);
  if (byVariant === undefined) residents.set(key, (byVariant = new Map()));
  else if (byVariant.has(variant)) return;
  const made = byVariant;
  made.set(variant, null); // made once: a resident that fails is not tried again
  void Promise.resolve().then(() => {
    if (whole !== undefined) warmUp(read, whole);
    try {
      const input = new Subject<I>();
      made.set(variant, input as Subject<unknown>);
      input.pipe(read()).subscribe({ error: () => made.set(variant, null) });
      for (const value of inputs()) if (made.get(variant) === input) input.next(value);
    } catch {
      made.set(variant, null);
    }
  });
}

/** Whether `keepResident(key, variant, …)` was called already (to skip building its arguments). */
export function hasResident(key: unknown, variant: string): boolean {
  return residents.get(key)?.has(variant) === true;
}

/** Read `whole()` through `read()` to its end, output and errors dropped. */
function warmUp<I>(read: () => OperatorFunction<I, unknown>, whole: () => Iterable<I>): void {
  try {
    const input = new Subject<I>();
    input.pipe(read()).subscribe({ error: () => undefined });
    for (const value of whole()) input.next(value);
    input.complete();
  } catch {
    // a warm-up that fails has compiled what it ran; the resident is made all the same
  }
}

/** A format's warm-up stream (SSE text) as the byte chunks of a resident, one event each. */
export function warmupChunks(wire: string): Uint8Array[] {
  const encoder = new TextEncoder();
  return wire.split(/(?<=\n\n)/).map((event) => encoder.encode(event));
}

/** How many resident streams are open (for the specs). */
export function residentCount(): number {
  let count = 0;
  for (const byVariant of residents.values()) for (const input of byVariant.values()) if (input !== null && !input.closed && input.observed) count++;
  return count;
}
