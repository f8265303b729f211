/**
 * A local HTTP server (127.0.0.1, port 0) whose streams are cut by the network: it writes a stream
 * with one complete tool call and one half call, keeps the connection open, and `cut()` destroys
 * the socket mid-call (the test calls it once the client has received everything written, so the
 * cut never races the data). Routes answer like the OpenAI chat, Anthropic Messages and OpenAI
 * Responses APIs, so the official SDKs can be pointed at it with `baseURL`.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { anthropicEvent, openaiChunk, responsesEvent } from 'rxjs-tool-calls/marbles';
import { listenOnLoopback } from './loopback';

/** The complete call's arguments (with multi-byte text, so byte counts differ from string lengths). */
export const COMPLETE_ARGUMENTS = '{"city":"Zürich 🏔"}';
/** The half call's arguments as far as they arrive before the cut. */
export const HALF_ARGUMENTS = '{"tz":"Europe/Be';

/**
 * OpenAI chat, two choices (`n: 2`): choice 0 calls `get_weather` and finishes; choice 1's
 * `get_time` call is cut mid-arguments. (A chat call completes at its choice's finish, so the
 * complete call needs a finished choice.)
 */
export const CHAT_CUT: readonly string[] = [
  openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_wx', name: 'get_weather', arguments: '' }] }),
  openaiChunk({ toolCalls: [{ index: 0, arguments: COMPLETE_ARGUMENTS }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiChunk({ choice: 1, role: 'assistant', toolCalls: [{ id: 'call_tm', name: 'get_time', arguments: '' }] }),
  openaiChunk({ choice: 1, toolCalls: [{ index: 0, arguments: HALF_ARGUMENTS }] }),
];

/** OpenAI chat, one choice whose only call finished (`finish_reason`) before the cut; `[DONE]` never came. */
export const CHAT_FINISHED_CUT: readonly string[] = [
  openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_wx', name: 'get_weather', arguments: COMPLETE_ARGUMENTS }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
];

const toolUse = (index: number, id: string, name: string): string => anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } });
const json = (index: number, partial_json: string): string => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });

/** Anthropic Messages: `get_weather` complete (`content_block_stop`), then `get_time` cut mid-arguments. */
export const ANTHROPIC_CUT: readonly string[] = [
  anthropicEvent('message_start', {
    message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, usage: { input_tokens: 20, output_tokens: 1 } },
  }),
  toolUse(0, 'toolu_wx', 'get_weather'),
  json(0, COMPLETE_ARGUMENTS),
  anthropicEvent('content_block_stop', { index: 0 }),
  toolUse(1, 'toolu_tm', 'get_time'),
  json(1, HALF_ARGUMENTS),
];

const fc = (index: number, id: string, callId: string, name: string, args: string, status: string): Record<string, unknown> => ({
  type: 'function_call',
  id,
  call_id: callId,
  name,
  arguments: args,
  status,
  output_index: index,
});

/** OpenAI Responses: `get_weather` complete (`output_item.done`), then `get_time` cut mid-arguments. */
export const RESPONSES_CUT: readonly string[] = [
  responsesEvent('response.created', { sequence_number: 0, response: { id: 'resp_1', object: 'response', model: 'gpt-test', status: 'in_progress', output: [] } }),
  responsesEvent('response.output_item.added', { sequence_number: 1, output_index: 0, item: fc(0, 'fc_wx', 'call_wx', 'get_weather', '', 'in_progress') }),
  responsesEvent('response.function_call_arguments.delta', { sequence_number: 2, output_index: 0, item_id: 'fc_wx', delta: COMPLETE_ARGUMENTS }),
  responsesEvent('response.function_call_arguments.done', { sequence_number: 3, output_index: 0, item_id: 'fc_wx', arguments: COMPLETE_ARGUMENTS }),
  responsesEvent('response.output_item.done', { sequence_number: 4, output_index: 0, item: fc(0, 'fc_wx', 'call_wx', 'get_weather', COMPLETE_ARGUMENTS, 'completed') }),
  responsesEvent('response.output_item.added', { sequence_number: 5, output_index: 1, item: fc(1, 'fc_tm', 'call_tm', 'get_time', '', 'in_progress') }),
  responsesEvent('response.function_call_arguments.delta', { sequence_number: 6, output_index: 1, item_id: 'fc_tm', delta: HALF_ARGUMENTS }),
];

/** The streams by route; the SDK paths and short aliases for plain `fetch` / `http.get`. */
const ROUTES: Readonly<Record<string, readonly string[]>> = {
  '/chat': CHAT_CUT,
  '/v1/chat/completions': CHAT_CUT,
  '/chat-finished': CHAT_FINISHED_CUT,
  '/anthropic': ANTHROPIC_CUT,
  '/v1/messages': ANTHROPIC_CUT,
  '/v1/responses': RESPONSES_CUT,
};

/** The body bytes a route writes before the cut. */
export function bodyBytes(path: string): number {
  const parts = ROUTES[path];
  if (parts === undefined) throw new Error(`no route ${path}`);
  return Buffer.byteLength(parts.join(''));
}

/** One request the server saw. */
export interface CutRequest {
  readonly path: string;
  readonly socket: Socket;
  /** Resolves when the request's socket closed. */
  readonly closed: Promise<void>;
}

export interface CutServer {
  readonly origin: string;
  readonly requests: CutRequest[];
  /** Destroy the socket of the latest request (the server's side of a dropped connection). */
  cut(): void;
  /** The latest request's socket close, or a rejection after `timeoutMs`. */
  waitForClose(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCutServer(): Promise<CutServer> {
  const requests: CutRequest[] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    req.resume();
    req.on('end', () => {
      const parts = ROUTES[path];
      if (parts === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no such route"}}');
        return;
      }
      let resolveClosed: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
      res.on('close', resolveClosed);
      requests.push({ path, socket: res.socket as Socket, closed });
      // Chunked transfer encoding: a cut socket is an unfinished body, not an end.
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const part of parts) res.write(part);
    });
  });
  const loopback = await listenOnLoopback(server, () => requests[requests.length - 1], 'request');
  return {
    ...loopback,
    requests,
    cut() {
      const latest = requests[requests.length - 1];
      if (latest === undefined) throw new Error('no request to cut');
      latest.socket.destroy();
    },
  };
}
