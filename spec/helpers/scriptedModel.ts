/**
 * A scripted model on a real HTTP server (127.0.0.1, port 0): the n-th POST is answered with the
 * n-th step's SSE, after the step's `check` accepted the request body (the tool results the loop
 * sent). A rejected check answers HTTP 400 with the check's message as an OpenAI-style error, so the
 * client fails with a `provider-error` that says what was wrong; a {@link ScriptedRejection} answers
 * with its own status and body (a provider's own error).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Thrown by a step's `check` to answer with a provider's own error: `status` and the JSON `body`. */
export class ScriptedRejection extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }
}

/** One model turn. */
export interface ScriptedStep {
  /** Checks the parsed JSON body of the request; throw to reject it. */
  readonly check?: (body: ScriptedBody) => void;
  /** The SSE text (or binary frames) to send, piece by piece, `delayMs` apart. */
  readonly events: ReadonlyArray<string | Uint8Array>;
  /** Default 5 ms. */
  readonly delayMs?: number;
  /** Keep the response open after the last piece (to test cancellation). */
  readonly hold?: boolean;
}

/** What the loop's `request` sends in these tests. */
export interface ScriptedBody {
  readonly messages: ReadonlyArray<Record<string, unknown>>;
}

/** One request the server saw. */
export interface ScriptedRequest {
  readonly body: ScriptedBody;
  /** Resolves when the connection's response closed (finished, or the client went away). */
  readonly closed: Promise<void>;
  /** True once the server wrote the whole step (not set for `hold` steps). */
  ended: boolean;
  /** True when the client went away before the step was complete. */
  aborted: boolean;
}

export interface ScriptedModel {
  readonly url: string;
  readonly requests: ScriptedRequest[];
  /** The messages of rejected checks. */
  readonly rejections: string[];
  close(): Promise<void>;
}

export async function startScriptedModel(steps: ReadonlyArray<ScriptedStep>): Promise<ScriptedModel> {
  const requests: ScriptedRequest[] = [];
  const rejections: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw) as ScriptedBody;
      let resolveClosed: () => void = () => undefined;
      const record: ScriptedRequest = { body, closed: new Promise<void>((resolve) => (resolveClosed = resolve)), ended: false, aborted: false };
      const step = steps[requests.length];
      requests.push(record);
      res.on('close', () => {
        if (!record.ended) record.aborted = true;
        resolveClosed();
      });
      const reject = (status: number, message: string): void => {
        rejections.push(message);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: 'script_check' } }));
      };
      if (step === undefined) return reject(500, `no scripted step ${requests.length - 1}`);
      try {
        step.check?.(body);
      } catch (error) {
        if (error instanceof ScriptedRejection) {
          rejections.push(error.message);
          res.writeHead(error.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(error.body));
          return;
        }
        return reject(400, `step ${requests.length - 1}: ${error instanceof Error ? error.message : String(error)}`);
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      let i = 0;
      const write = (): void => {
        if (res.destroyed) return;
        const piece = step.events[i++];
        if (piece !== undefined) {
          res.write(piece);
          setTimeout(write, step.delayMs ?? 5);
          return;
        }
        if (step.hold === true) return;
        record.ended = true;
        res.end();
      };
      write();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/model`,
    requests,
    rejections,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** A promise that rejects after `ms`, for awaiting events that must happen. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
