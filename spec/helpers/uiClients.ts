/**
 * The UI protocols' own producers and clients, as oracles: the `ai` package writes AI SDK UI message
 * streams (`streamText` over its mock model → `toUIMessageStreamResponse()`) and reads them
 * (`useChat`'s `DefaultChatTransport` → `readUIMessageStream`); `@ag-ui/encoder` writes AG-UI
 * events and `@ag-ui/client`'s `HttpAgent` reads them (schema checks, chunk expansion,
 * `verifyEvents`, the default reducer). The clients read from a real 127.0.0.1 server.
 */
import http from 'node:http';
import { HttpAgent, type BaseEvent, type Message } from '@ag-ui/client';
import { EventEncoder } from '@ag-ui/encoder';
import { DefaultChatTransport, readUIMessageStream, stepCountIs, streamText, type ToolSet, type UIMessage, type UIMessageChunk, type UIMessageStreamOptions } from 'ai';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { listenOnLoopback, type Loopback } from './loopback';

/** Usage as a mock model reports it. */
export const MOCK_USAGE = { inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 30, text: 30, reasoning: 0 } };

/**
 * The bytes `streamText` over a mock model that streams `parts` (one model call per array of
 * `steps`) writes as a UI message stream, with the headers of the response.
 */
export async function aiSdkUiStream(
  steps: ReadonlyArray<ReadonlyArray<LanguageModelV3StreamPart>>,
  options: { tools?: ToolSet; messageMetadata?: UIMessageStreamOptions<UIMessage>['messageMetadata']; maxSteps?: number } = {},
): Promise<{ bytes: Uint8Array; headers: Headers }> {
  let call = 0;
  const model = new MockLanguageModelV3({
    doStream: async () => ({ stream: convertArrayToReadableStream([...(steps[Math.min(call++, steps.length - 1)] ?? [])]) }),
  });
  // onError: the stream's own error chunk is the subject; streamText would also log it.
  const result = streamText({
    model,
    prompt: 'go',
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    stopWhen: stepCountIs(options.maxSteps ?? steps.length),
    onError: () => undefined,
  });
  const response = result.toUIMessageStreamResponse(options.messageMetadata === undefined ? {} : { messageMetadata: options.messageMetadata });
  return { bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
}

/** AG-UI events as `@ag-ui/encoder` writes them (SSE). */
export function agUiStream(events: ReadonlyArray<BaseEvent | Record<string, unknown>>): Uint8Array {
  const encoder = new EventEncoder();
  return new TextEncoder().encode(events.map((event) => encoder.encodeSSE(event as BaseEvent)).join(''));
}

/** A 127.0.0.1 server that answers every POST with the bytes registered for its path, in the given chunks. */
export interface BytesServer extends Loopback {
  /** Serve `chunks` (with `headers`) at `path`; returns the URL. */
  serve(path: string, chunks: ReadonlyArray<Uint8Array | string>, headers?: Record<string, string>): string;
  /** The bodies posted, in order. */
  readonly bodies: unknown[];
}

export async function startBytesServer(): Promise<BytesServer> {
  const routes = new Map<string, { chunks: ReadonlyArray<Uint8Array | string>; headers: Record<string, string> }>();
  const bodies: unknown[] = [];
  let latest: { closed: Promise<void> } | undefined;
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      bodies.push(text === '' ? undefined : JSON.parse(text));
      latest = { closed: new Promise<void>((resolve) => res.on('close', resolve)) };
      const route = routes.get(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
      if (route === undefined) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route"}');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...route.headers });
      // One write per chunk, each in its own turn of the event loop, so the client sees them apart.
      const chunks = [...route.chunks];
      const next = (): void => {
        const chunk = chunks.shift();
        if (chunk === undefined) return void res.end();
        res.write(chunk, () => setImmediate(next));
      };
      next();
    });
  });
  const loopback = await listenOnLoopback(server, () => latest);
  return {
    ...loopback,
    bodies,
    serve(path, chunks, headers = {}) {
      routes.set(path, { chunks, headers });
      return `${loopback.origin}${path}`;
    },
  };
}

/** What `useChat`'s transport and `readUIMessageStream` make of a stream: the last message, every chunk, the errors. */
export interface AiSdkClientView {
  readonly message: UIMessage | undefined;
  readonly chunks: UIMessageChunk[];
  readonly errors: unknown[];
}

/** Read the stream at `url` as `useChat` does: `DefaultChatTransport.sendMessages()`, then `readUIMessageStream()`. */
export async function readWithAiSdk(url: string): Promise<AiSdkClientView> {
  const transport = new DefaultChatTransport({ api: url });
  const errors: unknown[] = [];
  const chunks: UIMessageChunk[] = [];
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'chat-1',
    messageId: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] }],
    abortSignal: undefined,
  });
  const tapped = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream: tapped, onError: (error) => errors.push(error) })) message = snapshot;
  return { message, chunks, errors };
}

/** What `HttpAgent` makes of a run: its messages, the events it applied, its error. */
export interface AgUiClientView {
  readonly messages: Message[];
  readonly events: BaseEvent[];
  readonly error: unknown;
}

/** Run an `HttpAgent` against `url`: the events go through its schema checks, chunk expansion, `verifyEvents` and the default reducer. */
export async function readWithAgUi(url: string): Promise<AgUiClientView> {
  const agent = new HttpAgent({ url });
  const events: BaseEvent[] = [];
  let error: unknown;
  try {
    await agent.runAgent({ runId: 'run-1' }, { onEvent: ({ event }) => void events.push(event) });
  } catch (e) {
    error = e;
  }
  return { messages: agent.messages, events, error };
}
