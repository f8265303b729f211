/** Test helpers for SSE: run chunks through `decodeSse()` / `SseParser`, split input into chunks. */
import { from } from 'rxjs';
import { decodeSse, type DecodeSseOptions, type FramedRecord } from 'rxjs-tool-calls';
import { SseParser } from 'rxjs-tool-calls/advanced';

export type Chunk = Uint8Array | string;

const encoder = new TextEncoder();

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** An expected event, with `message`/`undefined` defaults. */
export function sse(data: string, fields: Partial<FramedRecord> = {}): FramedRecord {
  return { event: 'message', data, id: undefined, retry: undefined, ...fields };
}

/** Run `chunks` through `decodeSse()` synchronously; returns the events and the error, if any. */
export function decodeAll(chunks: ReadonlyArray<Chunk>, options?: DecodeSseOptions): { events: FramedRecord[]; error: unknown; completed: boolean } {
  const events: FramedRecord[] = [];
  let error: unknown;
  let completed = false;
  from(chunks)
    .pipe(decodeSse(options))
    .subscribe({ next: (e) => events.push(e), error: (e: unknown) => (error = e), complete: () => (completed = true) });
  return { events, error, completed };
}

/** The events of `chunks`, failing the test on an error. */
export function events(...chunks: Chunk[]): FramedRecord[] {
  const result = decodeAll(chunks);
  if (result.error !== undefined) throw result.error;
  return result.events;
}

/** Run `chunks` through a bare {@link SseParser}. */
export function parseAll(chunks: Iterable<Chunk>, parser = new SseParser()): FramedRecord[] {
  const out: FramedRecord[] = [];
  const onEvent = (e: FramedRecord): void => {
    out.push(e);
  };
  for (const chunk of chunks) parser.push(chunk, onEvent);
  parser.end(onEvent);
  return out;
}

/** Split `bytes` at the given cut points (sorted, deduplicated, inside the array). */
export function splitAt(bytes: Uint8Array, cuts: ReadonlyArray<number>): Uint8Array[] {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  out.push(bytes.subarray(prev));
  return out;
}
