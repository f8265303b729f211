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
 * It is made in a microtask after the first subscription that needs it (the first stream's own
 * synchronous work does not wait for it), its output goes nowhere, and a failure only forgets it.
 *
 * @module
 */
import { Subject, type Observer } from 'rxjs';
import { LazyStage, stageOperator } from './stage';

/** pipeline (its build function) → format name → the resident's input (`null` while it is being made, or when it failed). */
const residents = new Map<unknown, Map<unknown, Subject<Uint8Array> | null>>();

/**
 * Make the resident stream of `build` for `format`, once.
 *
 * @param build The pipeline's stage chain (what `readToolCalls()` / `readStreamEvents()` build per subscription).
 * @param format The name of the format it is used with (`'auto'` for auto-detection): one resident each.
 * @param params `build`'s options for the resident (the format only: no user callbacks or limits).
 * @param wire The format's warm-up stream.
 */
export function keepResident<O, P>(build: (out: Observer<O>, params: P) => Observer<Uint8Array | string>, format: string, params: P, wire: string): void {
  let byFormat = residents.get(build);
  if (byFormat === undefined) residents.set(build, (byFormat = new Map()));
  else if (byFormat.has(format)) return;
  const made = byFormat;
  made.set(format, null); // made once: a resident that fails is not tried again
  void Promise.resolve().then(() => {
    try {
      const input = new Subject<Uint8Array>();
      made.set(format, input);
      input.pipe(stageOperator<Uint8Array | string, O>((out) => new LazyStage(out, build, params))).subscribe({ error: () => made.set(format, null) });
      const encoder = new TextEncoder();
      for (const event of wire.split(/(?<=\n\n)/)) if (made.get(format) === input) input.next(encoder.encode(event));
    } catch {
      made.set(format, null);
    }
  });
}

/** How many resident streams are open (for the specs). */
export function residentCount(): number {
  let count = 0;
  for (const byFormat of residents.values()) for (const input of byFormat.values()) if (input !== null && !input.closed && input.observed) count++;
  return count;
}
