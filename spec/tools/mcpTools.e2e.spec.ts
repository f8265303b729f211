/**
 * `mcpTools(client)` against the official MCP SDK on both sides: its `McpServer` with scripted tools
 * in a child process (over Streamable HTTP on 127.0.0.1, and over stdio spawned by the SDK's
 * `StdioClientTransport`), its `Client` passed in. Listing (every page), the specs sent as given, the
 * check of the arguments, the outputs (text, structured content), `isError`, progress, cancellation
 * seen by the server, a server that dies mid-call, garbage, a huge result, and the same calls 100
 * times with nothing left behind.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { filter, firstValueFrom, from, lastValueFrom, toArray } from 'rxjs';
import { isToolStreamError, readToolCalls, type ToolStreamError } from 'rxjs-tool-calls';
import { mcpTools, runTools, tool, toolSpecs, type ToolRunResult, type ToolSet } from 'rxjs-tool-calls/tools';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { bundleMcpServer, httpClient, startHttpMcpServer, stdioClient, type HttpMcpServer, type McpServerScript } from '../helpers/mcpServers';
import { within } from '../helpers/scriptedModel';

jest.setTimeout(60_000);

let script: McpServerScript;
beforeAll(async () => {
  script = await bundleMcpServer();
});
afterAll(() => script.dispose());

/** What a test opened, closed after it. */
const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

async function overHttp(flags: ReadonlyArray<string> = []): Promise<{ readonly client: Client; readonly server: HttpMcpServer }> {
  const server = await startHttpMcpServer(script, flags);
  opened.push(() => server.stop());
  const client = await httpClient(server.url);
  opened.push(() => client.close());
  return { client, server };
}

async function overStdio(flags: ReadonlyArray<string> = []): Promise<Client> {
  const { client } = await stdioClient(script, flags);
  opened.push(() => client.close());
  return client;
}

const TRANSPORTS: ReadonlyArray<[string, () => Promise<Client>]> = [
  ['Streamable HTTP', async () => (await overHttp()).client],
  ['stdio', () => overStdio()],
];

/** One model turn calling `calls` (OpenAI chat chunks), as `readToolCalls()` reads it. */
function turn(calls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly args: unknown }>): string {
  return [
    ...calls.map((call, index) => openaiChunk({ toolCalls: [{ index, id: call.id, name: call.name, arguments: JSON.stringify(call.args) }] })),
    openaiChunk({ finishReason: 'tool_calls' }),
    openaiDone(),
  ].join('');
}

function run(tools: ToolSet, calls: Parameters<typeof turn>[0]): Promise<ToolRunResult[]> {
  return lastValueFrom(from([turn(calls)]).pipe(readToolCalls(), runTools(tools), toArray()));
}

/** The final results by call id. */
function finals(results: ReadonlyArray<ToolRunResult>): Record<string, ToolRunResult> {
  const out: Record<string, ToolRunResult> = {};
  for (const r of results) if (r.preliminary !== true) out[r.success ? r.data.call.id : r.error.toolCall.id] = r;
  return out;
}

/** The cause of a failed run, which must be a ToolStreamError. */
function causeOf(result: ToolRunResult | undefined): ToolStreamError {
  if (result === undefined || result.success) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  expect(result.error.code).toBe('tool-failed');
  const cause = (result.error as { cause?: unknown }).cause;
  if (!isToolStreamError(cause)) throw new Error(`the cause is not a ToolStreamError: ${String(cause)}`);
  return cause;
}

/** The server's list of cancelled `slow` calls (asked with the `cancelled` tool). */
async function cancelledOn(client: Client): Promise<string[]> {
  const result = (await client.callTool({ name: 'cancelled', arguments: {} })) as { content: Array<{ text: string }> };
  return JSON.parse(result.content[0]?.text ?? '[]') as string[];
}

async function eventually(check: () => Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(TRANSPORTS)('mcpTools over %s', (_name, connect) => {
  it('maps every tool: name, description, the input JSON Schema as given (toolSpecs sends it unchanged but for `$schema`, which it leaves out of every tool)', async () => {
    const client = await connect();
    const listed = (await client.listTools()).tools;
    const tools = await mcpTools(client);
    expect(Object.keys(tools)).toEqual(listed.map((t) => t.name));
    for (const info of listed) {
      expect(tools[info.name]?.description).toBe(info.description);
      expect(tools[info.name]?.parameters).toEqual(info.inputSchema);
    }
    const sent = (name: string): unknown => {
      const { $schema: _dialect, ...rest }: Record<string, unknown> = listed.find((t) => t.name === name)?.inputSchema ?? {};
      return rest;
    };
    const chat = toolSpecs(tools, 'openai-chat');
    const add = chat.find((spec) => spec.type === 'function' && spec.function.name === 'add');
    expect(add).toEqual({ type: 'function', function: { name: 'add', description: 'Add two numbers', parameters: sent('add') } });
    const anthropic = toolSpecs(tools, 'anthropic');
    expect(anthropic.find((spec) => 'name' in spec && spec.name === 'weather')).toMatchObject({ name: 'weather', description: 'The weather in a city', input_schema: sent('weather') });
  });

  it('text content is the output; structured content is the output when sent', async () => {
    const tools = await mcpTools(await connect());
    const byId = finals(
      await run(tools, [
        { id: 'c1', name: 'add', args: { a: 1, b: 2 } },
        { id: 'c2', name: 'weather', args: { city: 'Paris' } },
      ]),
    );
    expect(byId['c1']).toMatchObject({ success: true, data: { output: '3' } });
    expect(byId['c2']).toMatchObject({ success: true, data: { output: { city: 'Paris', tempC: 21 } } });
  });

  it('arguments that break the input schema are invalid-arguments, with the path, and the server is not called', async () => {
    const client = await connect();
    const tools = await mcpTools(client);
    const byId = finals(
      await run(tools, [
        { id: 'c1', name: 'add', args: { a: '1', b: 2 } },
        { id: 'c2', name: 'slow', args: { ms: 10 } },
      ]),
    );
    const first = byId['c1'];
    if (first === undefined || first.success || first.error.code !== 'invalid-arguments') throw new Error(JSON.stringify(first));
    expect(first.error.issues).toEqual([{ message: 'Expected number, received string', path: ['a'] }]);
    const second = byId['c2'];
    if (second === undefined || second.success || second.error.code !== 'invalid-arguments') throw new Error(JSON.stringify(second));
    expect(second.error.issues.map((i) => i.path)).toEqual([['tag']]);
  });

  it('isError is a tool failure whose cause is mcp-tool-error with the content (isError read as success: google-gemini/gemini-cli#6194, anomalyco/opencode#16988)', async () => {
    const tools = await mcpTools(await connect());
    const byId = finals(
      await run(tools, [
        { id: 'c1', name: 'fail', args: { city: 'Atlantis' } },
        { id: 'c2', name: 'add', args: { a: 2, b: 2 } },
      ]),
    );
    const cause = causeOf(byId['c1']);
    if (!isToolStreamError(cause, 'mcp-tool-error')) throw new Error(cause.code);
    expect(cause.tool).toBe('fail');
    expect(cause.content).toEqual([{ type: 'text', text: 'no such city: Atlantis' }]);
    expect(byId['c1']?.error?.message).toBe('Tool fail (c1) failed: MCP tool fail reported an error: no such city: Atlantis');
    expect(byId['c2']).toMatchObject({ success: true, data: { output: '4' } });
  });

  it('progress notifications are progress values (preliminary), the result the output', async () => {
    const tools = await mcpTools(await connect());
    const results = await run(tools, [{ id: 'c1', name: 'slow', args: { ms: 80, tag: 'p' } }]);
    const progress = results.filter((r) => r.preliminary === true).map((r) => r.data?.output);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toEqual({ progress: 1, total: 8, message: 'step 1' });
    const last = results.at(-1);
    expect(last?.preliminary).toBeUndefined();
    expect(last?.data?.output).toMatch(/^p done after \d+ steps$/);
  });

  it('unsubscribing cancels the call: the server sees the cancellation (MCP calls ran on after an abort: openai/openai-agents-js#1530)', async () => {
    const client = await connect();
    const tools = await mcpTools(client);
    const firstProgress = firstValueFrom(
      from([turn([{ id: 'c1', name: 'slow', args: { ms: 30_000, tag: 'unsubscribed' } }])]).pipe(
        readToolCalls(),
        runTools(tools),
        filter((r) => r.preliminary === true),
      ),
    );
    await within(firstProgress, 5000, 'a progress value');
    await eventually(async () => (await cancelledOn(client)).includes('unsubscribed'), 'the server seeing the cancellation');
  });

  it("the tool's timeoutMs cancels the call: tool-timeout, and the server sees it", async () => {
    const client = await connect();
    const tools = await mcpTools(client, { timeoutMs: 100 });
    const byId = finals(await run(tools, [{ id: 'c1', name: 'slow', args: { ms: 30_000, tag: 'timed-out' } }]));
    expect(byId['c1']?.error?.code).toBe('tool-timeout');
    await eventually(async () => (await cancelledOn(client)).includes('timed-out'), 'the server seeing the cancellation');
  });

  it('a huge result is bounded by maxResultBytes: mcp-failed result-too-large, never the output (MCP results unbounded in context: charmbracelet/crush#3480, mastra-ai/mastra#22075)', async () => {
    const tools = await mcpTools(await connect(), { maxResultBytes: 100_000 });
    const byId = finals(
      await run(tools, [
        { id: 'big', name: 'huge', args: { bytes: 2_000_000 } },
        { id: 'fits', name: 'huge', args: { bytes: 50_000 } },
      ]),
    );
    const cause = causeOf(byId['big']);
    if (!isToolStreamError(cause, 'mcp-failed')) throw new Error(cause.code);
    expect(cause.failure).toBe('result-too-large');
    expect(cause.limit).toBe(100_000);
    expect(byId['big']?.error?.message.length).toBeLessThan(500);
    expect(byId['fits']).toMatchObject({ success: true, data: { output: 'x'.repeat(50_000) } });
  });

  it('a result no client accepts is mcp-failed request-failed with the client error as cause; its sibling succeeds', async () => {
    const tools = await mcpTools(await connect());
    const byId = finals(
      await run(tools, [
        { id: 'g', name: 'garbage', args: {} },
        { id: 'a', name: 'add', args: { a: 5, b: 5 } },
      ]),
    );
    const cause = causeOf(byId['g']);
    if (!isToolStreamError(cause, 'mcp-failed')) throw new Error(cause.code);
    expect(cause.failure).toBe('request-failed');
    expect(cause.cause).toBeDefined();
    expect(byId['a']).toMatchObject({ success: true, data: { output: '10' } });
  });

  it('tools/list is followed through every page (only the first page listed: Factory-AI/factory#7)', async () => {
    const paged = await mcpTools(_name === 'stdio' ? await overStdio(['--page-size=3']) : (await overHttp(['--page-size=3'])).client);
    const whole = await mcpTools(await connect());
    expect(Object.keys(paged)).toEqual(Object.keys(whole));
    expect(Object.keys(paged).length).toBeGreaterThan(6);
  });

  it('a list whose cursor never advances rejects with mcp-failed invalid-list (DeusData/codebase-memory-mcp#1247); two tools of one name too', async () => {
    const looping = _name === 'stdio' ? await overStdio(['--cursor-loop']) : (await overHttp(['--cursor-loop'])).client;
    const error: unknown = await mcpTools(looping).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isToolStreamError(error, 'mcp-failed')) throw new Error(String(error));
    expect([error.failure, error.detail]).toEqual(['invalid-list', 'the cursor "again" came back a second time']);
    const repeating = _name === 'stdio' ? await overStdio(['--repeat-page']) : (await overHttp(['--repeat-page'])).client;
    await expect(mcpTools(repeating)).rejects.toMatchObject({ code: 'mcp-failed', failure: 'invalid-list', detail: 'two tools are named "add"' });
  });

  it('a prefix renames the tools for the model; the server is called by its own names', async () => {
    const tools = await mcpTools(await connect(), { prefix: 'calc_' });
    expect(Object.keys(tools)).toContain('calc_add');
    const byId = finals(await run(tools, [{ id: 'c1', name: 'calc_add', args: { a: 20, b: 22 } }]));
    expect(byId['c1']).toMatchObject({ success: true, data: { name: 'calc_add', output: '42' } });
  });
});

describe('a server that dies mid-call', () => {
  const local = { echo: tool({ execute: () => 'local ok' }) };

  it('stdio: mcp-failed request-failed at once (the connection closed), the sibling local call unaffected', async () => {
    const tools = { ...(await mcpTools(await overStdio())), ...local };
    const started = Date.now();
    const byId = finals(
      await run(tools, [
        { id: 'd', name: 'die', args: {} },
        { id: 'e', name: 'echo', args: {} },
      ]),
    );
    const cause = causeOf(byId['d']);
    if (!isToolStreamError(cause, 'mcp-failed')) throw new Error(cause.code);
    expect(cause.failure).toBe('request-failed');
    expect(String(cause.cause)).toContain('Connection closed');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(byId['e']).toMatchObject({ success: true, data: { output: 'local ok' } });
  });

  it("Streamable HTTP: the SDK's client keeps a call whose stream broke pending (as python-sdk#1577 and anthropics/claude-code#69593 report); timeoutMs ends it typed, the siblings unaffected", async () => {
    const { client, server } = await overHttp();
    const tools = { ...(await mcpTools(client, { timeoutMs: 500 })), ...local };
    const byId = finals(
      await within(
        run(tools, [
          { id: 'd', name: 'die', args: {} },
          { id: 'e', name: 'echo', args: {} },
        ]),
        5000,
        'the step',
      ),
    );
    expect(await server.exited).toBe(3);
    expect(byId['d']?.error?.code).toBe('tool-timeout');
    expect(byId['e']).toMatchObject({ success: true, data: { output: 'local ok' } });
    // The next call fails at once: nothing listens any more.
    const next = finals(await within(run(tools, [{ id: 'n', name: 'add', args: { a: 1, b: 1 } }]), 5000, 'the next call'));
    expect(causeOf(next['n'])).toMatchObject({ code: 'mcp-failed', failure: 'request-failed' });
  });
});

describe('garbage on stdio', () => {
  it('a line that is not JSON-RPC before the answer is skipped: the call succeeds', async () => {
    const tools = await mcpTools(await overStdio());
    expect(finals(await run(tools, [{ id: 'n', name: 'noise', args: {} }]))['n']).toMatchObject({ success: true, data: { output: 'heard' } });
  });

  it('an answer that is not JSON never settles the call in the client: timeoutMs ends it (tool-timeout) and the connection goes on', async () => {
    const client = await overStdio();
    const tools = await mcpTools(client, { timeoutMs: 200 });
    const byId = finals(await within(run(tools, [{ id: 'm', name: 'mute', args: {} }]), 5000, 'the call'));
    expect(byId['m']?.error?.code).toBe('tool-timeout');
    expect(finals(await run(tools, [{ id: 'a', name: 'add', args: { a: 1, b: 2 } }]))['a']).toMatchObject({ success: true, data: { output: '3' } });
  });
});
