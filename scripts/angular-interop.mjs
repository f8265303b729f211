// Angular interop: Angular 21's real HttpClient (fetch backend), signals, toSignal() and rxResource()
// against a local 127.0.0.1 SSE server, through the BUILT library (run `npm run build` first): the
// main entry's angularTextChunks() and chatState(), and rxjs-tool-calls/angular (streamFrom,
// injectChatStream, injectChat). Prints "angular: N passed, M failed"; exits 1 on failure.
// The helper first: it loads @angular/compiler before any other Angular module is evaluated.
import { angularInjector, HttpClient } from './lib/angular.mjs';
import { computed, Injector } from '@angular/core';
import { rxResource, toSignal } from '@angular/core/rxjs-interop';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { accumulateToolCalls, chatState, isToolStreamError, readStreamEvents, readToolCalls } from 'rxjs-tool-calls';
import { angularTextChunks, injectChat, injectChatStream, streamFrom } from 'rxjs-tool-calls/angular';

const weather = readFileSync(new URL('../examples/weather.sse', import.meta.url));
// The weather stream cut after get_time's '"Asia/T': get_weather has '{"city": "Zür' so far; no [DONE].
const CUT = weather.indexOf('\n\n', weather.indexOf('Asia/T')) + 2;
const anthropicError = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"claude-test","usage":{"input_tokens":5}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Ber"}}\n\n',
  'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
].join('');

/** Requests seen: path and a promise of the socket's close. */
const seen = [];
/** `/held` streams up to CUT, then waits for this to be called. */
let release = () => undefined;
const server = http.createServer((req, res) => {
  const closed = new Promise((resolve) => res.on('close', resolve));
  seen.push({ path: req.url, closed });
  if (req.url === '/status/429') {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '20' });
    return res.end('{"error":{"message":"slow down","type":"rate_limit_error"}}');
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (req.url === '/never') {
    res.write('data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n');
    const timer = setInterval(() => res.write(': idle\n\n'), 20);
    return res.on('close', () => clearInterval(timer));
  }
  if (req.url === '/held') {
    res.write(weather.subarray(0, CUT));
    release = () => res.end(weather.subarray(CUT));
    return;
  }
  const body = req.url === '/anthropic-error' ? Buffer.from(anthropicError) : req.url === '/truncated' ? weather.subarray(0, CUT) : weather;
  let offset = 0;
  const next = () => {
    if (res.destroyed) return;
    if (offset >= body.length) return res.end();
    res.write(body.subarray(offset, (offset += 211)));
    setTimeout(next, 3);
  };
  next();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const TestBed = angularInjector();
const client = TestBed.inject(HttpClient);
const post = (path) => client.request('POST', `${origin}${path}`, { body: { stream: true }, observe: 'events', reportProgress: true, responseType: 'text' });
const summary = (r) => (r.success ? `${r.data.name} ${JSON.stringify(r.data.arguments)}` : `${r.error.code}`);
const outcome = (call) => (call.result === undefined ? 'open' : call.result.success ? 'ok' : `${call.result.error.code}:${call.result.error.reason ?? ''}`);
const within = (promise, ms, what) => Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms))]);
const waitFor = async (condition, what, detail) => {
  for (let i = 0; i < 300 && !condition(); i++) {
    TestBed.tick(); // runs the effects that drive rxResource
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (!condition()) throw new Error(`timed out waiting for ${what}${detail ? `: ${detail()}` : ''}`);
};
const equal = (actual, expected, what) => {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
};
const WEATHER_TEXT = 'Let me check the weather in Zürich and the time in Tōkyō.';
const WEATHER_RESULTS = ['get_weather {"city":"Zürich","units":"celsius"}', 'get_time {"tz":"Asia/Tokyo","label":"東京 🗼"}'];
const CUT_ARGUMENTS = [{ city: 'Zür' }, { tz: 'Asia/T' }];
const inContext = (make) => TestBed.runInInjectionContext(make);

const tests = {
  async 'HttpClient progress events → angularTextChunks() → readToolCalls()'() {
    const chunks = await lastValueFrom(post('/weather').pipe(angularTextChunks(), toArray()));
    if (chunks.length < 5) throw new Error(`expected many progress chunks, got ${chunks.length}`);
    equal(chunks.join(''), weather.toString('utf8'), 'the chunks add up to the body');
    equal((await lastValueFrom(post('/weather').pipe(angularTextChunks(), readToolCalls(), toArray()))).map(summary), WEATHER_RESULTS, 'results');
  },
  async 'streamFrom(): the same chunks, and the results through readToolCalls()'() {
    const chunks = await lastValueFrom(streamFrom(client, `${origin}/weather`, { stream: true }).pipe(toArray()));
    if (chunks.length < 5) throw new Error(`expected many chunks, got ${chunks.length}`);
    equal(chunks.join(''), weather.toString('utf8'), 'the chunks add up to the body');
    equal((await lastValueFrom(streamFrom(client, `${origin}/weather`, {}).pipe(readToolCalls(), toArray()))).map(summary), WEATHER_RESULTS, 'results');
  },
  async 'streamFrom(): unsubscribing aborts the request (the server socket closes)'() {
    await firstValueFrom(streamFrom(client, `${origin}/never`, {}).pipe(take(1)));
    await within(seen.at(-1).closed, 2000, 'the socket closes');
  },
  async 'streamFrom(): an HTTP 429 is a typed, retryable provider-error with Retry-After'() {
    const error = await lastValueFrom(streamFrom(client, `${origin}/status/429`, {}, { provider: 'anthropic' }).pipe(readToolCalls())).then(
      () => undefined,
      (e) => e,
    );
    if (!isToolStreamError(error, 'provider-error')) throw new Error(`expected a provider-error, got ${error}`);
    equal(
      [error.code, error.status, error.retryable, error.provider, error.type, error.retryAfterMs, error.message.includes('slow down')],
      ['provider-error', 429, true, 'anthropic', 'rate_limit_error', 20000, true],
      'error',
    );
  },
  async 'toSignal(chatState()): a truncated stream keeps its text and partial arguments (accumulateToolCalls() would throw on read)'() {
    const events$ = () => streamFrom(client, `${origin}/truncated`, {}).pipe(readStreamEvents());
    const state = inContext(() => toSignal(events$().pipe(chatState())));
    const snapshots = inContext(() => toSignal(events$().pipe(accumulateToolCalls())));
    await waitFor(() => state()?.status !== undefined && state().status !== 'streaming', 'the end of the stream');
    const last = state();
    equal([last.status, last.error?.code, last.text], ['error', 'truncated', WEATHER_TEXT], 'status, error, text');
    equal(
      last.calls.map((c) => [c.name, c.partialArguments, outcome(c)]),
      [
        ['get_weather', CUT_ARGUMENTS[0], 'incomplete:truncated'],
        ['get_time', CUT_ARGUMENTS[1], 'incomplete:truncated'],
      ],
      'calls',
    );
    await waitFor(() => {
      try {
        snapshots();
        return false;
      } catch {
        return true;
      }
    }, 'the plain snapshot signal to fail');
  },
  async 'rxResource(chatState()): the value keeps the partial arguments after a truncated stream; a stream that errors loses them'() {
    const viewed = inContext(() => rxResource({ stream: () => streamFrom(client, `${origin}/truncated`, {}).pipe(readStreamEvents(), chatState()) }));
    await waitFor(
      () => viewed.value()?.status === 'error',
      'the last state',
      () => JSON.stringify([viewed.status(), viewed.value()?.status]),
    );
    equal([viewed.status(), viewed.error(), viewed.value().error.code], ['resolved', undefined, 'truncated'], 'resource status, error, state error');
    equal(
      viewed.value().calls.map((c) => c.partialArguments),
      CUT_ARGUMENTS,
      'partial arguments',
    );
    const plain = inContext(() => rxResource({ stream: () => streamFrom(client, `${origin}/truncated`, {}).pipe(readStreamEvents(), accumulateToolCalls()) }));
    await waitFor(
      () => plain.status() === 'error',
      'the plain resource to fail',
      () => plain.status(),
    );
    equal(plain.error()?.code, 'truncated', 'the plain resource error');
    let threw = false;
    try {
      plain.value();
    } catch {
      threw = true;
    }
    equal(threw, true, "reading the failed plain resource's value throws: the partial arguments are gone");
  },
  async 'injectChatStream(): the state streams (partial arguments while held), then ends done with both results'() {
    const chat = inContext(() => injectChatStream({ url: `${origin}/held` }));
    equal(chat.state(), undefined, 'before start');
    chat.start({ stream: true });
    equal([chat.state()?.status, chat.state()?.text, chat.state()?.calls.length], ['streaming', '', 0], 'at once');
    await waitFor(
      () => JSON.stringify(chat.state()?.calls.map((c) => c.partialArguments)) === JSON.stringify(CUT_ARGUMENTS),
      'the partial arguments',
      () => JSON.stringify(chat.state()),
    );
    equal([chat.state().status, chat.state().text, chat.state().calls.map(outcome)], ['streaming', WEATHER_TEXT, ['open', 'open']], 'while held');
    release();
    await waitFor(
      () => chat.state().status !== 'streaming',
      'the end',
      () => JSON.stringify(chat.state()).slice(0, 600),
    );
    const last = chat.state();
    equal([last.status, last.finishReason, last.calls.map((c) => summary(c.result))], ['done', 'tool-calls', WEATHER_RESULTS], 'the end');
  },
  async 'injectChatStream(): a provider error mid-call ends with status error, the call incomplete, its arguments kept'() {
    const chat = inContext(() => injectChatStream({ url: `${origin}/anthropic-error` }));
    chat.start({});
    await waitFor(() => chat.state().status !== 'streaming', 'the end');
    const last = chat.state();
    equal(
      [last.status, last.error?.code, last.error?.type, last.calls.map((c) => [c.partialArguments, outcome(c)])],
      ['error', 'provider-error', 'overloaded_error', [[{ city: 'Ber' }, 'incomplete:provider-error']]],
      'state',
    );
  },
  async 'injectChatStream(): an HTTP 429 ends the turn with the typed error and Retry-After'() {
    const chat = inContext(() => injectChatStream({ url: `${origin}/status/429`, provider: 'anthropic' }));
    chat.start({});
    await waitFor(() => chat.state().status !== 'streaming', 'the end');
    equal([chat.state().status, isToolStreamError(chat.state().error, 'provider-error'), chat.state().error.status, chat.state().error.retryAfterMs], ['error', true, 429, 20000], 'state');
  },
  async 'injectChatStream(): cancel() aborts the request and ends the state with an AbortError; start() again works'() {
    const chat = inContext(() => injectChatStream({ url: `${origin}/never` }));
    chat.start({});
    await waitFor(() => chat.state().text === 'hi', 'the first text');
    chat.cancel();
    await within(seen.at(-1).closed, 2000, 'the socket closes');
    equal([chat.state().status, chat.state().error?.name, chat.state().text], ['error', 'AbortError', 'hi'], 'cancelled state');
    chat.start({});
    await waitFor(() => chat.state().text === 'hi' && chat.state().status === 'streaming', 'a second turn');
    chat.start({}); // a new start cancels the running turn silently
    await within(seen.at(-2).closed, 2000, 'the replaced turn’s socket closes');
    chat.cancel();
  },
  async 'injectChat(): two turns over HttpClient in real signals (a computed view follows); stop() aborts; destroying the injector aborts'() {
    const before = seen.length;
    const chat = inContext(() => injectChat({ request: (messages) => streamFrom(client, `${origin}/${messages.length < 2 ? 'weather' : 'never'}`, { messages }) }));
    const texts = computed(() => chat.messages().map((m) => m.text));
    await new Promise((resolve) => setTimeout(resolve, 30));
    equal([seen.length - before, chat.status(), texts()], [0, 'ready', []], 'nothing runs before send()');
    chat.send('weather?');
    await waitFor(
      () => chat.status() === 'ready',
      'the first answer',
      () => JSON.stringify(chat.messages()),
    );
    equal([seen.length - before, texts(), chat.messages()[1].calls.map(outcome)], [1, ['weather?', WEATHER_TEXT], ['ok', 'ok']], 'the first turn');
    chat.send('and now?');
    await waitFor(() => texts()[3] === 'hi', 'the second answer streaming');
    chat.stop();
    await within(seen.at(-1).closed, 2000, 'the socket closes on stop()');
    equal([chat.status(), chat.messages()[3].status, texts()], ['ready', 'stopped', ['weather?', WEATHER_TEXT, 'and now?', 'hi']], 'stopped');
    const child = Injector.create({ providers: [], parent: TestBed.inject(Injector) });
    const other = injectChat({ request: () => streamFrom(client, `${origin}/never`, {}), injector: child });
    other.send('hi');
    await waitFor(() => other.messages()[1]?.text === 'hi', 'the text');
    child.destroy();
    await within(seen.at(-1).closed, 2000, 'the socket closes when the injector is destroyed');
  },
  async 'injectChatStream(): needs an injection context or an injector; destroying the injector aborts the turn'() {
    let message = '';
    try {
      injectChatStream({ url: `${origin}/never` });
    } catch (error) {
      message = String(error?.message);
    }
    if (!message.includes('NG0203')) throw new Error(`expected NG0203 outside an injection context, got: ${message}`);
    const child = Injector.create({ providers: [], parent: TestBed.inject(Injector) });
    const chat = injectChatStream({ url: `${origin}/never`, injector: child });
    chat.start({});
    await waitFor(() => chat.state().text === 'hi', 'the first text');
    child.destroy();
    await within(seen.at(-1).closed, 2000, 'the socket closes when the injector is destroyed');
  },
};

let passed = 0;
let failed = 0;
for (const [name, test] of Object.entries(tests)) {
  try {
    await within(test(), 8000, name);
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
