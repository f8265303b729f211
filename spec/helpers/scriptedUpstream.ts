/**
 * A scripted upstream on 127.0.0.1 (any API: the test queues one reply per expected request and
 * reads back what each request carried). A reply is an HTTP error (with headers such as
 * `Retry-After`), no answer at all (a stall before the headers), or SSE pieces written one by
 * one — a promise among them holds the next piece until it resolves (to prove a client saw the
 * earlier pieces live) — then the end, a held-open connection, or a cut socket. It counts its open
 * connections and the requests still being answered, for the leak checks of the fault specs.
 */
import http from 'node:http';
import { listenOnLoopback, type Loopback } from './loopback';

export interface UpstreamReply {
  /** An HTTP error: the status and the JSON body, instead of a stream. */
  readonly error?: { readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> };
  /** `'before-headers'`: never answer (no status line), until the client goes away. */
  readonly stall?: 'before-headers';
  /** SSE pieces, written in order; a promise waits before the next piece. */
  readonly events?: ReadonlyArray<string | Promise<unknown>>;
  /** After the pieces: end the response (default), keep it open, or destroy the socket. */
  readonly then?: 'end' | 'hold' | 'cut';
}

/** One request the upstream received. */
export interface UpstreamRequest {
  /** Path and query, e.g. `/v1/messages` or `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: unknown;
  /** Resolves when the request's socket closed (the reply ended, or the client went away). */
  readonly closed: Promise<void>;
}

export interface ScriptedUpstream extends Loopback {
  readonly requests: UpstreamRequest[];
  /** Queue the reply to the next request (`times` copies of it). */
  reply(reply: UpstreamReply, times?: number): void;
  /** Requests whose answer has not ended and whose socket is still open. */
  active(): number;
  /** TCP connections open now (idle keep-alive ones included). */
  sockets(): number;
}

export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const requests: UpstreamRequest[] = [];
  const replies: UpstreamReply[] = [];
  let active = 0;
  let sockets = 0;
  const server = http.createServer((req, res) => {
    active++;
    res.on('close', () => active--);
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const closed = new Promise<void>((resolve) => res.on('close', resolve));
      requests.push({ url: req.url ?? '', headers: req.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown), closed });
      const reply = replies.shift();
      if (reply === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no reply scripted for this request"}}');
        return;
      }
      if (reply.error !== undefined) {
        res.writeHead(reply.error.status, { 'content-type': 'application/json', ...reply.error.headers }).end(JSON.stringify(reply.error.body));
        return;
      }
      if (reply.stall === 'before-headers') return;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders(); // the status line goes at once (a stall after the headers has no piece)
      void (async () => {
        for (const piece of reply.events ?? []) {
          if (res.destroyed) return;
          // Each piece is on the socket before the next step (a cut must not discard written pieces).
          if (typeof piece === 'string') await new Promise((resolve) => res.write(piece, resolve));
          else await piece;
        }
        if (reply.then === 'cut') res.destroy();
        else if (reply.then !== 'hold') res.end();
      })();
    });
  });
  server.on('connection', (socket) => {
    sockets++;
    socket.on('close', () => sockets--);
  });
  const loopback = await listenOnLoopback(server, () => requests[requests.length - 1]);
  return {
    ...loopback,
    requests,
    reply(reply, times = 1) {
      for (let i = 0; i < times; i++) replies.push(reply);
    },
    active: () => active,
    sockets: () => sockets,
  };
}

/** A promise and its resolver, for holding an upstream between two pieces. */
export function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
