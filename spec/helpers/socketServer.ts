/**
 * A real WebSocket server on 127.0.0.1 (the `ws` package's), scripted per connection: what each
 * client sends is recorded, and the script answers it. Counts the connections it accepted and the
 * ones still open, so specs can check that a client left none behind.
 */
import type { IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

/** One accepted connection, as the script sees it. */
export interface ServerSocket {
  /** The connection's number (1 for the first). */
  readonly n: number;
  /** The `ws` socket itself (to send, close, terminate). */
  readonly ws: WebSocket;
  /** The handshake request (its headers, its URL). */
  readonly request: IncomingMessage;
  /** Every text message the client sent, parsed when it is JSON. */
  readonly received: unknown[];
  /** Send each value as a text message (objects as JSON). */
  send(...messages: ReadonlyArray<unknown>): void;
  /** Resolves with the first message not handed out by an earlier call (parsed), or the next to come. */
  next(): Promise<unknown>;
}

export interface SocketServer {
  readonly url: string;
  readonly port: number;
  /** Every connection accepted so far. */
  readonly sockets: ServerSocket[];
  /** Connections not closed yet. */
  open(): number;
  /** Resolves when no connection is open (rejects after `ms`). */
  idle(ms?: number): Promise<void>;
  close(): Promise<void>;
}

export type Script = (socket: ServerSocket) => void | Promise<void>;

export interface SocketServerOptions {
  /** Answer the handshake with this HTTP status instead of upgrading. */
  readonly refuse?: (request: IncomingMessage, n: number) => number | undefined;
}

/** Start a server whose every connection runs `script`. */
export async function startSocketServer(script: Script, options: SocketServerOptions = {}): Promise<SocketServer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  await once(server, 'listening');
  const sockets: ServerSocket[] = [];
  let attempts = 0;
  let openCount = 0;
  if (options.refuse !== undefined) {
    // Refuse some handshakes with an HTTP status (what an API does for a bad key, a rate limit, …).
    const refuse = options.refuse;
    server.options.verifyClient = (info: { req: IncomingMessage }, callback: (ok: boolean, code?: number) => void) => {
      const status = refuse(info.req, ++attempts);
      if (status === undefined) callback(true);
      else callback(false, status);
    };
  }
  server.on('connection', (ws: WebSocket, request: IncomingMessage) => {
    openCount++;
    ws.on('close', () => openCount--);
    ws.on('error', () => undefined);
    const received: unknown[] = [];
    const waiters: Array<(message: unknown) => void> = [];
    /** How many messages `next()` handed out. */
    let taken = 0;
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? data : data.toString();
      let message: unknown = text;
      if (typeof text === 'string') {
        try {
          message = JSON.parse(text);
        } catch {
          message = text;
        }
      }
      received.push(message);
      const waiter = waiters.shift();
      if (waiter !== undefined) {
        taken++;
        waiter(message);
      }
    });
    const socket: ServerSocket = {
      n: sockets.length + 1,
      ws,
      request,
      received,
      send: (...messages) => {
        for (const message of messages) if (ws.readyState === WebSocket.OPEN) ws.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message));
      },
      next: () =>
        new Promise((resolve) => {
          // The first message not handed out yet, or the next to come.
          if (taken < received.length) resolve(received[taken++]);
          else waiters.push(resolve);
        }),
    };
    sockets.push(socket);
    void Promise.resolve(script(socket)).catch(() => ws.terminate());
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    sockets,
    open: () => openCount,
    async idle(ms = 2000) {
      for (let waited = 0; openCount > 0; waited += 5) {
        if (waited > ms) throw new Error(`${openCount} connection(s) still open after ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/** The next message a server socket receives, after its earlier ones: by count. */
export async function messageAt(socket: ServerSocket, index: number, ms = 2000): Promise<unknown> {
  for (let waited = 0; socket.received.length <= index; waited += 5) {
    if (waited > ms) throw new Error(`message ${index} never came (${socket.received.length} received)`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return socket.received[index];
}
