/* global AbortController */
// One server of bench/gateway.mjs, in a process of its own (bundled by the parent from this file:
// `rxjs-tool-calls` is the library's src/):
//   node .bench-out/gateway-child.mjs <gateway | proxy | hand-written> <upstream origin>
// `gateway`: examples/gateway/gateway.mjs as a user runs it (its log lines go to stdout, which the
// parent discards). `proxy`: a pass-through on the same stack (node:http + fetch), writing each
// body chunk of the upstream's answer as it comes, which reads nothing and translates nothing.
// `hand-written`: the translation written by hand for this stream shape (see `handWritten`).
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

/**
 * The floor of any gateway that reads what it relays: the same Anthropic → OpenAI chat translation
 * written by hand for this one stream shape (no library, no checks, no log, no usage or cost): the
 * request mapped to a Messages body, the answer split on blank lines, each `data:` parsed and the
 * chat chunk it becomes written with `JSON.stringify`, the writes of one upstream chunk as one.
 */
function handWritten(origin) {
  return http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const chat = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify({
        model: chat.model,
        max_tokens: 4096,
        stream: true,
        messages: chat.messages.map((m) => ({ role: m.role, content: m.content })),
        tools: (chat.tools ?? []).map((t) => ({ name: t.function.name, input_schema: t.function.parameters })),
      });
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      fetch(`${origin}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: abort.signal })
        .then(async (answer) => {
          res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
          const decoder = new TextDecoder();
          const chunk = (delta, finish = null) =>
            `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: chat.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
          const created = Math.floor(Date.now() / 1000);
          let id = '';
          let pending = '';
          const reader = answer.body.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const text = pending + decoder.decode(value, { stream: true });
            let out = '';
            let start = 0;
            let end;
            while ((end = text.indexOf('\n\n', start)) !== -1) {
              const at = text.indexOf('data: ', start);
              if (at !== -1 && at < end) {
                const event = JSON.parse(text.slice(at + 6, end));
                if (event.type === 'message_start') {
                  id = event.message.id;
                  out += chunk({ role: 'assistant', content: '' });
                } else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
                  out += chunk({ tool_calls: [{ index: 0, id: event.content_block.id, type: 'function', function: { name: event.content_block.name, arguments: '' } }] });
                } else if (event.type === 'content_block_delta') {
                  const delta = event.delta;
                  if (delta.type === 'text_delta') out += chunk({ content: delta.text });
                  else if (delta.type === 'input_json_delta') out += chunk({ tool_calls: [{ index: 0, function: { arguments: delta.partial_json } }] });
                } else if (event.type === 'message_delta') {
                  out += chunk({}, event.delta.stop_reason === 'tool_use' ? 'tool_calls' : 'stop');
                } else if (event.type === 'message_stop') out += 'data: [DONE]\n\n';
              }
              start = end + 2;
            }
            pending = text.slice(start);
            if (out !== '') res.write(out);
          }
          res.end();
        })
        .catch(() => res.destroy());
    });
  });
}

const server = mode === 'gateway' ? createGateway({ anthropic: { url: upstream, apiKey: 'bench' }, idleTimeoutMs: 60_000 }) : mode === 'hand-written' ? handWritten(upstream) : passThrough(upstream);
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
