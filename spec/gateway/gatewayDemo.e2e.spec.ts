/**
 * Trying the gateway without API keys: `server.mjs --demo` starts scripted Anthropic and Gemini
 * stand-ins (examples/gateway/demo.mjs) on 127.0.0.1. In process: the `openai` SDK gets tool calls
 * whose arguments fit the tools' schemas, sends results back and gets an answer, for both
 * upstreams. As a user runs it: `server.mjs --demo` and `client.mjs` in child processes (bundled
 * with esbuild, `rxjs-tool-calls` from src/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { build } from 'esbuild';
import OpenAI from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { startDemoUpstreams } from '../../examples/gateway/demo.mjs';
import { createGateway, type GatewayLogEntry, type GatewayServer } from '../../examples/gateway/gateway.mjs';
import { entryAliases } from '../../bench/load-source.mjs';

jest.setTimeout(30_000);

const tools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['fahrenheit', 'celsius'] } }, required: ['city'] } },
  },
  { type: 'function', function: { name: 'count', parameters: { type: 'object', properties: { n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } } } },
];

describe('the demo upstreams behind the gateway, with the openai SDK', () => {
  let stand: Awaited<ReturnType<typeof startDemoUpstreams>>;
  let gateway: GatewayServer;
  let client: OpenAI;
  const log: GatewayLogEntry[] = [];
  beforeAll(async () => {
    stand = await startDemoUpstreams({ pauseMs: 1 });
    gateway = createGateway({ anthropic: { url: stand.anthropic }, gemini: { url: stand.gemini }, log: (entry) => log.push(entry) });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    client = new OpenAI({ baseURL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v1`, apiKey: 'none', maxRetries: 0 });
  });
  afterAll(async () => {
    gateway.closeAllConnections();
    await new Promise((resolve) => gateway.close(resolve));
    await stand.close();
  });

  it.each(['claude-sonnet-4-5', 'gemini-2.5-flash'])('%s: a call per tool with arguments from its schema, then an answer quoting the results', async (model) => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris, and count.' }];
    const first = await client.chat.completions.stream({ model, messages, tools }).finalChatCompletion();
    const message = first.choices[0]?.message;
    const calls = (message?.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [c] : []));
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['get_weather', { city: 'Paris', unit: 'fahrenheit' }],
      ['count', { n: 3, tags: ['example tags'] }],
    ]);
    expect(message?.content).toBe('Let me look that up.');
    const results = calls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: `${c.function.name} done` }));
    const second = await client.chat.completions.stream({ model, tools, messages: [...messages, message!, ...results] }).finalChatCompletion();
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toContain('get_weather done');
    expect(log.slice(-2).map((e) => [e.model, e.outcome, e.usage !== null, e.cost !== null])).toEqual([
      [model, 'complete', true, true],
      [model, 'complete', true, true],
    ]);
  });

  it('without tools: an echo that says how to see tool calls', async () => {
    const answer = await client.chat.completions.stream({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'Hello' }] }).finalChatCompletion();
    expect(answer.choices[0]?.message.content).toContain('You said: Hello');
  });
});

/** What a child process prints, as it arrives. */
function collect(stream: Readable): { readonly text: string; until(done: (text: string) => boolean, what: string, timeoutMs?: number): Promise<string> } {
  let text = '';
  const checks = new Set<() => void>();
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    for (const check of checks) check();
  });
  return {
    get text() {
      return text;
    },
    /** Resolves with the text printed so far once `done` holds for it; rejects, quoting it, after `timeoutMs`. */
    until: (done, what, timeoutMs = 10_000) =>
      new Promise<string>((resolve, reject) => {
        const check = (): void => {
          if (!done(text)) return;
          checks.delete(check);
          clearTimeout(timer);
          resolve(text);
        };
        const timer = setTimeout(() => {
          checks.delete(check);
          reject(new Error(`waited ${timeoutMs} ms for ${what}; printed: ${JSON.stringify(text)}`));
        }, timeoutMs);
        checks.add(check);
        check();
      }),
  };
}

describe('npm run example:gateway -- --demo, then client.mjs, as processes', () => {
  const root = path.resolve(__dirname, '../..');
  let dir = '';
  let server: ChildProcess | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-demo-'));
    const alias = entryAliases();
    for (const name of ['server', 'client'])
      await build({
        entryPoints: [path.join(root, `examples/gateway/${name}.mjs`)],
        outfile: path.join(dir, `${name}.mjs`),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        alias,
        // The gateway's WebSocket route bundles `ws`, CommonJS that requires Node's built-ins.
        banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
        logLevel: 'silent',
      });
  }, 60_000);
  afterAll(() => {
    server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('the client sees the tool call streamed, sends the result back and prints the answer; the gateway logs both', async () => {
    server = spawn(process.execPath, [path.join(dir, 'server.mjs'), '--demo'], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = collect(server.stdout!);
    // Each line may come in a later chunk than the one before it: wait for the lines asserted on, whole.
    const banner = await out.until((text) => /listening on http:\/\/\S+\/v1.*\n[\s\S]*no API keys.*\n/.test(text), 'the "listening on" and "no API keys" lines');
    const origin = /listening on (http:\/\/\S+)\/v1/.exec(banner)?.[1];
    expect(banner).toContain('no API keys');
    const client = spawn(process.execPath, [path.join(dir, 'client.mjs'), `${origin}/v1`], { stdio: ['ignore', 'pipe', 'pipe'] });
    const printed = collect(client.stdout!);
    const code = await new Promise((resolve) => client.on('close', resolve));
    expect(code).toBe(0);
    expect(printed.text).toContain('get_weather arguments += "{\\"city');
    expect(printed.text).toMatch(/tool call demo_\w+: get_weather\(\{"city":"Paris"\}\)/);
    expect(printed.text).toContain('answer: Here is what the tools returned: {"celsius":18,"sky":"clear"}.');
    const logLines = (text: string): GatewayLogEntry[] =>
      text
        .slice(0, text.lastIndexOf('\n') + 1)
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as GatewayLogEntry);
    const logged = await out.until((text) => logLines(text).length >= 2, 'two whole log lines');
    expect(logLines(logged).map((l) => [l.outcome, l.status])).toEqual([
      ['complete', 200],
      ['complete', 200],
    ]);
  }, 30_000);
});
