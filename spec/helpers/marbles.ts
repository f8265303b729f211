/** Test-only helpers for marble tests: the one TestScheduler factory of the specs. */
import { TestScheduler } from 'rxjs/testing';
import type { FramedRecord } from 'rxjs-tool-calls';
import { toolStreamErrorMatcher } from 'rxjs-tool-calls/marbles';
import { plainValue } from './plain';

/**
 * A TestScheduler that compares with Jest's deep equality, typed errors by code and fields (without
 * their stacks): the matcher `rxjs-tool-calls/marbles` ships to users. `'plain'`: results and errors
 * compared as `plainValue()` reduces them (code and call identity), for diagrams that write them short.
 */
export function testScheduler(compare: 'typed' | 'plain' = 'typed'): TestScheduler {
  if (compare === 'typed') return new TestScheduler(toolStreamErrorMatcher((actual, expected) => expect(actual).toEqual(expected)));
  return new TestScheduler((actual, expected) => {
    const norm = (frames: Array<{ frame?: number; notification?: { kind: string; value?: unknown; error?: unknown } }>) =>
      frames.map((f) => (f.notification === undefined ? f : { frame: f.frame, kind: f.notification.kind, value: plainValue(f.notification.value), error: plainValue(f.notification.error) }));
    expect(norm(actual as never)).toEqual(norm(expected as never));
  });
}

/** One SSE event whose data is `payload` serialised (or the string itself). */
export function sse(event: string, payload: unknown): FramedRecord {
  return { event, data: typeof payload === 'string' ? payload : JSON.stringify(payload), id: undefined, retry: undefined };
}
