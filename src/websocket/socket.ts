/**
 * One WebSocket connection, on RxJS's own `webSocket` subject: its text messages as the records the
 * formats read, its failures as typed errors, and what is sent on it. What `fromWebSocket()` and
 * `responsesWebSocket()` share.
 *
 * @module
 */
import { Observable } from 'rxjs';
import { webSocket, type WebSocketSubject } from 'rxjs/webSocket';
import { ToolStreamError } from '../errors';
import type { FramedRecord } from '../events';
import { byteLengthOf } from '../internal/networkError';
import { aCount, type OptionCheck, type OptionChecks } from '../internal/options';
import { isRetryable } from '../providers/providerError';

/**
 * A WebSocket constructor: the runtime's global `WebSocket` (browsers, Deno, Bun, Node 22+), or,
 * in Node 20 (which has none), the `ws` package's (`import { WebSocket } from 'ws'`). Called as
 * `new WebSocketCtor(url, protocols?, options?)`; `options` (`headers`, `maxPayload`) is what the
 * `ws` package's constructor reads, and other constructors ignore.
 */
export type WebSocketCtor = new (url: string, protocols?: string | string[]) => unknown;

/** How to open a socket: the options `fromWebSocket()` and `responsesWebSocket()` share. */
export interface WebSocketOptions {
  /**
   * The WebSocket constructor. Default: the global `WebSocket`. Node 20 has none: pass the `ws`
   * package's (`import { WebSocket } from 'ws'`); without either the function throws
   * `invalid-option` when it is made. `ws` is not a dependency of this package: install it yourself.
   */
  readonly WebSocketCtor?: WebSocketCtor;
  /** The subprotocols asked for in the handshake (`Sec-WebSocket-Protocol`). */
  readonly protocols?: string | ReadonlyArray<string>;
  /**
   * Headers of the handshake request (`Authorization: Bearer …`), for constructors that take them
   * as `options.headers` (the `ws` package). A browser's WebSocket cannot send headers.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The longest message read, in characters (default 16 MiB, as `maxEventSize`): a longer one ends
   * the stream with `event-too-large` and closes the socket. The `ws` package is also told to refuse
   * a message of more than three bytes per character of it, so such a message is never held whole.
   */
  readonly maxMessageSize?: number;
}

/** The default of `maxMessageSize`: 16 MiB characters, as an SSE event's `maxEventSize`. */
export const DEFAULT_MAX_MESSAGE_SIZE = 16 * 1024 * 1024;

/** The check of `WebSocketCtor`: a constructor. */
const aConstructor: OptionCheck = (value) => (typeof value === 'function' ? undefined : "a WebSocket constructor (the global WebSocket, or the ws package's)");

/** The check of `protocols`: a subprotocol or a list of them. */
const someProtocols: OptionCheck = (value) => (typeof value === 'string' || (Array.isArray(value) && value.every((p) => typeof p === 'string')) ? undefined : 'a subprotocol name or an array of them');

/** The check of `headers`: header names to text values. */
const someHeaders: OptionCheck = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string') ? undefined : 'an object of header names to string values';

/** The checks of {@link WebSocketOptions}' keys. */
export const SOCKET_OPTION_CHECKS: OptionChecks = {
  WebSocketCtor: aConstructor,
  protocols: someProtocols,
  headers: someHeaders,
  maxMessageSize: /* @__PURE__ */ aCount(1),
};

/** The check of a socket's URL: `ws:` or `wss:` (a URL, or its text). */
export function socketUrl(fn: string, url: unknown): string {
  const text = url instanceof URL ? url.href : url;
  if (typeof text !== 'string' || !/^wss?:\/\//i.test(text))
    throw new ToolStreamError('invalid-option', { function: fn, option: 'url', value: url, expected: 'a ws:// or wss:// URL (a string or a URL)' });
  return text;
}

/** What opening a socket needs, resolved once when the function is made. */
export interface SocketSettings {
  readonly url: string;
  readonly ctor: WebSocketCtor;
  readonly protocols: string | string[] | undefined;
  readonly maxMessageSize: number;
}

/** The global WebSocket constructor of this runtime, if it has one. */
function globalCtor(): WebSocketCtor | undefined {
  const found = (globalThis as { WebSocket?: unknown }).WebSocket;
  return typeof found === 'function' ? (found as WebSocketCtor) : undefined;
}

/**
 * The settings of a function's sockets, from its options (already checked): the constructor (the
 * given one, else the global one; neither is `invalid-option`), wrapped to pass `headers` and the
 * payload bound to constructors that read a third argument.
 */
export function socketSettings(fn: string, url: string, options: WebSocketOptions): SocketSettings {
  const base = options.WebSocketCtor ?? globalCtor();
  if (base === undefined)
    throw new ToolStreamError('invalid-option', {
      function: fn,
      option: 'options.WebSocketCtor',
      value: undefined,
      expected: "a WebSocket constructor: this runtime has no global WebSocket (Node 20): pass the ws package's (import { WebSocket } from 'ws')",
    });
  const maxMessageSize = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
  const extra: Record<string, unknown> = {};
  if (options.headers !== undefined) extra['headers'] = { ...options.headers };
  // UTF-8 takes at most 3 bytes per UTF-16 unit: a message over this many bytes is over the limit.
  if (Number.isFinite(maxMessageSize) && maxMessageSize * 3 < Number.MAX_SAFE_INTEGER) extra['maxPayload'] = maxMessageSize * 3 + 16;
  const withOptions = base as unknown as new (url: string, protocols: string | string[] | undefined, options: object) => unknown;
  const ctor = function WebSocketWithOptions(address: string, protocols?: string | string[]): unknown {
    return new withOptions(address, protocols, extra);
  } as unknown as WebSocketCtor;
  const protocols = options.protocols === undefined ? undefined : typeof options.protocols === 'string' ? options.protocols : [...options.protocols];
  return { url, ctor, protocols, maxMessageSize };
}

/** A socket's close as the runtime reports it (a `CloseEvent`). */
interface CloseInfo {
  readonly code: number;
  readonly reason: string;
}

/** The close codes of a normal end: 1000 (normal closure) and 1005 (a close frame without a code). */
const NORMAL_CLOSE: ReadonlySet<number> = /* @__PURE__ */ new Set([1000, 1005]);

/**
 * The close codes of a connection lost on the way, worth reconnecting for (as openai-node's
 * `isRecoverableClose`, and 1014, bad gateway): going away, abnormal closure (no close frame),
 * server error, service restart, try again later, bad gateway, TLS failure.
 */
const LOST_CLOSE: ReadonlySet<number> = /* @__PURE__ */ new Set([1001, 1006, 1011, 1012, 1013, 1014, 1015]);

/** The names of the standard close codes, for messages. */
const CLOSE_NAMES: Readonly<Record<number, string>> = {
  1001: 'going away',
  1002: 'protocol error',
  1003: 'unsupported data',
  1006: 'abnormal closure',
  1007: 'invalid payload',
  1008: 'policy violation',
  1009: 'message too big',
  1010: 'mandatory extension',
  1011: 'server error',
  1012: 'service restart',
  1013: 'try again later',
  1014: 'bad gateway',
  1015: 'TLS handshake failure',
};

/** How a close reads in a message: `1011 (server error): overloaded`. */
function describeClose(close: CloseInfo): string {
  const name = Object.prototype.hasOwnProperty.call(CLOSE_NAMES, close.code) ? ` (${CLOSE_NAMES[close.code]})` : '';
  return `${close.code}${name}${close.reason === '' ? '' : `: ${close.reason}`}`;
}

/**
 * The error of a socket closed with `close`, or `undefined` for a normal end. A connection lost on
 * the way (1001, 1006, 1011–1015) is `connection-lost` (retryable); a close the server meant (1002,
 * 1003, 1007–1010, an application's 3000–4999 code) is a `provider-error` of provider `'websocket'`
 * whose `providerCode` is the code and `message` the reason, not retryable.
 */
export function closeError(close: CloseInfo, source: string, byteOffset: number): ToolStreamError | undefined {
  if (NORMAL_CLOSE.has(close.code)) return undefined;
  const cause = Object.assign(new Error(`the WebSocket closed with code ${describeClose(close)}`), { closeCode: close.code, closeReason: close.reason });
  if (LOST_CLOSE.has(close.code)) return new ToolStreamError('connection-lost', { source, byteOffset }, { cause });
  return new ToolStreamError('provider-error', {
    provider: 'websocket',
    providerCode: String(close.code),
    type: 'websocket_close',
    message: close.reason === '' ? `the server closed the WebSocket with code ${describeClose(close)}` : close.reason,
    retryable: false,
    payload: { code: close.code, reason: close.reason },
  });
}

/** The `ws` package's codes of a frame that breaks the protocol (an unmasked frame, a bad opcode, text that is not UTF-8, …). */
const FRAME_ERRORS = /^WS_ERR_(INVALID|UNEXPECTED|EXPECTED)/;

/**
 * The error of a socket's `error` event, before or after it opened: the server refused the
 * handshake (`ws`: "Unexpected server response: 401") is a `provider-error` with that status;
 * a message over the `ws` package's payload bound is `event-too-large`; a frame that breaks the
 * protocol is `invalid-frame`; anything else (refused, reset, DNS, TLS) is `connection-lost`, with
 * the runtime's error as its cause (a browser gives none).
 */
export function socketError(event: unknown, source: string, byteOffset: number, maxMessageSize: number): ToolStreamError {
  const record = (typeof event === 'object' && event !== null ? event : {}) as { readonly error?: unknown; readonly message?: unknown; readonly code?: unknown; readonly reason?: unknown };
  // An unclean close (no close frame): rxjs's subject errors with the close event itself.
  if (typeof record.code === 'number' && typeof record.reason === 'string') return closeError({ code: record.code, reason: record.reason }, source, byteOffset) ?? lostWithout(source, byteOffset);
  // Duck-typed: an error made by the runtime may be of another realm than this module's `Error`.
  const error = isErrorLike(record.error) ? record.error : isErrorLike(event) ? event : undefined;
  const message = typeof record.message === 'string' ? record.message : (error?.message ?? '');
  const status = /Unexpected server response: (\d{3})/.exec(message)?.[1];
  if (status !== undefined) {
    const code = Number(status);
    return new ToolStreamError('provider-error', {
      provider: 'websocket',
      type: 'websocket_handshake',
      message: `the server refused the WebSocket handshake with HTTP ${code}`,
      status: code,
      retryable: isRetryable(code, undefined, undefined),
      payload: { status: code },
    });
  }
  const errorCode = (error as { readonly code?: unknown } | undefined)?.code;
  const code = typeof errorCode === 'string' ? errorCode : undefined;
  if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return new ToolStreamError('event-too-large', { limit: maxMessageSize, byteOffset, start: '', framing: 'websocket' });
  if (code !== undefined && FRAME_ERRORS.test(code)) return new ToolStreamError('invalid-frame', { framing: 'websocket', byteOffset, detail: message || code });
  return new ToolStreamError('connection-lost', { source, byteOffset }, { cause: error ?? new Error(message === '' ? 'the WebSocket failed' : message) });
}

/** An `Error` of any realm: an object with a string `message` and a `name`. */
function isErrorLike(value: unknown): value is Error {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string' && typeof (value as { name?: unknown }).name === 'string';
}

function lostWithout(source: string, byteOffset: number): ToolStreamError {
  return new ToolStreamError('connection-lost', { source, byteOffset }, { cause: new Error('the WebSocket closed') });
}

/** Text as it is; anything else as JSON. */
export function serialize(message: unknown): string {
  if (typeof message === 'string') return message;
  const text = JSON.stringify(message);
  if (text === undefined) throw new TypeError(`rxjs-tool-calls: ${typeof message} cannot be sent as JSON`);
  return text;
}

/**
 * One connection: subscribing to {@link Connection.records} opens the socket (through rxjs's
 * `webSocket`), and unsubscribing closes it. Each text message is a record (`event` `'message'`,
 * `data` the text); a binary message is `invalid-frame`, a message over the limit
 * `event-too-large`, a close or a failure the errors of {@link closeError} and {@link socketError}.
 * A normal close (1000, 1005) completes the records.
 */
export class Connection {
  private readonly subject: WebSocketSubject<unknown>;
  private lastClose: CloseInfo | undefined;
  /** Bytes of the messages received (UTF-8). */
  bytes = 0;
  /** Whether the socket opened. */
  opened = false;

  /**
   * @param settings Where and how to open it.
   * @param source The function named by `connection-lost`.
   * @param onOpen Told when the socket opened.
   */
  constructor(
    private readonly settings: SocketSettings,
    private readonly source: string,
    onOpen?: () => void,
  ) {
    this.subject = webSocket<unknown>({
      url: settings.url,
      ...(settings.protocols === undefined ? {} : { protocol: settings.protocols }),
      WebSocketCtor: settings.ctor as unknown as { new (url: string, protocols?: string | string[]): WebSocket },
      binaryType: 'arraybuffer',
      deserializer: (event: MessageEvent) => event,
      serializer: (value: unknown) => value as string,
      openObserver: {
        next: () => {
          this.opened = true;
          onOpen?.();
        },
      },
      closeObserver: { next: (event: CloseEvent) => (this.lastClose = { code: event.code, reason: event.reason }) },
    });
  }

  /** The socket's messages as records: subscribing opens it, unsubscribing closes it (see the class). */
  records(): Observable<FramedRecord> {
    return new Observable<FramedRecord>((subscriber) => {
      const { maxMessageSize } = this.settings;
      return this.subject.subscribe({
        next: (message) => {
          const data = (message as MessageEvent).data as unknown;
          const at = this.bytes;
          if (typeof data !== 'string') {
            const size = byteLengthOf(data) ?? 0;
            this.bytes += size;
            subscriber.error(new ToolStreamError('invalid-frame', { framing: 'websocket', byteOffset: at, detail: `a binary message of ${size} bytes: the events are JSON text` }));
            return;
          }
          this.bytes += byteLengthOf(data) ?? data.length;
          if (data.length > maxMessageSize) {
            subscriber.error(new ToolStreamError('event-too-large', { limit: maxMessageSize, byteOffset: at, start: data.slice(0, 200), framing: 'websocket' }));
            return;
          }
          subscriber.next({ event: 'message', data, id: undefined, retry: undefined });
        },
        error: (error: unknown) => subscriber.error(socketError(error, this.source, this.bytes, maxMessageSize)),
        complete: () => {
          const error = this.lastClose === undefined ? undefined : closeError(this.lastClose, this.source, this.bytes);
          if (error === undefined) subscriber.complete();
          else subscriber.error(error);
        },
      });
    });
  }

  /** Send `message` (text as it is, anything else as JSON): before the socket opened it waits, after it closed it is dropped. */
  send(message: unknown): void {
    this.subject.next(serialize(message));
  }
}
