/**
 * A connection cut mid-stream, end to end: a real server on 127.0.0.1 writes one complete tool call and one half call,
 * then destroys the socket. Every source ends with `connection-lost` error (retryable, the runtime's
 * error as `cause`) after the complete call's success and the half call's `incomplete`
 * (reason `connection-lost`).
 */
import Anthropic from '@anthropic-ai/sdk';
import http from 'node:http';
import OpenAI from 'openai';
import { tap, type Observable, type OperatorFunction } from 'rxjs';
import { fromFetch } from 'rxjs/fetch';
import { fromAsyncIterable, fromReadableStream, fromResponse, readToolCalls, responseBody, type StreamEvent, type ToolCallResult, toolCalls, type ToolStreamError } from 'rxjs-tool-calls';
import { fromAnthropicEvents, fromOpenAIChatChunks, fromOpenAIResponsesEvents } from 'rxjs-tool-calls/sdk';
import { bodyBytes, COMPLETE_ARGUMENTS, HALF_ARGUMENTS, startCutServer, type CutServer } from '../helpers/cutServer';

let server: CutServer;
beforeAll(async () => {
  server = await startCutServer();
});
afterAll(() => server.close());

interface Outcome {
  readonly results: ToolCallResult[];
  readonly error: unknown;
  readonly completed: boolean;
}

/** Subscribe and collect every result, then the error (or completion). */
function outcomeOf(results$: Observable<ToolCallResult>): Promise<Outcome> {
  return new Promise((resolve) => {
    const results: ToolCallResult[] = [];
    results$.subscribe({
      next: (result) => results.push(result),
      error: (error: unknown) => resolve({ results, error, completed: false }),
      complete: () => resolve({ results, error: undefined, completed: true }),
    });
  });
}

/** Cut the connection once every byte the server wrote has arrived (so the cut never races the data). */
function cutWhenReceived<T extends Uint8Array | string>(total: number): OperatorFunction<T, T> {
  let received = 0;
  return tap((chunk) => {
    received += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (received === total) server.cut();
  });
}

/** Cut the connection once the half call's fragment was decoded (for the SDK adapters, which see payloads). */
const cutAtHalfCall: OperatorFunction<StreamEvent, StreamEvent> = tap((event) => {
  if (event.type === 'tool-call-delta' && event.argumentsDelta === HALF_ARGUMENTS) server.cut();
});

function get(path: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.origin}${path}`, { agent: false }, resolve);
    request.on('error', reject);
  });
}

/** undici's error for a body cut mid-way: `TypeError: terminated`, caused by `SocketError: other side closed`. */
function expectUndiciCut(cause: unknown): void {
  // undici's classes come from Node's realm, not jest's: compare names, not constructors.
  expect((cause as Error).name).toBe('TypeError');
  expect((cause as Error).message).toBe('terminated');
  expect(((cause as Error).cause as { code?: unknown }).code).toBe('UND_ERR_SOCKET');
}

/** Node's error for an `IncomingMessage` cut mid-body: `Error: aborted` with code `ECONNRESET`. */
function expectNodeCut(cause: unknown): void {
  expect((cause as Error).name).toBe('Error');
  expect((cause as Error).message).toBe('aborted');
  expect((cause as { code?: unknown }).code).toBe('ECONNRESET');
}

/** The complete call's success, then the half call `incomplete` (connection-lost), then the typed error. */
function expectCut(outcome: Outcome, ids: readonly [string, string], source: string, byteOffset: number | undefined): ToolStreamError<'connection-lost'> {
  expect(outcome.completed).toBe(false);
  expect(outcome.results).toHaveLength(2);
  const [complete, half] = outcome.results;
  expect(complete).toEqual({ success: true, data: expect.objectContaining({ id: ids[0], name: 'get_weather', arguments: JSON.parse(COMPLETE_ARGUMENTS), rawArguments: COMPLETE_ARGUMENTS }) });
  expect(half?.success).toBe(false);
  const incomplete = half?.error as ToolStreamError<'incomplete'>;
  expect(incomplete).toMatchObject({ name: 'ToolStreamError', code: 'incomplete' });
  expect(incomplete.reason).toBe('connection-lost');
  expect(incomplete.toolCall).toMatchObject({ id: ids[1], name: 'get_time', rawArguments: HALF_ARGUMENTS });
  const error = outcome.error as ToolStreamError<'connection-lost'>;
  expect(error).toMatchObject({ name: 'ToolStreamError', code: 'connection-lost' });
  expect(error).toMatchObject({ code: 'connection-lost', retryable: true, source, byteOffset });
  return error;
}

const FORMATS = [
  { path: '/anthropic', ids: ['toolu_wx', 'toolu_tm'] as const },
  { path: '/chat', ids: ['call_wx', 'call_tm'] as const },
];

describe.each(FORMATS)('a connection cut mid-call ($path stream)', ({ path, ids }) => {
  const total = bodyBytes(path);

  it('fetch + fromResponse', async () => {
    const outcome = await outcomeOf(fromResponse(fetch(`${server.origin}${path}`)).pipe(cutWhenReceived(total), readToolCalls()));
    expectUndiciCut(expectCut(outcome, ids, 'fromResponse', total).cause);
  });

  it('rxjs fromFetch + responseBody()', async () => {
    const outcome = await outcomeOf(fromFetch(`${server.origin}${path}`).pipe(responseBody(), cutWhenReceived(total), readToolCalls()));
    expectUndiciCut(expectCut(outcome, ids, 'responseBody', total).cause);
  });

  it('fromReadableStream(response.body)', async () => {
    const response = await fetch(`${server.origin}${path}`);
    if (response.body === null) throw new Error('no body');
    const outcome = await outcomeOf(fromReadableStream(response.body).pipe(cutWhenReceived(total), readToolCalls()));
    expectUndiciCut(expectCut(outcome, ids, 'fromReadableStream', total).cause);
  });

  it('fromAsyncIterable(response.body)', async () => {
    const response = await fetch(`${server.origin}${path}`);
    const body = response.body as unknown as AsyncIterable<Uint8Array>;
    const outcome = await outcomeOf(fromAsyncIterable(body).pipe(cutWhenReceived(total), readToolCalls()));
    expectUndiciCut(expectCut(outcome, ids, 'fromAsyncIterable', total).cause);
  });

  it('Node http.get + fromAsyncIterable', async () => {
    const response = await get(path);
    const outcome = await outcomeOf(fromAsyncIterable<Uint8Array>(response).pipe(cutWhenReceived(total), readToolCalls()));
    expectNodeCut(expectCut(outcome, ids, 'fromAsyncIterable', total).cause);
  });

  it('Node http.get + fromAsyncIterable', async () => {
    const response = await get(path);
    const outcome = await outcomeOf(fromAsyncIterable<Uint8Array>(response).pipe(cutWhenReceived(total), readToolCalls()));
    expectNodeCut(expectCut(outcome, ids, 'fromAsyncIterable', total).cause);
  });
});

describe('the official SDKs pointed at the server', () => {
  const openai = (): OpenAI => new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test', maxRetries: 0 });
  const anthropic = (): Anthropic => new Anthropic({ baseURL: server.origin, apiKey: 'test', maxRetries: 0 });

  it('openai chat.completions.create({ stream: true }) + fromOpenAIChatChunks', async () => {
    const stream = await openai().chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'weather and time?' }], n: 2, stream: true });
    const outcome = await outcomeOf(fromOpenAIChatChunks(stream).pipe(cutAtHalfCall, toolCalls()));
    expectUndiciCut(expectCut(outcome, ['call_wx', 'call_tm'], 'fromOpenAIChatChunks', undefined).cause);
  });

  it('openai responses.create({ stream: true }) + fromOpenAIResponsesEvents', async () => {
    const stream = await openai().responses.create({ model: 'gpt-test', input: 'weather and time?', stream: true });
    const outcome = await outcomeOf(fromOpenAIResponsesEvents(stream).pipe(cutAtHalfCall, toolCalls()));
    expectUndiciCut(expectCut(outcome, ['call_wx', 'call_tm'], 'fromOpenAIResponsesEvents', undefined).cause);
  });

  it('@anthropic-ai/sdk messages.create({ stream: true }) + fromAnthropicEvents', async () => {
    const stream = await anthropic().messages.create({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'weather and time?' }], stream: true });
    const outcome = await outcomeOf(fromAnthropicEvents(stream).pipe(cutAtHalfCall, toolCalls()));
    expectUndiciCut(expectCut(outcome, ['toolu_wx', 'toolu_tm'], 'fromAnthropicEvents', undefined).cause);
  });

  it('@anthropic-ai/sdk messages.stream() (a MessageStream wraps the error in AnthropicError) + fromAnthropicEvents', async () => {
    const stream = anthropic().messages.stream({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'weather and time?' }] });
    const outcome = await outcomeOf(fromAnthropicEvents(stream).pipe(cutAtHalfCall, toolCalls()));
    const cause = expectCut(outcome, ['toolu_wx', 'toolu_tm'], 'fromAnthropicEvents', undefined).cause;
    expect(cause).toBeInstanceOf(Anthropic.AnthropicError);
    // undici's TypeError is from Node's realm, not jest's, so the SDK keeps it as text (in one realm
    // it keeps it as `cause`: see networkError.spec.ts).
    expect((cause as Error).message).toBe('TypeError: terminated');
  });

  it('openai chat.completions.stream() (a ChatCompletionStream wraps the error in OpenAIError) + fromOpenAIChatChunks', async () => {
    const stream = openai().chat.completions.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'weather and time?' }], n: 2 });
    const outcome = await outcomeOf(fromOpenAIChatChunks(stream).pipe(cutAtHalfCall, toolCalls()));
    const cause = expectCut(outcome, ['call_wx', 'call_tm'], 'fromOpenAIChatChunks', undefined).cause;
    expect(cause).toBeInstanceOf(OpenAI.OpenAIError);
    expect((cause as Error).message).toBe('TypeError: terminated');
  });
});

describe('what a cut connection is not', () => {
  it('a chat stream cut after every choice finished is complete (only [DONE] is missing)', async () => {
    const total = bodyBytes('/chat-finished');
    const outcome = await outcomeOf(fromResponse(fetch(`${server.origin}/chat-finished`)).pipe(cutWhenReceived(total), readToolCalls()));
    expect(outcome).toMatchObject({ completed: true, error: undefined });
    expect(outcome.results).toEqual([{ success: true, data: expect.objectContaining({ id: 'call_wx', arguments: JSON.parse(COMPLETE_ARGUMENTS) }) }]);
  });

  it("the user's own AbortSignal stays an AbortError (open calls: stream-ended)", async () => {
    const controller = new AbortController();
    const total = bodyBytes('/anthropic');
    let received = 0;
    const bytes$ = fromResponse(fetch(`${server.origin}/anthropic`, { signal: controller.signal })).pipe(
      tap((chunk) => {
        received += chunk.byteLength;
        if (received === total) controller.abort();
      }),
    );
    const outcome = await outcomeOf(bytes$.pipe(readToolCalls()));
    expect(outcome.error).not.toMatchObject({ name: 'ToolStreamError', code: 'connection-lost' });
    expect((outcome.error as Error).name).toBe('AbortError');
    expect(outcome.results.map((r) => (r.success ? 'ok' : (r.error as ToolStreamError<'incomplete'>).reason))).toEqual(['ok', 'stream-ended']);
    await server.waitForClose();
  });

  it('unsubscribing before the cut emits nothing more and closes the socket', async () => {
    const seen: ToolCallResult[] = [];
    const errors: unknown[] = [];
    const subscription = fromResponse(fetch(`${server.origin}/anthropic`))
      .pipe(readToolCalls())
      .subscribe({ next: (result) => seen.push(result), error: (error: unknown) => errors.push(error) });
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    subscription.unsubscribe();
    await server.waitForClose();
    expect(seen).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
