/**
 * `AsyncIterable` → `Observable`, with cancellation that reaches the iterator.
 *
 * @module
 */
import { Observable } from 'rxjs';
import { asConnectionLost, addBytes } from '../internal/networkError';
import { alreadyConsumedError, isConsumed, markConsumed } from './readableStream';

/** An async iterable, or a function that makes a new one for each subscription. */
export type AsyncIterableInput<T> = AsyncIterable<T> | (() => AsyncIterable<T>);

/** Something with an `AbortController`-like `controller` (the official SDKs' `Stream`). */
interface Abortable {
  readonly controller: { abort(reason?: unknown): void };
}

function isAbortable(value: unknown): value is Abortable {
  const controller = (value as { controller?: unknown } | null)?.controller;
  return typeof controller === 'object' && controller !== null && typeof (controller as { abort?: unknown }).abort === 'function';
}

/**
 * The shared implementation: iterate `input` once per subscription; on unsubscribe call the
 * iterator's `return()` and, when the iterable exposes an abortable `controller`, abort it. A
 * network failure becomes a `connection-lost` error naming `functionName`, with the bytes received
 * when `countBytes` (byte and text sources; the SDK adapters see payloads, not bytes).
 *
 * @internal
 */
export function iterate<T>(input: AsyncIterableInput<T>, functionName: string, countBytes = false): Observable<T> {
  return new Observable<T>((subscriber) => {
    let iterable: AsyncIterable<T>;
    let iterator: AsyncIterator<T>;
    try {
      iterable = typeof input === 'function' ? input() : input;
      iterator = iterable[Symbol.asyncIterator]();
    } catch (error) {
      subscriber.error(error);
      return undefined;
    }
    // An async generator is its own iterator: a second `for await` over it ends at once, silently.
    if ((iterator as unknown) === iterable) {
      if (isConsumed(iterator)) {
        subscriber.error(alreadyConsumedError('This async generator', `pass a factory (() => generator()) to ${functionName} for a source that can be subscribed to more than once`));
        return undefined;
      }
      markConsumed(iterator);
    }
    let finished = false;
    /** Bytes received so far; `undefined` when not counted, or once a value is not bytes or text. */
    let bytes: number | undefined = countBytes ? 0 : undefined;
    const fail = (error: unknown): void => {
      finished = true;
      subscriber.error(asConnectionLost(error, functionName, bytes));
    };

    const step = (): void => {
      let pending: Promise<IteratorResult<T>>;
      try {
        pending = iterator.next();
      } catch (error) {
        fail(error);
        return;
      }
      pending.then((result) => {
        if (subscriber.closed) return;
        if (result.done) {
          finished = true;
          subscriber.complete();
          return;
        }
        bytes = addBytes(bytes, result.value);
        subscriber.next(result.value);
        step();
      }, fail);
    };
    step();

    return () => {
      if (finished) return;
      finished = true;
      if (isAbortable(iterable)) {
        try {
          iterable.controller.abort();
        } catch {
          // an abort that throws changes nothing for a subscriber that is gone
        }
      }
      try {
        const returned = iterator.return?.();
        if (returned !== undefined) Promise.resolve(returned).catch(() => undefined);
      } catch {
        // same
      }
    };
  });
}

/**
 * Read an async iterable of bytes or text (a Node stream, a Deno/Bun body, an async generator,
 * `response.body` in runtimes where it is iterable) as an observable.
 *
 * <span class="informal">Each value the iterator yields is emitted as it is; unsubscribing calls the
 * iterator's `return()`, the same as `break` in a `for await` loop.</span>
 *
 * ```text
 * iterable: --a----b-------c---|
 *   fromAsyncIterable(iterable)
 *           --a----b-------c---|
 *
 * iterable: --a----b-------c--…         (unsubscribed after b)
 *           --a----b-!                  iterator.return()
 *
 * iterable: --a----b--X                 X: TypeError: terminated (the socket was cut)
 *           --a----b--#                 # = connection-lost { byteOffset: |a|+|b|, retryable: true, cause: X }
 * ```
 *
 * 1. Unlike rxjs's `from(asyncIterable)`, which notices an unsubscription only when the next value
 *    arrives, `return()` is called at once. An async generator that is waiting inside `await`
 *    still runs its `finally` only when that await settles: that is how generators work.
 * 2. When the iterable has an `AbortController`-like `controller` (the official SDKs' `Stream`),
 *    it is aborted too, so a stalled request is cancelled immediately.
 * 3. A network failure the iterator throws (undici's `TypeError: terminated`, Node's
 *    `Error: aborted` with code `ECONNRESET`, …) becomes a `connection-lost` error (code
 *    `connection-lost`, `retryable: true`, `byteOffset`: the bytes received before it) with the
 *    original error as `cause`; any other error passes unchanged.
 * 4. An async generator can be iterated once: a second subscription to the same generator errors
 *    at once with a `TypeError`. Pass a factory `() => generator()` to subscribe more than once.
 *
 * @example
 * ```ts
 * import { request } from 'undici';
 * import { fromAsyncIterable, decodeSse, openaiChat } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const init: Parameters<typeof request>[1];
 *
 * const res = await request(url, init);
 * fromAsyncIterable(res.body).pipe(decodeSse(), openaiChat()).subscribe(console.log);
 * ```
 *
 * @param input The iterable, or a factory called once per subscription.
 * @return An observable of the iterated values that completes when the iterator is done.
 */
export function fromAsyncIterable<T extends Uint8Array | string = Uint8Array | string>(input: AsyncIterableInput<T>): Observable<T> {
  return iterate(input, 'fromAsyncIterable', true);
}
