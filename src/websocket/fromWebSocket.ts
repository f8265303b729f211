/**
 * `fromWebSocket()`: a WebSocket's messages as the records the formats read.
 *
 * @module
 */
import { defer, from, Observable, type ObservableInput } from 'rxjs';
import type { FramedRecord } from '../events';
import { checkOptions, type OptionCheck } from '../internal/options';
import { Connection, SOCKET_OPTION_CHECKS, socketSettings, socketUrl, type WebSocketOptions } from './socket';

/** Options of {@link fromWebSocket}. */
export interface FromWebSocketOptions extends WebSocketOptions {
  /**
   * What to send on the socket: each value as a text message (a string as it is, anything else as
   * JSON), in order, from the moment the subscription opens the socket (values before it opened
   * wait for it). A `response.create` turn, a Realtime session's `session.update` and the answers
   * to its calls. Its completion closes nothing; its error ends the stream with that error.
   */
  readonly send?: ObservableInput<unknown>;
}

/** The check of `send`: anything `from()` takes. */
const anObservableInput: OptionCheck = (value) =>
  (typeof value === 'object' && value !== null) || typeof value === 'string' ? undefined : 'an Observable, an array, a promise or an iterable of messages';

/**
 * A WebSocket's messages as {@link FramedRecord}s, the records the wire formats read: one per text
 * message (`event` `'message'`, `data` its text).
 *
 * <span class="informal">Subscribing opens the socket (with RxJS's own `webSocket` subject);
 * unsubscribing closes it. Pipe it into a format and `toolCalls()`, or into `readToolCalls()`, as
 * you would a response's bytes: the same results, identity rules, limits and errors.</span>
 *
 * ```text
 * (open)--m1----m2-------m3---|        m: text messages; |: the server closed with 1000
 *   fromWebSocket(url)
 * -------r1----r2-------r3---|         r: { event: 'message', data: m, id: undefined, retry: undefined }
 *
 * (open)--m1----m2--X                  X: the connection dropped (1006), or closed with 1011
 *   fromWebSocket(url)
 * -------r1----r2--#                   #: connection-lost (retryable), after what arrived
 * ```
 *
 * 1. A normal close (1000, or a close frame without a code) completes the stream; a connection
 *    lost on the way (no close frame, 1001, 1011–1015, a reset, a refused connection) ends it with
 *    `connection-lost` (`source: 'fromWebSocket'`, `byteOffset`: the bytes received); a close the
 *    server meant (1008 policy, 1009, an application's 4000 code, …) with a `provider-error` of
 *    provider `'websocket'` (its code and reason); a refused handshake (`ws`: HTTP 401, 429, 503)
 *    with a `provider-error` with that `status`.
 * 2. A binary message ends it with `invalid-frame` (`framing: 'websocket'`); a message longer than
 *    `maxMessageSize` characters with `event-too-large`. Either closes the socket.
 * 3. A text message that is not JSON is the format's to judge, as an SSE event's data is: a
 *    format's `invalid-event`, or a keep-alive skipped.
 * 4. Downstream, a socket that closes mid-call gives every complete call, then the open ones
 *    `incomplete` (reason `connection-lost`), then the error; a server's `error` message is the
 *    format's `provider-error` with its code.
 * 5. Each subscription opens its own socket: `share()` it to read one socket twice. The messages
 *    of `send` are sent in order once it is open.
 * 6. A socket stays open until the server closes it or you unsubscribe: a Responses socket serves
 *    turn after turn, so a single turn's reading ends at its terminal event (`takeWhile`), or use
 *    `responsesWebSocket()`, which does.
 *
 * @example
 * ```ts
 * import { WebSocket } from 'ws';
 * import { readToolCalls } from 'rxjs-tool-calls';
 * import { fromWebSocket } from 'rxjs-tool-calls/websocket';
 *
 * declare const tools: import('rxjs-tool-calls').ToolSchemas;
 *
 * fromWebSocket('wss://api.openai.com/v1/realtime?model=gpt-realtime', {
 *   WebSocketCtor: WebSocket, // Node 20 has no global WebSocket
 *   headers: { authorization: `Bearer ${process.env.OPENAI_API_KEY}` },
 * })
 *   .pipe(readToolCalls({ tools }))
 *   .subscribe({ next: (result) => console.log(result.success ? result.data.name : result.error.code), error: (error: unknown) => console.error(error) });
 * // displays: get_weather, as each of the session's calls completes
 * ```
 *
 * @param url The socket's URL (`ws://` or `wss://`).
 * @param options The constructor (`WebSocketCtor`: the global one by default; Node 20 has none),
 *   `protocols`, `headers`, `maxMessageSize` and the messages to `send`.
 * @return The socket's messages as records.
 * @throws {ToolStreamError} `invalid-option`, at once, for a URL that is not `ws:` / `wss:`, an
 *   option it does not take or a value it cannot use, or no WebSocket constructor (no global one and
 *   none given).
 */
export function fromWebSocket(url: string | URL, options: FromWebSocketOptions = {}): Observable<FramedRecord> {
  checkOptions('fromWebSocket', options, SOCKET_OPTION_CHECKS, { send: anObservableInput });
  const settings = socketSettings('fromWebSocket', socketUrl('fromWebSocket', url), options);
  const send = options.send;
  return defer(() => {
    const connection = new Connection(settings, 'fromWebSocket');
    if (send === undefined) return connection.records();
    return new Observable<FramedRecord>((subscriber) => {
      const subscription = connection.records().subscribe(subscriber);
      subscription.add(
        from(send).subscribe({
          next: (message) => {
            try {
              connection.send(message);
            } catch (error) {
              subscriber.error(error);
            }
          },
          error: (error: unknown) => subscriber.error(error),
        }),
      );
      return subscription;
    });
  });
}
