/**
 * `responsesWebSocket()`: a `toolLoop()` request over the Responses API's WebSocket mode, one
 * socket for the whole loop.
 *
 * @module
 */
import { Observable, timer, type Subscriber, type Subscription } from 'rxjs';
import { isToolStreamError, ToolStreamError } from '../errors';
import type { FramedRecord } from '../events';
import { aCount, aWait, checkOptions, type OptionCheck } from '../internal/options';
import type { InputItem, ResponseCreateEvent, TurnFields } from '../providers/openaiResponses/wire';
import type { LoopMessage, ToolLoopRequestContext } from '../tools/index';
import { Connection, SOCKET_OPTION_CHECKS, socketSettings, socketUrl, type SocketSettings, type WebSocketOptions } from './socket';

/** Options of {@link responsesWebSocket}. */
export interface ResponsesWebSocketOptions extends WebSocketOptions {
  /**
   * Every turn's fields besides `input` and `previous_response_id` (`model`, `instructions`,
   * `store`, `include`, `reasoning`, `tool_choice`, …), or a function of the step that gives them.
   * Without `tools`, the loop's (`context.tools`) are sent.
   */
  readonly body?: TurnFields | ((step: number) => TurnFields);
  /**
   * How many times a turn is sent again on a new socket when its socket fails before any of its
   * response arrived (the socket dropped between steps, a refused or reset connection, a 429 or 5xx
   * handshake, `websocket_connection_limit_reached`). Default 3; 0 never reconnects.
   */
  readonly maxReconnects?: number;
  /** The wait before the first reconnection, in ms, doubled for each one after it (at most 8 s). Default 250. */
  readonly reconnectDelayMs?: number;
}

/** The fields a turn's `body` may not hold: the request function writes them. */
const WRITTEN = ['type', 'input', 'previous_response_id', 'stream', 'background'];

/** The check of `body`: an object of fields (none of {@link WRITTEN}), or a function of the step. */
const aBody: OptionCheck = (value) => {
  if (typeof value === 'function') return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'an object of the request fields, or a function of the step that gives them';
  const written = WRITTEN.filter((key) => Object.prototype.hasOwnProperty.call(value, key));
  return written.length === 0 ? undefined : `an object of the request fields without ${written.join(', ')} (responsesWebSocket() writes them)`;
};

/** The checks of {@link ResponsesWebSocketOptions}' own keys. */
const OWN_CHECKS = { body: aBody, maxReconnects: /* @__PURE__ */ aCount(0, false), reconnectDelayMs: aWait };

/** The longest wait between reconnections. */
const MAX_RECONNECT_DELAY_MS = 8000;

/** A record that may end a turn (a cheap test before the record is parsed to be sure). */
const MAY_END = /response\.(?:completed|incomplete|failed)|"error"/;

/** The Responses items that are a response's own output: left out of a turn that continues that response. */
function isOutputItem(item: InputItem): boolean {
  const record = item as unknown as Readonly<Record<string, unknown>>;
  if (record['role'] === 'assistant') return true;
  const type = record['type'];
  return typeof type === 'string' && (type === 'reasoning' || type.endsWith('_call') || type === 'mcp_list_tools' || type === 'mcp_approval_request');
}

/** A reasoning item a request with `store: false` cannot send: one without its `encrypted_content` (its id resolves to nothing). */
function isUnresolvable(item: InputItem): boolean {
  const record = item as unknown as Readonly<Record<string, unknown>>;
  return record['type'] === 'reasoning' && typeof record['encrypted_content'] !== 'string';
}

/** Whether a socket failure is worth a new socket. */
function isRetryable(error: unknown): boolean {
  return isToolStreamError(error) && (error.code === 'connection-lost' || (error.code === 'provider-error' && error.retryable));
}

/** The end of a turn's response, when `record` is one: its type, its response id and its error code. */
function endOf(record: FramedRecord): { readonly type: string; readonly responseId?: string; readonly code?: string } | undefined {
  if (!MAY_END.test(record.data)) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(record.data);
  } catch {
    return undefined; // the format reports it
  }
  if (typeof payload !== 'object' || payload === null) return undefined;
  const event = payload as Readonly<Record<string, unknown>>;
  const type = event['type'];
  if (type === 'error') {
    const inner = event['error'];
    const code = (typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>)['code'] : undefined) ?? event['code'];
    return { type, ...(typeof code === 'string' ? { code } : {}) };
  }
  if (type !== 'response.completed' && type !== 'response.incomplete' && type !== 'response.failed') return undefined;
  const response = event['response'];
  const id = typeof response === 'object' && response !== null ? (response as Record<string, unknown>)['id'] : undefined;
  return { type, ...(typeof id === 'string' && id !== '' ? { responseId: id } : {}) };
}

/** The last response of the chain: what the next turn may continue. */
interface Chain {
  /** Its id, the next turn's `previous_response_id`. */
  readonly responseId: string;
  /** The loop's messages its turn was made of. */
  readonly sent: ReadonlyArray<LoopMessage>;
  /** The turn that made it, sent again as it is for a step that repeats it (same messages). */
  readonly payload: ResponseCreateEvent;
}

/** What the turns of one request function share. */
interface RequestConfig {
  readonly settings: SocketSettings;
  readonly body: TurnFields | ((step: number) => TurnFields) | undefined;
  readonly maxReconnects: number;
  readonly reconnectDelayMs: number;
}

/** One step's turn: its subscriber, what it sends, how it went. */
class Turn {
  /** Records of its response were delivered (a failure after them cannot be sent again). */
  delivered = false;
  /** The payload of its last sending. */
  payload: ResponseCreateEvent | undefined;
  /** New sockets opened for it. */
  reconnects = 0;
  /** It was sent whole after `previous_response_not_found` (once). */
  restarted = false;
  /** Sent whole, whatever the chain (a new socket, a restart). */
  whole = false;
  /** The wait before a new socket. */
  wait: Subscription | undefined;
  finished = false;

  constructor(
    readonly subscriber: Subscriber<FramedRecord>,
    readonly messages: ReadonlyArray<LoopMessage>,
    readonly step: number,
    readonly context: Partial<ToolLoopRequestContext> | undefined,
  ) {}
}

/**
 * The socket of one loop (one `signal`): its turns one at a time (one response in flight), the
 * chain of responses they continue, a new socket when it dropped, closed when the loop ends.
 */
class Session {
  private connection: Connection | undefined;
  private link: Subscription | undefined;
  private chain: Chain | undefined;
  private turn: Turn | undefined;
  private readonly waiting: Turn[] = [];
  private closed = false;

  constructor(
    private readonly config: RequestConfig,
    /** Told when the session closed itself (a one-turn session, after its turn). */
    private readonly onClose: () => void,
    /** Whether the session ends with its first turn (no loop to keep it for). */
    private readonly once: boolean,
  ) {}

  /** A turn subscribed: it runs now, or after the one in flight. */
  start(turn: Turn): void {
    if (this.closed) return turn.subscriber.error(new ToolStreamError('connection-lost', { source: 'responsesWebSocket', byteOffset: undefined }, { cause: new Error('the loop ended') }));
    if (this.turn !== undefined) this.waiting.push(turn);
    else this.run(turn);
  }

  /** A turn was unsubscribed: a response in flight is abandoned with its socket (its events would follow the next turn's). */
  cancel(turn: Turn): void {
    turn.wait?.unsubscribe();
    if (turn.finished) return;
    turn.finished = true;
    const queued = this.waiting.indexOf(turn);
    if (queued !== -1) {
      this.waiting.splice(queued, 1);
      return;
    }
    if (this.turn !== turn) return;
    this.turn = undefined;
    this.drop();
    this.next();
  }

  /** The loop ended: the socket is closed, nothing waits. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.drop();
    for (const turn of this.waiting.splice(0)) turn.subscriber.complete();
    this.onClose();
  }

  private run(turn: Turn): void {
    this.turn = turn;
    this.send(turn);
  }

  private next(): void {
    if (this.once) return this.close();
    const turn = this.waiting.shift();
    if (turn !== undefined) this.run(turn);
  }

  /** Send the turn on the socket (opened now when there is none: a new socket's turns go whole). */
  private send(turn: Turn): void {
    let payload: ResponseCreateEvent;
    try {
      if (this.connection === undefined) this.open();
      payload = this.payloadOf(turn);
    } catch (error) {
      return this.fail(turn, error);
    }
    turn.payload = payload;
    (this.connection as Connection).send(payload);
  }

  /** A new socket: the server's memory of the chain was the old socket's. */
  private open(): void {
    const connection = new Connection(this.config.settings, 'responsesWebSocket');
    this.connection = connection;
    this.chain = undefined;
    this.link = connection.records().subscribe({
      next: (record) => this.record(record),
      error: (error: unknown) => this.dropped(connection, error),
      complete: () => this.dropped(connection, undefined),
    });
  }

  /** Close the socket (if any) and forget the chain. */
  private drop(): void {
    const link = this.link;
    this.link = undefined;
    this.connection = undefined;
    this.chain = undefined;
    link?.unsubscribe();
  }

  /** The turn's `response.create`: continuing the chain with the new items, or the whole conversation. */
  private payloadOf(turn: Turn): ResponseCreateEvent {
    const body = this.config.body;
    const fields = typeof body === 'function' ? body(turn.step) : (body ?? {});
    if (turn.context?.format !== undefined && turn.context.format !== 'openai-responses')
      throw new ToolStreamError('invalid-option', {
        function: 'responsesWebSocket',
        option: 'context.format',
        value: turn.context.format,
        expected: "'openai-responses': toolLoop(responsesWebSocket(…), tools, { format: 'openai-responses' })",
      });
    const loopTools = turn.context?.tools as NonNullable<TurnFields['tools']> | undefined;
    const tools = Object.prototype.hasOwnProperty.call(fields, 'tools') || loopTools === undefined ? {} : { tools: loopTools };
    const base = { ...fields, ...tools, type: 'response.create' as const };
    const chain = this.chain;
    const messages = turn.messages as ReadonlyArray<InputItem>;
    if (!turn.whole && chain !== undefined) {
      if (turn.messages === chain.sent) return chain.payload; // the same request again (a step repeated)
      const prefix = chain.sent;
      if (prefix.length <= messages.length && prefix.every((message, i) => messages[i] === message))
        return { ...base, input: messages.slice(prefix.length).filter((item) => !isOutputItem(item)), previous_response_id: chain.responseId };
    }
    const input = fields.store === false ? messages.filter((item) => !isUnresolvable(item)) : messages.slice();
    return { ...base, input };
  }

  /** A record of the socket: the turn's, or nothing (no turn in flight). */
  private record(record: FramedRecord): void {
    const turn = this.turn;
    if (turn === undefined) return;
    const end = endOf(record);
    if (end?.type === 'error' && !turn.delivered) {
      if (end.code === 'previous_response_not_found' && turn.payload?.previous_response_id !== undefined && !turn.restarted) {
        // The socket no longer knows the response (another socket's, evicted, `store: false`): the whole conversation, once.
        turn.restarted = true;
        turn.whole = true;
        this.chain = undefined;
        return this.send(turn);
      }
      if (end.code === 'websocket_connection_limit_reached' && this.reconnect(turn)) return;
    }
    turn.delivered = true;
    turn.subscriber.next(record);
    if (end === undefined || this.turn !== turn) return;
    if ((end.type === 'response.completed' || end.type === 'response.incomplete') && end.responseId !== undefined && turn.payload !== undefined)
      this.chain = { responseId: end.responseId, sent: turn.messages, payload: turn.payload };
    else this.chain = undefined;
    this.finish(turn);
  }

  /** The socket's records ended (closed, failed): a turn in flight is sent again on a new one, or ends. */
  private dropped(connection: Connection, error: unknown): void {
    if (this.connection !== connection) return; // a socket already let go of
    this.link = undefined;
    this.connection = undefined;
    this.chain = undefined;
    const turn = this.turn;
    if (turn === undefined) return; // between turns: the next one opens a new socket
    if (!turn.delivered && (error === undefined || isRetryable(error)) && this.reconnect(turn)) return;
    if (error === undefined) return this.finish(turn); // a clean close mid-response: the format says what is missing
    this.fail(turn, error);
  }

  /** Send the turn again on a new socket after a wait, if it may: whether it will. */
  private reconnect(turn: Turn): boolean {
    if (turn.reconnects >= this.config.maxReconnects) return false;
    const delay = Math.min(this.config.reconnectDelayMs * 2 ** turn.reconnects, MAX_RECONNECT_DELAY_MS);
    turn.reconnects++;
    turn.whole = true;
    this.drop();
    turn.wait = timer(delay).subscribe(() => {
      turn.wait = undefined;
      if (this.turn === turn && !turn.finished) this.send(turn);
    });
    return true;
  }

  private finish(turn: Turn): void {
    turn.finished = true;
    this.turn = undefined;
    turn.subscriber.complete();
    this.next();
  }

  private fail(turn: Turn, error: unknown): void {
    turn.finished = true;
    if (this.turn === turn) this.turn = undefined;
    this.drop();
    turn.subscriber.error(error);
    this.next();
  }
}

/**
 * A `toolLoop()` request over the OpenAI Responses API's WebSocket mode: one socket for the whole
 * loop, each step a `response.create` turn that sends only what the loop appended since the last
 * response, chained by `previous_response_id`.
 *
 * <span class="informal">The same `ToolLoopRequest` shape as a `fetch` one: hand it to
 * `toolLoop(…, { format: 'openai-responses' })` and the loop's items, messages and results are the
 * ones it gives over HTTP; only less is sent, on a connection already open.</span>
 *
 * ```text
 * step 0:  (open) → response.create { input: [all messages] }          ← response.created … response.completed (resp_1)
 * step 1:          → response.create { previous_response_id: resp_1,  ← … response.completed (resp_2)
 *                                      input: [function_call_output, …] }
 * loop ends: (close)
 * ```
 *
 * 1. Step 0 sends the whole conversation; each later step only the items the loop appended since
 *    the last response that are not that response's own output (the tool results, new user
 *    messages), with `previous_response_id`. A step that repeats the last one (the same messages,
 *    `onMissingToolCalls: 'retry'`) sends the same turn again. Anything else is sent whole.
 * 2. One response in flight: a turn is sent when the one before it ended (`response.completed`,
 *    `response.incomplete`, `response.failed` or `error`); each step's records are the ones of its
 *    own response.
 * 3. `previous_response_not_found` (the socket no longer holds that response: it was another
 *    socket's, evicted, or `store: false`) sends the turn again whole, once, on the same socket.
 * 4. A socket that dropped between steps, or fails before any of a turn's response arrived (a
 *    refused or reset connection, a 429 or 5xx handshake, `websocket_connection_limit_reached` at
 *    the 60-minute limit), is replaced by a new one after a wait (`reconnectDelayMs`, doubling), at
 *    most `maxReconnects` times per turn; on a new socket the turn is sent whole. After output, a
 *    failure ends the step as over HTTP: complete calls delivered, open ones `incomplete`, then the
 *    error (`connection-lost`).
 * 5. `store: false` (and Zero Data Retention) work: a turn sent whole then leaves out reasoning
 *    items without `encrypted_content`, which such a request cannot resolve (ask for
 *    `include: ['reasoning.encrypted_content']` to keep them).
 * 6. The socket opens with the loop's first step and closes when the loop's subscription ends
 *    (`context.signal`): completed, failed or unsubscribed. Unsubscribing a step mid-response
 *    closes the socket (its response's remaining events would otherwise come first); the next step
 *    opens another. Called without a loop's `signal`, each call is a socket of its own, closed after
 *    its turn.
 *
 * @example
 * ```ts
 * import { WebSocket } from 'ws';
 * import { z } from 'zod';
 * import { tool, toolLoop } from 'rxjs-tool-calls/tools';
 * import { responsesWebSocket } from 'rxjs-tool-calls/websocket';
 *
 * declare function lookup(city: string): Promise<{ readonly celsius: number }>;
 *
 * const tools = { get_weather: tool({ description: 'Weather in a city', schema: z.object({ city: z.string() }), execute: ({ city }) => lookup(city) }) };
 * const request = responsesWebSocket('wss://api.openai.com/v1/responses', {
 *   WebSocketCtor: WebSocket,
 *   headers: { authorization: `Bearer ${process.env.OPENAI_API_KEY}` },
 *   body: { model: 'gpt-5.2', store: false },
 * });
 * toolLoop(request, tools, { format: 'openai-responses', messages: [{ role: 'user', content: 'Weather in Paris?' }] }).subscribe((item) => {
 *   if (item.type === 'done') console.log(item.text);
 * });
 * // displays: the model's answer, after as many tool steps as it needed, on one socket
 * ```
 *
 * @param url The socket's URL: `wss://api.openai.com/v1/responses`, or any server of the mode.
 * @param options The socket (`WebSocketCtor`, `headers`, `protocols`, `maxMessageSize`), every
 *   turn's fields (`body`) and the reconnection (`maxReconnects`, `reconnectDelayMs`).
 * @return A `ToolLoopRequest` (of `rxjs-tool-calls/tools`) that gives each step's records: `(messages, step, context) => records`
 *   (without `context`, a socket of its own for that call).
 * @throws {ToolStreamError} `invalid-option`, at once, for a URL that is not `ws:` / `wss:`, an
 *   option it does not take or a value it cannot use, or no WebSocket constructor. The request
 *   itself ends its step with `invalid-option` when the loop's format is not `'openai-responses'`.
 */
export function responsesWebSocket(
  url: string | URL,
  options: ResponsesWebSocketOptions = {},
): (messages: ReadonlyArray<LoopMessage>, step: number, context?: ToolLoopRequestContext) => Observable<FramedRecord> {
  checkOptions('responsesWebSocket', options, SOCKET_OPTION_CHECKS, OWN_CHECKS);
  const config: RequestConfig = {
    settings: socketSettings('responsesWebSocket', socketUrl('responsesWebSocket', url), options),
    body: options.body,
    maxReconnects: options.maxReconnects ?? 3,
    reconnectDelayMs: options.reconnectDelayMs ?? 250,
  };
  /** The sessions of the loops running with this request, by their signal: made by their first step, gone when they end. */
  const sessions = new Map<AbortSignal, Session>();
  const sessionOf = (signal: AbortSignal | undefined): Session => {
    if (signal === undefined || signal.aborted) return new Session(config, () => undefined, true);
    const known = sessions.get(signal);
    if (known !== undefined) return known;
    const session = new Session(config, () => sessions.delete(signal), false);
    sessions.set(signal, session);
    signal.addEventListener('abort', () => session.close(), { once: true });
    return session;
  };
  return (messages, step, context) =>
    new Observable<FramedRecord>((subscriber) => {
      const session = sessionOf(context?.signal);
      const turn = new Turn(subscriber, messages, step, context);
      session.start(turn);
      return () => session.cancel(turn);
    });
}
