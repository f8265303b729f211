/**
 * Cut connections in detail: which errors are network failures (one classifier, `isConnectionLost`), the
 * `connection-lost` error every source builds from them (byte counts under any chunking), and the
 * `incomplete` reason downstream. The real-socket proof is in connectionLost.spec.ts.
 */
import Anthropic from '@anthropic-ai/sdk';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import OpenAI from 'openai';
import { lastValueFrom, Observable, toArray } from 'rxjs';
import { ERROR_CODES, fromAsyncIterable, fromReadableStream, fromResponse, isToolStreamError, readToolCalls, type StreamEvent, toolCalls, ToolStreamError, openaiChat } from 'rxjs-tool-calls';
import { fromSdkEvents } from 'rxjs-tool-calls/sdk';
import { isConnectionLost } from 'rxjs-tool-calls/advanced';
import { chunkings } from '../helpers/chunking';
import { ANTHROPIC_CUT, HALF_ARGUMENTS } from '../helpers/cutServer';
import { plainValue } from '../helpers/plain';
import { testScheduler } from '../helpers/marbles';

const coded = (message: string, code: string, cause?: unknown): Error => Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });
/** What undici's fetch rejects a body read with when the server closes the socket mid-body. */
const undiciTerminated = (): TypeError => new TypeError('terminated', { cause: coded('other side closed', 'UND_ERR_SOCKET') });
const abortError = (): Error => Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });

describe('isConnectionLost(error)', () => {
  const sdkWrapped = new Anthropic.AnthropicError('terminated');
  (sdkWrapped as { cause?: unknown }).cause = undiciTerminated();
  const connectionError = new OpenAI.APIConnectionError({ cause: new TypeError('fetch failed', { cause: coded('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED') }) });

  it.each<[string, unknown]>([
    ["undici: TypeError 'terminated' caused by UND_ERR_SOCKET", undiciTerminated()],
    ["undici: TypeError 'terminated' caused by a body timeout", new TypeError('terminated', { cause: coded('Body Timeout Error', 'UND_ERR_BODY_TIMEOUT') })],
    ["undici: TypeError 'terminated' with no cause", new TypeError('terminated')],
    ["undici: TypeError 'fetch failed' caused by ECONNREFUSED", new TypeError('fetch failed', { cause: coded('connect ECONNREFUSED', 'ECONNREFUSED') })],
    ['Node: IncomingMessage cut mid-body (Error: aborted, ECONNRESET)', coded('aborted', 'ECONNRESET')],
    ...['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_HTTP2_STREAM_ERROR'].map((code): [string, unknown] => [`Node: code ${code}`, coded(`x ${code}`, code)]),
    ...['network error', 'Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Error in input stream', 'Load failed', 'The network connection was lost.'].map(
      (message): [string, unknown] => [`browser: TypeError '${message}'`, new TypeError(message)],
    ),
    ["a browser TypeError from another realm (name 'TypeError')", { name: 'TypeError', message: 'network error' }],
    ['an SDK wrapper with the network error as cause (AnthropicError)', sdkWrapped],
    ["openai-node's APIConnectionError (cause: fetch failed ← ECONNREFUSED)", connectionError],
    ["an SDK wrapper that kept only String(error) ('TypeError: terminated')", new Anthropic.AnthropicError('TypeError: terminated')],
  ])('yes: %s', (_, error) => {
    expect(isConnectionLost(error)).toBe(true);
  });

  const cycle = new Error('loop');
  (cycle as { cause?: unknown }).cause = cycle;

  it.each<[string, unknown]>([
    ['a TypeError from a bug (bad argument)', new TypeError("Cannot read properties of undefined (reading 'getReader')")],
    ["a plain Error whose message is a browser's ('network error' is a TypeError there)", new Error('network error')],
    ["undici: 'fetch failed' for a bad port", new TypeError('fetch failed', { cause: new Error('bad port') })],
    ["undici: 'fetch failed' for DNS (ENOTFOUND)", new TypeError('fetch failed', { cause: coded('getaddrinfo ENOTFOUND x.invalid', 'ENOTFOUND') })],
    ["undici: 'fetch failed' for TLS", new TypeError('fetch failed', { cause: coded('unable to verify the first certificate', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE') })],
    ["the user's own abort (AbortError)", abortError()],
    ['an AbortError with a network cause (still the user cancelling)', Object.assign(new Error('aborted', { cause: undiciTerminated() }), { name: 'AbortError' })],
    ['a DOMException AbortError', new DOMException('This operation was aborted', 'AbortError')],
    ["the library's own errors", new ToolStreamError('truncated', { provider: 'http', detail: 'cut' })],
    ["the library's own errors, even caused by one", new ToolStreamError('idle-timeout', { timeoutMs: 5 })],
    ['an SDK APIError (an HTTP or in-stream error event)', new OpenAI.APIError(500, { message: 'boom' }, 'boom', new Headers())],
    ['a string', 'ECONNRESET'],
    ['a code that is not a string', { code: 104 }],
    ['null', null],
    ['undefined', undefined],
    ['a cause cycle', cycle],
  ])('no: %s', (_, error) => {
    expect(isConnectionLost(error)).toBe(false);
  });

  it('follows causes four levels deep, not further', () => {
    const wrap = (inner: unknown, levels: number): unknown => (levels === 0 ? inner : wrap(new Error('wrapper', { cause: inner }), levels - 1));
    expect(isConnectionLost(wrap(coded('reset', 'ECONNRESET'), 4))).toBe(true);
    expect(isConnectionLost(wrap(coded('reset', 'ECONNRESET'), 5))).toBe(false);
  });
});

describe('connection-lost errors', () => {
  it('is a typed, retryable error of the family with the original error as cause', () => {
    const cause = undiciTerminated();
    const error = new ToolStreamError('connection-lost', { source: 'fromResponse', byteOffset: 1234 }, { cause: cause });
    expect(ERROR_CODES).toContain('connection-lost');
    expect(error).toBeInstanceOf(ToolStreamError);
    expect(isToolStreamError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'connection-lost', retryable: true, source: 'fromResponse', byteOffset: 1234 });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('The connection was lost after 1234 bytes (fromResponse): terminated ← other side closed (UND_ERR_SOCKET)');
    expect(error.toJSON()).toEqual({
      name: 'ToolStreamError',
      code: 'connection-lost',
      message: error.message,
      source: 'fromResponse',
      byteOffset: 1234,
      retryable: true,
      cause: { name: 'TypeError', message: 'terminated' },
    });
    expect(new ToolStreamError('connection-lost', { source: 'fromAnthropicEvents', byteOffset: undefined }, { cause: 'socket gone' }).message).toBe(
      'The connection was lost (fromAnthropicEvents): socket gone',
    );
  });
});

/** A ReadableStream that hands out `chunks`, then fails with `error` once they were all read. */
function failingStream<T>(chunks: readonly T[], error: unknown): ReadableStream<T> {
  let next = 0;
  return new ReadableStream<T>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.error(error);
      else controller.enqueue(chunk);
    },
  });
}

async function failureOf(source: Observable<unknown>): Promise<unknown> {
  return lastValueFrom(source.pipe(toArray())).then(
    () => {
      throw new Error('completed instead of failing');
    },
    (error: unknown) => error,
  );
}

describe('each source types a network failure with the bytes received', () => {
  const bytes = new TextEncoder().encode(ANTHROPIC_CUT.join(''));

  it.each(chunkings(bytes))('fromReadableStream + readToolCalls, %s: the complete call, the half call incomplete, then byteOffset = every byte', async (_, chunks) => {
    const results: unknown[] = [];
    const error = await failureOf(
      new Observable((subscriber) =>
        fromReadableStream(failingStream(chunks, undiciTerminated()))
          .pipe(readToolCalls())
          .subscribe({ next: (r) => results.push(plainValue(r)), error: (e: unknown) => subscriber.error(e), complete: () => subscriber.complete() }),
      ),
    );
    expect(results).toEqual([
      { ok: { id: 'toolu_wx', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Zürich 🏔' }, rawArguments: '{"city":"Zürich 🏔"}' } },
      { err: 'incomplete', id: 'toolu_tm', name: 'get_time', raw: HALF_ARGUMENTS, reason: 'connection-lost' },
    ]);
    expect(error).toMatchObject({ code: 'connection-lost', source: 'fromReadableStream', byteOffset: bytes.byteLength, retryable: true });
  });

  it('fromReadableStream counts text chunks as UTF-8 and stops counting at a chunk that is neither', async () => {
    expect(await failureOf(fromReadableStream(failingStream(['é', '🙂', 'a'], new TypeError('network error'))))).toMatchObject({ code: 'connection-lost', byteOffset: 2 + 4 + 1 });
    expect(await failureOf(fromReadableStream(failingStream<unknown>(['a', { not: 'bytes' }], new TypeError('network error'))))).toMatchObject({ code: 'connection-lost', byteOffset: undefined });
  });

  it('fromAsyncIterable: bytes and text (UTF-8) before the failure', async () => {
    async function* body(): AsyncGenerator<Uint8Array | string> {
      yield new Uint8Array(10);
      yield 'Zürich';
      throw coded('read ECONNRESET', 'ECONNRESET');
    }
    const error = await failureOf(fromAsyncIterable(body));
    expect(error).toMatchObject({ code: 'connection-lost', source: 'fromAsyncIterable', byteOffset: 10 + 7 });
    expect((error as Error).cause).toMatchObject({ code: 'ECONNRESET' });
  });

  it('a Node.js Readable through fromAsyncIterable: Buffers and, with an encoding set, strings (UTF-8)', async () => {
    for (const encoding of [undefined, 'utf8'] as const) {
      const readable = new Readable({ read: () => undefined });
      if (encoding !== undefined) readable.setEncoding(encoding);
      const failure = failureOf(fromAsyncIterable<Uint8Array | string>(readable));
      readable.push(Buffer.from('data: é🙂\n'));
      await new Promise((resolve) => setImmediate(resolve));
      readable.destroy(coded('aborted', 'ECONNRESET'));
      expect(await failure).toMatchObject({ code: 'connection-lost', source: 'fromAsyncIterable', byteOffset: 13 });
    }
  });

  it.each([
    ['named provider', { provider: 'anthropic' } as const],
    ['auto-detected', {}],
  ])("a byte source of the user's own, read by readToolCalls (%s): the bytes and text (UTF-8) read before the failure", async (_, options) => {
    const text = ANTHROPIC_CUT.join('');
    // The text chunk ends inside the fourth event; it holds the third, with the non-ASCII arguments.
    const cut = ANTHROPIC_CUT.slice(0, 3).join('').length + 5;
    const head = new TextEncoder().encode(text.slice(0, 100));
    const source = new Observable<Uint8Array | string>((subscriber) => {
      subscriber.next(head);
      subscriber.next(text.slice(100, cut));
      subscriber.error(undiciTerminated());
    });
    const results: unknown[] = [];
    const error = await failureOf(
      new Observable((subscriber) => source.pipe(readToolCalls(options)).subscribe({ next: (r) => results.push(plainValue(r)), error: (e: unknown) => subscriber.error(e) })),
    );
    expect(results).toEqual([{ err: 'incomplete', id: 'toolu_wx', name: 'get_weather', raw: '{"city":"Zürich 🏔"}', reason: 'connection-lost' }]);
    expect(error).toMatchObject({ code: 'connection-lost', source: 'readStreamEvents', byteOffset: new TextEncoder().encode(text.slice(0, cut)).byteLength });
    expect((error as Error).cause).toMatchObject({ message: 'terminated' });
  });

  it('readToolCalls passes a failure that is not a network error unchanged', async () => {
    const bug = new Error('producer failed');
    const source = new Observable<string>((subscriber) => {
      subscriber.next('data: {"choices":[]}\n\n');
      subscriber.error(bug);
    });
    expect(await failureOf(source.pipe(readToolCalls({ provider: 'openai-chat' })))).toBe(bug);
  });

  it('fromSdkEvents: payloads are not bytes, so byteOffset is undefined; the source is named', async () => {
    async function* chunks(): AsyncGenerator<unknown> {
      yield { id: 'c', choices: [{ index: 0, delta: { content: 'hi' } }] };
      throw undiciTerminated();
    }
    const events: StreamEvent[] = [];
    const error = await failureOf(
      new Observable((subscriber) => fromSdkEvents(() => openaiChat.decoder(), chunks).subscribe({ next: (e) => events.push(e), error: (e: unknown) => subscriber.error(e) })),
    );
    expect(events.map((e) => e.type)).toEqual(['metadata', 'text-delta']);
    expect(error).toMatchObject({ code: 'connection-lost', source: 'fromSdkEvents', byteOffset: undefined });
  });

  it('fromResponse: fetch() rejecting for a refused connection is typed with byteOffset 0', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const error = await failureOf(fromResponse(fetch(`http://127.0.0.1:${port}/`)));
    expect(error).toMatchObject({ code: 'connection-lost', source: 'fromResponse', byteOffset: 0 });
    expect(((error as Error).cause as Error).message).toBe('fetch failed');
  });
});

describe('errors that are not network failures pass unchanged', () => {
  it('a TypeError from a bug in a generator', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    async function* body(): AsyncGenerator<string> {
      yield 'data: {}\n\n';
      throw bug;
    }
    expect(await failureOf(fromAsyncIterable(body))).toBe(bug);
  });

  it('a ReadableStream errored by its producer', async () => {
    const error = new Error('producer failed');
    expect(await failureOf(fromReadableStream(failingStream(['a'], error)))).toBe(error);
  });

  it("a Node stream's own error", async () => {
    const readable = new Readable({ read: () => undefined });
    const failure = failureOf(fromAsyncIterable(readable));
    const error = new Error('boom');
    readable.destroy(error);
    expect(await failure).toBe(error);
  });

  it("fetch() rejecting for a bad port ('fetch failed' ← 'bad port')", async () => {
    const error = await failureOf(fromResponse(fetch('http://127.0.0.1:1/')));
    expect(error).not.toMatchObject({ name: 'ToolStreamError', code: 'connection-lost' });
    expect((error as Error).message).toBe('fetch failed');
  });
});

describe('downstream: open calls are incomplete with reason connection-lost, before the error', () => {
  const ev = {
    a: { type: 'tool-call-delta', choice: 0, index: 0, id: 'A', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
    e: { type: 'tool-call-end', choice: 0, index: 0 },
    b: { type: 'tool-call-delta', choice: 0, index: 1, id: 'B', name: 'get_time', argumentsDelta: '{"tz":' },
  } satisfies Record<string, StreamEvent>;
  const lost = new ToolStreamError('connection-lost', { source: 'fromResponse', byteOffset: 321 }, { cause: undiciTerminated() });

  it('toolCalls(): -a-e-b-# gives A at e, then (I#)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const results = cold('-a-e-b-#', ev, lost).pipe(toolCalls({ generateId: () => 'gen' }));
      expectObservable(results.pipe(plainResults())).toBe(
        '---A---(I#)',
        {
          A: { ok: { id: 'A', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' } },
          I: { err: 'incomplete', id: 'B', name: 'get_time', raw: '{"tz":', reason: 'connection-lost' },
        },
        lost,
      );
    });
  });
});

/** Results as plain values, for marble comparison without error stacks. */
function plainResults() {
  return (source: Observable<unknown>): Observable<unknown> =>
    new Observable((subscriber) => source.subscribe({ next: (v) => subscriber.next(plainValue(v)), error: (e: unknown) => subscriber.error(e), complete: () => subscriber.complete() }));
}
