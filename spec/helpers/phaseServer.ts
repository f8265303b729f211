/**
 * A server on 127.0.0.1 that holds a request in one phase of its life — before the headers, in the
 * middle of a 2xx body, in the middle of an error body, or streaming an error body that never ends
 * — and records when each request's socket closed, so a spec can tell how soon after an
 * unsubscribe the connection went (`performance.now()`, the same clock as the spec's).
 */
import http from 'node:http';
import { openaiChunk } from 'rxjs-tool-calls/marbles';
import { listenOnLoopback, type Loopback } from './loopback';

/**
 * How the server answers, by path:
 * - `/headers/never`: never answers (no status line).
 * - `/headers/later?ms=N`: a 2xx SSE answer after N ms, one chunk, then held open.
 * - `/body/held`: a 2xx SSE answer, one chunk, then held open.
 * - `/error/held?status=N`: status N, the start of a JSON error body, then held open.
 * - `/error/endless?status=N`: status N and an error body written in 16 KiB pieces until the socket closes.
 * - `/error/cut?status=N`: status N, the start of a JSON error body, then the socket is destroyed.
 * - `/error/sized?status=N&bytes=B&retryAfter=S`: status N and an error body of exactly B bytes (`Retry-After: S`, default 7).
 * - `/error/text?status=N&text=T`: status N and the error body T (UTF-8).
 */
export type PhasePath = `/${'headers' | 'body' | 'error'}/${string}`;

/** One request the server saw. */
export interface PhaseRequest {
  readonly path: string;
  readonly query: URLSearchParams;
  /** Resolves with `performance.now()` when the request's socket closed. */
  readonly closed: Promise<number>;
  /** Whether the socket has closed yet. */
  isClosed(): boolean;
  /** Body bytes written so far. */
  written: number;
}

export interface PhaseServer extends Loopback {
  readonly requests: PhaseRequest[];
  /** Resolves with the request at `index` in {@link requests} (0-based) once it has arrived. */
  nextRequest(index: number): Promise<PhaseRequest>;
  /** Requests whose socket is still open. */
  openSockets(): number;
}

const PIECE = 16 * 1024;

async function answer(path: string, query: URLSearchParams, res: http.ServerResponse, record: PhaseRequest): Promise<void> {
  const status = Number(query.get('status') ?? 503);
  const write = (text: string | Buffer): Promise<void> =>
    new Promise((resolve) => {
      record.written += Buffer.byteLength(text);
      if (res.write(text)) resolve();
      else res.once('drain', resolve);
    });
  if (path === '/headers/never') return;
  if (path === '/headers/later') await new Promise((resolve) => setTimeout(resolve, Number(query.get('ms') ?? 50)));
  if (path === '/headers/later' || path === '/body/held') {
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    await write(openaiChunk({ content: 'first' }));
    return;
  }
  if (path === '/error/held' || path === '/error/cut') {
    res.writeHead(status, { 'content-type': 'application/json' });
    await write('{"error":{"message":"');
    if (path === '/error/cut') setTimeout(() => res.socket?.destroy(), 30);
    return;
  }
  if (path === '/error/endless') {
    res.writeHead(status, { 'content-type': 'text/plain' });
    const piece = Buffer.alloc(PIECE, 'x');
    while (!res.destroyed) await write(piece);
    return;
  }
  if (path === '/error/sized') {
    res.writeHead(status, { 'content-type': 'text/plain', 'retry-after': query.get('retryAfter') ?? '7' });
    res.end(Buffer.alloc(Number(query.get('bytes') ?? 0), 'y'));
    return;
  }
  if (path === '/error/text') {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(query.get('text') ?? '');
    return;
  }
  res.writeHead(404).end();
}

export async function startPhaseServer(): Promise<PhaseServer> {
  const requests: PhaseRequest[] = [];
  const waiting = new Map<number, Array<(request: PhaseRequest) => void>>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let closedAt: number | undefined;
    let resolveClosed: (at: number) => void = () => undefined;
    const record: PhaseRequest = {
      path: url.pathname,
      query: url.searchParams,
      closed: new Promise<number>((resolve) => (resolveClosed = resolve)),
      isClosed: () => closedAt !== undefined,
      written: 0,
    };
    req.socket.once('close', () => {
      closedAt = performance.now();
      resolveClosed(closedAt);
    });
    requests.push(record);
    for (const resolve of waiting.get(requests.length - 1) ?? []) resolve(record);
    waiting.delete(requests.length - 1);
    req.resume();
    void answer(url.pathname, url.searchParams, res, record);
  });
  const latest = (): { closed: Promise<void> } | undefined => {
    const request = requests[requests.length - 1];
    return request === undefined ? undefined : { closed: request.closed.then(() => undefined) };
  };
  const loopback = await listenOnLoopback(server, latest);
  return {
    ...loopback,
    requests,
    nextRequest(index) {
      const there = requests[index];
      if (there !== undefined) return Promise.resolve(there);
      return new Promise((resolve) => waiting.set(index, [...(waiting.get(index) ?? []), resolve]));
    },
    openSockets: () => requests.filter((r) => !r.isClosed()).length,
  };
}
