/**
 * Node.js readable streams (`http.IncomingMessage`, `fs.createReadStream`, a child's stdout, …)
 * → `Observable<Uint8Array | string>`, typed structurally so the core never loads `node:stream`.
 *
 * @module
 */
import { Observable } from 'rxjs';
import { ToolStreamError } from '../errors';
import { asConnectionLost, byteLengthOf } from './networkError';
import { alreadyConsumedError } from './readableStream';

/**
 * The parts of a Node.js `Readable` that are used. `http.IncomingMessage`, `stream.Readable`,
 * `process.stdin` and old-style streams fit; nothing here is imported from Node at run time.
 */
export interface NodeReadableLike {
  /** Listen for a chunk (a `Buffer`, another byte view, or a string when an encoding is set). */
  on(event: 'data', listener: (chunk: unknown) => void): unknown;
  /** Listen for the end of the data (`'end'`) or the stream closing (`'close'`). */
  on(event: 'end' | 'close', listener: () => void): unknown;
  /** Listen for the stream's error. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Remove a listener added with `on` (on unsubscribe and at the end). */
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  /** Called on unsubscribe when present (it closes the socket of an `IncomingMessage`). */
  destroy?(error?: Error): unknown;
  /** `true` once the stream has ended (Node ≥ 12.9); used to refuse a second subscription. */
  readonly readableEnded?: boolean;
  /** `true` once the stream was destroyed. */
  readonly destroyed?: boolean;
}

/** A Node `Buffer` is a `Uint8Array` subclass: view the same bytes as a plain `Uint8Array`. */
function toBytes(chunk: unknown): Uint8Array | string {
  if (typeof chunk === 'string') return chunk;
  if (chunk instanceof Uint8Array) return chunk.constructor === Uint8Array ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  throw new TypeError(`fromNodeReadable: a stream chunk must be bytes or a string, got ${typeof chunk}`);
}

/**
 * Read a Node.js readable stream as an observable of bytes (or strings, when the stream has an
 * encoding set with `setEncoding()`).
 *
 * <span class="informal">`Buffer`s are emitted as plain `Uint8Array`s over the same memory;
 * unsubscribing destroys the stream, which closes the socket of an HTTP response.</span>
 *
 * ```text
 * readable: --a----b-------c---(end)
 *   fromNodeReadable(readable)
 *           --a----b-------c---|
 *
 * readable: --a----b--(close)            closed before 'end'
 *           --a----b--#                  # = truncated
 *
 * readable: --a----b--E                  E: 'error' Error: aborted (code ECONNRESET), the socket was cut
 *           --a----b--#                  # = connection-lost { byteOffset: |a|+|b|, retryable: true, cause: E }
 *
 * readable: --a----b-------c--…          (unsubscribed after b)
 *           --a----b-!                   readable.destroy()
 * ```
 *
 * 1. `'data'` chunks are emitted, `'end'` completes, `'error'` errors. A network failure (an
 *    `IncomingMessage` cut mid-body emits `Error: aborted` with code `ECONNRESET`; `EPIPE`,
 *    `ETIMEDOUT`, `ERR_STREAM_PREMATURE_CLOSE`, …) becomes a `connection-lost` error (code
 *    `connection-lost`, `retryable: true`, `byteOffset`: the bytes received before it) with the
 *    original error as `cause`; any other error passes unchanged.
 * 2. `'close'` without `'end'` (the connection dropped) errors with `truncated` error
 *    (code `truncated`), unless an `'error'` came first.
 * 3. Unsubscribing before the end removes the listeners and calls `destroy()`.
 * 4. A stream can be read once: **subscribe once**. Subscribing to a stream that already ended or
 *    was destroyed errors at once with a `TypeError`.
 *
 * @example
 * ```ts
 * import https from 'node:https';
 * import { fromNodeReadable, decodeSse, openaiChat } from 'rxjs-tool-calls';
 *
 * https.request(url, init, (res) => {
 *   fromNodeReadable(res).pipe(decodeSse(), openaiChat()).subscribe(console.log);
 * }).end(body);
 * ```
 *
 * @param readable The stream.
 * @return An observable of its chunks.
 */
export function fromNodeReadable(readable: NodeReadableLike): Observable<Uint8Array | string> {
  return new Observable<Uint8Array | string>((subscriber) => {
    if (readable.readableEnded === true || readable.destroyed === true) {
      subscriber.error(alreadyConsumedError('This Node.js stream has ended or was destroyed; it', 'subscribe once, before the stream is read elsewhere'));
      return undefined;
    }
    let finished = false;
    /** Bytes received so far (strings counted as UTF-8). */
    let received = 0;
    const onData = (chunk: unknown): void => {
      let bytes: Uint8Array | string;
      try {
        bytes = toBytes(chunk);
      } catch (error) {
        stop(true);
        subscriber.error(error);
        return;
      }
      received += byteLengthOf(bytes) ?? 0;
      subscriber.next(bytes);
    };
    const onEnd = (): void => {
      stop(false);
      subscriber.complete();
    };
    const onError = (error: Error): void => {
      stop(false);
      subscriber.error(asConnectionLost(error, 'fromNodeReadable', received));
    };
    const onClose = (): void => {
      stop(false);
      subscriber.error(new ToolStreamError('truncated', { provider: 'http', detail: 'the Node.js stream closed before it ended' }));
    };
    const stop = (destroy: boolean): void => {
      if (finished) return;
      finished = true;
      readable.removeListener('data', onData);
      readable.removeListener('end', onEnd);
      readable.removeListener('error', onError);
      readable.removeListener('close', onClose);
      // Keep a listener so an 'error' emitted while destroying does not crash the process.
      readable.on('error', () => undefined);
      if (destroy) readable.destroy?.();
    };
    readable.on('error', onError);
    readable.on('end', onEnd);
    readable.on('close', onClose);
    readable.on('data', onData);
    return () => stop(true);
  });
}
