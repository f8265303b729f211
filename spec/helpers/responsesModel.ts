/**
 * A scripted stand-in for the Responses API, over HTTP (`POST /v1/responses`, SSE) and over its
 * WebSocket mode (`response.create` turns on one socket), answering from the conversation alone:
 * while fewer than `steps` calls were answered, a reasoning item and one `get_weather` call; then a
 * text. It checks what the real API checks, with the errors it answers (public reports in the
 * comments): every `function_call_output` answers a call of the conversation, no item is sent twice,
 * `previous_response_id` names a response the socket holds (all of its responses, or with
 * `store: false` only the most recent), and a reasoning item of a `store: false` request carries
 * its `encrypted_content`.
 */
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { startSocketServer, type ServerSocket, type SocketServer, type SocketServerOptions } from './socketServer';

export type Item = Record<string, unknown>;

export const CITIES = ['Paris', 'Zürich', 'Tokyo', 'Lima', 'Oslo', 'Cairo', 'Quito', 'Perth', 'Dakar', 'Hanoi'];

/** A request's conversation was refused: the API's error. */
export class ModelError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }

  /** As the WebSocket mode sends it. */
  event(): Item {
    return { type: 'error', status: this.status, error: { type: 'invalid_request_error', code: this.code, message: this.message, param: this.param } };
  }
}

/** The checks the API makes of a whole conversation (`sent`: where the request's own input starts in it; the rest the server holds). */
export function checkConversation(items: ReadonlyArray<Item>, store: boolean, sent = 0): void {
  const calls = new Set<string>();
  const ids = new Set<string>();
  for (const [position, item] of items.entries()) {
    const id = item['id'];
    if (typeof id === 'string') {
      // vercel/ai#15502: an item sent twice (a turn's output sent again with previous_response_id).
      if (ids.has(id)) throw new ModelError(400, null, `Duplicate item found with id ${id}. Remove duplicate items from your input and try again.`, 'input');
      ids.add(id);
    }
    if (position >= sent && item['type'] === 'reasoning' && !store && typeof item['encrypted_content'] !== 'string')
      // can1357/oh-my-pi#41, jrkropp/open-webui-developer-toolkit#715: a reasoning item by id alone, with store: false.
      throw new ModelError(
        404,
        null,
        `Item with id '${String(id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
        'input',
      );
    if (item['type'] === 'function_call') {
      const callId = String(item['call_id']);
      if (calls.has(callId)) throw new ModelError(400, null, `Duplicate function call with call_id ${callId}.`, 'input');
      calls.add(callId);
    }
    if (item['type'] === 'function_call_output' && !calls.has(String(item['call_id'])))
      // router-for-me/CLIProxyAPI#5735: a stateless proxy given only the function_call_output of an incremental turn.
      throw new ModelError(400, null, `No tool call found for function call output with call_id ${String(item['call_id'])}.`, 'input');
  }
}

/** The output items of the model's answer to `conversation`. */
export function answer(conversation: ReadonlyArray<Item>, responseId: string, steps: number, include: ReadonlyArray<string>): Item[] {
  const answered = conversation.filter((item) => item['type'] === 'function_call_output').length;
  if (answered >= steps)
    return [{ type: 'message', id: `msg_${responseId}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Done after ${answered} calls.`, annotations: [] }] }];
  const reasoning: Item = { type: 'reasoning', id: `rs_${responseId}`, summary: [] };
  if (include.includes('reasoning.encrypted_content')) reasoning['encrypted_content'] = `enc_${responseId}`;
  const city = CITIES[answered % CITIES.length];
  return [reasoning, { type: 'function_call', id: `fc_${responseId}`, call_id: `call_${responseId}`, name: 'get_weather', arguments: JSON.stringify({ city }), status: 'completed' }];
}

/** The events of a response streaming `output` (its calls' arguments in pieces). */
export function responseEvents(responseId: string, output: ReadonlyArray<Item>, model = 'gpt-test'): Item[] {
  let n = 0;
  const event = (type: string, fields: Item): Item => ({ type, sequence_number: n++, ...fields });
  const base = { id: responseId, object: 'response', model, output: [] as Item[] };
  const events = [event('response.created', { response: { ...base, status: 'in_progress' } }), event('response.in_progress', { response: { ...base, status: 'in_progress' } })];
  output.forEach((item, index) => {
    if (item['type'] === 'function_call') {
      const args = String(item['arguments']);
      events.push(event('response.output_item.added', { output_index: index, item: { ...item, arguments: '', status: 'in_progress' } }));
      for (let i = 0; i < args.length; i += 5) events.push(event('response.function_call_arguments.delta', { output_index: index, item_id: item['id'], delta: args.slice(i, i + 5) }));
      events.push(event('response.function_call_arguments.done', { output_index: index, item_id: item['id'], arguments: args }));
    } else if (item['type'] === 'message') {
      events.push(event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } }));
      const text = String((item['content'] as Item[])[0]?.['text']);
      for (let i = 0; i < text.length; i += 6) events.push(event('response.output_text.delta', { output_index: index, item_id: item['id'], content_index: 0, delta: text.slice(i, i + 6) }));
    } else events.push(event('response.output_item.added', { output_index: index, item }));
    events.push(event('response.output_item.done', { output_index: index, item }));
  });
  const usage = { input_tokens: 100, output_tokens: 20, total_tokens: 120, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 5 } };
  events.push(event('response.completed', { response: { ...base, status: 'completed', output, usage } }));
  return events;
}

export interface ModelOptions {
  /** How many tool calls the model makes before it answers with text. Default 2. */
  readonly steps?: number;
  /** Set-up cost of a request (HTTP) or a turn (socket), in ms, before the first event. Default 0. */
  readonly setupMs?: number;
  /** The WebSocket server's own handshake refusals (see `startSocketServer`). */
  readonly refuse?: SocketServerOptions['refuse'];
  /** What to do with a connection's `turn`-th `response.create` (1-based, per socket) before answering it. */
  readonly onTurn?: (socket: ServerSocket, turn: number, request: Item) => 'answer' | 'drop' | 'ignore' | Item;
  /** Called once a turn's response was sent whole (to drop the socket between steps, say). */
  readonly afterTurn?: (socket: ServerSocket, turn: number) => void;
}

/** What the socket's server saw: each turn's request, per connection. */
export interface ResponsesSocketServer extends SocketServer {
  /** Every `response.create` received, in order, with the connection it came on. */
  readonly turns: Array<{ readonly socket: number; readonly request: Item; readonly bytes: number }>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The WebSocket mode: one response in flight per socket (`response_already_in_flight`), responses
 * kept per socket (with `store: false`, only the most recent), `previous_response_id` resolved from
 * them (`previous_response_not_found`).
 */
export async function startResponsesSocket(options: ModelOptions = {}): Promise<ResponsesSocketServer> {
  const steps = options.steps ?? 2;
  const turns: Array<{ socket: number; request: Item; bytes: number }> = [];
  let responses = 0;
  const server = await startSocketServer(
    async (socket) => {
      const held = new Map<string, Item[]>(); // response id → the conversation after it (input and output)
      let busy = false;
      let count = 0;
      socket.ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        const text = data.toString();
        const request = JSON.parse(text) as Item;
        if (request['type'] !== 'response.create') return;
        turns.push({ socket: socket.n, request, bytes: Buffer.byteLength(text) });
        const turn = ++count;
        const action = options.onTurn?.(socket, turn, request) ?? 'answer';
        if (action === 'drop') return socket.ws.terminate();
        if (action === 'ignore') return;
        if (action !== 'answer') return socket.send(action);
        if (busy) return socket.send(new ModelError(400, 'response_already_in_flight', 'A response is already in flight on this connection.').event());
        busy = true;
        void (async () => {
          try {
            const previous = request['previous_response_id'];
            const store = request['store'] !== false;
            let conversation: Item[] = [];
            if (typeof previous === 'string') {
              const before = held.get(previous);
              if (before === undefined) throw new ModelError(400, 'previous_response_not_found', `Previous response with id '${previous}' not found.`, 'previous_response_id');
              conversation = before.slice();
            }
            const sent = conversation.length;
            conversation.push(...(request['input'] as Item[]));
            checkConversation(conversation, store, sent);
            const id = `resp_${++responses}`;
            const output = answer(conversation, id, steps, (request['include'] as string[] | undefined) ?? []);
            if (!store) held.clear(); // the most recent response only, in the connection's memory
            held.set(id, [...conversation, ...output]);
            if (options.setupMs) await sleep(options.setupMs);
            socket.send(...responseEvents(id, output, String(request['model'] ?? 'gpt-test')));
            options.afterTurn?.(socket, turn);
          } catch (error) {
            if (error instanceof ModelError) socket.send(error.event());
            else throw error;
          } finally {
            busy = false;
          }
        })();
      });
    },
    options.refuse === undefined ? {} : { refuse: options.refuse },
  );
  return Object.assign(server, { turns });
}

/** The HTTP API: `POST /v1/responses` with the whole conversation every time, answered with SSE. */
export async function startResponsesHttp(
  options: ModelOptions = {},
): Promise<{ readonly url: string; readonly requests: Array<{ readonly body: Item; readonly bytes: number }>; close(): Promise<void> }> {
  const steps = options.steps ?? 2;
  const requests: Array<{ body: Item; bytes: number }> = [];
  let responses = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text) as Item;
      requests.push({ body, bytes: Buffer.byteLength(text) });
      void (async () => {
        if (options.setupMs) await sleep(options.setupMs);
        try {
          const conversation = body['input'] as Item[];
          checkConversation(conversation, body['store'] !== false);
          const id = `resp_${++responses}`;
          const output = answer(conversation, id, steps, (body['include'] as string[] | undefined) ?? []);
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const event of responseEvents(id, output, String(body['model'] ?? 'gpt-test'))) res.write(`event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`);
          res.end();
        } catch (error) {
          const e = error as ModelError;
          res.writeHead(e.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: e.message, type: 'invalid_request_error', code: e.code, param: e.param } }));
        }
      })();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/responses`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
