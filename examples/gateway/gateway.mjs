// An OpenAI-compatible gateway in front of Anthropic and Gemini, on plain `node:http`.
//
// Clients speak OpenAI Chat Completions (`POST /v1/chat/completions` with `stream: true`, e.g. the
// official `openai` SDK). The model name picks the upstream (`claude-*` → Anthropic Messages,
// `gemini-*` → Gemini `streamGenerateContent`); the request is translated with `toAnthropicRequest`
// / `toGeminiRequest`, the upstream's stream is read with `fromResponse` + `readStreamEvents` and
// written back live as OpenAI chat SSE with `encodeOpenAIChat`, tool-call deltas included.
//
//   createGateway(options)  → an http.Server (not listening yet); `server.mjs` runs it.
//
// What a client sees (docs/gateway.md has the whole table):
// - a request the upstream format cannot express (an image part, `parallel_tool_calls: false` for
//   Gemini, …): HTTP 400 with an OpenAI-style error whose `param` names the field;
// - an upstream HTTP error (429, 529, 400, …): that status, its `Retry-After` / `retry-after-ms`
//   relayed, and an OpenAI-style error body;
// - an error the upstream reports inside its stream (Anthropic `overloaded_error`, …), as its first
//   event or later: a 200 stream whose last event is `data: {"error":…}`, as OpenAI sends one (no
//   `[DONE]`, no finish);
// - an upstream that is unreachable, cut, stalls (`idleTimeoutMs`) or sends what cannot be read
//   (malformed JSON): 502 (504 for a stall) with an error body when nothing was written yet;
//   otherwise what was written is flushed and the connection is closed without the end of the
//   chunked body, so the client sees a broken stream, never a clean end;
// - the usage chunk (`choices: []`) before `[DONE]` when it asked with `stream_options.include_usage`.
// The upstream request belongs to the subscription (`fromResponse((signal) => fetch(…))`), so every
// way out — the end, an error, a stall, a client that goes away — aborts it, in whatever phase it is.
// `GET /health` answers `{"status":"ok","inFlight":n}`. Every other request is logged once, however
// it ended: outcome, status, usage, cost (`costOf`, with the price table below) and latencies.
//
// Two more routes serve UI front ends from the same upstreams (the same failures, as each protocol
// carries them): `POST /api/chat` answers `useChat` (its body of UI messages, translated with
// `fromAiSdkUiRequest`) with the AI SDK UI message stream (`encodeAiSdkUi`), and `POST /api/agent`
// answers AG-UI clients (a `RunAgentInput`, translated with `fromAgUiRequest`) with AG-UI events
// (`encodeAgUi`). Neither request names a model the upstream knows by default: the body's `model`
// (useChat's transport `body` option) or `forwardedProps.model` picks one, else `uiModel`; the
// server's own tools (`uiTools`, chat function tools) are offered to the model.
// `GET /v1/responses` upgraded to a WebSocket serves the Responses API's WebSocket mode in front of
// the same upstreams (responsesSocket.mjs), with the same log line per turn.
/* global queueMicrotask */
import http from 'node:http';
import { tap } from 'rxjs';
import { fromResponse, isToolStreamError, readStreamEvents } from 'rxjs-tool-calls';
import { costOf, encodeAgUi, encodeAiSdkUi, encodeOpenAIChat, fromAgUiRequest, fromAiSdkUiRequest, toAnthropicRequest, toGeminiRequest } from 'rxjs-tool-calls/gateway';
import { attachResponsesSocket } from './responsesSocket.mjs';

/**
 * Illustrative prices in USD per million tokens, by model-name prefix (the longest matching prefix
 * wins). Check the providers' price pages before billing anyone with them.
 */
export const PRICES = {
  'claude-opus-4-5': { input: '5', cachedInput: '0.50', cacheWrite: '6.25', output: '25' },
  'claude-sonnet-4': { input: '3', cachedInput: '0.30', cacheWrite: '3.75', output: '15' },
  'claude-haiku-4-5': { input: '1', cachedInput: '0.10', cacheWrite: '1.25', output: '5' },
  'gemini-2.5-pro': { input: '1.25', cachedInput: '0.125', output: '10' },
  'gemini-2.5-flash': { input: '0.30', cachedInput: '0.03', output: '2.50' },
  'gemini-2.5-flash-lite': { input: '0.10', cachedInput: '0.01', output: '0.40' },
};

/** The upstreams: which models go there, how a chat request is translated and sent. */
const ROUTES = [
  {
    name: 'anthropic',
    prefix: 'claude-',
    request(chat, upstream, options) {
      const body = toAnthropicRequest(chat, { defaultMaxTokens: options.defaultMaxTokens, apiVersion: '2023-06-01' });
      const headers = { 'content-type': 'application/json', 'x-api-key': upstream.apiKey ?? '', 'anthropic-version': '2023-06-01' };
      return { url: `${upstream.url}/v1/messages`, headers, body: JSON.stringify(body) };
    },
  },
  {
    name: 'gemini',
    prefix: 'gemini-',
    request(chat, upstream) {
      const { path, body } = toGeminiRequest(chat);
      return { url: `${upstream.url}${path}`, headers: { 'content-type': 'application/json', 'x-goog-api-key': upstream.apiKey ?? '' }, body: JSON.stringify(body) };
    },
  },
];

const DEFAULT_URLS = { anthropic: 'https://api.anthropic.com', gemini: 'https://generativelanguage.googleapis.com' };
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/** The UI routes: what each reads from its request and writes back. */
const UI_ROUTES = {
  '/api/chat': {
    protocol: 'ai-sdk-ui',
    modelOf: (body) => body?.model,
    translate: (body, options) => fromAiSdkUiRequest(body, options),
    // The usage goes in the finish's message metadata (`message.metadata.usage` in useChat).
    encode: () => encodeAiSdkUi({ sendUsage: true }),
    headers: { 'x-vercel-ai-ui-message-stream': 'v1' },
  },
  '/api/agent': {
    protocol: 'ag-ui',
    modelOf: (body) => body?.forwardedProps?.model,
    translate: (body, options) => fromAgUiRequest(body, options),
    encode: (body, model) => encodeAgUi({ model, ...(typeof body?.threadId === 'string' ? { threadId: body.threadId } : {}), ...(typeof body?.runId === 'string' ? { runId: body.runId } : {}) }),
    headers: {},
  },
};

/** The price of `model`: the entry with the longest prefix of its name. */
export function priceOf(model, prices) {
  let best;
  for (const [prefix, price] of Object.entries(prices)) if (model.startsWith(prefix) && (best === undefined || prefix.length > best[0].length)) best = [prefix, price];
  return best?.[1];
}

/** The request body as JSON, refusing more than `limit` bytes. */
function readJson(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(Object.assign(new Error(`The request body is larger than ${limit} bytes`), { status: 413 }));
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(Object.assign(new Error('The request body is not valid JSON'), { status: 400 }));
      }
    });
    req.on('error', reject);
  });
}

/**
 * Create the gateway.
 *
 * @param {object} [options]
 * @param {{ url?: string, apiKey?: string }} [options.anthropic] Anthropic upstream (default https://api.anthropic.com).
 * @param {{ url?: string, apiKey?: string }} [options.gemini] Gemini upstream (default https://generativelanguage.googleapis.com).
 * @param {Record<string, object>} [options.prices] Prices per million tokens by model prefix (default `PRICES`).
 * @param {number | string} [options.multiplier] Applied to every price (an aggregator's markup). Default 1.
 * @param {number} [options.defaultMaxTokens] `max_tokens` for Anthropic when the client sets none. Default 4096.
 * @param {number} [options.idleTimeoutMs] End a stalled upstream (before or after its headers) after this many ms without a byte. Default: none.
 * @param {number} [options.maxRequestBytes] The largest request body accepted (413 above). Default 4 MiB.
 * @param {string} [options.uiModel] The model of a UI request whose body names none. Default `claude-sonnet-4-5`.
 * @param {object[]} [options.uiTools] The server's tools offered on the UI routes (chat function tools, as `toolSpecs(tools, 'openai-chat')` writes them).
 * @param {(entry: object) => void} [options.log] Receives one entry per request. Default: a JSON line on stdout.
 * @param {number} [options.maxSocketResponses] WebSocket mode: the responses of a socket whose conversation it keeps for `previous_response_id`. Default 8.
 * @returns {http.Server & { inFlight(): number }}
 */
export function createGateway(options = {}) {
  const upstreams = {
    anthropic: { url: DEFAULT_URLS.anthropic, ...options.anthropic },
    gemini: { url: DEFAULT_URLS.gemini, ...options.gemini },
  };
  const settings = { defaultMaxTokens: options.defaultMaxTokens ?? 4096 };
  const prices = options.prices ?? PRICES;
  const multiplier = options.multiplier ?? 1;
  const maxRequestBytes = options.maxRequestBytes ?? 4 * 1024 * 1024;
  const uiModel = options.uiModel ?? 'claude-sonnet-4-5';
  const uiTools = options.uiTools;
  const readOptions = (provider) => ({ provider, ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }) });
  // One JSON line per request on stdout (written directly: console.log's formatting cost ~1% of the CPU at 1,000 streams).
  const log = options.log ?? ((entry) => process.stdout.write(`${JSON.stringify(entry)}\n`));
  let inFlight = 0;
  let sequence = 0;
  /** WebSocket turns in flight. */
  const turns = { count: 0 };

  const server = http.createServer((req, res) => {
    const path = req.url === undefined ? '/' : req.url.split('?', 1)[0];
    if (req.method === 'GET' && path === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok', inFlight: inFlight + turns.count }));
      return;
    }
    const exchange = new Exchange(req, res, String(req.headers['x-request-id'] ?? `gw-${++sequence}`), log);
    inFlight++;
    exchange.onEnd = () => inFlight--;
    const ui = req.method === 'POST' && Object.hasOwn(UI_ROUTES, path) ? UI_ROUTES[path] : undefined;
    if (ui === undefined && (req.method !== 'POST' || path !== '/v1/chat/completions')) return exchange.refuse(404, `No route for ${req.method} ${path}`, { code: 'not_found' });
    readJson(req, maxRequestBytes).then(
      (body) => (ui === undefined ? route(exchange, body) : routeUi(exchange, body, ui)),
      (error) => exchange.done || exchange.refuse(error.status ?? 400, error.message),
    );
  });

  /** A UI request: translated into a chat request (the model its body picks, else `uiModel`), then as the chat route. */
  function routeUi(exchange, body, ui) {
    if (exchange.done) return;
    const picked = ui.modelOf(body);
    const model = typeof picked === 'string' && picked !== '' ? picked : uiModel;
    let chat;
    try {
      chat = ui.translate(body, { model, ...(uiTools === undefined ? {} : { tools: uiTools }) });
    } catch (error) {
      if (!isToolStreamError(error, 'unsupported-request')) return exchange.refuse(500, `Gateway error: ${error?.message ?? error}`, { type: 'server_error' });
      return exchange.refuse(400, error.message, { param: error.field, code: 'unsupported_request' });
    }
    route(exchange, chat, { encode: () => ui.encode(body, model), headers: ui.headers });
  }

  /** The upstream of a streaming chat request and the request to send it (`{ target, request }`), or why not (`{ refusal }`). */
  function plan(chat) {
    const target = ROUTES.find((r) => chat.model.startsWith(r.prefix));
    if (target === undefined)
      return { refusal: { status: 404, message: `The model ${chat.model} does not exist (this gateway serves claude-* and gemini-*)`, param: 'model', code: 'model_not_found' } };
    try {
      return { target, request: target.request(chat, upstreams[target.name], settings) };
    } catch (error) {
      if (!isToolStreamError(error, 'unsupported-request')) return { target, refusal: { status: 500, message: `Gateway error: ${error?.message ?? error}`, type: 'server_error' } };
      // e.g. "Cannot translate messages[0].content[1].type to anthropic: image_url parts are not supported"
      return { target, refusal: { status: 400, message: error.message, param: error.field, code: 'unsupported_request' } };
    }
  }

  /** Check and translate the request, then stream the upstream's answer (as chat SSE, or as `ui` says). */
  function route(exchange, chat, ui) {
    if (exchange.done) return; // the client left while its request was read
    if (chat === null || typeof chat !== 'object' || typeof chat.model !== 'string') return exchange.refuse(400, 'The request needs a model', { param: 'model' });
    exchange.entry.model = chat.model;
    if (chat.stream !== true) return exchange.refuse(400, 'This gateway only streams: set "stream": true', { param: 'stream' });
    const { target, request: upstream, refusal } = plan(chat);
    if (target !== undefined) exchange.entry.upstream = target.name;
    if (refusal !== undefined) {
      const { status, message, ...details } = refusal;
      return exchange.refuse(status, message, details);
    }
    exchange.price = priceOf(chat.model, prices);
    const request = (signal) => fetch(upstream.url, { method: 'POST', headers: upstream.headers, body: upstream.body, signal }).then(exchange.answered);
    exchange.stream(
      // The subscription owns the request: unsubscribing aborts it, also before its headers.
      fromResponse(request, { provider: target.name }).pipe(
        readStreamEvents(readOptions(target.name)),
        tap(exchange.observer),
        ui === undefined ? encodeOpenAIChat({ model: chat.model, includeUsage: chat.stream_options?.include_usage === true }) : ui.encode(),
      ),
      multiplier,
      ui?.headers,
    );
  }

  const sockets = attachResponsesSocket(server, {
    plan,
    readOptions,
    log,
    prices,
    priceOf,
    multiplier,
    maxRequestBytes,
    maxSocketResponses: options.maxSocketResponses ?? 8,
    nextId: () => `gw-${++sequence}`,
    turns,
  });
  // Closing the server closes its WebSocket clients too (an upgraded socket would keep it open).
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const client of sockets.clients) client.terminate();
    return close(callback);
  };
  server.inFlight = () => inFlight + turns.count;
  return server;
}

/**
 * One request and its response: what was written, how it ended, and its log line. The writes of
 * one event-loop turn (the events of one upstream chunk) go out as one `write`.
 */
class Exchange {
  constructor(req, res, id, log) {
    this.req = req;
    this.res = res;
    this.log = log;
    this.started = performance.now();
    this.entry = {
      time: new Date().toISOString(),
      id,
      model: null,
      upstream: null,
      upstreamStatus: null,
      status: null,
      outcome: null,
      usage: null,
      cost: null,
      ms: { firstToken: null, firstToolArgument: null, total: null },
      error: null,
    };
    this.price = undefined;
    this.subscription = undefined;
    /** SSE text of this turn, not written yet. */
    this.pending = '';
    this.flushQueued = false;
    /** The upstream's failure, as the events tap saw it. */
    this.failure = undefined;
    this.usage = undefined;
    this.done = false;
    this.onEnd = undefined;
    this.flush = () => this.flushNow();
    /** The upstream's response arrived: its status decides how a failure is answered. */
    this.answered = (response) => {
      this.entry.upstreamStatus = response.status;
      this.upstreamOk = response.ok;
      return response;
    };
    this.upstreamOk = undefined;
    // Bound once: the tap of the upstream's events (usage, latencies, the failure).
    this.observer = {
      next: (event) => this.seen(event),
      error: (error) => (this.failure = error),
    };
    res.setHeader('x-request-id', id);
    res.on('close', () => {
      if (this.done) return;
      // The client went away: unsubscribing aborts the upstream request, in whatever phase it is.
      this.subscription?.unsubscribe();
      this.finish('client-closed', null);
    });
  }

  /** An upstream event: its usage, and the first token and tool argument for the log. */
  seen(event) {
    const type = event.type;
    if (type === 'usage') this.usage = event;
    else if (this.entry.ms.firstToken === null && (type === 'text-delta' || type === 'reasoning-delta' || type === 'tool-call-delta')) this.entry.ms.firstToken = this.since();
    if (type === 'tool-call-delta' && this.entry.ms.firstToolArgument === null && event.argumentsDelta !== '' && event.argumentsDelta !== undefined) this.entry.ms.firstToolArgument = this.since();
  }

  since() {
    return Math.round((performance.now() - this.started) * 10) / 10;
  }

  /** Answer `status` with an OpenAI-style error body (the request never reached an upstream). */
  refuse(status, message, details) {
    this.sendError(status, message, details);
    this.finish('refused', { message });
  }

  sendError(status, message, { type = 'invalid_request_error', param = null, code = null } = {}, headers = {}) {
    const res = this.res;
    if (res.headersSent) return this.breakStream();
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message, type, param, code } }));
    this.entry.status = status;
  }

  stream(source, multiplier, headers) {
    this.multiplier = multiplier;
    this.headers = headers === undefined ? SSE_HEADERS : { ...SSE_HEADERS, ...headers };
    this.subscription = source.subscribe({
      next: (sse) => this.write(sse),
      complete: () => this.completed(),
      error: (error) => this.failed(error),
    });
  }

  write(sse) {
    // An upstream HTTP error is answered with its status (see `completed`), not inside a stream.
    if (this.upstreamOk === false) return;
    this.pending += sse;
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(this.flush);
    }
  }

  flushNow() {
    this.flushQueued = false;
    const text = this.pending;
    if (text === '' || this.res.destroyed) return;
    this.pending = '';
    if (!this.res.headersSent) {
      this.res.writeHead(200, this.headers ?? SSE_HEADERS);
      this.entry.status = 200;
    }
    this.res.write(text);
  }

  completed() {
    const failure = this.failure;
    if (this.upstreamOk === false && failure !== undefined) {
      // The upstream answered with an error status (429, 529, 400, …): the same status, its wait, its message.
      this.sendError(failure.status, failure.message, { type: failure.type ?? 'upstream_error', code: failure.providerCode ?? null }, retryHeaders(failure.retryAfterMs));
      return this.finish('upstream-error', failure);
    }
    this.flushNow();
    this.res.end();
    this.finish(failure === undefined ? 'complete' : 'upstream-error', failure ?? null);
  }

  /** A cut, stalled, unreachable or unreadable upstream: never a clean end. */
  failed(error) {
    if (!this.res.headersSent && this.pending === '') {
      const stalled = isToolStreamError(error, 'idle-timeout');
      this.sendError(stalled ? 504 : 502, `Upstream ${this.entry.upstream} failed: ${error?.message ?? error}`, { type: 'upstream_error', code: error?.code ?? null });
    } else this.breakStream();
    this.finish('failed', error);
  }

  /** Write what is pending, then close the connection without the chunked body's end: the client reads every byte, then a cut. */
  breakStream() {
    this.flushNow();
    const socket = this.res.socket;
    if (socket === null || socket.destroyed) return void this.res.destroy();
    socket.end(() => socket.destroy());
  }

  finish(outcome, error) {
    if (this.done) return;
    this.done = true;
    const entry = this.entry;
    entry.outcome = outcome;
    entry.ms.total = this.since();
    if (entry.status === null && this.res.headersSent) entry.status = this.res.statusCode;
    if (error !== null && error !== undefined)
      entry.error = { code: error.code ?? null, message: error.message ?? String(error), ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }) };
    if (this.usage !== undefined) {
      const { inputTokens, outputTokens, totalTokens, cachedInputTokens, cacheWriteInputTokens, reasoningTokens } = this.usage;
      entry.usage = withoutUndefined({ inputTokens, outputTokens, totalTokens, cachedInputTokens, cacheWriteInputTokens, reasoningTokens });
      if (this.price !== undefined) entry.cost = costOf(entry.usage, this.price, { multiplier: this.multiplier ?? 1 }).total;
    }
    this.onEnd?.();
    this.log(entry);
  }
}

/** `Retry-After` (whole seconds, rounded up) and `retry-after-ms` for a wait the upstream asked for. */
function retryHeaders(ms) {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return {};
  return { 'retry-after': String(Math.ceil(ms / 1000)), 'retry-after-ms': String(Math.ceil(ms)) };
}

function withoutUndefined(record) {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}
