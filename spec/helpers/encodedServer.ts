/**
 * A 127.0.0.1 server that answers like the OpenAI (chat, Responses) and Anthropic Messages APIs with
 * streams re-encoded by this library: the request's `model` names the source (e.g. a fixture), whose
 * events go through the target's encoder and are written as they come, the way a gateway does.
 */
import http from 'node:http';
import type { Observable, OperatorFunction } from 'rxjs';
import type { StreamEvent } from 'rxjs-tool-calls';
import { listenOnLoopback, type Loopback } from './loopback';

/** The encoder for each API path. */
export type Encoders = Readonly<Record<string, () => OperatorFunction<StreamEvent, string>>>;

export interface EncodedServer extends Loopback {
  /** Bodies of the requests seen, in order. */
  readonly bodies: unknown[];
}

/**
 * @param source The events for a request's `model`.
 * @param encoders The encoder per path (`/v1/chat/completions`, `/v1/responses`, `/v1/messages`).
 */
export async function startEncodedServer(source: (model: string) => Observable<StreamEvent>, encoders: Encoders): Promise<EncodedServer> {
  const bodies: unknown[] = [];
  let latest: { closed: Promise<void> } | undefined;
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const encoder = encoders[path];
      const body = JSON.parse(text) as { model: string };
      bodies.push(body);
      latest = { closed: new Promise<void>((resolve) => res.on('close', resolve)) };
      if (encoder === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // The gateway pattern: write each piece as it comes; end on completion; on an error (a cut or
      // failed source), destroy the socket so the client sees a broken stream, not a clean end.
      const subscription = source(body.model)
        .pipe(encoder())
        .subscribe({
          next: (sse) => res.write(sse),
          complete: () => res.end(),
          error: () => res.destroy(),
        });
      res.on('close', () => subscription.unsubscribe());
    });
  });
  const loopback = await listenOnLoopback(server, () => latest);
  return { ...loopback, bodies };
}
