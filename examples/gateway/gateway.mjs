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
// What a client sees:
// - a request the upstream format cannot express (an image part, `parallel_tool_calls: false` for
//   Gemini, …): HTTP 400 with an OpenAI-style error whose `param` names the field;
// - an upstream failure before its stream began (HTTP 429 / 529, a refused connection): that
//   status (502 when there is none) with an OpenAI-style error body;
// - an upstream error inside the stream (Anthropic `overloaded_error`, …): a `data: {"error":…}`
//   event, as OpenAI sends one, then the end of the response (no `[DONE]`, no finish);
// - an upstream that is cut or stalls (`idleTimeoutMs`): the response is destroyed, so the client
//   sees a broken stream, never a clean end;
// - the usage chunk (`choices: []`) before `[DONE]` when it asked with `stream_options.include_usage`.
// A client that goes away aborts the upstream request. Every request's usage and cost (`costOf`,
// with the price table below) is logged once, however it ended.
/* global AbortController */
import http from 'node:http';
import { tap } from 'rxjs';
import { fromResponse, isToolStreamError, readStreamEvents } from 'rxjs-tool-calls';
import { costOf, encodeOpenAIChat, toAnthropicRequest, toGeminiRequest, addUsage } from 'rxjs-tool-calls/gateway';

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

/** The upstreams: which models go there, how a chat request is translated and sent, how its stream is read. */
const ROUTES = [
  {
    name: 'anthropic',
    prefix: 'claude-',
    request(chat, upstream, options) {
      const body = toAnthropicRequest(chat, { defaultMaxTokens: options.defaultMaxTokens, apiVersion: '2023-06-01' });
      const headers = { 'x-api-key': upstream.apiKey ?? '', 'anthropic-version': '2023-06-01' };
      return { url: `${upstream.url}/v1/messages`, headers, body };
    },
  },
  {
    name: 'gemini',
    prefix: 'gemini-',
    request(chat, upstream) {
      const { path, body } = toGeminiRequest(chat);
      return { url: `${upstream.url}${path}`, headers: { 'x-goog-api-key': upstream.apiKey ?? '' }, body };
    },
  },
];

const DEFAULT_URLS = { anthropic: 'https://api.anthropic.com', gemini: 'https://generativelanguage.googleapis.com' };

/** The price of `model`: the entry with the longest prefix of its name. */
export function priceOf(model, prices) {
  let best;
  for (const [prefix, price] of Object.entries(prices)) if (model.startsWith(prefix) && (best === undefined || prefix.length > best[0].length)) best = [prefix, price];
  return best?.[1];
}

/** An OpenAI-style error response. */
function sendError(res, status, message, { type = 'invalid_request_error', param = null, code = null } = {}) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, param, code } }));
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new SyntaxError('The request body is not valid JSON'));
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
 * @param {number} [options.idleTimeoutMs] End a stalled upstream after this many ms without a byte. Default: none.
 * @param {(entry: object) => void} [options.log] Receives one entry per request. Default: a JSON line on stdout.
 * @returns {http.Server}
 */
export function createGateway(options = {}) {
  const upstreams = {
    anthropic: { url: DEFAULT_URLS.anthropic, ...options.anthropic },
    gemini: { url: DEFAULT_URLS.gemini, ...options.gemini },
  };
  const settings = { defaultMaxTokens: options.defaultMaxTokens ?? 4096 };
  const prices = options.prices ?? PRICES;
  const log = options.log ?? ((entry) => console.log(JSON.stringify(entry)));

  const handle = async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return sendError(res, 404, `No route for ${req.method} ${path}`, { code: 'not_found' });
    let chat;
    try {
      chat = await readJson(req);
    } catch (error) {
      return sendError(res, 400, error.message);
    }
    if (chat === null || typeof chat !== 'object' || typeof chat.model !== 'string') return sendError(res, 400, 'The request needs a model', { param: 'model' });
    if (chat.stream !== true) return sendError(res, 400, 'This gateway only streams: set "stream": true', { param: 'stream' });
    const route = ROUTES.find((r) => chat.model.startsWith(r.prefix));
    if (route === undefined) return sendError(res, 404, `The model ${chat.model} does not exist (this gateway serves claude-* and gemini-*)`, { param: 'model', code: 'model_not_found' });

    let upstream;
    try {
      upstream = route.request(chat, upstreams[route.name], settings);
    } catch (error) {
      if (!isToolStreamError(error, 'unsupported-request')) throw error;
      // e.g. "Cannot translate messages[0].content[1].type to anthropic: image_url parts are not supported"
      return sendError(res, 400, error.message, { param: error.field, code: 'unsupported_request' });
    }

    let usage; // the upstream's last usage report: the most complete
    let began = false; // an upstream event arrived: from then on, errors go inside the stream
    let failure; // what the upstream stream failed with
    let logged = false;
    const finish = (outcome) => {
      if (logged) return;
      logged = true;
      const price = priceOf(chat.model, prices);
      const cost = usage !== undefined && price !== undefined ? costOf(usage, price, { multiplier: options.multiplier ?? 1 }).total : null;
      log({ model: chat.model, upstream: route.name, outcome, usage: usage ?? null, cost });
    };

    const abort = new AbortController();
    const response = fetch(upstream.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...upstream.headers },
      body: JSON.stringify(upstream.body),
      signal: abort.signal,
    });
    const subscription = fromResponse(response, { provider: route.name })
      .pipe(
        readStreamEvents({ provider: route.name, ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }) }),
        tap({
          next: (event) => {
            began = true;
            if (event.type === 'usage') usage = addUsage({}, event); // its counts (without `raw`)
          },
          error: (error) => (failure = error),
        }),
        encodeOpenAIChat({ model: chat.model, includeUsage: chat.stream_options?.include_usage === true }),
      )
      .subscribe({
        next: (sse) => {
          if (res.writableEnded) return;
          if (!res.headersSent) {
            if (!began && failure !== undefined) {
              // The upstream failed before its stream began (HTTP 429, 529, 400, …): answer with its
              // status and an error body, as OpenAI does, so clients can retry by status.
              return sendError(res, failure.status ?? 502, failure.message, { type: failure.type ?? 'upstream_error', code: failure.providerCode ?? null });
            }
            res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
          }
          res.write(sse);
        },
        complete: () => {
          if (!res.writableEnded) res.end();
          finish(failure === undefined ? 'complete' : 'upstream-error');
        },
        error: (error) => {
          // A cut, stalled or unreachable upstream: never a clean end.
          if (res.headersSent) res.destroy();
          else sendError(res, 502, `Upstream ${route.name} failed: ${error.message}`, { type: 'upstream_error', code: error.code ?? null });
          finish('failed');
        },
      });

    res.on('close', () => {
      if (res.writableFinished) return;
      // The client went away: stop reading (which cancels the body) and abort the upstream request.
      subscription.unsubscribe();
      abort.abort();
      finish('client-closed');
    });
  };

  return http.createServer((req, res) => {
    handle(req, res).catch((error) => sendError(res, 500, `Gateway error: ${error?.message ?? error}`, { type: 'server_error' }));
  });
}
