/**
 * Where a framing's parser puts the records it reads (an SSE event, an AWS event-stream frame, an
 * NDJSON line, a JSON-array element): a function, or an observer's `next` (a pipeline stage hands
 * over its subscriber, so no closure is made per stream).
 *
 * @module
 */
import type { FramedRecord } from '../events';

/** Receives each record a framing's parser reads. */
export type RecordSink =
  | ((record: FramedRecord) => void)
  | {
      /** Receives one record. */
      next(record: FramedRecord): void;
    };

/** Hand one record to a sink. */
export function deliver(sink: RecordSink, record: FramedRecord): void {
  if (typeof sink === 'function') sink(record);
  else sink.next(record);
}
