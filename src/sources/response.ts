/**
 * `fetch` `Response` → `Observable<Uint8Array>`, with HTTP failures as typed `provider-error`s.
 *
 * @module
 */
import { map, Observable, switchMap, type OperatorFunction, type Subscription } from 'rxjs';
import { ToolStreamError, describe, excerpt, withDetails } from '../errors';
import { errorRecord, isRetryable, providerError } from '../providers/providerError';
import { withContentType } from '../internal/contentType';
import { aString, checkOptions, type OptionChecks } from '../internal/options';
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
  /** Read the whole body as text: used only for the error body of a non-2xx response whose `body` is `null` (a stand-in object); a real body is read as a bounded prefix. */
  text?(): Promise<string>;
  /** The response headers; on a non-2xx response `Retry-After` / `retry-after-ms` become ``provider-error` error.retryAfterMs`. */
  readonly headers?: HeadersLike;
}

/**
 * What {@link fromResponse} reads: a response, a promise of one (what `fetch()` returns), or a
 * function that makes the request with the signal it is given (`(signal) => fetch(url, { ...init, signal })`).
 * Only the function form can cancel a request whose headers have not arrived: see {@link fromResponse}.
 */
export type ResponseInput = ResponseLike | PromiseLike<ResponseLike> | ((signal: AbortSignal) => ResponseLike | PromiseLike<ResponseLike>);

/** How much of an error body {@link fromResponse} reads by default: 64 KiB. */
const DEFAULT_MAX_ERROR_BODY_BYTES = 65_536;

/** Options of {@link fromResponse} and {@link responseBody}. */
export interface FromResponseOptions {
  /** The name put on ``provider-error` error.provider` for a non-2xx response. Default `'http'`. */
  readonly provider?: string;
  /**
   * The most bytes of a non-2xx response's body read into ``provider-error` error.payload`; the rest
   * is cancelled (the connection closes) and `payloadTruncated` is `true`. A whole number ≥ 0, or
   * `Infinity` to read the whole body. Default 65,536 (64 KiB).
   */
  readonly maxErrorBodyBytes?: number;
}

/**
 * The `provider-error` for a failed HTTP response: `status` is the HTTP status, `retryable` is true
 * for 408, 409, 429 and 5xx (or a retryable provider code), and a JSON body in any common error
 * shape (`{ "error": { "message", "type", "code" } }`, `{ "message" }`, `{ "error": "…" }`, Gemini's
 * `[{ "error": … }]`) gives the code, type and the provider's message. The message always starts
 * with the status line: `http error invalid_api_key (invalid_request_error): HTTP 401 Unauthorized:
 * Incorrect API key`. A body that is not such JSON (text, an HTML page, other JSON) is kept as the
 * `payload` and its start is quoted in the message (`http error: HTTP 502 Bad Gateway: <html>…`).
 *
 * @param status The HTTP status.
 * @param body The response body: text (parsed as JSON when it is JSON) or an already-parsed value.
 * @param statusText The HTTP status text (e.g. `'Unauthorized'`; often `''` over HTTP/2), for the status line.
 * @param provider The name for ``provider-error` error.provider`. Default `'http'`.
 * @param retryAfterMs The delay the response asked for before a retry (see `retryAfterMs()`), kept as ``provider-error` error.retryAfterMs`.
 */
export function httpProviderError(status: number, body: unknown, statusText = '', provider = 'http', retryAfterMs?: number): ToolStreamError<'provider-error'> {
  const head = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  const payload = typeof body === 'string' ? parsedOrText(body) : body;
  if (errorRecord(payload) !== undefined) return providerError(provider, payload, head, status, retryAfterMs);
  const quote = quoted(body);
  return new ToolStreamError('provider-error', {
    provider,
    providerCode: undefined,
    type: undefined,
    message: quote ? `${head}: ${quote}` : head,
    status,
    retryable: isRetryable(status, undefined, undefined),
    payload: body,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** `text` parsed as JSON, or `text` itself when it is not JSON. */
function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** What a message quotes of an error body that holds no error object: the start of its text. */
function quoted(body: unknown): string {
  return excerpt((typeof body === 'string' ? body : body === undefined || body === null ? '' : describe(body)).trim(), 200);
}

/**
 * Read a fetch `Response`'s body as bytes, after checking that the request succeeded.
 *
 * <span class="informal">A 2xx response streams its body; any other status becomes a typed
 * `provider-error` built from the start of the error body. Given a function of a signal, the
 * subscription owns the request: unsubscribing aborts it in every phase.</span>
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
 *
 * request:   ---------…                                    (no headers yet)
 *   fromResponse((signal) => fetch(url, { signal }))
 *            ----!                                         unsubscribed: signal aborted, the connection closes
 *
 * response:  ---R                                          (503, an error body that never ends)
 *   fromResponse(response)
 *            -----#                                        # = provider-error { status: 503, payload: its first 64 KiB, payloadTruncated: true }
 * ```
 *
 * 1. A non-2xx response errors with a `provider-error` error (code `provider-error`): `status`, `retryable`
 *    (408, 409, 429, 5xx, or a retryable provider code) and the body parsed as a JSON error when
 *    possible (see {@link httpProviderError}); `provider` is `options.provider` or `'http'`;
 *    `retryAfterMs` is the delay its `Retry-After` (or `retry-after-ms`) header asked for.
 * 2. Of an error body, at most `maxErrorBodyBytes` (default 64 KiB) are read; when there is more,
 *    the rest is cancelled (the connection closes), `payload` is the text of the bytes read (a
 *    character cut at the limit is left out) and `payloadTruncated` is `true`, as it is when the
 *    connection is cut during that read. A body that never ends takes no more memory than that.
 * 3. A 2xx response without a body errors with `truncated` error (code `truncated`).
 * 4. A body that was already read errors with a `TypeError`: a `Response` can be read once, so
 *    subscribe once (use the function form, `defer(() => fromResponse(fetch(…)))` or `fromFetch`
 *    to retry).
 * 5. Cancellation. Given a function, each subscription calls it with a new `AbortSignal` and
 *    unsubscribing aborts that signal, whatever the phase: before the headers (the request is
 *    aborted), while the error body is read, or during the body (the body is cancelled too). Given
 *    a response or a promise of one, unsubscribing cancels the body, which closes the connection;
 *    while the promise is pending there is nothing to abort, so the body is cancelled only when it
 *    resolves (pass the function form, or use `fromFetch`, to close the connection at once).
 * 6. A network failure ends the stream with `connection-lost` error (code `connection-lost`,
 *    `retryable: true`, the runtime's error as `cause`): the connection cut mid-body (`byteOffset`:
 *    the body bytes received), or `fetch()` rejecting because the connection was refused or reset
 *    (`byteOffset: 0`). Other errors (a bad URL, DNS, TLS, the user's own `AbortSignal`) pass
 *    unchanged. Unsubscribing is not a failure: it emits nothing.
 * 7. Point-free use is supported: `fromFetch(url).pipe(switchMap(fromResponse))` (the index that
 *    `switchMap` passes is ignored), or use {@link responseBody}.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, openaiChat } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * // The subscription owns the request: unsubscribing aborts it, even before the headers.
 * fromResponse((signal) => fetch(url, { ...init, signal }))
 *   .pipe(decodeSse(), openaiChat())
 *   .subscribe({ next: console.log, error: (error) => console.error(error.message) });
 * ```
 *
 * @param response A function that makes the request with the signal it is given, or the response,
 *   or a promise of it (what `fetch()` returns).
 * @return An observable of the body's chunks.
 */
export function fromResponse(response: ResponseInput): Observable<Uint8Array>;
/**
 * {@link fromResponse}, naming the provider for the `provider-error` of a non-2xx response and
 * bounding how much of its body is read.
 *
 * @param response A function that makes the request with the signal it is given, or the response,
 *   or a promise of it (what `fetch()` returns).
 * @param options The provider name for errors; `maxErrorBodyBytes`.
 * @return An observable of the body's chunks.
 * @throws {ToolStreamError} `invalid-option`, at once, for an option it does not take or a value it cannot use.
 */
export function fromResponse(response: ResponseInput, options: FromResponseOptions): Observable<Uint8Array>;
export function fromResponse(response: ResponseInput, options?: FromResponseOptions | number): Observable<Uint8Array> {
  // `switchMap(fromResponse)` passes the index as the second argument: only an object is options.
  const given = typeof options === 'object' && options !== null ? options : undefined;
  checkOptions('fromResponse', given, RESPONSE_OPTION_CHECKS);
  return responseChunks(response, given?.provider ?? 'http', given?.maxErrorBodyBytes ?? DEFAULT_MAX_ERROR_BODY_BYTES, 'fromResponse');
}

/** The checks of {@link FromResponseOptions}' keys. */
const RESPONSE_OPTION_CHECKS: OptionChecks = {
  provider: aString,
  maxErrorBodyBytes: (value) => (value === Infinity || (Number.isSafeInteger(value) && (value as number) >= 0) ? undefined : 'a whole number of bytes, 0 or more (or Infinity)'),
};

/** {@link fromResponse}'s implementation; `source` names the public function on a `connection-lost` error. */
function responseChunks(input: ResponseInput, provider: string, maxErrorBodyBytes: number, source: string): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    let abort: (() => void) | undefined;
    let response: ResponseLike | PromiseLike<ResponseLike>;
    if (typeof input === 'function') {
      const controller = new AbortController();
      abort = () => controller.abort();
      try {
        response = input(controller.signal);
      } catch (error) {
        subscriber.error(error);
        return undefined;
      }
    } else response = input;
    /** What stops the phase in progress: the pending request (function form only), then the error body read. */
    let cancel = abort;
    let body: Subscription | undefined;
    Promise.resolve(response).then(
      (res) => {
        cancel = undefined;
        if (subscriber.closed) {
          if (res.body !== null && !res.body.locked) res.body.cancel().catch(() => undefined);
          return;
        }
        if (!res.ok) {
          const wait = retryAfterMs(res.headers);
          cancel = readErrorBody(res, maxErrorBodyBytes, abort, (text, truncated) => {
            cancel = undefined;
            const error = httpProviderError(res.status, text, res.statusText, provider, wait);
            subscriber.error(truncated ? withDetails(error, { payloadTruncated: true }) : error);
          });
          return;
        }
        if (res.bodyUsed) {
          subscriber.error(alreadyConsumedError('This Response body', 'subscribe once, or pass a function: fromResponse((signal) => fetch(url, { ...init, signal }))'));
          return;
        }
        if (res.body === null) {
          subscriber.error(new ToolStreamError('truncated', { provider, detail: `the HTTP ${res.status} response has no body` }));
          return;
        }
        const contentType = res.headers?.get('content-type') ?? undefined;
        const chunks = readStream(res.body, source, abort);
        // The first chunk carries the content type, for the readers to pick the framing from.
        body = (contentType === undefined ? chunks : chunks.pipe(map((chunk, i) => (i === 0 ? withContentType(chunk, contentType) : chunk)))).subscribe(subscriber);
      },
      // `fetch()` itself failed: a refused or reset connection is typed, anything else passes as it is.
      (error: unknown) => {
        cancel = undefined;
        subscriber.error(asConnectionLost(error, source, 0));
      },
    );
    return () => {
      body?.unsubscribe();
      cancel?.();
    };
  });
}

/**
 * Read the start of an error body: chunks until the body ends or more than `limit` bytes came,
 * then cancel the rest (and `abort` the request, for the function form). `done` receives the text
 * of at most `limit` bytes, and whether the body went on past them (or was cut). Returns what
 * cancels the read.
 */
function readErrorBody(res: ResponseLike, limit: number, abort: (() => void) | undefined, done: (text: string, truncated: boolean) => void): () => void {
  const stream = res.body;
  let active = true;
  if (stream === null || stream.locked || res.bodyUsed) {
    // No stream to read: a stand-in's `text()`, cut to the limit.
    const text = stream === null && !res.bodyUsed && typeof res.text === 'function' ? res.text() : Promise.resolve('');
    text.then(
      (whole) => {
        if (!active) return;
        active = false;
        const bytes = new TextEncoder().encode(whole);
        if (bytes.byteLength <= limit) done(whole, false);
        else done(new TextDecoder().decode(bytes.subarray(0, limit), { stream: true }), true);
      },
      () => {
        if (!active) return;
        active = false;
        done('', false);
      },
    );
    return () => void (active = false);
  }
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const finish = (truncated: boolean): void => {
    active = false;
    const bytes = new Uint8Array(Math.min(size, limit));
    let at = 0;
    for (const chunk of chunks) {
      if (at === bytes.byteLength) break;
      const part = chunk.byteLength <= bytes.byteLength - at ? chunk : chunk.subarray(0, bytes.byteLength - at);
      bytes.set(part, at);
      at += part.byteLength;
    }
    chunks.length = 0;
    // A character cut at the limit (or by the connection) is left out.
    done(new TextDecoder().decode(bytes, { stream: truncated }), truncated);
  };
  const stop = (): void => {
    reader.cancel().catch(() => undefined);
    abort?.();
  };
  const pump = (): void => {
    reader.read().then(
      (result) => {
        if (!active) return;
        if (result.done) return finish(false);
        chunks.push(result.value);
        size += result.value.byteLength;
        if (size <= limit) return pump();
        stop();
        finish(true);
      },
      () => {
        if (active) finish(true); // cut while the error body was read: what arrived
      },
    );
  };
  pump();
  return () => {
    if (!active) return;
    active = false;
    chunks.length = 0;
    stop();
  };
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
 * ends the stream with `connection-lost` error (`source: 'responseBody'`), as with
 * {@link fromResponse}; an error body is read up to `maxErrorBodyBytes` in the same way.
 * `fromFetch` aborts its request when unsubscribed before the response; after it, unsubscribing
 * cancels the body, which closes the connection.
 *
 * @example
 * ```ts
 * import { fromFetch } from 'rxjs/fetch';
 * import { responseBody, decodeSse, openaiChat } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * fromFetch(url, init)
 *   .pipe(responseBody(), decodeSse(), openaiChat())
 *   .subscribe({ next: console.log, error: (error) => console.error(error.message) });
 * ```
 *
 * @param options The provider name for errors; `maxErrorBodyBytes`.
 * @return An operator from responses to their body chunks.
 * @throws {ToolStreamError} `invalid-option`, at once, for an option it does not take or a value it cannot use.
 */
export function responseBody(options: FromResponseOptions = {}): OperatorFunction<ResponseLike, Uint8Array> {
  checkOptions('responseBody', options, RESPONSE_OPTION_CHECKS);
  const provider = options.provider ?? 'http';
  const limit = options.maxErrorBodyBytes ?? DEFAULT_MAX_ERROR_BODY_BYTES;
  return switchMap((response) => responseChunks(response, provider, limit, 'responseBody'));
}
