/**
 * `fetch` `Response` → `Observable<Uint8Array>`, with HTTP failures as typed `provider-error`s.
 *
 * @module
 */
import { Observable, switchMap, type OperatorFunction, type Subscription } from 'rxjs';
import { ToolStreamError, excerpt } from '../errors';
import { errorRecord, isRetryable, providerError } from '../providers/providerError';
import { asConnectionLost } from '../internal/networkError';
import { alreadyConsumedError, readStream } from './readableStream';
import { retryAfterMs, type HeadersLike } from './retryAfter';

/** The parts of a fetch `Response` that are read (undici, browsers, Deno, Bun, `node-fetch` 3 all fit). */
export interface ResponseLike {
  /** `true` for a 2xx status; otherwise the body is read as an error body and the stream errors with a `provider-error` error. */
  readonly ok: boolean;
  /** The HTTP status (e.g. `200`, `429`); copied to ``provider-error` error.status` on failure. */
  readonly status: number;
  /** The HTTP status text (e.g. `'Too Many Requests'`; often `''` over HTTP/2), used in the error message when the body has none. */
  readonly statusText: string;
  /** The body stream; `null` for a response without a body (a 2xx without one errors with `truncated`). */
  readonly body: ReadableStream<Uint8Array> | null;
  /** `true` when the body was already read: a `Response` can be read once, so subscribing errors with a `TypeError`. */
  readonly bodyUsed: boolean;
  /** Read the whole body as text (used for the error body of a non-2xx response). */
  text(): Promise<string>;
  /** The response headers; on a non-2xx response `Retry-After` / `retry-after-ms` become ``provider-error` error.retryAfterMs`. */
  readonly headers?: HeadersLike;
}

/** Options of {@link fromResponse} and {@link responseBody}. */
export interface FromResponseOptions {
  /** The name put on ``provider-error` error.provider` for a non-2xx response. Default `'http'`. */
  readonly provider?: string;
}

/**
 * The `provider-error` for a failed HTTP response: `status` is the HTTP status, `retryable` is true
 * for 408, 409, 429 and 5xx (or a retryable provider code), and a JSON body in any common error
 * shape (`{ "error": { "message", "type", "code" } }`, …) gives the message, code and type.
 * A body that is not JSON is kept as the `payload` and quoted (shortened) in the message.
 *
 * @param status The HTTP status.
 * @param body The response body: text (parsed as JSON when it is JSON) or an already-parsed value.
 * @param statusText The HTTP status text, for the message when the body has none.
 * @param provider The name for ``provider-error` error.provider`. Default `'http'`.
 * @param retryAfterMs The delay the response asked for before a retry (see `retryAfterMs()`), kept as ``provider-error` error.retryAfterMs`.
 */
export function httpProviderError(status: number, body: unknown, statusText = '', provider = 'http', retryAfterMs?: number): ToolStreamError<'provider-error'> {
  const head = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  let payload = body;
  if (typeof body === 'string') {
    try {
      payload = JSON.parse(body) as unknown;
    } catch {
      payload = body;
    }
  }
  if (errorRecord(payload) !== undefined) return providerError(provider, payload, head, status, retryAfterMs);
  const text = typeof payload === 'string' ? payload.trim() : payload === undefined || payload === null ? '' : String(payload);
  return new ToolStreamError('provider-error', {
    provider,
    providerCode: undefined,
    type: undefined,
    message: text ? `${head}: ${excerpt(text, 200)}` : head,
    status,
    retryable: isRetryable(status, undefined, undefined),
    payload: body,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/**
 * Read a fetch `Response`'s body as bytes, after checking that the request succeeded.
 *
 * <span class="informal">A 2xx response streams its body; any other status becomes a typed
 * `provider-error` built from the error body.</span>
 *
 * ```text
 * response:  ---R                                          (2xx, body a-b-c)
 *   fromResponse(response)
 *            ---a----b-------c---|
 *
 * response:  ---R                                          (429, {"error":{…}})
 *   fromResponse(response)
 *            ------#                                       # = provider-error { status: 429, retryable: true }
 *
 * response:  ---R                                          (2xx, body a-b, then the socket is cut)
 *   fromResponse(response)
 *            ---a----b--#                                  # = connection-lost { source: 'fromResponse', byteOffset: |a|+|b|, retryable: true }
 * ```
 *
 * 1. A non-2xx response errors with a `provider-error` error (code `provider-error`): `status`, `retryable`
 *    (408, 409, 429, 5xx, or a retryable provider code) and the body parsed as a JSON error when
 *    possible (see {@link httpProviderError}); `provider` is `options.provider` or `'http'`;
 *    `retryAfterMs` is the delay its `Retry-After` (or `retry-after-ms`) header asked for.
 * 2. A 2xx response without a body errors with `truncated` error (code `truncated`).
 * 3. A body that was already read errors with a `TypeError`: a `Response` can be read once, so
 *    subscribe once (use `defer(() => fromResponse(fetch(…)))` or `fromFetch` to retry).
 * 4. Unsubscribing cancels the body, which closes the connection; unsubscribing while the promise
 *    is pending cancels the body as soon as it resolves.
 * 5. A network failure ends the stream with `connection-lost` error (code `connection-lost`,
 *    `retryable: true`, the runtime's error as `cause`): the connection cut mid-body (`byteOffset`:
 *    the body bytes received), or `fetch()` rejecting because the connection was refused or reset
 *    (`byteOffset: 0`). Other errors (a bad URL, DNS, TLS, the user's own `AbortSignal`) pass
 *    unchanged. Unsubscribing is not a failure: it emits nothing.
 * 6. Point-free use is supported: `fromFetch(url).pipe(switchMap(fromResponse))` (the index that
 *    `switchMap` passes is ignored), or use {@link responseBody}.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, openaiChat } from 'rxjs-tool-calls';
 *
 * fromResponse(fetch(url, init)).pipe(decodeSse(), openaiChat()).subscribe(console.log);
 * ```
 *
 * @param response The response, or a promise of it (what `fetch()` returns).
 * @return An observable of the body's chunks.
 */
export function fromResponse(response: ResponseLike | PromiseLike<ResponseLike>): Observable<Uint8Array>;
/**
 * {@link fromResponse}, naming the provider for the `provider-error` of a non-2xx response.
 *
 * @param response The response, or a promise of it (what `fetch()` returns).
 * @param options The provider name for errors.
 * @return An observable of the body's chunks.
 */
export function fromResponse(response: ResponseLike | PromiseLike<ResponseLike>, options: FromResponseOptions): Observable<Uint8Array>;
export function fromResponse(response: ResponseLike | PromiseLike<ResponseLike>, options?: FromResponseOptions | number): Observable<Uint8Array> {
  // `switchMap(fromResponse)` passes the index as the second argument: only an object is options.
  const provider = (typeof options === 'object' && options !== null ? options.provider : undefined) ?? 'http';
  return responseChunks(response, provider, 'fromResponse');
}

/** {@link fromResponse}'s implementation; `source` names the public function on a `connection-lost` error. */
function responseChunks(response: ResponseLike | PromiseLike<ResponseLike>, provider: string, source: string): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    let body: Subscription | undefined;
    Promise.resolve(response).then(
      (res) => {
        if (subscriber.closed) {
          if (res.body !== null && !res.body.locked) res.body.cancel().catch(() => undefined);
          return;
        }
        if (!res.ok) {
          const wait = retryAfterMs(res.headers);
          res.text().then(
            (text) => subscriber.error(httpProviderError(res.status, text, res.statusText, provider, wait)),
            () => subscriber.error(httpProviderError(res.status, '', res.statusText, provider, wait)),
          );
          return;
        }
        if (res.bodyUsed) {
          subscriber.error(alreadyConsumedError('This Response body', 'subscribe once, or wrap the request in defer(() => fromResponse(fetch(…)))'));
          return;
        }
        if (res.body === null) {
          subscriber.error(new ToolStreamError('truncated', { provider, detail: `the HTTP ${res.status} response has no body` }));
          return;
        }
        body = readStream(res.body, source).subscribe(subscriber);
      },
      // `fetch()` itself failed: a refused or reset connection is typed, anything else passes as it is.
      (error: unknown) => subscriber.error(asConnectionLost(error, source, 0)),
    );
    return () => body?.unsubscribe();
  });
}

/**
 * The operator form of {@link fromResponse}, for `fromFetch` and other observables of responses.
 *
 * ```text
 * fromFetch(url):  ----R|
 *   responseBody()
 *                  ----a----b-------c---|
 * ```
 *
 * A new response cancels the body of the previous one (`switchMap`). A connection cut mid-body
 * ends the stream with `connection-lost` error (`source: 'responseBody'`), as with {@link fromResponse}.
 *
 * @example
 * ```ts
 * import { fromFetch } from 'rxjs/fetch';
 * import { responseBody, decodeSse, openaiChat } from 'rxjs-tool-calls';
 *
 * fromFetch(url, init).pipe(responseBody(), decodeSse(), openaiChat()).subscribe(console.log);
 * ```
 *
 * @param options The provider name for errors.
 * @return An operator from responses to their body chunks.
 */
export function responseBody(options: FromResponseOptions = {}): OperatorFunction<ResponseLike, Uint8Array> {
  const provider = options.provider ?? 'http';
  return switchMap((response) => responseChunks(response, provider, 'responseBody'));
}
