/**
 * A local HTTP server (127.0.0.1, port 0) for the source tests: slow never-ending SSE streams whose
 * socket closes are recorded, finite streams, and HTTP errors.
 */
import { listenOnLoopback } from './loopback';
import http from 'node:http';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

/** One streaming request the server saw. */
export interface StreamRecord {
  readonly path: string;
  readonly method: string;
  readonly body: string;
  /** Resolves when the request's socket closed (the client went away). */
  readonly closed: Promise<void>;
  chunksWritten: number;
}

export interface SourcesServer {
  readonly origin: string;
  readonly streams: StreamRecord[];
  /** The latest streaming request's close, or a rejection after `timeoutMs`. */
  waitForClose(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** What a finite stream sends: a tool call in three pieces, a finish and `[DONE]`. */
export const FINITE_SSE = [
  openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '' }] }),
  openaiChunk({ toolCalls: [{ arguments: '{"city":' }] }),
  openaiChunk({ toolCalls: [{ arguments: '"Paris"}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiDone(),
];

function slowStream(req: http.IncomingMessage, res: http.ServerResponse, record: StreamRecord, intervalMs: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const write = (): void => {
    record.chunksWritten++;
    res.write(openaiChunk({ content: `tick ${record.chunksWritten} é🙂` }));
  };
  write();
  const timer = setInterval(write, intervalMs);
  res.on('close', () => clearInterval(timer));
}

/**
 * Routes: `/slow…` and `POST /v1/chat/completions` with `"model":"slow"`: a chunk every
 * `intervalMs`, never ending; `/finite…` and `/v1/chat/completions` otherwise: {@link FINITE_SSE};
 * `/status/<n>`: that status with the body in the `body` query parameter.
 */
export async function startSourcesServer(intervalMs = 20): Promise<SourcesServer> {
  const streams: StreamRecord[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const status = /^\/status\/(\d+)$/.exec(url.pathname);
      if (status !== null) {
        res.writeHead(Number(status[1]), { 'content-type': url.searchParams.get('type') ?? 'application/json' });
        res.end(url.searchParams.get('body') ?? '');
        return;
      }
      let resolveClosed: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
      const record: StreamRecord = { path: url.pathname, method: req.method ?? 'GET', body, closed, chunksWritten: 0 };
      streams.push(record);
      res.on('close', resolveClosed);
      const slow = url.pathname.startsWith('/slow') || (url.pathname === '/v1/chat/completions' && body.includes('"model":"slow"'));
      if (slow) {
        slowStream(req, res, record, intervalMs);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(FINITE_SSE.join(''));
    });
  });
  const loopback = await listenOnLoopback(server, () => streams[streams.length - 1], 'streaming request');
  return { ...loopback, streams };
}
