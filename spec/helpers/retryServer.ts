/**
 * A local HTTP server (127.0.0.1, port 0) whose answers are scripted per path and per request: an
 * HTTP error with headers, an SSE stream written whole, cut mid-stream (the socket destroyed after
 * the bytes were flushed), or held open. It records every request (method, headers, query, when it
 * arrived, when its socket closed), and the two HTTP clients the retry specs use: `fetch` with
 * `fromResponse`, and Node's `http.request`.
 */
import http from 'node:http';
import { Observable, Subscription } from 'rxjs';
import { fromAsyncIterable, fromResponse, ToolStreamError } from 'rxjs-tool-calls';
import { httpProviderError, isConnectionLost } from 'rxjs-tool-calls/advanced';
import { retryAfterMs } from '../../src/sources/retryAfter';
import { listenOnLoopback } from './loopback';

/** How the server answers one request. */
export interface Reply {
  /** Default 200. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body of a non-2xx answer. */
  readonly body?: string;
  /** SSE events written one by one (a 2xx answer). */
  readonly events?: readonly string[];
  /** Written after the events: the start of an event that the cut interrupts. */
  readonly tail?: string;
  /** After the events: `end` the response (default), `cut` the socket, or `hold` it open. */
  readonly then?: 'end' | 'cut' | 'hold';
  /** Wait this long before writing the events. */
  readonly delayMs?: number;
}

/** One request the server saw. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** `performance.now()` when it arrived. */
  readonly at: number;
  /** Resolves when its socket closed. */
  readonly closed: Promise<void>;
}

/** The answer to the `n`-th request (0-based) on a path. */
export type Script = (request: SeenRequest, n: number) => Reply;

export interface RetryServer {
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** The requests on one path. */
  on(path: string): SeenRequest[];
  /** Answer requests on `path`: the replies in order (the last one repeated), or a function. */
  script(path: string, replies: readonly Reply[] | Script): void;
  close(): Promise<void>;
}

const written = (res: http.ServerResponse, text: string): Promise<void> => new Promise((resolve) => res.write(text, () => resolve()));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function answer(reply: Reply, res: http.ServerResponse): Promise<void> {
  const status = reply.status ?? 200;
  if (status >= 300) {
    res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body ?? '');
    return;
  }
  res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  res.flushHeaders();
  if (reply.delayMs !== undefined) await sleep(reply.delayMs);
  for (const event of reply.events ?? []) if (!res.destroyed) await written(res, event);
  if (reply.tail !== undefined && !res.destroyed) await written(res, reply.tail);
  const then = reply.then ?? 'end';
  if (then === 'end') res.end();
  else if (then === 'cut') {
    await sleep(20); // the bytes reach the client before the socket goes
    res.socket?.destroy();
  }
}

export async function startRetryServer(): Promise<RetryServer> {
  const requests: SeenRequest[] = [];
  const scripts = new Map<string, Script>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let resolveClosed: () => void = () => undefined;
      const request: SeenRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        at: performance.now(),
        closed: new Promise((resolve) => (resolveClosed = resolve)),
      };
      res.on('close', resolveClosed);
      const n = requests.filter((r) => r.path === request.path).length;
      requests.push(request);
      const script = scripts.get(request.path);
      void answer(script === undefined ? { status: 404, body: '{"error":{"message":"no such route"}}' } : script(request, n), res);
    });
  });
  const loopback = await listenOnLoopback(server, () => requests[requests.length - 1]);
  return {
    ...loopback,
    requests,
    on: (path) => requests.filter((r) => r.path === path),
    script(path, replies) {
      scripts.set(path, typeof replies === 'function' ? replies : (_, n) => replies[Math.min(n, replies.length - 1)] ?? { status: 500 });
    },
  };
}

/** What a test sends. */
export interface Send {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** One HTTP client: a request's body chunks, non-2xx as `provider-error` error (with `retryAfterMs`), a cut as `connection-lost` error. */
export type Transport = (url: string, send?: Send) => Observable<Uint8Array | string>;

/** `fetch` + `fromResponse`. */
export const viaFetch: Transport = (url, send = {}) =>
  fromResponse(fetch(url, { method: send.method ?? 'POST', headers: { 'content-type': 'application/json', ...send.headers }, ...(send.body === undefined ? {} : { body: send.body }) }));

/** Node's `http.request` + `fromAsyncIterable`; a non-2xx body is read and becomes `httpProviderError(…)`. */
export const viaNodeHttp: Transport = (url, send = {}) =>
  new Observable<Uint8Array | string>((subscriber) => {
    const inner = new Subscription();
    const request = http.request(url, { method: send.method ?? 'POST', headers: { 'content-type': 'application/json', ...send.headers }, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        inner.add(fromAsyncIterable<Uint8Array>(res).subscribe(subscriber));
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const headers = new Headers(Object.entries(res.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as [string, string]] : [])));
        subscriber.error(httpProviderError(status, text, res.statusMessage ?? '', 'http', retryAfterMs(headers)));
      });
    });
    request.on('error', (error) => subscriber.error(isConnectionLost(error) ? new ToolStreamError('connection-lost', { source: 'http.request', byteOffset: 0 }, { cause: error }) : error));
    request.end(send.body);
    return () => {
      inner.unsubscribe();
      request.destroy();
    };
  });
