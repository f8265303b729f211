/**
 * WHATWG `ReadableStream` → `Observable<Uint8Array>`.
 *
 * @module
 */
import { Observable } from 'rxjs';
import { addBytes, asConnectionLost } from '../internal/networkError';

/** A `ReadableStream`, or a function that makes a new one for each subscription. */
export type ReadableStreamInput<T> = ReadableStream<T> | (() => ReadableStream<T>);

/**
 * What marks a one-shot source (a stream, an async generator) that a subscription already read:
 * a non-enumerable property on the source itself, so the library keeps no table of its own.
 */
const CONSUMED = Symbol.for('rxjs-tool-calls.consumed');

/** Whether a subscription already read `source`. @internal */
export function isConsumed(source: object): boolean {
  return (source as { readonly [CONSUMED]?: unknown })[CONSUMED] === true;
}

/** Mark `source` as read (it can be read once). @internal */
export function markConsumed(source: object): void {
  try {
    Object.defineProperty(source, CONSUMED, { value: true, configurable: true });
  } catch {
    // a frozen source: a second read then ends at once, as the runtime's own iteration does
  }
}

/** The error a second subscription to a one-shot source gets. @internal */
export function alreadyConsumedError(what: string, hint: string): TypeError {
  return new TypeError(`${what} can be read only once and was already subscribed to; ${hint}`);
}

/**
 * Read a `ReadableStream` (a `fetch` body, a `TransformStream`'s readable side, …) as an observable
 * of its chunks.
 *
 * <span class="informal">Each chunk the stream's reader yields is emitted as it is; unsubscribing
 * cancels the stream, which closes the connection behind a `fetch` body.</span>
 *
 * ```text
 * stream:  --a----b-------c---|
 *   fromReadableStream(stream)
 *          --a----b-------c---|
 *
 * stream:  --a----b-------c--…          (unsubscribed after b)
 *          --a----b-!                   reader.cancel(), lock released
 *
 * stream:  --a----b--X                  X: the read rejects with TypeError: terminated (socket cut)
 *          --a----b--#                  # = connection-lost { byteOffset: |a|+|b|, retryable: true, cause: X }
 * ```
 *
 * 1. Reads with one reader per subscription; a read that rejects becomes the observable's error.
 *    A network failure (the connection was cut mid-body: undici's `TypeError: terminated`, a
 *    browser's `TypeError: network error`, …) becomes a `connection-lost` error (code
 *    `connection-lost`, `retryable: true`, `source: 'fromReadableStream'`, `byteOffset`: the bytes
 *    read before the cut) with the original error as `cause`; any other error passes unchanged.
 * 2. Unsubscribing before the end calls `reader.cancel()` and releases the lock.
 * 3. A `ReadableStream` can be read once: **subscribe once**. A second subscription to the same
 *    stream (or a subscription to a stream locked elsewhere) errors at once with a `TypeError` that
 *    says so. Pass a factory `() => stream` instead to make the source lazy and re-subscribable
 *    (each subscription calls it for a new stream, e.g. `() => makeRequestBody()`).
 *
 * @example
 * ```ts
 * import { fromReadableStream, decodeSse, openaiChat } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * const response = await fetch(url, init);
 * fromReadableStream(response.body!).pipe(decodeSse(), openaiChat()).subscribe(console.log);
 * ```
 *
 * @param input The stream, or a factory called once per subscription.
 * @return An observable of the stream's chunks that completes when the stream closes.
 */
export function fromReadableStream<T = Uint8Array>(input: ReadableStreamInput<T>): Observable<T> {
  return readStream(input, 'fromReadableStream');
}

/**
 * The shared implementation of {@link fromReadableStream}, `fromResponse` and `responseBody`:
 * `source` names the public function on a `connection-lost` error; `cancelled` runs after the
 * reader is cancelled when the subscriber leaves before the end (`fromResponse` aborts its request).
 *
 * @internal
 */
export function readStream<T>(input: ReadableStreamInput<T>, source: string, cancelled?: () => void): Observable<T> {
  return new Observable<T>((subscriber) => {
    let stream: ReadableStream<T>;
    try {
      stream = typeof input === 'function' ? input() : input;
    } catch (error) {
      subscriber.error(error);
      return undefined;
    }
    if (isConsumed(stream) || stream.locked) {
      subscriber.error(
        alreadyConsumedError(
          stream.locked ? 'This ReadableStream is locked to another reader; it' : 'This ReadableStream',
          'pass a factory (() => stream) to fromReadableStream for a source that can be subscribed to more than once',
        ),
      );
      return undefined;
    }
    markConsumed(stream);
    const reader = stream.getReader();
    let finished = false;
    /** Bytes read so far; `undefined` once a chunk is not bytes or text. */
    let bytes: number | undefined = 0;

    const release = (): void => {
      try {
        reader.releaseLock();
      } catch {
        // already released, or a read is still settling: nothing left to free
      }
    };

    const pump = (): void => {
      reader.read().then(
        (result) => {
          if (subscriber.closed) return;
          if (result.done) {
            finished = true;
            release();
            subscriber.complete();
            return;
          }
          bytes = addBytes(bytes, result.value);
          subscriber.next(result.value);
          pump();
        },
        (error: unknown) => {
          finished = true;
          release();
          subscriber.error(asConnectionLost(error, source, bytes));
        },
      );
    };
    pump();

    return () => {
      if (finished) return;
      finished = true;
      reader.cancel().catch(() => undefined);
      release();
      cancelled?.();
    };
  });
}
