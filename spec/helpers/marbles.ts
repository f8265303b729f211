/** Test-only helpers for marble tests: the one TestScheduler factory of the specs. */
import { TestScheduler } from 'rxjs/testing';
import type { SseEvent } from 'rxjs-tool-calls';
import { toolStreamErrorMatcher } from 'rxjs-tool-calls/marbles';

/**
 * A TestScheduler that compares with Jest's deep equality, typed errors by code and fields (without
 * their stacks): the matcher `rxjs-tool-calls/marbles` ships to users.
 */
export function testScheduler(): TestScheduler {
  return new TestScheduler(toolStreamErrorMatcher((actual, expected) => expect(actual).toEqual(expected)));
}

/** One SSE event whose data is `payload` serialised (or the string itself). */
export function sse(event: string, payload: unknown): SseEvent {
  return { event, data: typeof payload === 'string' ? payload : JSON.stringify(payload), id: undefined, retry: undefined };
}
