// The gateway's WebSocket route: the Responses API's WebSocket mode on `GET /v1/responses`, in
// front of the same upstreams as the chat route (claude-* → Anthropic, gemini-* → Gemini).
//
// A client (openai 7's `ResponsesWS`, openai-agents-js, any client of the mode) opens one socket and
// sends `response.create` turns; each turn's Responses events come back live, one per text message,
// written by `encodeOpenAIResponses` from the upstream's events. The upstreams keep no state, so the
// gateway does what OpenAI's server does for `previous_response_id`: it keeps, per socket, the
// conversation after each of its last `maxSocketResponses` responses (8 by default, the oldest let go
// first; nothing outlives the socket), and a turn that continues one of them is sent upstream whole
// (that response's conversation, then the turn's input). A response it no longer holds is the
// protocol's `previous_response_not_found`. One response in flight per socket
// (`response_already_in_flight`); `generate: false` warms up: a response id, no upstream call.
//
// Errors before a response started are the protocol's error events,
// `{"type":"error","status":…,"error":{"type","code","message","param"}}`: a turn that is not JSON,
// not `response.create`, a model of no upstream (404 `model_not_found`), a field the upstream cannot
// express (400 `unsupported_request`, `param` naming it), an upstream HTTP error (its status, type,
// code and message), an upstream that is unreachable, stalls or sends what cannot be read (502, 504).
// An error inside the upstream's stream is relayed as `error` + `response.failed`; a cut after output
// ends the turn with an error event (502). The socket stays open for the next turn either way.
// Each turn is logged once, with the chat route's log line (its `id` is the socket's, a dot and the
// turn's number). A client that goes away mid-turn aborts the upstream request.
import { WebSocketServer } from 'ws';
import { tap } from 'rxjs';
import { decodeSse, fromResponse, isToolStreamError, readStreamEvents } from 'rxjs-tool-calls';
import { costOf, encodeOpenAIResponses, fromResponsesRequest } from 'rxjs-tool-calls/gateway';

/** Responses fields a chat upstream has no use for, dropped from a turn before it is translated. */
const IGNORED = ['reasoning', 'include', 'store', 'metadata', 'text', 'truncation', 'service_tier', 'prompt_cache_key', 'safety_identifier', 'top_logprobs', 'background'];

/**
 * Serve the Responses WebSocket mode on `server`'s upgrades to `/v1/responses`.
 *
 * @param {import('node:http').Server} server The gateway's HTTP server.
 * @param {object} gateway What the chat route uses: `plan(chat)` (the upstream request, or a refusal), `readOptions(provider)`, `log`, `prices`, `priceOf`, `multiplier`, `maxRequestBytes`, `maxSocketResponses`, `nextId()`, `turns` (in-flight counter).
 * @returns {WebSocketServer}
 */
export function attachResponsesSocket(server, gateway) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: gateway.maxRequestBytes, perMessageDeflate: false });
  server.on('upgrade', (req, socket, head) => {
    const path = req.url === undefined ? '/' : req.url.split('?', 1)[0];
    if (path !== '/v1/responses') {
      socket.end(
        'HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"error":{"message":"No WebSocket route here: connect to /v1/responses","type":"invalid_request_error","param":null,"code":"not_found"}}',
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => new Session(ws, String(req.headers['x-request-id'] ?? gateway.nextId()), gateway));
  });
  return wss;
}

/** One socket: its turns, one at a time, and the conversations of its last responses. */
class Session {
  constructor(ws, id, gateway) {
    this.ws = ws;
    this.id = id;
    this.gateway = gateway;
    /** Response id → the conversation after it (its input and its output), oldest first. */
    this.conversations = new Map();
    this.turn = undefined;
    this.count = 0;
    ws.on('message', (data, isBinary) => this.message(data, isBinary));
    ws.on('close', () => this.turn?.clientClosed());
    ws.on('error', () => undefined); // a bad frame: ws closes the socket (1002, 1009), `close` follows
  }

  message(data, isBinary) {
    if (isBinary) return this.sendError(400, 'binary messages are not supported: send each event as JSON text', { code: 'invalid_message' });
    let event;
    try {
      event = JSON.parse(data.toString('utf8'));
    } catch {
      return this.sendError(400, 'The message is not valid JSON', { code: 'invalid_json' });
    }
    if (event === null || typeof event !== 'object' || Array.isArray(event)) return this.sendError(400, 'An event must be a JSON object', { code: 'invalid_message' });
    if (event.type !== 'response.create')
      return this.sendError(400, `Unsupported event type ${JSON.stringify(event.type)}: this socket takes response.create`, { param: 'type', code: 'unsupported_event' });
    if (this.turn !== undefined) return this.sendError(400, 'A response is already in flight on this socket: wait for its end', { code: 'response_already_in_flight' });
    this.turn = new Turn(this, event, `${this.id}.${++this.count}`);
    this.turn.start();
  }

  /** The protocol's error event. */
  sendError(status, message, { type = 'invalid_request_error', code = null, param = null } = {}) {
    this.send({ type: 'error', status, error: { type, code, message, param } });
  }

  send(event) {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(typeof event === 'string' ? event : JSON.stringify(event));
  }

  /** Keep the conversation after a response; the oldest beyond `maxSocketResponses` is let go. */
  keep(responseId, conversation) {
    this.conversations.set(responseId, conversation);
    while (this.conversations.size > this.gateway.maxSocketResponses) this.conversations.delete(this.conversations.keys().next().value);
  }
}

/** One `response.create`: its upstream request, its events relayed, its log line. */
class Turn {
  constructor(session, event, id) {
    this.session = session;
    this.event = event;
    this.started = performance.now();
    this.gateway = session.gateway;
    this.gateway.turns.count++;
    this.entry = {
      time: new Date().toISOString(),
      id,
      model: typeof event.model === 'string' ? event.model : null,
      upstream: null,
      upstreamStatus: null,
      status: null,
      outcome: null,
      usage: null,
      cost: null,
      ms: { firstToken: null, firstToolArgument: null, total: null },
      error: null,
    };
    this.subscription = undefined;
    this.usage = undefined;
    this.failure = undefined;
    this.upstreamOk = undefined;
    this.relayed = false;
    this.done = false;
  }

  start() {
    const { event, session } = this;
    const { previous_response_id: previous, generate, input = [] } = event;
    // The turn's request fields: everything but the envelope and what the gateway resolves itself.
    const fields = { ...event };
    for (const key of ['type', 'previous_response_id', 'generate', 'stream', 'input']) delete fields[key];
    let before = [];
    if (previous !== undefined && previous !== null) {
      const kept = session.conversations.get(previous);
      if (kept === undefined)
        return this.refuse(400, `Previous response with id '${previous}' not found on this socket (the gateway keeps its last ${this.gateway.maxSocketResponses} responses).`, {
          code: 'previous_response_not_found',
          param: 'previous_response_id',
        });
      before = kept;
    }
    const items = typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : undefined;
    if (items === undefined) return this.refuse(400, 'input must be text or an array of items', { param: 'input' });
    const conversation = [...before, ...items];
    this.responseId = `resp_gw_${session.id.replace(/[^\w-]/g, '_')}_${session.count}`;
    if (generate === false) return this.warmUp(conversation);
    let chat;
    try {
      chat = fromResponsesRequest({ ...fields, input: conversation, stream: true }, { ignore: IGNORED });
    } catch (error) {
      if (!isToolStreamError(error, 'unsupported-request')) return this.refuse(500, `Gateway error: ${error?.message ?? error}`, { type: 'server_error' });
      return this.refuse(400, error.message, { param: error.field, code: 'unsupported_request' });
    }
    const plan = this.gateway.plan(chat);
    if (plan.refusal !== undefined) {
      const { status, message, ...details } = plan.refusal;
      return this.refuse(status, message, details);
    }
    this.entry.upstream = plan.target.name;
    this.price = this.gateway.priceOf(chat.model, this.gateway.prices);
    const { url, headers, body } = plan.request;
    const answered = (response) => {
      this.entry.upstreamStatus = response.status;
      this.upstreamOk = response.ok;
      return response;
    };
    this.subscription = fromResponse((signal) => fetch(url, { method: 'POST', headers, body, signal }).then(answered), { provider: plan.target.name })
      .pipe(
        readStreamEvents(this.gateway.readOptions(plan.target.name)),
        tap({ next: (e) => this.seen(e), error: (error) => (this.failure = error) }),
        encodeOpenAIResponses({ id: this.responseId, model: chat.model }),
        decodeSse(),
      )
      .subscribe({
        next: (record) => this.relay(record, conversation),
        error: (error) => this.failed(error),
        complete: () => this.completed(),
      });
  }

  /** `generate: false`: the conversation is kept under a new response id; nothing goes upstream. */
  warmUp(conversation) {
    const response = { id: this.responseId, object: 'response', created_at: Math.floor(Date.now() / 1000), model: this.entry.model, output: [], usage: null };
    this.session.keep(this.responseId, conversation);
    this.session.send({ type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress' } });
    this.session.send({ type: 'response.completed', sequence_number: 1, response: { ...response, status: 'completed' } });
    this.entry.status = 200;
    this.finish('complete', null);
  }

  /** An upstream event: its usage, and the first token and tool argument for the log. */
  seen(event) {
    const type = event.type;
    if (type === 'usage') this.usage = event;
    else if (this.entry.ms.firstToken === null && (type === 'text-delta' || type === 'reasoning-delta' || type === 'tool-call-delta')) this.entry.ms.firstToken = this.since();
    if (type === 'tool-call-delta' && this.entry.ms.firstToolArgument === null && event.argumentsDelta) this.entry.ms.firstToolArgument = this.since();
  }

  /** One Responses event to the client (an upstream HTTP error is answered with an error event instead, at the end). */
  relay(record, conversation) {
    if (this.upstreamOk === false || this.done) return;
    this.relayed = true;
    this.session.send(record.data);
    if (record.event === 'response.completed' || record.event === 'response.incomplete') {
      const output = JSON.parse(record.data).response?.output ?? [];
      this.session.keep(this.responseId, [...conversation, ...output]);
    }
  }

  completed() {
    if (this.done) return;
    const failure = this.failure;
    if (this.upstreamOk === false && failure !== undefined) {
      this.session.sendError(failure.status ?? 502, failure.message, { type: failure.type ?? 'upstream_error', code: failure.providerCode ?? null });
      this.entry.status = failure.status ?? 502;
      return this.finish('upstream-error', failure);
    }
    this.entry.status = 200;
    this.finish(failure === undefined ? 'complete' : 'upstream-error', failure ?? null);
  }

  /** A cut, stalled, unreachable or unreadable upstream: an error event, before or after output. */
  failed(error) {
    if (this.done) return;
    const status = isToolStreamError(error, 'idle-timeout') ? 504 : 502;
    this.session.sendError(status, `Upstream ${this.entry.upstream} failed: ${error?.message ?? error}`, { type: 'upstream_error', code: error?.code ?? null });
    this.entry.status = this.relayed ? 200 : status;
    this.finish('failed', error);
  }

  refuse(status, message, details) {
    this.session.sendError(status, message, details);
    this.entry.status = status;
    this.finish('refused', { message });
  }

  /** The client went away: the upstream request is aborted, in whatever phase it is. */
  clientClosed() {
    if (this.done) return;
    this.subscription?.unsubscribe();
    this.finish('client-closed', null);
  }

  since() {
    return Math.round((performance.now() - this.started) * 10) / 10;
  }

  finish(outcome, error) {
    if (this.done) return;
    this.done = true;
    if (this.session.turn === this) this.session.turn = undefined;
    this.gateway.turns.count--;
    const entry = this.entry;
    entry.outcome = outcome;
    entry.ms.total = this.since();
    if (error !== null && error !== undefined)
      entry.error = { code: error.code ?? null, message: error.message ?? String(error), ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }) };
    if (this.usage !== undefined) {
      const { inputTokens, outputTokens, totalTokens, cachedInputTokens, cacheWriteInputTokens, reasoningTokens } = this.usage;
      entry.usage = Object.fromEntries(Object.entries({ inputTokens, outputTokens, totalTokens, cachedInputTokens, cacheWriteInputTokens, reasoningTokens }).filter(([, v]) => v !== undefined));
      if (this.price !== undefined) entry.cost = costOf(entry.usage, this.price, { multiplier: this.gateway.multiplier ?? 1 }).total;
    }
    this.gateway.log(entry);
  }
}
