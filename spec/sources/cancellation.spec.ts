/**
 * Unsubscribing reaches the socket: a local server streams SSE forever (a chunk every 20 ms) and
 * records when the client's connection closes.
 */
import http from 'node:http';
import OpenAI from 'openai';
import { filter, firstValueFrom, lastValueFrom, switchMap, take, toArray } from 'rxjs';
import { fromFetch } from 'rxjs/fetch';
import { eachValueFrom } from 'rxjs-for-await';
import { fromAsyncIterable, fromResponse, idleTimeout, readToolCalls } from 'rxjs-tool-calls';
import { fromOpenAIChatChunks } from 'rxjs-tool-calls/sdk';
import { startSourcesServer, type SourcesServer } from '../helpers/sourcesServer';

let server: SourcesServer;
beforeAll(async () => {
  server = await startSourcesServer(20);
});
afterAll(() => server.close());

function get(url: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, resolve);
    request.on('error', reject);
  });
}

/** The test waits for the server's close event; before it, the stream must still have been open. */
async function expectClosedAfter(streamsBefore: number): Promise<void> {
  expect(server.streams).toHaveLength(streamsBefore + 1);
  await server.waitForClose(2000);
}

describe('unsubscribing closes the HTTP connection', () => {
  it('fromResponse(await fetch(url))', async () => {
    const before = server.streams.length;
    const chunks = await lastValueFrom(fromResponse(await fetch(`${server.origin}/slow`)).pipe(take(3), toArray()));
    expect(chunks).toHaveLength(3);
    await expectClosedAfter(before);
  });

  it('fromFetch(url).pipe(switchMap(fromResponse))', async () => {
    const before = server.streams.length;
    await lastValueFrom(fromFetch(`${server.origin}/slow`).pipe(switchMap(fromResponse), take(2), toArray()));
    await expectClosedAfter(before);
  });

  it('fromAsyncIterable(http.get response)', async () => {
    const before = server.streams.length;
    const response = await get(`${server.origin}/slow`);
    const chunks = await lastValueFrom(fromAsyncIterable<Uint8Array>(response).pipe(take(3), toArray()));
    expect(chunks.every((c) => c instanceof Uint8Array)).toBe(true);
    await expectClosedAfter(before);
    expect(response.destroyed).toBe(true);
  });

  it('fromAsyncIterable(http.get response)', async () => {
    const before = server.streams.length;
    const response = await get(`${server.origin}/slow`);
    await lastValueFrom(fromAsyncIterable<Uint8Array>(response).pipe(take(3), toArray()));
    await expectClosedAfter(before);
  });

  it('fromAsyncIterable(fetch body)', async () => {
    const before = server.streams.length;
    const response = await fetch(`${server.origin}/slow`);
    const body = response.body as unknown as AsyncIterable<Uint8Array>;
    await lastValueFrom(fromAsyncIterable(body).pipe(take(3), toArray()));
    await expectClosedAfter(before);
  });

  it('for await over eachValueFrom(fromResponse(…)) with break', async () => {
    const before = server.streams.length;
    let seen = 0;
    for await (const chunk of eachValueFrom(fromResponse(fetch(`${server.origin}/slow`)))) {
      expect(chunk).toBeInstanceOf(Uint8Array);
      if (++seen === 3) break;
    }
    await expectClosedAfter(before);
  });
});

describe('readToolCalls with an idle timeout on a real socket', () => {
  it('unsubscribing from fromResponse + readToolCalls({ idleTimeoutMs }) closes the connection', async () => {
    const before = server.streams.length;
    const subscription = fromResponse(fetch(`${server.origin}/slow`))
      .pipe(readToolCalls({ idleTimeoutMs: 10_000 }))
      .subscribe();
    while (server.streams.length === before || (server.streams.at(-1)?.chunksWritten ?? 0) < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    subscription.unsubscribe();
    await expectClosedAfter(before);
  });

  it('a stream that stalls longer than the timeout ends with idle-timeout error and the socket closes', async () => {
    const before = server.streams.length;
    // The server writes every 20 ms: a 5 ms idle timeout fires after the first chunk.
    const ending = lastValueFrom(fromResponse(fetch(`${server.origin}/slow`)).pipe(idleTimeout(5), readToolCalls(), toArray()));
    await expect(ending).rejects.toMatchObject({ name: 'ToolStreamError', code: 'idle-timeout' });
    // On a busy machine the timeout may fire before the request reached the server: wait for it.
    for (let i = 0; i < 400 && server.streams.length === before; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await expectClosedAfter(before);
  });
});

describe('the official openai SDK', () => {
  const client = (): OpenAI => new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test', maxRetries: 0 });

  it('decodes a whole chat stream from the SDK', async () => {
    const stream = await client().chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'weather?' }], stream: true });
    const events = await lastValueFrom(fromOpenAIChatChunks(stream).pipe(toArray()));
    expect(events.filter((e) => e.type === 'tool-call-delta').map((e) => (e.type === 'tool-call-delta' ? e.argumentsDelta : ''))).toEqual(['', '{"city":', '"Paris"}']);
    // The SDK consumes [DONE]: the stream is complete at its end, with the held finish, then done.
    expect(events.slice(-2)).toEqual([{ type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' }, { type: 'done' }]);
    expect(JSON.parse(server.streams.at(-1)?.body ?? '{}')).toMatchObject({ model: 'gpt-test', stream: true });
  });

  it('unsubscribing aborts the SDK request and closes the connection', async () => {
    const before = server.streams.length;
    const stream = await client().chat.completions.create({ model: 'slow', messages: [{ role: 'user', content: 'go' }], stream: true });
    const texts = await lastValueFrom(
      fromOpenAIChatChunks(stream).pipe(
        filter((e) => e.type === 'text-delta'),
        take(3),
        toArray(),
      ),
    );
    expect(texts.map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual(['tick 1 é🙂', 'tick 2 é🙂', 'tick 3 é🙂']);
    await expectClosedAfter(before);
    expect(stream.controller.signal.aborted).toBe(true);
  });

  it('a plain async generator over the SDK stream closes it through return()', async () => {
    const before = server.streams.length;
    const stream = await client().chat.completions.create({ model: 'slow', messages: [{ role: 'user', content: 'go' }], stream: true });
    async function* wrapped(): AsyncGenerator<unknown> {
      yield* stream;
    }
    await firstValueFrom(fromOpenAIChatChunks(wrapped()).pipe(filter((e) => e.type === 'text-delta')));
    await expectClosedAfter(before);
  });
});
