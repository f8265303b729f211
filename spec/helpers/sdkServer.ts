/**
 * A local HTTP server (127.0.0.1, port 0) that answers like the OpenAI Responses API and the
 * Anthropic Messages API, for the official SDKs and `fetch`. A request whose body contains
 * `"slow"` (the model name) sends the same events up to the first complete tool call, then keeps the
 * connection open with an SSE comment every 20 ms; the server records when each socket closes.
 */
import { listenOnLoopback } from './loopback';
import http from 'node:http';
import { anthropicEvent, openaiChunk, responsesEvent } from 'rxjs-tool-calls/marbles';

/** One request the server saw. */
export interface SdkRequest {
  readonly path: string;
  readonly body: string;
  /** Resolves when the request's socket closed. */
  readonly closed: Promise<void>;
  /** Whether the server finished the response itself (`false` when the client went away first). */
  ended: boolean;
}

export interface SdkServer {
  readonly origin: string;
  readonly requests: SdkRequest[];
  /** The latest request's socket close, or a rejection after `timeoutMs`. */
  waitForClose(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const fc = { type: 'function_call', id: 'fc_1', call_id: 'call_wx_1', name: 'get_weather', status: 'in_progress' };
const response = (status: string, output: unknown[]) => ({ id: 'resp_1', object: 'response', model: 'gpt-test', status, output });

/** A Responses stream: text, one function call in three pieces, completed. Cut after `split` for the slow variant. */
export const RESPONSES_SSE: readonly string[] = [
  responsesEvent('response.created', { sequence_number: 0, response: response('in_progress', []) }),
  responsesEvent('response.output_text.delta', { sequence_number: 1, output_index: 0, item_id: 'msg_1', content_index: 0, delta: 'Checking.' }),
  responsesEvent('response.output_item.added', { sequence_number: 2, output_index: 1, item: { ...fc, arguments: '' } }),
  responsesEvent('response.function_call_arguments.delta', { sequence_number: 3, output_index: 1, item_id: 'fc_1', delta: '{"city":' }),
  responsesEvent('response.function_call_arguments.delta', { sequence_number: 4, output_index: 1, item_id: 'fc_1', delta: '"Zürich"}' }),
  responsesEvent('response.function_call_arguments.done', { sequence_number: 5, output_index: 1, item_id: 'fc_1', arguments: '{"city":"Zürich"}' }),
  responsesEvent('response.output_item.done', { sequence_number: 6, output_index: 1, item: { ...fc, status: 'completed', arguments: '{"city":"Zürich"}' } }),
  responsesEvent('response.completed', {
    sequence_number: 7,
    response: { ...response('completed', [{ ...fc, status: 'completed', arguments: '{"city":"Zürich"}' }]), usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
  }),
];

const toolUse = (index: number, id: string, name: string) => anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } });
const json = (index: number, partial_json: string) => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });

/** An Anthropic stream: a text block, then two tool_use blocks, stop reason `tool_use`. */
export const ANTHROPIC_SSE: readonly string[] = [
  anthropicEvent('message_start', {
    message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, usage: { input_tokens: 20, output_tokens: 1 } },
  }),
  anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Let me look.' } }),
  anthropicEvent('content_block_stop', { index: 0 }),
  'event: ping\ndata: {"type": "ping"}\n\n',
  toolUse(1, 'toolu_wx', 'get_weather'),
  json(1, '{"city": "Pa'),
  json(1, 'ris"}'),
  anthropicEvent('content_block_stop', { index: 1 }),
  toolUse(2, 'toolu_tm', 'get_time'),
  json(2, ''),
  json(2, '{"tz":"Europe/Paris"}'),
  anthropicEvent('content_block_stop', { index: 2 }),
  anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } }),
  anthropicEvent('message_stop'),
];

/** An OpenAI chat stream whose only call completes (finish) before the terminator. */
const CHAT_SSE: readonly string[] = [
  openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  'data: [DONE]\n\n',
];

/**
 * How many events the slow variant sends before idling (up to and including the first call's end).
 * A chat call is complete only at `[DONE]` (or the end of the body): a finish never closes it, so the
 * chat variant idles after `[DONE]`, with the connection still open.
 */
const SLOW_CUT: Record<string, number> = { '/v1/responses': 7, '/v1/messages': 9, '/v1/chat/completions': 3 };
const STREAMS: Record<string, readonly string[]> = { '/v1/responses': RESPONSES_SSE, '/v1/messages': ANTHROPIC_SSE, '/v1/chat/completions': CHAT_SSE };

export async function startSdkServer(): Promise<SdkServer> {
  const requests: SdkRequest[] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const events = STREAMS[path];
      if (events === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no such route"}}');
        return;
      }
      let resolveClosed: () => void = () => undefined;
      const record: SdkRequest = { path, body, closed: new Promise<void>((resolve) => (resolveClosed = resolve)), ended: false };
      requests.push(record);
      res.on('close', resolveClosed);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (!body.includes('"slow"')) {
        record.ended = true;
        res.end(events.join(''));
        return;
      }
      res.write(events.slice(0, SLOW_CUT[path]).join(''));
      const timer = setInterval(() => res.write(': idle\n\n'), 20);
      res.on('close', () => clearInterval(timer));
    });
  });
  const loopback = await listenOnLoopback(server, () => requests[requests.length - 1], 'request');
  return { ...loopback, requests };
}
