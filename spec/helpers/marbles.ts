/** Test-only helpers for marble tests of the wire adapters. */
import { TestScheduler } from 'rxjs/testing';
import { type SseEvent } from 'rxjs-tool-calls';

/** A TestScheduler that compares with Jest's deep equality. */
export function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => {
    expect(actual).toEqual(expected);
  });
}

/** One SSE event whose data is `payload` serialised (or the string itself). */
export function sse(event: string, payload: unknown): SseEvent {
  return { event, data: typeof payload === 'string' ? payload : JSON.stringify(payload), id: undefined, retry: undefined };
}
