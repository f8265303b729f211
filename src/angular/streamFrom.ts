/**
 * `streamFrom()`: an Angular `HttpClient` request whose response text arrives as it streams.
 *
 * Only types come from Angular here: the function runs with any object that has `HttpClient`'s
 * `request` method.
 *
 * @module
 */
import type { HttpClient, HttpContext, HttpHeaders, HttpParams } from '@angular/common/http';
import { defer, type Observable } from 'rxjs';
import { aBoolean, anObject, anything, aString, checkOptions, type OptionChecks } from '../internal/options';
import { angularTextChunks } from './angularTextChunks';

/** The request options `streamFrom()` passes on to `HttpClient` (the ones every Angular ≥ 19 has). */
export interface StreamRequestOptions {
  /** The HTTP method. Default `'POST'`. */
  readonly method?: string | undefined;
  /** Request headers (e.g. `{ authorization: 'Bearer …' }`; a proxy of your own is the usual place for keys). */
  readonly headers?: HttpHeaders | Record<string, string | string[]> | undefined;
  /** Query parameters. */
  readonly params?: HttpParams | Record<string, string | number | boolean | ReadonlyArray<string | number | boolean>> | undefined;
  /** An `HttpContext` for your interceptors. */
  readonly context?: HttpContext | undefined;
  /** Send cookies to another origin. */
  readonly withCredentials?: boolean | undefined;
}

/** The checks of {@link StreamRequestOptions}' keys (`headers` and `params`: Angular's own classes or records, checked by `HttpClient`). */
export const STREAM_REQUEST_OPTION_CHECKS: OptionChecks = { method: aString, headers: anything, params: anything, context: anObject, withCredentials: aBoolean };

/** Options of {@link streamFrom}. */
export interface StreamFromOptions extends StreamRequestOptions {
  /** The name put on ``provider-error` error.provider` when the response has a non-2xx status. Default `'http'`. */
  readonly provider?: string | undefined;
}

/**
 * Send a request with Angular's `HttpClient` and get the response text as it streams, one chunk
 * per network read.
 *
 * <span class="informal">`http.request(method, url, { body, observe: 'events', reportProgress:
 * true, responseType: 'text' })` piped through `angularTextChunks()`: what `readStreamEvents()`
 * and `readToolCalls()` read.</span>
 *
 * ```text
 * request:  ---P-----P--------P----R|        P: DownloadProgress (cumulative partialText), R: the response
 *   streamFrom(http, url, body)
 *           ---a-----b--------c----|         a, b, c: the text each progress event added
 *
 * request:  ---#                             # = HttpErrorResponse 429 (Retry-After: 20)
 *   streamFrom(http, url, body)
 *           ---#                             # = provider-error { status: 429, retryable: true, retryAfterMs: 20000 }
 * ```
 *
 * 1. Nothing is sent until subscribed; each subscription sends the request again.
 * 2. Unsubscribing aborts the request.
 * 3. A non-2xx response ends the stream with `provider-error` error (code `provider-error`): `status`,
 *    `retryable`, the error body (a JSON error's message, code and type) and `retryAfterMs` from
 *    its `Retry-After` header. A network failure (status 0) passes through as Angular's
 *    `HttpErrorResponse`.
 * 4. Streaming needs the fetch backend: `provideHttpClient(withFetch())` (the XHR backend reports
 *    progress too, but holds the whole text in memory and is not streamed by every browser).
 *
 * @example
 * ```ts
 * import { HttpClient } from '@angular/common/http';
 * import { inject } from '@angular/core';
 * import { readToolCalls } from 'rxjs-tool-calls';
 * import { streamFrom } from 'rxjs-tool-calls/angular';
 *
 * declare const messages: object[];
 *
 * const http = inject(HttpClient);
 * streamFrom(http, '/api/chat', { messages, stream: true })
 *   .pipe(readToolCalls())
 *   .subscribe((result) => console.log(result.success ? result.data.arguments : result.error.code));
 * // displays: { city: 'Zürich', units: 'celsius' }
 * ```
 *
 * @param http Angular's `HttpClient`.
 * @param url Where to send the request.
 * @param body The request body (serialised by `HttpClient`: an object is sent as JSON).
 * @param options The method, headers, params, context, `withCredentials`, and the provider name for errors.
 * @return The response text, chunk by chunk.
 * @throws {ToolStreamError} `invalid-option`, at once, for an option it does not take or a value it cannot use.
 */
export function streamFrom(http: HttpClient, url: string, body: unknown, options: StreamFromOptions = {}): Observable<string> {
  checkOptions('streamFrom', options, STREAM_REQUEST_OPTION_CHECKS, { provider: aString });
  const { method = 'POST', headers, params, context, withCredentials, provider } = options;
  const request = {
    body,
    observe: 'events',
    reportProgress: true,
    responseType: 'text',
    ...(headers === undefined ? {} : { headers }),
    ...(params === undefined ? {} : { params }),
    ...(context === undefined ? {} : { context }),
    ...(withCredentials === undefined ? {} : { withCredentials }),
  } as const;
  return defer(() => http.request(method, url, request)).pipe(angularTextChunks(provider === undefined ? {} : { provider }));
}
