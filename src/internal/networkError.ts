/**
 * The one place that decides whether an error that ended a source is a network failure, and the
 * wrapping of such errors into `connection-lost` errors. Every source, and the SSE framing, uses it.
 *
 * @module
 */
import { ToolStreamError, isToolStreamError } from '../errors';

/**
 * Error codes that mean the connection failed: Node's socket errors, undici's socket and timeout
 * errors, a stream closed before its end, an HTTP/2 stream reset.
 */
const NETWORK_CODES: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'ECONNRESET', // reset by the peer; also Node's `Error: aborted` on an IncomingMessage cut mid-body
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET', // undici: "other side closed"
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_HTTP2_SESSION_ERROR',
]);

/**
 * The `TypeError` messages fetch implementations use for a network failure, which carry no code:
 * browsers give no detail on purpose (whatwg/fetch#526).
 */
const NETWORK_MESSAGES: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'network error', // Chrome: the body read failed
  'Failed to fetch', // Chrome: the request failed
  'NetworkError when attempting to fetch resource.', // Firefox: the request failed
  'Error in input stream', // Firefox: the body read failed
  'Error in body stream', // Firefox (older): the body read failed
  'Load failed', // Safari 17+
  'The network connection was lost.', // Safari
  'The Internet connection appears to be offline.', // Safari 16
  'Network request failed', // React Native, cross-fetch
]);

/** How deep to follow `cause` (an SDK error wrapping undici's `TypeError` wrapping a `SocketError`). */
const MAX_DEPTH = 4;

function codeOf(value: object): string | undefined {
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** A `TypeError`, also from another realm (an iframe, a `vm` context, a test environment). */
function isTypeError(value: object): value is { message: string } {
  const message = (value as { message?: unknown }).message;
  return typeof message === 'string' && (value instanceof TypeError || (value as { name?: unknown }).name === 'TypeError');
}

function isAbortError(value: object): boolean {
  return (value as { name?: unknown }).name === 'AbortError';
}

function isNetworkFailureAt(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return false;
  // Our own errors are already typed; a cancellation the user asked for is not a failure.
  if (isToolStreamError(value) || isAbortError(value)) return false;
  const code = codeOf(value);
  if (code !== undefined && NETWORK_CODES.has(code)) return true;
  const cause = (value as { cause?: unknown }).cause;
  const message = (value as { message?: unknown }).message;
  if (isTypeError(value)) {
    if (NETWORK_MESSAGES.has(value.message)) return true;
    // undici cuts a body with `TypeError: terminated`; without a cause it gives no reason at all.
    if (value.message === 'terminated' && cause === undefined) return true;
  } else if (typeof message === 'string' && message.startsWith('TypeError: ') && cause === undefined) {
    // A wrapper that kept only `String(error)` (the SDKs' stream helpers do, for an error from
    // another realm): `AnthropicError: TypeError: terminated`.
    const inner = message.slice('TypeError: '.length);
    if (NETWORK_MESSAGES.has(inner) || inner === 'terminated') return true;
  }
  // A wrapper is a network failure when what it wraps is one: undici's `terminated` / `fetch failed`
  // (which also covers a bad URL, DNS or TLS errors: only its cause decides), an SDK's
  // `APIConnectionError`, `AnthropicError('terminated')`, …
  return isNetworkFailureAt(cause, depth + 1);
}

/**
 * Whether `error` is a network failure: the connection was refused, reset or cut while a response
 * was being read. Decided by the well-known codes and messages only, so a bug in user code (a
 * `TypeError` from a bad argument) is never mistaken for one.
 *
 * 1. An error whose `code` is a socket or stream failure (`ECONNRESET`, `EPIPE`, `ETIMEDOUT`,
 *    `ECONNREFUSED`, `UND_ERR_SOCKET`, `UND_ERR_BODY_TIMEOUT`, `ERR_STREAM_PREMATURE_CLOSE`, …).
 * 2. A `TypeError` with a browser's network message (`network error`, `Failed to fetch`,
 *    `NetworkError when attempting to fetch resource.`, `Load failed`, `Error in input stream`, …).
 * 3. undici's `TypeError: terminated` / `fetch failed` when its `cause` is a network failure
 *    (`terminated` with no cause counts too).
 * 4. Any error whose `cause` (followed up to four levels) is one: the official SDKs' wrappers; and
 *    a wrapper with no cause whose message is such a `TypeError` as text (`TypeError: terminated`).
 * 5. Never an `AbortError` (the user's own signal) or an error of this library.
 *
 * @example
 * ```ts
 * import { isConnectionLost } from 'rxjs-tool-calls/advanced';
 *
 * console.log(isConnectionLost(new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) })));
 * // displays: true
 * console.log(isConnectionLost(new TypeError("Cannot read properties of undefined (reading 'getReader')")));
 * // displays: false
 * ```
 *
 * @param error What a source failed with.
 * @return `true` for a network failure.
 */
export function isConnectionLost(error: unknown): boolean {
  return isNetworkFailureAt(error, 0);
}

/**
 * `error` as a `connection-lost` error when it is a network failure, else unchanged.
 *
 * @internal
 */
export function asConnectionLost(error: unknown, source: string, byteOffset: number | undefined): unknown {
  return isConnectionLost(error) ? new ToolStreamError('connection-lost', { source, byteOffset }, { cause: error }) : error;
}

/**
 * How many bytes a chunk adds to a source's byte count: a byte view's length, a string's UTF-8
 * length; `undefined` for anything else (the count stops).
 *
 * @internal
 */
export function byteLengthOf(chunk: unknown): number | undefined {
  if (typeof chunk === 'string') return utf8Length(chunk);
  if (ArrayBuffer.isView(chunk)) return chunk.byteLength;
  if (chunk instanceof ArrayBuffer) return chunk.byteLength;
  return undefined;
}

/**
 * A running count of body bytes after `chunk`: `undefined` once a chunk of unknown size was seen
 * (the count would be wrong), as it was before.
 *
 * @internal
 */
export function addBytes(total: number | undefined, chunk: unknown): number | undefined {
  if (total === undefined) return undefined;
  const added = byteLengthOf(chunk);
  return added === undefined ? undefined : total + added;
}

function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}
