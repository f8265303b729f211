// A 20-step tool loop over HTTP and over the Responses API's WebSocket mode (`responsesWebSocket()`),
// against one local stand-in of the API that answers both: `node bench/websocket.mjs` (part of
// `npm run bench`; needs `npm run build`). Prints markdown tables and writes its section of
// docs/benchmarks.md (bench/results/websocket.md; `--no-write`: print only).
//
//   --steps N     tool calls before the answer (default 20)
//   --runs R      timed loops per transport and server cost (default 7; one untimed loop of each first)
//   --setup MS    the server's set-up cost per request (default 25)
//
// The stand-in (in this process) answers from the conversation alone: while fewer than N calls were
// answered, one `get_weather` call (a reasoning item before it); then a text. A tool result is a
// weather report of ~500 bytes, so the conversation grows by ~0.9 KB a step. What it costs:
//   - every HTTP request: `--setup` ms before its first event, the server's set-up of a request —
//     accepting and authenticating it and loading the state of the turns before it — which a
//     WebSocket turn after the socket's first skips: the socket keeps the last response's state in
//     memory (OpenAI's description of the mode: a connection-local cache of the previous response).
//     The socket's first turn pays it once. 25 ms is an assumption of this bench, not a measured API
//     figure; the 0 ms rows show what is left without it (the bytes alone);
//   - every response, on both: 10 ms of "generation" before its events, and the real cost of
//     parsing what was sent (JSON.parse of the body or the turn) and of checking the conversation.
// The client is the library as a user runs it: `toolLoop()` with a `fetch` request (`fromResponse`,
// the whole conversation every step, keep-alive connections) and with `responsesWebSocket()` (the
// `ws` package's constructor), the same tools, messages and format; each loop's result is checked.
// Measured: the bytes each step's request carried (the body, the `response.create` text), and the
// wall time of a loop from subscription to its `done`, median of the runs, the transports
// interleaved so a change of machine speed hits both.
import http from 'node:http';
import { once } from 'node:events';
import os from 'node:os';
import { lastValueFrom, toArray } from 'rxjs';
import { WebSocket, WebSocketServer } from 'ws';
import { writeSection } from './page.mjs';

const loaded = await Promise.all([import('../dist/index.js'), import('../dist/tools.js'), import('../dist/websocket.js')]).catch(() => {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
});
const [{ fromResponse }, { tool, toolLoop }, { responsesWebSocket }] = loaded;

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i !== -1 && argv[i + 1] !== undefined ? Number(argv[i + 1]) : fallback;
};
const STEPS = option('--steps', 20);
const RUNS = option('--runs', 7);
const SETUP_MS = option('--setup', 25);
const GENERATION_MS = 10;
/** The set-up cost the servers charge now (the rows run with `--setup`, then with 0). */
let setupMs = SETUP_MS;
const sleep = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---- The stand-in API ----------------------------------------------------------------------------

/** The model's output for a conversation: a call while fewer than STEPS were answered, then a text. */
function answer(conversation, id) {
  const answered = conversation.filter((item) => item.type === 'function_call_output').length;
  if (answered >= STEPS)
    return [{ type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Done after ${answered} calls.`, annotations: [] }] }];
  return [
    { type: 'reasoning', id: `rs_${id}`, summary: [], encrypted_content: `enc_${id}_${'x'.repeat(120)}` },
    { type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: 'get_weather', arguments: JSON.stringify({ city: `City ${answered}`, units: 'celsius' }), status: 'completed' },
  ];
}

/** The conversation's calls answered: the checks a server makes before it generates (a real cost on both transports). */
function check(conversation) {
  const calls = new Set();
  for (const item of conversation) {
    if (item.type === 'function_call') calls.add(item.call_id);
    if (item.type === 'function_call_output' && !calls.has(item.call_id)) throw new Error(`no call ${item.call_id}`);
  }
}

/** A response's events. */
function events(id, output) {
  let n = 0;
  const event = (type, fields) => ({ type, sequence_number: n++, ...fields });
  const base = { id, object: 'response', model: 'bench', output: [] };
  const out = [event('response.created', { response: { ...base, status: 'in_progress' } })];
  output.forEach((item, index) => {
    out.push(event('response.output_item.added', { output_index: index, item: item.type === 'function_call' ? { ...item, arguments: '' } : item }));
    if (item.type === 'function_call') out.push(event('response.function_call_arguments.delta', { output_index: index, item_id: item.id, delta: item.arguments }));
    if (item.type === 'message') out.push(event('response.output_text.delta', { output_index: index, item_id: item.id, content_index: 0, delta: item.content[0].text }));
    out.push(event('response.output_item.done', { output_index: index, item }));
  });
  out.push(event('response.completed', { response: { ...base, status: 'completed', output, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } }));
  return out;
}

let responses = 0;
/** Bytes of each request received, in order, until read. */
const received = [];

async function startServers() {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push(Buffer.byteLength(text));
      await sleep(setupMs + GENERATION_MS);
      const body = JSON.parse(text);
      check(body.input);
      const id = `resp_${++responses}`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events(id, answer(body.input, id))) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
      res.end();
    });
  });
  const sockets = new WebSocketServer({ server, path: '/v1/responses', perMessageDeflate: false });
  sockets.on('connection', (ws) => {
    let last; // the previous response: its id and the conversation after it (connection-local)
    let first = true;
    ws.on('message', async (data) => {
      const text = data.toString();
      received.push(Buffer.byteLength(text));
      await sleep((first ? setupMs : 0) + GENERATION_MS);
      first = false;
      const turn = JSON.parse(text);
      const conversation = turn.previous_response_id === undefined ? turn.input : turn.previous_response_id === last?.id ? [...last.conversation, ...turn.input] : undefined;
      if (conversation === undefined)
        return ws.send(JSON.stringify({ type: 'error', status: 400, error: { type: 'invalid_request_error', code: 'previous_response_not_found', message: 'not found' } }));
      check(conversation);
      const id = `resp_${++responses}`;
      const output = answer(conversation, id);
      last = { id, conversation: [...conversation, ...output] };
      for (const e of events(id, output)) ws.send(JSON.stringify(e));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return { http: `http://127.0.0.1:${port}/v1/responses`, ws: `ws://127.0.0.1:${port}/v1/responses`, server, sockets };
}

// ---- The loops -------------------------------------------------------------------------------------

const report = { city: 'x', units: 'celsius', forecast: Array.from({ length: 8 }, (_, h) => ({ hour: h * 3, celsius: 10 + h, wind: 'NW 12 km/h', sky: 'partly cloudy' })) };
const tools = {
  get_weather: tool({
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => ({ ...report, city }),
  }),
};
const body = { model: 'bench', store: false, include: ['reasoning.encrypted_content'] };
const messages = [{ role: 'user', content: `Check the weather in ${STEPS} cities, one after another.` }];

async function loop(request) {
  received.length = 0;
  const started = performance.now();
  const items = await lastValueFrom(toolLoop(request, tools, { format: 'openai-responses', messages, maxSteps: STEPS + 1 }).pipe(toArray()));
  const ms = performance.now() - started;
  const done = items.at(-1);
  if (done?.type !== 'done' || done.text !== `Done after ${STEPS} calls.` || done.step !== STEPS) throw new Error(`the loop did not finish as expected: ${JSON.stringify(done)}`);
  return { ms, bytes: [...received] };
}

const servers = await startServers();
const overHttp = (messagesSoFar, _step, context) =>
  fromResponse((signal) =>
    fetch(servers.http, { method: 'POST', signal, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, stream: true, tools: context.tools, input: messagesSoFar }) }),
  );
const overSocket = () => responsesWebSocket(servers.ws, { WebSocketCtor: WebSocket, body });

const rows = [];
let bytes;
for (const setup of [SETUP_MS, 0]) {
  setupMs = setup;
  const times = { http: [], ws: [] };
  const run = async (kind) => (kind === 'http' ? loop(overHttp) : loop(overSocket()));
  await run('http');
  await run('ws');
  for (let r = 0; r < RUNS; r++) {
    for (const kind of r % 2 === 0 ? ['http', 'ws'] : ['ws', 'http']) {
      const { ms, bytes: sent } = await run(kind);
      times[kind].push(ms);
      if (setup === SETUP_MS && r === 0) (bytes ??= {})[kind] = sent;
    }
  }
  rows.push({ setup, http: median(times.http), ws: median(times.ws) });
}
servers.sockets.close();
servers.server.closeAllConnections();
servers.server.close();

// ---- The tables --------------------------------------------------------------------------------------

const kb = (n) => (n / 1024).toFixed(1);
const lines = [];
lines.push(
  `A \`toolLoop()\` of ${STEPS} tool steps (one call each), then the answer: ${STEPS + 1} requests; ${RUNS} timed loops per transport and server cost, interleaved; Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}.`,
);
lines.push(
  "Server cost model: each HTTP request pays the set-up cost before its first event (accept, authenticate, load the earlier turns' state); a WebSocket turn pays it only as its socket's first (the socket keeps the last response in memory); every response also waits 10 ms of \"generation\" and really parses and checks what was sent. The set-up cost is this bench's assumption; the 0 ms rows show the bytes alone.",
);
lines.push('');
lines.push('### Wall time of the loop');
lines.push('');
lines.push('| server set-up per request | HTTP (ms, median) | WebSocket (ms, median) | WebSocket ÷ HTTP |');
lines.push('|---:|---:|---:|---:|');
for (const row of rows) lines.push(`| ${row.setup} ms | ${row.http.toFixed(0)} | ${row.ws.toFixed(0)} | ${(row.ws / row.http).toFixed(2)}× |`);
lines.push('');
lines.push('### Bytes sent per step');
lines.push('');
lines.push(
  "HTTP sends the whole conversation every step; a WebSocket turn after the first sends the new items (the tool result) and `previous_response_id`, with the turn's fields (model, tools, …), which every turn repeats.",
);
lines.push('');
lines.push('| step | HTTP request body (bytes) | WebSocket turn (bytes) |');
lines.push('|---:|---:|---:|');
for (let step = 0; step < bytes.http.length; step++) if (step < 3 || step % 5 === 0 || step >= bytes.http.length - 2) lines.push(`| ${step} | ${bytes.http[step]} | ${bytes.ws[step]} |`);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
lines.push(`| all ${bytes.http.length} requests | ${sum(bytes.http)} (${kb(sum(bytes.http))} KiB) | ${sum(bytes.ws)} (${kb(sum(bytes.ws))} KiB) |`);
const markdown = lines.join('\n');
console.log(markdown);
if (!argv.includes('--no-write'))
  console.log(`wrote ${writeSection('websocket', `Command: \`node bench/websocket.mjs${argv.length > 0 ? ` ${argv.filter((a) => a !== '--no-write').join(' ')}` : ''}\`.\n\n${markdown}`).join(', ')}`);
