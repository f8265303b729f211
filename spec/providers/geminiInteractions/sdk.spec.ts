/**
 * `@google/genai`'s own Interactions stream (`interactions.create({ stream: true })`, which parses
 * the SSE itself) read with `fromSdkEvents(geminiInteractions, stream)`: each of our recorded-shape
 * streams, served by a 127.0.0.1 server, gives the events, the error and the results of reading its
 * bytes. The SDK yields an `error` event as a payload like any other, so a stream with an error
 * ends in the same typed `provider-error` either way.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI } from '@google/genai';
import { catchError, from, lastValueFrom, of, toArray, type Observable } from 'rxjs';
import { geminiInteractions, readStreamEvents, toolCalls, ToolStreamError, type StreamEvent } from 'rxjs-tool-calls';
import { fromSdkEvents } from 'rxjs-tool-calls/sdk';
import { loadOwnFixtures } from '../../helpers/fixtures';

const fixtures = loadOwnFixtures().filter((f) => f.expected.api === 'gemini-interactions');
let server: http.Server;
let origin: string;
const requests: { path: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(text) as { model: string };
      requests.push({ path: req.url ?? '', body });
      const fixture = fixtures.find((f) => f.name === body.model);
      res.writeHead(fixture === undefined ? 404 : 200, { 'content-type': 'text/event-stream' }).end(fixture?.bytes ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

type Outcome = { events: StreamEvent[]; error?: { code: string; message: string } };

/** Every event an observable gives, then the code and message of the error that ends it, if any. */
async function outcome(events$: Observable<StreamEvent>): Promise<Outcome> {
  const events: StreamEvent[] = [];
  let error: Outcome['error'];
  await lastValueFrom(
    events$.pipe(
      catchError((err: unknown) => {
        error = err instanceof ToolStreamError ? { code: err.code, message: err.message } : { code: 'not-a-ToolStreamError', message: String(err) };
        return of();
      }),
      toArray(),
    ),
  ).then((all) => events.push(...all));
  return error === undefined ? { events } : { events, error };
}

it('fromSdkEvents(geminiInteractions, stream) gives what reading the bytes gives, events and errors, for every stream', async () => {
  expect(fixtures.length).toBeGreaterThanOrEqual(5);
  const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: origin } });
  let errors = 0;
  for (const fixture of fixtures) {
    const stream = await ai.interactions.create({ model: fixture.name, input: 'go', stream: true });
    const viaSdk = await outcome(fromSdkEvents(geminiInteractions, stream));
    const viaBytes = await outcome(from([fixture.bytes]).pipe(readStreamEvents()));
    expect([fixture.name, viaSdk]).toEqual([fixture.name, viaBytes]);
    expect([fixture.name, viaSdk.error?.code]).toEqual([fixture.name, fixture.expected.errors === undefined ? undefined : 'provider-error']);
    if (viaSdk.error !== undefined) errors++;
    // Every streamed argument fragment came through the SDK's parsing as its own delta (the call's
    // opening delta, with its id and name, has none).
    const deltas = viaSdk.events.filter((e) => e.type === 'tool-call-delta' && e.argumentsDelta !== '').length;
    const wireDeltas = new TextDecoder().decode(fixture.bytes).split('"type":"arguments_delta"').length - 1;
    expect([fixture.name, deltas]).toEqual([fixture.name, wireDeltas]);
    if (viaSdk.error !== undefined) continue;
    const results = await lastValueFrom(from(viaSdk.events).pipe(toolCalls(), toArray()));
    expect(results.map((r) => r.success && r.data.name)).toEqual(fixture.expected.toolCalls.map((c) => (c.arguments === null ? false : c.name)));
  }
  expect(errors).toBeGreaterThanOrEqual(1);
  // The SDK posted each create request, streaming, to the Interactions endpoint.
  expect(requests.map((r) => [/^\/v1(beta)?\/interactions$/.test(r.path), r.body.stream])).toEqual(fixtures.map(() => [true, true]));
});
