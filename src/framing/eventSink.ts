/**
 * Where a framing's parser puts the records it reads: a handler, or an observer's `next` (a
 * pipeline stage hands over its subscriber, so no closure is made per stream).
 *
 * @module
 */
import type { SseEvent } from '../events';

/** Receives each record a framing parser reads, as an {@link SseEvent}. */
export type EventSink =
  | ((event: SseEvent) => void)
  | {
      /** Receives one record. */
      next(event: SseEvent): void;
    };

/** Hand one record to a sink. */
export function deliver(sink: EventSink, event: SseEvent): void {
  if (typeof sink === 'function') sink(event);
  else sink.next(event);
}
