/**
 * injectChat() against real HTTP servers on 127.0.0.1 speaking three formats, their streams written
 * by this library's encoders: an OpenAI chat upstream, an AI SDK UI backend (the request body checked
 * by the `ai` package's own `validateUIMessages` and `convertToModelMessages`) and an AG-UI backend.
 * Angular's packages are ESM only (jest runs CommonJS): `@angular/core` is stood in for by the names
 * `injectChat()` uses, with a plain `signal`; the real Angular runs it in Chromium
 * (scripts/angular-app-test.mjs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DestroyRef, type Injector } from '@angular/core';
import { convertToModelMessages, validateUIMessages, type UIMessage } from 'ai';
import { concatMap, from, Observable, of, Subject, timer, map, type OperatorFunction } from 'rxjs';
import { z } from 'zod';
import { fromResponse, ToolStreamError, type StreamEvent } from 'rxjs-tool-calls';
import { injectChat, type ChatMessage, type ChatOptions } from 'rxjs-tool-calls/angular';

type ChatRequest = ChatOptions['request'];
import { encodeAgUi, encodeAiSdkUi, encodeOpenAIChat } from 'rxjs-tool-calls/gateway';
import { tool } from 'rxjs-tool-calls/tools';

jest.mock('@angular/core', () => ({
  assertInInjectionContext: () => {
    throw new Error('NG0203: not in an injection context');
  },
  DestroyRef: class {},
  inject: () => undefined,
  Injector: class {},
  signal: <T>(initial: T) => {
    let value = initial;
    const read = Object.assign(() => value, {
      set: (next: T) => void (value = next),
      update: (change: (current: T) => T) => void (value = change(value)),
      asReadonly: () => read,
    });
    return read;
  },
}));
jest.mock('@angular/common/http', () => ({ HttpClient: class {} }));

/** One scripted answer: its events, or an HTTP error status; `hold` keeps the response open after them. */
interface Answer {
  readonly events?: ReadonlyArray<StreamEvent>;
  readonly status?: number;
  readonly hold?: boolean;
  /** SSE text written after the encoder's first piece (a chunk the encoder does not write). */
  readonly raw?: string;
}

interface ChatServer {
  readonly url: string;
  readonly bodies: unknown[];
  /** One promise per request, resolved when its socket closed. */
  readonly closed: Promise<void>[];
  close(): Promise<void>;
}

/** A backend on 127.0.0.1: the n-th request gets `answer(body, n)`, encoded by `encode()`, one event every 2 ms. */
async function startChatServer(encode: () => OperatorFunction<StreamEvent, string>, answer: (body: unknown, n: number) => Answer): Promise<ChatServer> {
  const bodies: unknown[] = [];
  const closed: Promise<void>[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text) as unknown;
      bodies.push(body);
      closed.push(new Promise<void>((resolve) => res.on('close', resolve)));
      let script: Answer;
      try {
        script = answer(body, bodies.length);
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: (error as Error).message } }));
        return;
      }
      if (script.status !== undefined) {
        res.writeHead(script.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'the backend failed', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let written = 0;
      const subscription = from(script.events ?? [])
        .pipe(
          concatMap((event) => timer(2).pipe(map(() => event))),
          encode(),
        )
        .subscribe({ next: (sse) => (res.write(sse), script.raw !== undefined && written++ === 0 && res.write(script.raw)), complete: () => (script.hold === true ? undefined : res.end()) });
      res.on('close', () => subscription.unsubscribe());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/chat`,
    bodies,
    closed,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const text = (t: string): StreamEvent => ({ type: 'text-delta', choice: 0, text: t });
const call = (index: number, id: string, name: string, args: object): StreamEvent[] => {
  const json = JSON.stringify(args);
  const half = Math.ceil(json.length / 2);
  return [
    { type: 'tool-call-delta', choice: 0, index, id, name, argumentsDelta: json.slice(0, half) },
    { type: 'tool-call-delta', choice: 0, index, argumentsDelta: json.slice(half) },
    { type: 'tool-call-end', choice: 0, index, id },
  ];
};
const finish = (reason: 'stop' | 'tool-calls'): StreamEvent => ({ type: 'finish', choice: 0, reason, rawReason: reason === 'stop' ? 'stop' : 'tool_calls' });

/** A stand-in injector: a DestroyRef whose `destroy()` runs the callbacks. */
function testInjector(): { injector: Injector; destroy(): void } {
  const callbacks: Array<() => void> = [];
  const destroyRef = { onDestroy: (callback: () => void) => void callbacks.push(callback) };
  return { injector: { get: (token: unknown) => (token === DestroyRef ? destroyRef : undefined) } as unknown as Injector, destroy: () => callbacks.forEach((callback) => callback()) };
}

/** Poll until `ready()` (the chat runs on real sockets and timers). */
async function until(ready: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!ready()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The request of these tests: `body(messages, context)` posted with fetch, read by `fromResponse()`. */
function post(url: string, body: (...args: Parameters<ChatRequest>) => unknown): ChatRequest {
  return (messages, context) => fromResponse((signal) => fetch(url, { method: 'POST', signal, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(messages, context)) }));
}

/** What an OpenAI chat request sends: the user's conversion of the chat's messages. */
function openaiMessages(messages: ReadonlyArray<ChatMessage>): object[] {
  return messages.flatMap((message): object[] => {
    if (message.role === 'user') return [{ role: 'user', content: message.text }];
    const answered = message.calls.filter((c) => c.output !== undefined && c.output.preliminary !== true);
    const assistant = {
      role: 'assistant',
      content: message.text,
      ...(answered.length === 0 ? {} : { tool_calls: answered.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.partialArguments) } })) }),
    };
    return [assistant, ...answered.map((c) => ({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(c.output?.error ?? c.output?.output) }))];
  });
}

/** Messages without the parsed result objects (their errors): what a view shows. */
const shown = (messages: ReadonlyArray<ChatMessage>) =>
  messages.map((m) =>
    m.role === 'user'
      ? { role: 'user', text: m.text }
      : { role: 'assistant', status: m.status, text: m.text, calls: m.calls.map((c) => ({ id: c.id, name: c.name, args: c.partialArguments, output: c.output, approval: c.approval })) },
  );

function chatWith(options: Omit<ChatOptions, 'injector'>) {
  const { injector, destroy } = testInjector();
  return { chat: injectChat({ ...options, injector }), destroy };
}

const servers: ChatServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));
async function serve(encode: () => OperatorFunction<StreamEvent, string>, answer: (body: unknown, n: number) => Answer): Promise<ChatServer> {
  const server = await startChatServer(encode, answer);
  servers.push(server);
  return server;
}

describe('injectChat() over an OpenAI chat upstream', () => {
  it('two user turns; a client tool runs in between, its progress shown on the call, its result sent back as the next request', async () => {
    const release = new Subject<void>();
    const server = await serve(encodeOpenAIChat, (_body, n) =>
      n === 1
        ? { events: [text('Let me look.'), ...call(0, 'call_1', 'count_files', { dir: '/docs' }), finish('tool-calls')] }
        : n === 2
          ? { events: [text('There are 3 files.'), finish('stop')] }
          : { events: [text('You are welcome.'), finish('stop')] },
    );
    const count_files = tool({
      schema: z.object({ dir: z.string() }),
      execute: ({ dir }) =>
        new Observable<{ dir: string; counted: number; done: boolean }>((subscriber) => {
          subscriber.next({ dir, counted: 1, done: false });
          const subscription = release.subscribe(() => {
            subscriber.next({ dir, counted: 3, done: true });
            subscriber.complete();
          });
          return () => subscription.unsubscribe();
        }),
    });
    const { chat } = chatWith({ request: post(server.url, (messages) => ({ model: 'm', stream: true, messages: openaiMessages(messages) })), tools: { count_files } });
    expect([server.bodies.length, chat.messages(), chat.status()]).toEqual([0, [], 'ready']);

    chat.send('How many files are in /docs?');
    expect(chat.status()).toBe('streaming');
    await until(() => chat.messages()[1]?.role === 'assistant' && shown(chat.messages())[1]?.calls?.length === 1 && chat.status() === 'running', 'the tool to run');
    await until(() => JSON.stringify(chat.messages()).includes('"preliminary":true'), 'the progress value');
    expect(shown(chat.messages())[1]).toEqual({
      role: 'assistant',
      status: 'done',
      text: 'Let me look.',
      calls: [{ id: 'call_1', name: 'count_files', args: { dir: '/docs' }, output: { output: { dir: '/docs', counted: 1, done: false }, preliminary: true }, approval: undefined }],
    });
    release.next();
    await until(() => chat.status() === 'ready', 'the second request');
    expect(server.bodies[1]).toEqual({
      model: 'm',
      stream: true,
      messages: [
        { role: 'user', content: 'How many files are in /docs?' },
        { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'count_files', arguments: '{"dir":"/docs"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"dir":"/docs","counted":3,"done":true}' },
      ],
    });
    chat.send('Thanks!');
    await until(() => chat.status() === 'ready' && chat.messages().length === 5, 'the second turn');
    expect(shown(chat.messages()).map((m) => [m.role, m.text, 'status' in m ? m.status : undefined])).toEqual([
      ['user', 'How many files are in /docs?', undefined],
      ['assistant', 'Let me look.', 'done'],
      ['assistant', 'There are 3 files.', 'done'],
      ['user', 'Thanks!', undefined],
      ['assistant', 'You are welcome.', 'done'],
    ]);
    expect((server.bodies[2] as { messages: unknown[] }).messages).toHaveLength(5);
    expect(chat.error()).toBeUndefined();
  });

  it('a backend error: typed (provider-error with the status), the messages kept; the next send works', async () => {
    const server = await serve(encodeOpenAIChat, (_body, n) => (n === 1 ? { events: [text('Hello.'), finish('stop')] } : n === 2 ? { status: 503 } : { events: [text('Back.'), finish('stop')] }));
    const { chat } = chatWith({ request: post(server.url, (messages) => ({ messages: openaiMessages(messages) })) });
    chat.send('hi');
    await until(() => chat.status() === 'ready', 'the first turn');
    chat.send('again');
    await until(() => chat.status() === 'error', 'the error');
    const error = chat.error();
    expect(error).toBeInstanceOf(ToolStreamError);
    expect(error?.code === 'provider-error' && error.status).toBe(503);
    expect(shown(chat.messages()).map((m) => [m.role, m.text, 'status' in m ? m.status : undefined])).toEqual([
      ['user', 'hi', undefined],
      ['assistant', 'Hello.', 'done'],
      ['user', 'again', undefined],
      ['assistant', '', 'error'],
    ]);
    chat.send('once more');
    expect(chat.error()).toBeUndefined();
    await until(() => chat.status() === 'ready', 'the turn after the error');
    expect(chat.messages().at(-1)).toMatchObject({ role: 'assistant', text: 'Back.', status: 'done' });
  });

  it('a request that fails with something else is a connection-lost error with it as the cause', async () => {
    const cause = new TypeError('fetch failed');
    const { chat } = chatWith({ request: () => new Observable((subscriber) => subscriber.error(cause)) });
    chat.send('hi');
    expect([chat.status(), chat.error()?.code, chat.error()?.cause]).toEqual(['error', 'connection-lost', cause]);
  });

  it('stop() mid-stream aborts the request, keeps what arrived (the cut call a malformed-arguments result, left out of the next request); the next send works', async () => {
    const server = await serve(encodeOpenAIChat, (_body, n) =>
      n === 1
        ? { events: [text('Working on it.'), { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_x', name: 'count_files', argumentsDelta: '{"dir":"/d' }], hold: true }
        : { events: [text('OK.'), finish('stop')] },
    );
    const { chat } = chatWith({
      request: post(server.url, (messages) => ({ messages: openaiMessages(messages) })),
      tools: { count_files: tool({ schema: z.object({ dir: z.string() }), execute: () => 0 }) },
    });
    chat.send('count');
    await until(() => JSON.stringify(chat.messages()).includes('"/d"'), 'the partial arguments');
    chat.stop();
    expect(chat.status()).toBe('ready');
    const stopped = chat.messages()[1];
    expect(stopped?.role === 'assistant' && [stopped.status, stopped.text, stopped.calls.map((c) => [c.partialArguments, c.result?.success === false && c.result.error.code])]).toEqual([
      'stopped',
      'Working on it.',
      [[{ dir: '/d' }, 'malformed-arguments']],
    ]);
    await server.closed[0];
    chat.send('go on');
    await until(() => chat.status() === 'ready' && chat.messages().length === 4, 'the next turn');
    expect(server.bodies[1]).toEqual({
      messages: [
        { role: 'user', content: 'count' },
        { role: 'assistant', content: 'Working on it.' },
        { role: 'user', content: 'go on' },
      ],
    });
  });

  it('100 send/stop repetitions: every request is aborted on the server, nothing keeps running, the next send works', async () => {
    const server = await serve(encodeOpenAIChat, (_body, n) => (n <= 100 ? { events: [text(`answer ${n}`)], hold: true } : { events: [text('done'), finish('stop')] }));
    let subscribed = 0;
    let unsubscribed = 0;
    const request = post(server.url, () => ({}));
    const { chat } = chatWith({
      request: (messages, context) =>
        new Observable<ReturnType<ChatRequest> extends Observable<infer T> ? T : never>((subscriber) => {
          subscribed++;
          const subscription = request(messages, context).subscribe(subscriber);
          return () => {
            unsubscribed++;
            subscription.unsubscribe();
          };
        }),
    });
    for (let i = 1; i <= 100; i++) {
      chat.send(`question ${i}`);
      await until(() => server.bodies.length === i, `request ${i}`);
      chat.stop();
    }
    await Promise.all(server.closed);
    expect([subscribed, unsubscribed, chat.status(), chat.messages().length]).toEqual([100, 100, 'ready', 200]);
    expect(chat.messages().filter((m) => m.role === 'assistant' && m.status !== 'stopped')).toEqual([]);
    chat.send('last');
    await until(() => chat.status() === 'ready' && chat.messages().length === 202, 'the last turn');
    expect(chat.messages().at(-1)).toMatchObject({ text: 'done', status: 'done' });
  });

  it('destroying the injection context aborts the request and the running client tools', async () => {
    const server = await serve(encodeOpenAIChat, () => ({ events: [text('…')], hold: true }));
    const { chat, destroy } = chatWith({ request: post(server.url, () => ({})) });
    chat.send('hi');
    await until(() => server.bodies.length === 1, 'the request');
    destroy();
    await server.closed[0];
    expect(chat.messages()[1]).toMatchObject({ status: 'stopped' });

    let aborted = false;
    const tools = { wait: tool({ schema: z.object({}), execute: (_args, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve((aborted = true)))) }) };
    const second = chatWith({
      request: () => of(JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'wait', arguments: '{}' } }] }, finish_reason: 'tool_calls' }] }) + '\n'),
      tools,
      provider: 'openai-chat' as never,
    });
    second.chat.send('wait');
    await until(() => second.chat.status() === 'running', 'the tool');
    second.destroy();
    expect(aborted).toBe(true);
  });

  it('stop() while an approval waits and while a client tool runs: the tool is aborted, nothing answers later, the unanswered calls are left out of the next request', async () => {
    const server = await serve(encodeOpenAIChat, (_body, n) =>
      n <= 2 ? { events: [text(`step ${n}`), ...call(0, `call_${n}`, n === 1 ? 'guarded' : 'slow', {}), finish('tool-calls')] } : { events: [text('fine'), finish('stop')] },
    );
    let aborted = 0;
    const tools = {
      guarded: tool({ schema: z.object({}), needsApproval: true, execute: () => 'ran' }),
      slow: tool({ schema: z.object({}), execute: (_args, { signal }) => new Promise<string>((resolve) => signal.addEventListener('abort', () => (aborted++, resolve('late')))) }),
    };
    const { chat } = chatWith({ request: post(server.url, (messages) => ({ messages: openaiMessages(messages) })), tools });
    chat.send('one');
    await until(() => chat.approvals().length === 1, 'the approval');
    const stale = chat.approvals()[0];
    chat.stop();
    expect([chat.status(), chat.approvals()]).toEqual(['ready', []]);
    stale?.approve();
    expect([chat.status(), server.bodies.length]).toEqual(['ready', 1]);
    chat.send('two');
    await until(() => chat.status() === 'running', 'the slow tool');
    chat.stop();
    expect(aborted).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shown(chat.messages()).map((m) => ('calls' in m ? m.calls.map((c) => [c.name, c.output, c.approval]) : m.text))).toEqual([
      'one',
      [['guarded', undefined, { id: 'call_1' }]],
      'two',
      [['slow', undefined, undefined]],
    ]);
    chat.send('three');
    await until(() => chat.status() === 'ready' && chat.messages().length === 6, 'the third turn');
    expect((server.bodies[2] as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'step 1' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'step 2' },
      { role: 'user', content: 'three' },
    ]);
  });

  it('maxSteps bounds the automatic follow-ups', async () => {
    const server = await serve(encodeOpenAIChat, (_body, n) => ({ events: [...call(0, `call_${n}`, 'ping', {}), finish('tool-calls')] }));
    const { chat } = chatWith({
      request: post(server.url, (messages) => ({ messages: openaiMessages(messages) })),
      tools: { ping: tool({ schema: z.object({}), execute: () => 'pong' }) },
      maxSteps: 3,
    });
    chat.send('ping forever');
    await until(() => chat.status() === 'ready', 'the end');
    expect(server.bodies).toHaveLength(3);
  });
});

describe('injectChat() over an AI SDK UI backend', () => {
  /** The body useChat sends, checked by the `ai` package itself before the answer. */
  const check = async (body: unknown): Promise<void> => {
    const messages = await validateUIMessages({ messages: (body as { messages: UIMessage[] }).messages });
    await convertToModelMessages(messages);
  };

  it('a backend approval and a client tool approval, answered from approvals(); the answers go in the next request; the backend’s output lands on its call', async () => {
    const checked: Array<Promise<void>> = [];
    const server = await serve(
      () => encodeAiSdkUi(),
      (body, n) => {
        checked.push(check(body));
        if (n === 1)
          return {
            events: [
              text('I need two things.'),
              ...call(0, 'call_srv', 'delete_file', { path: '/a' }),
              { type: 'tool-approval-request', choice: 0, id: 'call_srv', approvalId: 'appr_1' },
              ...call(1, 'call_cli', 'read_clipboard', {}),
              finish('tool-calls'),
            ],
          };
        // The AI SDK answers an approved call in the next stream with its output (a call this stream did not open, which encodeAiSdkUi() does not write).
        return { raw: `data: ${JSON.stringify({ type: 'tool-output-available', toolCallId: 'call_srv', output: 'deleted /a' })}\n\n`, events: [text('Done.'), finish('stop')] };
      },
    );
    const read_clipboard = tool({ schema: z.object({}), needsApproval: async () => true, execute: () => 'clipboard text' });
    const { chat } = chatWith({ request: post(server.url, (_messages, { uiMessages }) => ({ id: 'chat-1', messages: uiMessages, trigger: 'submit-message' })), tools: { read_clipboard } });
    chat.send('Delete /a and read my clipboard');
    await until(() => chat.approvals().length === 2, 'two approvals');
    expect(chat.status()).toBe('awaiting-approval');
    expect(chat.approvals().map((a) => [a.id, a.side, a.call])).toEqual([
      ['appr_1', 'server', { id: 'call_srv', name: 'delete_file', arguments: { path: '/a' } }],
      ['call_cli', 'client', { id: 'call_cli', name: 'read_clipboard', arguments: {} }],
    ]);
    chat.approvals()[1]?.deny('private');
    expect(chat.approvals().map((a) => a.id)).toEqual(['appr_1']);
    expect(server.bodies).toHaveLength(1);
    chat.approvals()[0]?.approve();
    await until(() => chat.status() === 'ready', 'the follow-up');
    await Promise.all(checked);
    const parts = (server.bodies[1] as { messages: UIMessage[] }).messages[1]?.parts;
    expect(parts).toEqual([
      { type: 'text', text: 'I need two things.' },
      { type: 'tool-delete_file', toolCallId: 'call_srv', input: { path: '/a' }, state: 'approval-responded', approval: { id: 'appr_1', approved: true } },
      { type: 'tool-read_clipboard', toolCallId: 'call_cli', input: {}, state: 'output-denied', approval: { id: 'call_cli', approved: false, reason: 'private' } },
    ]);
    expect(shown(chat.messages())[1]?.calls).toEqual([
      { id: 'call_srv', name: 'delete_file', args: { path: '/a' }, output: { output: 'deleted /a' }, approval: { id: 'appr_1', approved: true } },
      { id: 'call_cli', name: 'read_clipboard', args: {}, output: { denied: true, error: 'The user denied the call: private' }, approval: { id: 'call_cli', approved: false, reason: 'private' } },
    ]);
    expect(chat.messages()[2]).toMatchObject({ role: 'assistant', text: 'Done.', status: 'done' });
  });

  it('a client tool approved, then stopped while it runs: no approval answer is sent for it (its approval ends in its output), the call is left out', async () => {
    const server = await serve(
      () => encodeAiSdkUi(),
      (_body, n) => (n === 1 ? { events: [text('Scanning.'), ...call(0, 'call_s', 'scan', {}), finish('tool-calls')] } : { events: [text('OK.'), finish('stop')] }),
    );
    const scan = tool({ schema: z.object({}), needsApproval: true, execute: () => new Observable<string>((subscriber) => subscriber.next('10%')) });
    const { chat } = chatWith({ request: post(server.url, (_m, { uiMessages }) => ({ messages: uiMessages })), tools: { scan } });
    chat.send('scan');
    await until(() => chat.approvals().length === 1, 'the approval');
    chat.approvals()[0]?.approve();
    await until(() => JSON.stringify(chat.messages()).includes('"10%"'), 'the progress value');
    chat.stop();
    chat.send('never mind');
    await until(() => chat.status() === 'ready' && chat.messages().length === 4, 'the next turn');
    expect((server.bodies[1] as { messages: Array<{ parts: unknown[] }> }).messages.map((m) => m.parts)).toEqual([
      [{ type: 'text', text: 'scan' }],
      [{ type: 'text', text: 'Scanning.' }],
      [{ type: 'text', text: 'never mind' }],
    ]);
  });

  it('edited arguments are validated again: an edit the schema rejects is the call’s invalid-arguments output', async () => {
    const server = await serve(
      () => encodeAiSdkUi(),
      (_body, n) => (n === 1 ? { events: [...call(0, 'call_1', 'set_volume', { level: 3 }), finish('tool-calls')] } : { events: [text('OK.'), finish('stop')] }),
    );
    const set_volume = tool({ schema: z.object({ level: z.number().max(10) }), needsApproval: ({ level }) => level > 2, execute: ({ level }) => `volume ${level}` });
    const { chat } = chatWith({ request: post(server.url, (_m, { uiMessages }) => ({ messages: uiMessages })), tools: { set_volume } });
    chat.send('louder');
    await until(() => chat.approvals().length === 1, 'the approval');
    chat.approvals()[0]?.approve({ level: 11 });
    expect(chat.approvals()).toEqual([]);
    await until(() => chat.status() === 'ready', 'the follow-up');
    const output = shown(chat.messages())[1]?.calls?.[0]?.output;
    expect(output?.error).toMatch(/invalid arguments.*level/);
    expect((server.bodies[1] as { messages: UIMessage[] }).messages[1]?.parts).toEqual([
      { type: 'tool-set_volume', toolCallId: 'call_1', input: { level: 3 }, state: 'output-error', errorText: output?.error },
    ]);
  });
});

describe('injectChat() over an AG-UI backend', () => {
  it('an approval the run asks for (its interrupt outcome) is a server approval; the denial goes in the next request', async () => {
    const server = await serve(
      () => encodeAgUi({ threadId: 't1', runId: 'r1' }),
      (_body, n) =>
        n === 1
          ? { events: [text('May I?'), ...call(0, 'call_rm', 'remove', { id: 7 }), { type: 'tool-approval-request', choice: 0, id: 'call_rm', approvalId: 'int_1' }, finish('tool-calls')] }
          : { events: [text('Not removed.'), finish('stop')] },
    );
    const { chat } = chatWith({ request: post(server.url, (_m, { uiMessages }) => ({ messages: uiMessages })) });
    chat.send('remove 7');
    await until(() => chat.approvals().length === 1, 'the approval');
    expect(chat.approvals().map((a) => [a.side, a.call.name, a.call.arguments])).toEqual([['server', 'remove', { id: 7 }]]);
    const approvalId = chat.approvals()[0]?.id;
    chat.approvals()[0]?.deny('keep it');
    await until(() => chat.status() === 'ready' && chat.messages().length === 3, 'the follow-up');
    expect((server.bodies[1] as { messages: Array<{ parts: unknown[] }> }).messages[1]?.parts).toEqual([
      { type: 'text', text: 'May I?' },
      { type: 'tool-remove', toolCallId: 'call_rm', input: { id: 7 }, state: 'approval-responded', approval: { id: approvalId, approved: false, reason: 'keep it' } },
    ]);
  });

  it('a client tool of an AG-UI run: run in the browser, its result in the next request', async () => {
    const server = await serve(
      () => encodeAgUi({ threadId: 't1', runId: 'r1' }),
      (_body, n) => (n === 1 ? { events: [text('Checking the time.'), ...call(0, 'call_t', 'now', {}), finish('tool-calls')] } : { events: [text('It is noon.'), finish('stop')] }),
    );
    const { chat } = chatWith({ request: post(server.url, (_m, { uiMessages }) => ({ messages: uiMessages })), tools: { now: tool({ schema: z.object({}), execute: () => '12:00' }) } });
    chat.send('What time is it?');
    await until(() => chat.status() === 'ready' && chat.messages().length === 3, 'both steps');
    expect(shown(chat.messages())).toEqual([
      { role: 'user', text: 'What time is it?' },
      { role: 'assistant', status: 'done', text: 'Checking the time.', calls: [{ id: 'call_t', name: 'now', args: {}, output: { output: '12:00' }, approval: undefined }] },
      { role: 'assistant', status: 'done', text: 'It is noon.', calls: [] },
    ]);
    expect((server.bodies[1] as { messages: Array<{ parts: unknown[] }> }).messages[1]?.parts).toEqual([
      { type: 'text', text: 'Checking the time.' },
      { type: 'tool-now', toolCallId: 'call_t', input: {}, state: 'output-available', output: '12:00' },
    ]);
  });
});
