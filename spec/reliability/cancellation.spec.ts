/**
 * Cancellation: unsubscribing at any point of a stream read through fromReadableStream +
 * readToolCalls (with an idle timeout) cancels the ReadableStream and leaves no timer behind.
 */
import { type Subscription } from 'rxjs';
import { fromReadableStream, idleTimeout, readToolCalls } from 'rxjs-tool-calls';
import { allStreams } from '../helpers/timeline';

const weather = new Map(allStreams()).get('examples/weather.sse')!;
const CHUNK = 97;

/** A pull stream of `bytes` in CHUNK-byte pieces that records when it was cancelled. */
function recorded(bytes: Uint8Array): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean; pulled: () => number } {
  let at = 0;
  let cancelled = false;
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      if (at >= bytes.length) return; // never closes: a connection kept open
      controller.enqueue(bytes.slice(at, at + CHUNK));
      at += CHUNK;
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled, pulled: () => pulls };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('unsubscribing at every point', () => {
  // Every chunk boundary, and once more after the last chunk (the connection kept open).
  const points = Math.ceil(weather.length / CHUNK) + 1;

  it.each([
    ['the idleTimeoutMs option', (s: ReadableStream<Uint8Array>) => fromReadableStream(s).pipe(readToolCalls({ idleTimeoutMs: 60_000 }))],
    ['the idleTimeout() operator on the bytes', (s: ReadableStream<Uint8Array>) => fromReadableStream(s).pipe(idleTimeout(60_000), readToolCalls())],
  ])('%s: cancel() is called and no timer is left, after each chunk', async (_name, pipeline) => {
    // RxJS's asyncScheduler (behind timeout()) schedules with setInterval: track every open one.
    const timers = new Set<unknown>();
    const realSet = global.setInterval;
    const realClear = global.clearInterval;
    jest.spyOn(global, 'setInterval').mockImplementation(((fn: () => void, ms?: number) => {
      const handle = realSet(fn, ms);
      timers.add(handle);
      return handle;
    }) as typeof setInterval);
    jest.spyOn(global, 'clearInterval').mockImplementation(((handle?: NodeJS.Timeout) => {
      timers.delete(handle);
      realClear(handle);
    }) as typeof clearInterval);
    let started = 0;
    try {
      for (let n = 0; n <= points; n++) {
        const source = recorded(weather);
        const subscription: Subscription = pipeline(source.stream).subscribe({ error: () => undefined });
        started += timers.size;
        for (let i = 0; i < 50 && source.pulled() < n + 1; i++) await settle();
        subscription.unsubscribe();
        await settle();
        expect({ n, cancelled: source.cancelled(), timers: timers.size }).toEqual({ n, cancelled: true, timers: 0 });
      }
      expect(started).toBeGreaterThan(points);
    } finally {
      jest.restoreAllMocks();
    }
  });
});
