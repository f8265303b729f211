/**
 * Child process of the MCP specs: the official SDK's `McpServer` with scripted tools, over
 * Streamable HTTP on 127.0.0.1 (`http`: prints `{"url":…}` once listening; one transport per
 * session) or over stdio (`stdio`: the protocol on stdout, nothing else there unless a tool writes
 * noise on purpose).
 *
 * Flags: `--page-size=N` pages `tools/list` N tools at a time (cursor = the offset); `--cursor-loop`
 * answers every page with the same `nextCursor` (a server that never ends its list); `--repeat-page`
 * answers the second page with the first page's tool again (two tools of one name).
 *
 * Tools: `add` (text), `weather` (structured content with an output schema), `fail` (`isError`),
 * `slow` (progress every 10 ms until `ms` passed or the request is cancelled; a cancellation is
 * recorded), `cancelled` (the recorded cancellations), `die` (the process exits mid-call), `huge`
 * (`bytes` of text), `garbage` (its result is replaced on the wire by one no client accepts),
 * `noise` (stdio: a line that is not JSON before its answer), `mute` (stdio: only a line that is not
 * JSON, never an answer).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';

const [mode = 'http', ...flags] = process.argv.slice(2);
const pageSize = Number(flags.find((f) => f.startsWith('--page-size='))?.split('=')[1] ?? 0);
const cursorLoop = flags.includes('--cursor-loop');
const repeatPage = flags.includes('--repeat-page');
const cancelled: string[] = [];
const GARBAGE = '\u0000garbage\u0000';

function serverWithTools(): McpServer {
  const server = new McpServer({ name: 'scripted', version: '1.0.0' });
  server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool('weather', { description: 'The weather in a city', inputSchema: { city: z.string() }, outputSchema: { city: z.string(), tempC: z.number() } }, ({ city }) => ({
    content: [{ type: 'text', text: `${city}: 21°C` }],
    structuredContent: { city, tempC: 21 },
  }));
  server.registerTool('fail', { description: 'Always fails', inputSchema: { city: z.string() } }, ({ city }) => ({
    content: [{ type: 'text', text: `no such city: ${city}` }],
    isError: true,
  }));
  server.registerTool('slow', { description: 'Takes its time', inputSchema: { ms: z.number(), tag: z.string() } }, async ({ ms, tag }, extra) => {
    const token = extra._meta?.progressToken;
    let step = 0;
    const ended = await new Promise<'done' | 'cancelled'>((resolve) => {
      const timer = setInterval(() => {
        step += 1;
        if (token !== undefined)
          void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: Math.ceil(ms / 10), message: `step ${step}` } });
      }, 10);
      const finish = (how: 'done' | 'cancelled'): void => {
        clearInterval(timer);
        clearTimeout(deadline);
        resolve(how);
      };
      const deadline = setTimeout(() => finish('done'), ms);
      if (extra.signal.aborted) finish('cancelled');
      else extra.signal.addEventListener('abort', () => finish('cancelled'), { once: true });
    });
    if (ended === 'cancelled') cancelled.push(tag);
    return { content: [{ type: 'text', text: `${tag} done after ${step} steps` }] };
  });
  server.registerTool('cancelled', { description: 'The cancelled calls' }, () => ({ content: [{ type: 'text', text: JSON.stringify(cancelled) }] }));
  server.registerTool('die', { description: 'Exits mid-call' }, () => {
    setTimeout(() => process.exit(3), 20);
    return new Promise<never>(() => undefined);
  });
  server.registerTool('huge', { description: 'A big text', inputSchema: { bytes: z.number() } }, ({ bytes }) => ({ content: [{ type: 'text', text: 'x'.repeat(bytes) }] }));
  server.registerTool('garbage', { description: 'An answer no client accepts' }, () => ({ content: [{ type: 'text', text: GARBAGE }] }));
  server.registerTool('noise', { description: 'Noise before the answer' }, () => {
    if (mode === 'stdio') process.stdout.write('this line is not JSON-RPC\n');
    return { content: [{ type: 'text', text: 'heard' }] };
  });
  server.registerTool('mute', { description: 'Noise instead of the answer' }, () => {
    if (mode === 'stdio') process.stdout.write('{"jsonrpc":"2.0","id":\n');
    return new Promise<never>(() => undefined);
  });
  if (pageSize > 0 || cursorLoop || repeatPage) {
    // Page the SDK's own list: the offset is the cursor.
    const handlers = (server.server as unknown as { _requestHandlers: Map<string, (request: { params?: { cursor?: string } }, extra: unknown) => Promise<{ tools: unknown[] }>> })._requestHandlers;
    const list = handlers.get('tools/list');
    if (list === undefined) throw new Error('no tools/list handler');
    handlers.set('tools/list', async (request, extra) => {
      const { tools } = await list(request, extra);
      if (cursorLoop) return { tools: tools.slice(0, 1), nextCursor: 'again' };
      if (repeatPage) return { tools: tools.slice(0, 1), ...(request.params?.cursor === undefined ? { nextCursor: 'second' } : {}) };
      const offset = Number(request.params?.cursor ?? 0);
      const next = offset + pageSize;
      return { tools: tools.slice(offset, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) };
    });
  }
  return server;
}

/** Replace the result of a `garbage` call on the wire by one that breaks the result schema. */
function withGarbage<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const result = (message as { result?: { content?: Array<{ text?: string }> } }).result;
    if (result?.content?.[0]?.text === GARBAGE) return send({ ...message, result: { content: 'not an array', isError: 'perhaps' } } as unknown as typeof message, options);
    return send(message, options);
  };
  return transport;
}

async function main(): Promise<void> {
  if (mode === 'stdio') {
    await serverWithTools().connect(withGarbage(new StdioServerTransport()));
    return;
  }
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known !== undefined) return void known.handleRequest(req, res);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (session) => void sessions.set(session, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    void serverWithTools()
      .connect(withGarbage(transport))
      .then(() => transport.handleRequest(req, res));
  });
  httpServer.listen(0, '127.0.0.1', () => {
    const { port } = httpServer.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);
  });
}

void main();
