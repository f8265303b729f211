// Angular interop: the real @angular/common/http HttpClient (Angular 21, fetch backend) against a
// local 127.0.0.1 SSE server, through the BUILT library (run `npm run build` first), and the
// example service in examples/angular. Prints "angular: N passed, M failed"; exits 1 on failure.
// The helper first: it loads @angular/compiler before any other Angular module is evaluated.
import { angularInjector, HttpClient, importExample } from './lib/angular.mjs';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { angularTextChunks, readToolCalls } from '../dist/index.js';
import { ProviderError } from '../dist/advanced.js';

const weather = readFileSync(new URL('../examples/weather.sse', import.meta.url));
const anthropicError = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"claude-test","usage":{"input_tokens":5}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Ber"}}\n\n',
  'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
].join('');

/** Requests seen: path and a promise of the socket's close. */
const seen = [];
const server = http.createServer((req, res) => {
  const closed = new Promise((resolve) => res.on('close', resolve));
  seen.push({ path: req.url, closed, ended: false });
  const record = seen.at(-1);
  if (req.url === '/status/429') {
    res.writeHead(429, { 'content-type': 'application/json' });
    return res.end('{"error":{"message":"slow down","type":"rate_limit_error"}}');
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (req.url === '/never') {
    res.write('data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n');
    const timer = setInterval(() => res.write(': idle\n\n'), 20);
    return res.on('close', () => clearInterval(timer));
  }
  const body = req.url === '/anthropic-error' ? Buffer.from(anthropicError) : weather;
  let offset = 0;
  const next = () => {
    if (res.destroyed) return;
    if (offset >= body.length) return ((record.ended = true), res.end());
    res.write(body.subarray(offset, (offset += 211)));
    setTimeout(next, 3);
  };
  next();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const TestBed = angularInjector();
const client = TestBed.inject(HttpClient);
const { ToolCallsService } = await importExample('examples/angular/tool-calls.service.ts');
const post = (path) => client.request('POST', `${origin}${path}`, { body: { stream: true }, observe: 'events', reportProgress: true, responseType: 'text' });
const summary = (r) => (r.success ? `${r.data.name} ${JSON.stringify(r.data.arguments)}` : `${r.error.code}`);
const within = (promise, ms, what) => Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms))]);
const waitFor = async (condition, what, detail) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}${detail ? `: ${detail()}` : ''}`);
};
const equal = (actual, expected, what) => {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
};

const tests = {
  async 'HttpClient progress events → angularTextChunks() → readToolCalls()'() {
    const chunks = await lastValueFrom(post('/weather').pipe(angularTextChunks(), toArray()));
    if (chunks.length < 5) throw new Error(`expected many progress chunks, got ${chunks.length}`);
    equal(chunks.join(''), weather.toString('utf8'), 'the chunks add up to the body');
    const results = await lastValueFrom(post('/weather').pipe(angularTextChunks(), readToolCalls(), toArray()));
    equal(results.map(summary), ['get_weather {"city":"Zürich","units":"celsius"}', 'get_time {"tz":"Asia/Tokyo","label":"東京 🗼"}'], 'results');
  },
  async 'unsubscribing aborts the request: the server socket closes'() {
    await firstValueFrom(post('/never').pipe(angularTextChunks(), take(1)));
    await within(seen.at(-1).closed, 2000, 'the socket closes');
  },
  async 'an HTTP 429 becomes a typed, retryable ProviderError'() {
    const error = await lastValueFrom(post('/status/429').pipe(angularTextChunks({ provider: 'anthropic' }), readToolCalls())).then(
      () => undefined,
      (e) => e,
    );
    if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${error}`);
    equal([error.code, error.status, error.retryable, error.provider, error.type, error.message.includes('slow down')], ['provider-error', 429, true, 'anthropic', 'rate_limit_error', true], 'error');
  },
  async 'ToolCallsService.run fills the signals (text, calls, results, status)'() {
    const service = TestBed.inject(ToolCallsService);
    service.run(`${origin}/weather`, { stream: true });
    equal(service.status(), 'streaming', 'status while streaming');
    await waitFor(() => service.status() !== 'streaming', 'the run to end', () => JSON.stringify([service.status(), service.text(), service.calls().length, service.results().length, String(service.error())]));
    equal(service.status(), 'done', 'status');
    equal(service.text(), 'Let me check the weather in Zürich and the time in Tōkyō.', 'text');
    equal(service.calls().map((c) => [c.name, c.status]), [['get_weather', 'complete'], ['get_time', 'complete']], 'calls');
    equal(service.results().map(summary), ['get_weather {"city":"Zürich","units":"celsius"}', 'get_time {"tz":"Asia/Tokyo","label":"東京 🗼"}'], 'results');
  },
  async 'ToolCallsService.run reports a provider error and the open call as incomplete'() {
    const service = TestBed.inject(ToolCallsService);
    service.run(`${origin}/anthropic-error`, { stream: true });
    await waitFor(() => service.status() !== 'streaming', 'the run to end', () => JSON.stringify([service.status(), service.text(), service.calls().length, service.results().length, String(service.error())]));
    equal([service.status(), service.error()?.code, service.error()?.type], ['failed', 'provider-error', 'overloaded_error'], 'status and error');
    equal(service.results().map((r) => (r.success ? 'ok' : `${r.error.code}:${r.error.reason}`)), ['incomplete:provider-error'], 'results');
    equal(service.calls().map((c) => c.rawArguments), ['{"city": "Ber'], 'the last snapshot');
  },
  async 'ToolCallsService.cancel aborts the request'() {
    const service = TestBed.inject(ToolCallsService);
    service.run(`${origin}/never`, { stream: true });
    await waitFor(() => service.text() === 'hi', 'the first text');
    service.cancel();
    await within(seen.at(-1).closed, 2000, 'the socket closes');
    equal(service.status(), 'idle', 'status');
  },
};

let passed = 0;
let failed = 0;
for (const [name, test] of Object.entries(tests)) {
  try {
    await within(test(), 5000, name);
    passed++;
    console.log(`ok ${name}`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}\n  ${error?.stack ?? error}`);
  }
}
server.closeAllConnections();
server.close();
console.log(`angular: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
