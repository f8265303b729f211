// The browser demo's replay server (node:http on 127.0.0.1): serves the page, its module, the
// browser bundle of the library (build it with `node scripts/build-browser.mjs`), and replays the
// recorded streams chunk by chunk with small delays, each event cut in two so arguments grow live.
//
//   node examples/browser/server.mjs [port]      then open http://127.0.0.1:<port>/
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const STATIC = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/app.js': ['app.js', 'text/javascript; charset=utf-8'],
  '/dist/rxjs-tool-calls.js': ['dist/rxjs-tool-calls.js', 'text/javascript; charset=utf-8'],
};
const STREAMS = { '/weather.sse': '../weather.sse', '/error.sse': 'error.sse' };

/** The recording's bytes as network chunks: every event, split once at a varying point. */
export function replayChunks(bytes) {
  const chunks = [];
  let start = 0;
  let turn = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf('\n\n', start);
    const stop = end === -1 ? bytes.length : end + 2;
    const cut = start + Math.max(1, Math.floor(((stop - start) * (30 + ((turn++ * 17) % 50))) / 100));
    chunks.push(bytes.subarray(start, cut), bytes.subarray(cut, stop));
    start = stop;
  }
  return chunks.filter((chunk) => chunk.length > 0);
}

/** Start the server; `delayMs` is the pause between chunks. */
export async function startServer({ port = 0, delayMs = 40 } = {}) {
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    try {
      if (path in STATIC) {
        const [file, type] = STATIC[path];
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
        res.end(await readFile(`${here}${file}`));
        return;
      }
      if (path in STREAMS) {
        const chunks = replayChunks(await readFile(`${here}${STREAMS[path]}`));
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
        let timer;
        res.on('close', () => clearTimeout(timer));
        const next = (i) => {
          if (i === chunks.length) return res.end();
          res.write(chunks[i]);
          timer = setTimeout(next, delayMs, i + 1);
        };
        next(0);
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { origin } = await startServer({ port: Number(process.argv[2] ?? 8787) });
  console.log(`browser demo: ${origin}/`);
}
