/**
 * Angular `HttpClient` progress events → new text chunks, typed structurally (no Angular import).
 *
 * @module
 */
import { catchError, ignoreElements, Observable, tap, throwError, type OperatorFunction } from 'rxjs';
import { aString, checkOptions } from '../internal/options';
import { httpProviderError } from '../sources/response';
import { retryAfterMs, type HeadersLike } from '../sources/retryAfter';

/** `HttpEventType.ResponseHeader`. */
const RESPONSE_HEADER = 2;
/** `HttpEventType.DownloadProgress`. */
const DOWNLOAD_PROGRESS = 3;
/** `HttpEventType.Response`. */
const RESPONSE = 4;

/**
 * The parts of Angular's `HttpEvent<string>` that are read: `HttpDownloadProgressEvent`
 * (`type === 3`, cumulative `partialText`), `HttpResponse` (`type === 4`, full `body`) and the
 * status of `HttpHeaderResponse` (`type === 2`). Other events (sent, upload progress, user) are
 * ignored.
 */
export type AngularHttpEventLike =
  | {
      /** `HttpEventType.DownloadProgress`. */
      readonly type: 3;
      /** All the text received so far (cumulative, not just the new part); Angular sets it for `responseType: 'text'` requests; an event without it adds nothing. */
      readonly partialText?: string | undefined;
      /** Bytes received so far (not read here). */
      readonly loaded?: number;
    }
  | {
      /** `HttpEventType.Response`: the request completed. */
      readonly type: 4;
      /** The whole response text; `null` for an empty body. */
      readonly body: string | null;
      /** The HTTP status (not read here: an error status arrives as an `HttpErrorResponse` error instead). */
      readonly status?: number;
    }
  | {
      /** `HttpEventType.ResponseHeader`: the status and headers, before the body. */
      readonly type: 2;
      /** The HTTP status: the body of an error status is not text of the stream (its `HttpErrorResponse` follows). */
      readonly status?: number;
    }
  | {
      /** `Sent`, `UploadProgress` or `User`: ignored. */
      readonly type: 0 | 1 | 5;
    };

/** Options of {@link angularTextChunks}. */
export interface AngularTextChunksOptions {
  /** The name put on ``provider-error` error.provider` when an `HttpErrorResponse` is mapped. Default `'http'`. */
  readonly provider?: string;
}

/** Angular's `HttpErrorResponse`, structurally: a named error with an HTTP status and the error body. */
function isHttpErrorResponse(value: unknown): value is { status: number; statusText?: string; error?: unknown; headers?: HeadersLike } {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as { name?: unknown; status?: unknown };
  return record.name === 'HttpErrorResponse' && typeof record.status === 'number' && record.status > 0;
}

/**
 * Turn the events of an Angular `HttpClient` text request with progress into the new text each
 * one adds.
 *
 * <span class="informal">Angular reports the cumulative text received so far; this emits only
 * what is new, so the result feeds an SSE decoder like any other text source.</span>
 *
 * ```text
 * events:  -S--P-----P--------P----------R|     S: Sent, P: DownloadProgress (partialText 'da', 'data: {', 'data: {}\n\n'),
 *   angularTextChunks()                         R: Response (body 'data: {}\n\ndata: [DONE]\n\n')
 *          ----a-----b--------c----------d|     a: 'da', b: 'ta: {', c: '}\n\n', d: 'data: [DONE]\n\n'
 *
 * events:  -S--H--P--#                          H: ResponseHeader { status: 429 }, P: its body's progress,
 *          ----------#                          # = HttpErrorResponse { status: 429, error: '{"error":…}' } → provider-error { status: 429, retryable: true }
 * ```
 *
 * 1. Each `DownloadProgress` event's `partialText` beyond the text already seen is emitted; events
 *    that add nothing emit nothing.
 * 2. The final `Response` emits the rest of its `body` that no progress event carried (all of it
 *    when progress was not reported).
 * 3. After a `ResponseHeader` with a status outside 200–299 nothing is emitted: that body is the
 *    error's, and the `HttpErrorResponse` that carries it follows.
 * 4. An `HttpErrorResponse` with an HTTP status becomes a `provider-error` error (code `provider-error`)
 *    with `status`, `retryable`, `retryAfterMs` (from its `Retry-After` header) and the error body
 *    parsed as a JSON error when possible; other
 *    errors (status 0: the network failed) pass through unchanged.
 * 5. Cancelling is `HttpClient`'s own: unsubscribing aborts the request.
 *
 * @example
 * ```ts
 * import { HttpClient } from '@angular/common/http';
 * import { inject } from '@angular/core';
 * import { decodeSse, openaiChat } from 'rxjs-tool-calls';
 * import { angularTextChunks } from 'rxjs-tool-calls/angular';
 *
 * declare const url: string;
 * declare const body: object;
 *
 * const http = inject(HttpClient);
 * http
 *   .request('POST', url, { body, observe: 'events', reportProgress: true, responseType: 'text' })
 *   .pipe(angularTextChunks(), decodeSse(), openaiChat())
 *   .subscribe(console.log);
 * ```
 *
 * @param options The provider name for mapped HTTP errors.
 * @return An operator from Angular HTTP events to new text chunks.
 * @throws {ToolStreamError} `invalid-option`, at once, for an option it does not take or a `provider` that is not a string.
 */
export function angularTextChunks(options: AngularTextChunksOptions = {}): OperatorFunction<AngularHttpEventLike, string> {
  checkOptions('angularTextChunks', options, { provider: aString });
  const provider = options.provider ?? 'http';
  return (source) =>
    new Observable<string>((subscriber) => {
      let seen = 0;
      // An error status's body is the error's, not the stream's: Angular reports its progress too,
      // then fails with the `HttpErrorResponse` that carries it.
      let failed = false;
      const emitFrom = (text: string): void => {
        if (failed || text.length <= seen) return;
        const chunk = text.slice(seen);
        seen = text.length;
        subscriber.next(chunk);
      };
      // Subscribing the subscriber itself to the chain links the two: a synchronous source stops as
      // soon as the consumer unsubscribes (e.g. `take(1)`).
      return source
        .pipe(
          tap((event) => {
            if (event.type === RESPONSE_HEADER) {
              failed = typeof event.status === 'number' && (event.status < 200 || event.status > 299);
            } else if (event.type === DOWNLOAD_PROGRESS) {
              if (typeof event.partialText === 'string') emitFrom(event.partialText);
            } else if (event.type === RESPONSE) {
              if (typeof event.body === 'string') emitFrom(event.body);
            }
          }),
          ignoreElements(),
          catchError((error: unknown) =>
            throwError(() => (isHttpErrorResponse(error) ? httpProviderError(error.status, error.error, error.statusText ?? '', provider, retryAfterMs(error.headers)) : error)),
          ),
        )
        .subscribe(subscriber);
    });
}
