import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test server on 127.0.0.1 offers its tests. */
export interface Loopback {
  readonly origin: string;
  /** Resolves when the latest request's socket closed; rejects after `timeoutMs`. */
  waitForClose(timeoutMs?: number): Promise<void>;
  /** Close every connection, then the server. */
  close(): Promise<void>;
}

/** Listen on 127.0.0.1 at a free port; `latest` returns the close signal of the newest request. */
export async function listenOnLoopback(server: Server, latest: () => { readonly closed: Promise<void> } | undefined, what = 'request'): Promise<Loopback> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    waitForClose(timeoutMs = 2000) {
      const request = latest();
      if (request === undefined) return Promise.reject(new Error(`no ${what} was made`));
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the server socket did not close within ${timeoutMs} ms`)), timeoutMs);
      });
      return Promise.race([request.closed, timeout]).finally(() => clearTimeout(timer));
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
