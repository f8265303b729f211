/**
 * `rxjs-tool-calls/websocket`: tool calls over WebSockets, on RxJS's own `webSocket` — a socket's
 * messages as the records the formats read (`fromWebSocket()`: Responses' WebSocket mode, a
 * Realtime session, any server that sends one JSON event per message), and a `toolLoop()` request
 * that keeps one socket for the whole loop (`responsesWebSocket()`).
 *
 * In Node 20, which has no global `WebSocket`, give each function a constructor: the `ws`
 * package's (`import { WebSocket } from 'ws'`), which you install; it is not a dependency of this
 * package. Browsers, Deno, Bun and Node 22+ have a global one, used by default.
 *
 * @packageDocumentation
 */

export { fromWebSocket, type FromWebSocketOptions } from './fromWebSocket';
export { responsesWebSocket, type ResponsesWebSocketOptions } from './responsesWebSocket';
export type { WebSocketCtor, WebSocketOptions } from './socket';
