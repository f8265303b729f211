/**
 * A 127.0.0.1 server that answers like Bedrock's `ConverseStream` (`POST /model/{modelId}/converse-stream`,
 * AWS event-stream frames) and Ollama's `POST /api/chat` (NDJSON) with streams re-encoded by this
 * library: the model id (Bedrock) or the body's `model` (Ollama) names the source, whose events go
 * through the target's encoder and are written as they come, the way a gateway does.
 */
import http from 'node:http';
import type { Observable } from 'rxjs';
import type { StreamEvent } from 'rxjs-tool-calls';
import { encodeBedrockConverse, encodeOllamaChat } from 'rxjs-tool-calls/gateway';
import { listenOnLoopback, type Loopback } from './loopback';
import { genIds } from './reencode';

export interface FramedServer extends Loopback {
  /** The requests seen: path and parsed body, in order. */
  readonly requests: Array<{ readonly path: string; readonly body: unknown }>;
}

/** @param source The events for a model name (a fixture name, or a synthetic stream). */
export async function startFramedServer(source: (model: string) => Observable<StreamEvent>): Promise<FramedServer> {
  const requests: Array<{ path: string; body: unknown }> = [];
  let latest: { closed: Promise<void> } | undefined;
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const body = JSON.parse(text === '' ? '{}' : text) as { model?: string };
      requests.push({ path, body });
      latest = { closed: new Promise<void>((resolve) => res.on('close', resolve)) };
      const converse = /^\/model\/(.+)\/converse-stream$/.exec(path);
      let encoded: Observable<Uint8Array | string>;
      if (converse !== null) {
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'req-1' });
        encoded = source(decodeURIComponent(converse[1] as string)).pipe(encodeBedrockConverse({ generateId: genIds() }));
      } else if (path === '/api/chat') {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        encoded = source(body.model ?? '').pipe(encodeOllamaChat({ generateId: genIds() }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such route"}');
        return;
      }
      // The gateway pattern: write each piece as it comes; end on completion; on an error (a cut or
      // failed source), destroy the socket so the client sees a broken stream, not a clean end.
      const subscription = encoded.subscribe({
        next: (chunk) => res.write(chunk),
        complete: () => res.end(),
        error: () => res.destroy(),
      });
      res.on('close', () => subscription.unsubscribe());
    });
  });
  const loopback = await listenOnLoopback(server, () => latest);
  return { ...loopback, requests };
}
