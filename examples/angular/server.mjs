// The example app's server (node:http on 127.0.0.1): serves the built app (`ng build` →
// dist/chat/browser) and stands in for your chat endpoint: POST /api/chat answers with a scripted
// OpenAI chat-completions stream (text, then one get_weather call whose arguments arrive in
// fragments), written slowly in small chunks so the page shows them growing. A real endpoint calls
// the model with `stream: true` and passes its SSE through (keeping the API key on the server).
// POST /api/ui-chat answers as a `useChat` backend does (the AI SDK UI message stream) and
// POST /api/agent as an AG-UI agent does, with the same answer and the tool's output. POST /api/turns
// is the multi-turn chat page's backend (`?page=chat`): an AI SDK UI stream chosen by the conversation.
//
//   npm start        (ng build, then this server)     open http://127.0.0.1:4300/
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('dist/chat/browser/', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.ico': 'image/x-icon', '.txt': 'text/plain' };

/** The text the scripted answer says, and the arguments of its call. */
export const ANSWER = { text: 'Let me check the weather in Zürich for the next three days.', arguments: { city: 'Zürich', days: 3, units: 'celsius' } };
/** The argument fragments, as a model sends them: keys and values cut anywhere. */
export const FRAGMENTS = ['{"ci', 'ty": "Zü', 'rich", "da', 'ys": 3, "un', 'its": "cel', 'sius"}'];
/** The stream waits here when started with `hold` (after `{"city": "Zürich", "da`: the city is complete, `days` not shown yet). */
export const HOLD_AFTER = 3;

const chunk = (delta, finish = null) => ({ id: 'chatcmpl-demo', object: 'chat.completion.chunk', created: 1764460800, model: 'demo-model', choices: [{ index: 0, delta, finish_reason: finish }] });
const event = (data) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** The scripted answer as SSE text, in two parts: up to the hold point, and the rest. */
export function chatStream() {
  const head = [
    event(chunk({ role: 'assistant', content: '' })),
    ...['Let me check ', 'the weather in ', 'Zürich ', 'for the next ', 'three days.'].map((text) => event(chunk({ content: text }))),
    event(chunk({ tool_calls: [{ index: 0, id: 'call_demo_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] })),
    ...FRAGMENTS.slice(0, HOLD_AFTER).map((args) => event(chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }))),
  ];
  const tail = [
    ...FRAGMENTS.slice(HOLD_AFTER).map((args) => event(chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }))),
    event(chunk({}, 'tool_calls')),
    event({ id: 'chatcmpl-demo', object: 'chat.completion.chunk', created: 1764460800, model: 'demo-model', choices: [], usage: { prompt_tokens: 52, completion_tokens: 31, total_tokens: 83 } }),
    event('[DONE]'),
  ];
  return { head: head.join(''), tail: tail.join('') };
}

/** The tool's output the UI backends send (they ran it). */
export const OUTPUT = { celsius: 7, sky: 'clear' };

/** The scripted answer as the AI SDK UI message stream (what `toUIMessageStreamResponse()` writes), in two parts. */
export function uiChatStream() {
  const texts = ['Let me check ', 'the weather in ', 'Zürich ', 'for the next ', 'three days.'];
  const head = [
    { type: 'start', messageId: 'msg-demo' },
    { type: 'start-step' },
    { type: 'text-start', id: 't0' },
    ...texts.map((delta) => ({ type: 'text-delta', id: 't0', delta })),
    { type: 'text-end', id: 't0' },
    { type: 'tool-input-start', toolCallId: 'call_demo_1', toolName: 'get_weather' },
    ...FRAGMENTS.slice(0, HOLD_AFTER).map((inputTextDelta) => ({ type: 'tool-input-delta', toolCallId: 'call_demo_1', inputTextDelta })),
  ];
  const tail = [
    ...FRAGMENTS.slice(HOLD_AFTER).map((inputTextDelta) => ({ type: 'tool-input-delta', toolCallId: 'call_demo_1', inputTextDelta })),
    { type: 'tool-input-available', toolCallId: 'call_demo_1', toolName: 'get_weather', input: ANSWER.arguments },
    { type: 'tool-output-available', toolCallId: 'call_demo_1', output: OUTPUT },
    { type: 'finish-step' },
    { type: 'finish', finishReason: 'tool-calls', messageMetadata: { totalUsage: { inputTokens: 52, outputTokens: 31, totalTokens: 83 } } },
  ];
  return { head: head.map(event).join(''), tail: `${tail.map(event).join('')}${event('[DONE]')}` };
}

/** The scripted answer as AG-UI events, in two parts (objects, as an agent hands them to its encoder). */
export function agUiEvents() {
  const texts = ['Let me check ', 'the weather in ', 'Zürich ', 'for the next ', 'three days.'];
  const head = [
    { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'msg-demo', role: 'assistant' },
    ...texts.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-demo', delta })),
    { type: 'TEXT_MESSAGE_END', messageId: 'msg-demo' },
    { type: 'TOOL_CALL_START', toolCallId: 'call_demo_1', toolCallName: 'get_weather', parentMessageId: 'msg-demo' },
    ...FRAGMENTS.slice(0, HOLD_AFTER).map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId: 'call_demo_1', delta })),
  ];
  const tail = [
    ...FRAGMENTS.slice(HOLD_AFTER).map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId: 'call_demo_1', delta })),
    { type: 'TOOL_CALL_END', toolCallId: 'call_demo_1' },
    { type: 'TOOL_CALL_RESULT', messageId: 'result-1', toolCallId: 'call_demo_1', content: JSON.stringify(OUTPUT), role: 'tool' },
    { type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'run-1', usage: [{ inputTokens: 52, outputTokens: 31, totalTokens: 83 }] },
  ];
  return { head, tail };
}

/** The scripted answer as AG-UI's SSE, in two parts. */
export function agUiStream() {
  const { head, tail } = agUiEvents();
  return { head: head.map(event).join(''), tail: tail.map(event).join('') };
}

/**
 * The multi-turn chat page's backend (`?page=chat`, `injectChat()`): an AI SDK UI message stream
 * chosen by the conversation posted (`{ messages }`: useChat's UI messages). First turn: it asks for
 * the client tool `locate` (run in the browser, after the user's approval). With `locate`'s output:
 * the weather there, from its own tool `get_weather` (run here: a progress value, then the output).
 * Second turn: tomorrow's forecast.
 */
export function turnsStream(body) {
  const messages = body?.messages ?? [];
  const users = messages.filter((m) => m.role === 'user').length;
  const last = messages.at(-1);
  const located = last?.role === 'assistant' ? last.parts.find((p) => p.type === 'tool-locate' && p.state === 'output-available') : undefined;
  const say = (id, text) => [{ type: 'text-start', id }, ...text.split(/(?<= )/).map((delta) => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }];
  const chunks =
    users >= 2
      ? [...say('t3', 'Tomorrow: 9°C and sunny in Zürich.'), { type: 'finish-step' }, { type: 'finish', finishReason: 'stop' }]
      : located !== undefined
        ? [
            ...say('t2', `You are in ${located.output}. Checking the weather there.`),
            { type: 'tool-input-start', toolCallId: 'call_weather', toolName: 'get_weather' },
            { type: 'tool-input-delta', toolCallId: 'call_weather', inputTextDelta: `{"city":"${located.output}"}` },
            { type: 'tool-input-available', toolCallId: 'call_weather', toolName: 'get_weather', input: { city: located.output } },
            { type: 'tool-output-available', toolCallId: 'call_weather', output: { status: 'fetching' }, preliminary: true },
            { type: 'tool-output-available', toolCallId: 'call_weather', output: OUTPUT },
            { type: 'finish-step' },
            { type: 'finish', finishReason: 'stop' },
          ]
        : [
            ...say('t1', 'Let me find where you are.'),
            { type: 'tool-input-start', toolCallId: 'call_locate', toolName: 'locate' },
            { type: 'tool-input-delta', toolCallId: 'call_locate', inputTextDelta: '{}' },
            { type: 'tool-input-available', toolCallId: 'call_locate', toolName: 'locate', input: {} },
            { type: 'finish-step' },
            { type: 'finish', finishReason: 'tool-calls' },
          ];
  return { head: `${[{ type: 'start' }, { type: 'start-step' }, ...chunks].map(event).join('')}${event('[DONE]')}`, tail: '' };
}

/** The endpoints: the answer each writes (head and tail, see `chatStream`) and its response headers. */
const ENDPOINTS = {
  '/api/chat': { stream: chatStream, headers: {} },
  '/api/ui-chat': { stream: uiChatStream, headers: { 'x-vercel-ai-ui-message-stream': 'v1' } },
  '/api/agent': { stream: agUiStream, headers: {} },
  '/api/turns': { stream: turnsStream, headers: { 'x-vercel-ai-ui-message-stream': 'v1' }, unheld: true },
};

/** `text` as UTF-8 chunks of `size` bytes (a character may be cut in two, as the network does). */
function chunksOf(text, size) {
  const bytes = Buffer.from(text, 'utf8');
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/**
 * Start the server. `delayMs` and `chunkSize`: how slowly the answer is written. `hold`: each answer
 * waits at the hold point until `release()` is called (for tests that look at the page mid-stream).
 * `streams`: answers (`{ head, tail }` SSE text) to write instead of the scripted ones, by endpoint
 * (a test writes them with the protocols' own producers).
 */
export async function startServer({ port = 0, delayMs = 12, chunkSize = 24, hold = false, streams = {} } = {}) {
  const waiting = [];
  const requests = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const endpoint = Object.hasOwn(ENDPOINTS, path) ? ENDPOINTS[path] : undefined;
    if (endpoint !== undefined) {
      if (req.method !== 'POST') return res.writeHead(405, { allow: 'POST' }).end();
      const closed = new Promise((resolve) => res.on('close', resolve));
      let body = '';
      req.on('data', (data) => (body += data));
      req.on('end', () => {
        const parsed = JSON.parse(body || 'null');
        requests.push({ path, body: parsed, closed });
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', ...endpoint.headers });
        const { head, tail } = streams[path] ?? endpoint.stream(parsed);
        const write = (chunks, then) => {
          let timer;
          res.on('close', () => clearTimeout(timer));
          // `then` runs right after the last write: a hold point is in place before the client can see
          // the bytes that lead to it, so a `release()` that follows them is never lost.
          const next = (i) => {
            if (res.destroyed) return;
            if (i < chunks.length) res.write(chunks[i]);
            if (i + 1 >= chunks.length) return then();
            timer = setTimeout(next, delayMs, i + 1);
          };
          next(0);
        };
        const rest = () => write(chunksOf(tail, chunkSize), () => res.end());
        write(chunksOf(head, chunkSize), () => (hold && endpoint.unheld !== true ? waiting.push(rest) : rest()));
      });
      return;
    }
    // The app: a file of the build, else index.html (client-side routes).
    const file = join(root, normalize(decodeURIComponent(path)).replace(/^([/\\]|\.\.)+/, ''));
    const target = existsSync(file) && statSync(file).isFile() ? file : join(root, 'index.html');
    if (!existsSync(target)) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not built: run `ng build` first');
    res.writeHead(200, { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(target).pipe(res);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    /** Every POST to an endpoint so far: its path, its parsed body, and a promise of its socket's close. */
    requests,
    /** Let the answers waiting at the hold point go on. */
    release: () => waiting.splice(0).forEach((go) => go()),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { origin } = await startServer({ port: Number(process.argv[2] ?? 4300), delayMs: 40, chunkSize: 12 });
  console.log(`Angular example: ${origin}/`);
}
