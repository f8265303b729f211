/* global AbortController */
// One server of bench/gateway.mjs, in a process of its own (bundled by the parent from this file:
// `rxjs-tool-calls` is the library's src/):
//   node .bench-out/gateway-child.mjs <gateway | proxy> <upstream origin>
// `gateway`: examples/gateway/gateway.mjs as a user runs it (its log lines go to stdout, which the
// parent discards). `proxy`: a pass-through on the same stack (node:http + fetch), writing each
// body chunk of the upstream's answer as it comes, which reads nothing and translates nothing.
// Tells the parent its port over IPC; answers `cpu` with its user + system CPU µs; exits on `exit`
// (so that `--cpu-prof` writes its profile).
import http from 'node:http';
import { createGateway } from '../examples/gateway/gateway.mjs';

const [mode, upstream] = process.argv.slice(2);

/** Forward the request to the upstream's Messages route and its answer back, chunk by chunk. */
function passThrough(origin) {
  return http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      fetch(`${origin}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks), signal: abort.signal })
        .then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/event-stream', 'cache-control': 'no-cache' });
          const reader = answer.body.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            res.write(value);
          }
          res.end();
        })
        .catch(() => res.destroy());
    });
  });
}

const server = mode === 'gateway' ? createGateway({ anthropic: { url: upstream, apiKey: 'bench' }, idleTimeoutMs: 60_000 }) : passThrough(upstream);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
process.on('message', (message) => {
  if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ type: 'cpu', us: user + system });
  } else if (message.type === 'exit') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
