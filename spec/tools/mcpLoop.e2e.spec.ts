/**
 * MCP tools in `toolLoop()` beside a local tool, end to end: a scripted model on 127.0.0.1 calls
 * them; the official SDK's `McpServer` (Streamable HTTP, child process) runs them. The model's next
 * request must answer every call of the turn in call order: the MCP outputs, the `isError` failure
 * written back as a failure, an approved MCP call, the local output; progress values are loop items,
 * never sent to the model. Then 100 loops leave nothing behind (but the SDK's own streams of
 * cancelled calls over Streamable HTTP, until the client closes).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { lastValueFrom, of, toArray } from 'rxjs';
import { fromResponse } from 'rxjs-tool-calls';
import { mcpTools, tool, toolLoop, type LoopMessage, type ToolApprovalRequest, type ToolSet } from 'rxjs-tool-calls/tools';
import { bundleMcpServer, httpClient, startHttpMcpServer, stdioClient, type HttpMcpServer, type McpServerScript } from '../helpers/mcpServers';
import { startScriptedModel, type ScriptedModel } from '../helpers/scriptedModel';
import { anthropicWire, openaiChatWire, type ScriptedWire } from '../helpers/scriptedWire';

jest.setTimeout(120_000);

let script: McpServerScript;
let server: HttpMcpServer;
let client: Client;
beforeAll(async () => {
  script = await bundleMcpServer();
  server = await startHttpMcpServer(script);
  client = await httpClient(server.url);
});
afterAll(async () => {
  await client.close();
  await server.stop();
  script.dispose();
});

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const requestTo = (url: string) => (messages: ReadonlyArray<LoopMessage>) =>
  fromResponse(fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages }) }), { provider: 'scripted' });

const CALLS = [
  { id: 'call_add', name: 'add', args: { a: 1, b: 2 } },
  { id: 'call_fail', name: 'fail', args: { city: 'Atlantis' } },
  { id: 'call_weather', name: 'weather', args: { city: 'Paris' } },
  { id: 'call_slow', name: 'slow', args: { ms: 60, tag: 'loop' } },
  { id: 'call_now', name: 'now', args: {} },
];

async function toolsWithLocal(): Promise<ToolSet> {
  const mcp = await mcpTools(client);
  const weather = mcp['weather'];
  if (weather === undefined) throw new Error('no weather tool');
  return { ...mcp, weather: { ...weather, needsApproval: true }, now: tool({ description: 'The time', execute: () => '12:00' }) };
}

describe.each<[string, ScriptedWire]>([
  ['openai-chat', openaiChatWire],
  ['anthropic', anthropicWire],
])('toolLoop with MCP and local tools (%s)', (_name, wire) => {
  it('every call answered in call order: MCP outputs, the isError failure as a failure, the approved MCP call, the local tool', async () => {
    model = await startScriptedModel([
      { events: wire.calls(CALLS) },
      {
        check: (body) => {
          const results = wire.results(body);
          expect(results.map((r) => r.id)).toEqual(CALLS.map((c) => c.id));
          const [add, fail, weather, slow, now] = results;
          expect(add?.content).toBe('3');
          expect(fail?.content).toBe('Tool fail (call_fail) failed: MCP tool fail reported an error: no such city: Atlantis');
          if (wire.format === 'anthropic') expect(results.map((r) => r.isError)).toEqual([false, true, false, false, false]);
          expect(JSON.parse(weather?.content ?? '')).toEqual({ city: 'Paris', tempC: 21 });
          expect(slow?.content).toMatch(/^loop done after \d+ steps$/);
          expect(now?.content).toBe('12:00');
        },
        events: wire.answer('Done.'),
      },
    ]);
    const asked: ToolApprovalRequest[] = [];
    const items = await lastValueFrom(
      toolLoop(requestTo(model.url), await toolsWithLocal(), {
        format: wire.format,
        messages: [{ role: 'user', content: 'Go' }],
        approve: (request) => (asked.push(request), of({ type: 'approve' as const })),
      }).pipe(toArray()),
    );
    expect(model.rejections).toEqual([]);
    expect(model.requests).toHaveLength(2);
    expect(asked.map((r) => r.call.name)).toEqual(['weather']);
    const progress = items.filter((i) => i.type === 'tool-progress');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.every((i) => i.type === 'tool-progress' && i.result.data?.name === 'slow')).toBe(true);
    expect(items.at(-1)?.type).toBe('done');
  });
});

/** Sockets of this process to `url`'s port, and its timers. */
function resources(url: string): { readonly sockets: number; readonly timers: number } {
  const port = Number(new URL(url).port);
  const handles = (process as unknown as { _getActiveHandles(): Array<{ readonly remotePort?: number }> })._getActiveHandles();
  return { sockets: handles.filter((h) => h.remotePort === port).length, timers: process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 100 loops of `calls` (one step of calls, one answer) against a new scripted model. */
async function hundredLoops(
  tools: ToolSet,
  calls: (i: number) => ReadonlyArray<{ id: string; name: string; args: Readonly<Record<string, unknown>> }>,
  between: () => void = () => undefined,
): Promise<void> {
  model = await startScriptedModel(Array.from({ length: 100 }, (_, i) => [{ events: openaiChatWire.calls(calls(i)) }, { events: openaiChatWire.answer('ok') }]).flat());
  const url = model.url;
  for (let i = 0; i < 100; i++) {
    const items = await lastValueFrom(toolLoop(requestTo(url), tools, { format: 'openai-chat', messages: [{ role: 'user', content: 'Go' }] }).pipe(toArray()));
    expect(items.at(-1)?.type).toBe('done');
    if (i === 0) between();
  }
  expect(model.rejections).toEqual([]);
  expect(model.requests).toHaveLength(200);
}

describe('100 loops', () => {
  const local = { now: tool({ execute: () => 'now' }) };
  /** Loop i's calls: `slow` takes `ms` (10 s: cancelled by the tools' `timeoutMs`). */
  const calls = (ms: number) => (i: number) => [
    { id: 'call_add', name: 'add', args: { a: 1, b: 1 } },
    { id: 'call_slow', name: 'slow', args: { ms, tag: `rep${i}` } },
    { id: 'call_fail', name: 'fail', args: { city: 'X' } },
    { id: 'call_now', name: 'now', args: {} },
  ];

  it('over Streamable HTTP: completed calls, progress and failures leave no socket or timer behind', async () => {
    const tools = { ...(await mcpTools(client)), ...local };
    let before = resources(server.url);
    await hundredLoops(tools, calls(20), () => void settle(0).then(() => (before = resources(server.url))));
    await settle(200);
    const after = resources(server.url);
    expect(after.timers).toBeLessThanOrEqual(before.timers);
    expect(after.sockets).toBeLessThanOrEqual(before.sockets + 1);
  });

  it("over Streamable HTTP, cancelled calls: the SDK's client keeps each cancelled call's response stream open (the server never ends it: cyanheads/mcp-ts-core#401) until the client closes; closing releases every one", async () => {
    const own = await httpClient(server.url);
    const tools = { ...(await mcpTools(own, { timeoutMs: 30 })), ...local };
    const before = resources(server.url);
    await hundredLoops(tools, calls(10_000));
    await settle(200);
    // One open stream per cancelled call (a socket may be reused when the last one ended).
    expect(resources(server.url).sockets).toBeGreaterThanOrEqual(before.sockets + 90);
    expect(resources(server.url).timers).toBeLessThanOrEqual(before.timers);
    await own.close();
    await settle(200);
    expect(resources(server.url).sockets).toBeLessThanOrEqual(before.sockets);
  });

  it('over stdio, cancelled calls included: no handle (pipe, timer) left behind', async () => {
    const { client: stdio } = await stdioClient(script);
    try {
      const tools = { ...(await mcpTools(stdio, { timeoutMs: 30 })), ...local };
      const count = () => process.getActiveResourcesInfo().length;
      let before = count();
      await hundredLoops(tools, calls(10_000), () => void settle(0).then(() => (before = count())));
      await settle(200);
      expect(count()).toBeLessThanOrEqual(before);
      const seen = async (): Promise<number> =>
        (JSON.parse(((await stdio.callTool({ name: 'cancelled', arguments: {} })) as { content: Array<{ text: string }> }).content[0]?.text ?? '[]') as string[]).length;
      const until = Date.now() + 5000;
      while ((await seen()) < 100 && Date.now() < until) await settle(20);
      expect(await seen()).toBe(100);
    } finally {
      await stdio.close();
    }
  });
});
