/**
 * The example gateway (examples/gateway/gateway.mjs) between the official `openai` SDK and two
 * scripted upstreams (Anthropic, Gemini), all on 127.0.0.1, for the gateway's end-to-end specs.
 * The example imports `rxjs-tool-calls`, which jest maps to src/index.ts: no build needed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { anthropicEvent } from 'rxjs-tool-calls/marbles';
import { createGateway, type GatewayLogEntry, type GatewayOptions, type GatewayServer } from '../../examples/gateway/gateway.mjs';
import { startScriptedUpstream, type ScriptedUpstream } from './scriptedUpstream';

export interface GatewayHarness {
  readonly anthropic: ScriptedUpstream;
  readonly gemini: ScriptedUpstream;
  readonly origin: string;
  readonly gateway: GatewayServer;
  /** The gateway's log entries since the last `clearLog()`. */
  readonly log: GatewayLogEntry[];
  clearLog(): void;
  /** Wait until the gateway logged `n` entries (it logs when a response ends or its client leaves). */
  logged(n: number): Promise<GatewayLogEntry[]>;
  /** An `openai` client of the gateway (no retries). */
  client(): OpenAI;
  /** Gateway connections open now. */
  sockets(): number;
  close(): Promise<void>;
}

/** Prices: claude-* at 3 / 15, gemini-2.5-flash at 0.30 / 2.50 per million tokens, × 1.3; `options` adds to the gateway's. */
export async function startGatewayHarness(options: Pick<GatewayOptions, 'idleTimeoutMs'> = {}): Promise<GatewayHarness> {
  const [anthropic, gemini] = await Promise.all([startScriptedUpstream(), startScriptedUpstream()]);
  const log: GatewayLogEntry[] = [];
  const gateway = createGateway({
    ...options,
    anthropic: { url: anthropic.origin, apiKey: 'sk-ant-test' },
    gemini: { url: gemini.origin, apiKey: 'gm-test' },
    prices: { 'claude-': { input: '3', output: '15' }, 'gemini-2.5-flash': { input: '0.30', output: '2.50' } },
    multiplier: '1.3',
    log: (entry) => log.push(entry),
  });
  let sockets = 0;
  gateway.on('connection', (socket) => {
    sockets++;
    socket.on('close', () => sockets--);
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  return {
    anthropic,
    gemini,
    origin,
    gateway,
    log,
    clearLog: () => void (log.length = 0),
    async logged(n) {
      for (let i = 0; i < 200 && log.length < n; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      return log;
    },
    client: () => new OpenAI({ baseURL: `${origin}/v1`, apiKey: 'client-key', maxRetries: 0 }),
    sockets: () => sockets,
    async close() {
      gateway.closeAllConnections();
      await new Promise((resolve) => gateway.close(resolve));
      await Promise.all([anthropic.close(), gemini.close()]);
    },
  };
}

export const tools: ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } } },
];
export const user: ChatCompletionMessageParam = { role: 'user', content: 'Weather and time?' };

// ---- Anthropic upstream pieces --------------------------------------------------------------
export const start = (input: number) =>
  anthropicEvent('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], usage: { input_tokens: input, output_tokens: 1 } } });
export const textBlock = (index: number, text: string) => [
  anthropicEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }),
  anthropicEvent('content_block_delta', { index, delta: { type: 'text_delta', text } }),
  anthropicEvent('content_block_stop', { index }),
];
export const toolStart = (index: number, id: string, name: string) => anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } });
export const json = (index: number, partial_json: string) => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
export const stop = (index: number) => anthropicEvent('content_block_stop', { index });
export const end = (reason: string, output: number) => [
  anthropicEvent('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: output } }),
  anthropicEvent('message_stop'),
];

/** The parts of a log entry a spec states exactly (the time, id and latencies vary). */
export function brief(entry: GatewayLogEntry): Pick<GatewayLogEntry, 'model' | 'upstream' | 'outcome' | 'usage' | 'cost'> {
  const { model, upstream, outcome, usage, cost } = entry;
  return { model, upstream, outcome, usage, cost };
}

/** The calls of a chunk stream, assembled by `tool_calls[].index` as an OpenAI client does. */
export function assemble(chunks: ChatCompletionChunk[]): Array<{ index: number; id: string; name: string; arguments: string }> {
  const calls = new Map<number, { index: number; id: string; name: string; arguments: string }>();
  for (const chunk of chunks)
    for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
      const call = calls.get(delta.index) ?? { index: delta.index, id: '', name: '', arguments: '' };
      call.id += delta.id ?? '';
      call.name += delta.function?.name ?? '';
      call.arguments += delta.function?.arguments ?? '';
      calls.set(delta.index, call);
    }
  return [...calls.values()];
}

/** What a client read on the wire: the status line and headers (null when none came), the body text, and how it ended. */
export interface WireResult {
  readonly status: number | null;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  /** `end`: the body's end arrived; `cut`: the connection closed before it; `no-response`: closed before a status line. */
  readonly ending: 'end' | 'cut' | 'no-response';
}

/**
 * POST `body` to the gateway's chat route (or the route at `path`) with Node's `http.request` on a
 * connection of its own, and report what arrived. `leave` is called with the body text so far after
 * each chunk (and once when the upstream holds the request, via `leaveNow`): returning true destroys
 * the request, as a client that goes away does.
 */
export function post(origin: string, body: unknown, leave?: (text: string) => boolean, path = '/v1/chat/completions'): { readonly result: Promise<WireResult>; leaveNow(): void } {
  let destroy: () => void = () => undefined;
  const result = new Promise<WireResult>((resolve) => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const request = http.request(`${origin}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (leave?.(text) === true) request.destroy();
      });
      res.on('error', () => undefined); // the cut is reported by `close`
      res.on('close', () => resolve({ status: res.statusCode ?? null, headers: res.headers, text, ending: res.complete ? 'end' : 'cut' }));
    });
    destroy = () => request.destroy();
    request.on('error', () => resolve({ status: null, headers: {}, text: '', ending: 'no-response' }));
    request.end(raw);
  });
  return { result, leaveNow: () => destroy() };
}

/** The SSE `data:` payloads of a body, parsed (`[DONE]` as the string). */
export function dataOf(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => {
      const data = block.slice('data: '.length);
      return data === '[DONE]' ? data : (JSON.parse(data) as unknown);
    });
}
