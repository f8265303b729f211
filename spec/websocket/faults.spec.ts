/**
 * Faults and hostile input on real sockets (a `ws` server on 127.0.0.1): a socket closed mid-call,
 * a server that stalls, a binary frame, a text frame that is not JSON, an oversized message (under
 * the `ws` bound and over it), a flood faster than the loop reads (mid-call, then the connection
 * lost); each case repeated 100 times with no socket, timer or memory left behind. Two larger
 * floods run once: 100,000 messages in one burst, and one between a loop's steps.
 */
import { lastValueFrom, materialize, toArray, type Observable } from 'rxjs';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { readToolCalls, type ToolCallResult } from 'rxjs-tool-calls';
import { tool, toolLoop } from 'rxjs-tool-calls/tools';
import { fromWebSocket, responsesWebSocket } from 'rxjs-tool-calls/websocket';
import { heapAfterGc } from '../helpers/heap';
import { plain } from '../helpers/plain';
import { responseEvents, startResponsesSocket } from '../helpers/responsesModel';
import { startSocketServer, type ServerSocket, type SocketServer } from '../helpers/socketServer';

jest.setTimeout(60_000);

const created = { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', status: 'in_progress', output: [] } };
const added = (n: number) => ({ type: 'response.output_item.added', output_index: n, item: { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'get_weather', arguments: '' } });
const delta = (n: number, text: string) => ({ type: 'response.function_call_arguments.delta', output_index: n, delta: text });
const itemDone = (n: number, args: string) => ({
  type: 'response.output_item.done',
  output_index: n,
  item: { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'get_weather', arguments: args },
});
/** One complete call, then one still streaming. */
const midCall = [created, added(0), delta(0, '{"city":"Paris"}'), itemDone(0, '{"city":"Paris"}'), added(1), delta(1, '{"city":"Be')];

/** Run `once` `times` times, `at` at a time (a batch waits for the one before it). */
async function repeat(times: number, at: number, once: () => Promise<void>): Promise<void> {
  for (let done = 0; done < times; done += at) await Promise.all(Array.from({ length: Math.min(at, times - done) }, once));
}

/** The timers of the process (after a few moments: the runtime's own close down asynchronously). */
async function timersAfter(baseline: number): Promise<number> {
  const count = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  for (let waited = 0; waited < 1000 && count() > baseline; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  return count();
}

async function outcome(source: Observable<ToolCallResult>): Promise<{ results: unknown[]; error?: unknown }> {
  const seen = await lastValueFrom(source.pipe(materialize(), toArray()));
  const error = seen.find((n) => n.kind === 'E');
  return { results: seen.flatMap((n) => (n.kind === 'N' ? [plain(n.value)] : [])), ...(error === undefined ? {} : { error: error.error }) };
}

/** A fault: what the server does to each connection, what the client must see. */
interface Fault {
  readonly name: string;
  readonly serve: (client: ServerSocket) => void;
  readonly read?: Parameters<typeof readToolCalls>[0];
  readonly socket?: Parameters<typeof fromWebSocket>[1];
  readonly check: (seen: { results: unknown[]; error?: unknown }) => void;
  /** How many of the 100 run at once (default 10). */
  readonly at?: number;
}

const completeThenOpen = (reason: string) => (seen: { results: unknown[] }) =>
  expect(seen.results).toEqual([
    expect.objectContaining({ ok: expect.objectContaining({ id: 'call_0', arguments: { city: 'Paris' } }) }),
    { err: 'incomplete', id: 'call_1', name: 'get_weather', raw: '{"city":"Be', reason },
  ]);

const FAULTS: readonly Fault[] = [
  {
    name: 'closed mid-call (no close frame)',
    serve: (client) => {
      client.send(...midCall);
      setTimeout(() => client.ws.terminate(), 5);
    },
    check: (seen) => {
      completeThenOpen('connection-lost')(seen);
      expect(seen.error).toMatchObject({ code: 'connection-lost', source: 'fromWebSocket' });
    },
  },
  {
    name: 'a flood mid-call (1,000 messages in one burst, faster than they are read), then the connection lost',
    serve: (client) => {
      client.send(...midCall);
      for (let i = 0; i < 999; i++) client.ws.send(JSON.stringify(delta(1, '')));
      client.ws.send(JSON.stringify(delta(1, '')), () => client.ws.terminate()); // once all of it was written
    },
    check: (seen) => {
      completeThenOpen('connection-lost')(seen);
      expect(seen.error).toMatchObject({ code: 'connection-lost', source: 'fromWebSocket' });
    },
  },
  {
    name: 'a server that stalls mid-call (idle timeout)',
    serve: (client) => client.send(...midCall),
    // Long enough that a loaded machine delivers what was sent first; 50 at a time, so the waits overlap.
    read: { idleTimeoutMs: 2000 } as Parameters<typeof readToolCalls>[0],
    at: 50,
    check: (seen) => {
      completeThenOpen('idle-timeout')(seen);
      expect(seen.error).toMatchObject({ code: 'idle-timeout', timeoutMs: 2000 });
    },
  },
  {
    name: 'a binary frame',
    serve: (client) => {
      client.send(...midCall.slice(0, 4));
      client.ws.send(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
    },
    check: (seen) => {
      expect(seen.results).toEqual([expect.objectContaining({ ok: expect.objectContaining({ id: 'call_0' }) })]);
      expect(seen.error).toMatchObject({ code: 'invalid-frame', framing: 'websocket', detail: 'a binary message of 4 bytes: the events are JSON text' });
    },
  },
  {
    name: 'a text frame that is not JSON, mid-call',
    serve: (client) => {
      client.send(...midCall);
      client.ws.send('<html>502 Bad Gateway</html>');
    },
    check: (seen) => {
      completeThenOpen('stream-ended')(seen); // the reason names only the failures of the connection and the provider

      expect(seen.error).toMatchObject({ code: 'invalid-event', provider: 'openai-responses', data: '<html>502 Bad Gateway</html>' });
    },
  },
  {
    name: 'a text frame that is not JSON, first',
    serve: (client) => client.ws.send('hello'),
    check: (seen) => expect(seen.error).toMatchObject({ code: 'unknown-format', start: 'data: hello' }),
  },
  {
    name: 'a message over maxMessageSize',
    serve: (client) => {
      client.send(...midCall);
      client.send(delta(1, 'x'.repeat(3000)));
    },
    socket: { maxMessageSize: 2048 },
    check: (seen) => {
      completeThenOpen('stream-ended')(seen);
      expect(seen.error).toMatchObject({ code: 'event-too-large', limit: 2048, framing: 'websocket', start: expect.stringMatching(/^\{"type":"response.function_call_arguments.delta"/) });
    },
  },
  {
    name: 'a message over the bound the ws package is given (never held whole)',
    serve: (client) => {
      client.send(...midCall);
      client.send(delta(1, 'x'.repeat(20_000)));
    },
    socket: { maxMessageSize: 2048 },
    check: (seen) => {
      completeThenOpen('stream-ended')(seen);
      expect(seen.error).toMatchObject({ code: 'event-too-large', limit: 2048, framing: 'websocket', start: '' });
    },
  },
];

describe('faults on a real socket', () => {
  let server: SocketServer;
  let fault: Fault;
  beforeAll(async () => (server = await startSocketServer((client) => fault.serve(client))));
  afterAll(() => server.close());

  it.each(FAULTS.map((f) => [f.name, f] as const))('%s: the complete calls, the open ones incomplete, a typed error; 100 times, nothing left behind', async (_name, f) => {
    fault = f;
    const read = (): Promise<{ results: unknown[]; error?: unknown }> => outcome(fromWebSocket(server.url, { WebSocketCtor: WebSocket, ...f.socket }).pipe(readToolCalls(f.read)));
    f.check(await read()); // once, warm
    await server.idle();
    const timers = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const heap = heapAfterGc();
    await repeat(100, f.at ?? 10, async () => f.check(await read()));
    await server.idle(); // every client closed its socket (or saw it closed): the server has no connection left
    expect(await timersAfter(timers)).toBeLessThanOrEqual(timers);
    expect(heapAfterGc() - heap).toBeLessThan(4 * 1024 * 1024);
  });
});

describe('a flood faster than the loop reads', () => {
  it('100,000 messages in one burst: the results are right and the heap does not keep them', async () => {
    const pieces = 50_000;
    const server = await startSocketServer((client) => {
      const events: unknown[] = [created, added(0)];
      for (let i = 0; i < pieces; i++) events.push(delta(0, i === 0 ? '{"city":"' : 'a'));
      for (let i = 0; i < pieces; i++) events.push({ type: 'response.output_text.delta', output_index: 1, delta: '' }); // empty: nothing to keep
      events.push(delta(0, '"}'), itemDone(0, `{"city":"${'a'.repeat(pieces - 1)}"}`));
      events.push({ type: 'response.completed', sequence_number: 9, response: { id: 'resp_1', status: 'completed', output: [] } });
      client.send(...events);
      client.ws.close(1000);
    });
    try {
      const before = heapAfterGc();
      let peak = 0;
      const results = await lastValueFrom(fromWebSocket(server.url, { WebSocketCtor: WebSocket }).pipe(readToolCalls(), toArray()));
      peak = heapAfterGc() - before;
      expect(results.map((r) => (r.success ? [r.data.id, (r.data.arguments as { city: string }).city.length] : r.error.code))).toEqual([['call_0', pieces - 1]]);
      expect(peak).toBeLessThan(8 * 1024 * 1024);
      await server.idle();
    } finally {
      await server.close();
    }
  });

  it('a flood between steps, while the tools run: no turn is confused by it, nothing is kept', async () => {
    const server = await startResponsesSocket({
      steps: 2,
      afterTurn: (socket, turn) => {
        if (turn !== 1) return;
        // While the loop runs its tool: 50,000 messages no response asked for (dropped between turns,
        // skipped by the format when they arrive after the next turn was sent).
        for (let i = 0; i < 50_000; i++) socket.ws.send(JSON.stringify({ type: 'response.keepalive', sequence_number: i }));
      },
    });
    try {
      const tools = { get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => new Promise((resolve) => setTimeout(() => resolve({ city, celsius: 1 }), 50)) }) };
      const heap = heapAfterGc();
      const items = await lastValueFrom(
        toolLoop(responsesWebSocket(server.url, { WebSocketCtor: WebSocket, body: { model: 'gpt-test' } }), tools, {
          format: 'openai-responses',
          messages: [{ role: 'user', content: 'Weather?' }],
        }).pipe(toArray()),
      );
      expect(items.at(-1)).toMatchObject({ type: 'done', text: 'Done after 2 calls.' });
      expect(items.filter((item) => item.type === 'event' && item.event.type === 'metadata').map((item) => item.type === 'event' && item.event.type === 'metadata' && item.event.responseId)).toEqual([
        'resp_1',
        'resp_2',
        'resp_3',
      ]);
      expect(heapAfterGc() - heap).toBeLessThan(8 * 1024 * 1024);
      await server.idle();
    } finally {
      await server.close();
    }
  });
});

describe('responsesWebSocket() under faults, 100 times each, nothing left behind', () => {
  it.each([
    ['a stalled response (the loop’s idle timeout)', 'stall'],
    ['a socket cut after output', 'cut'],
    ['a refused handshake (401)', 'refuse'],
  ] as const)('%s', async (_name, kind) => {
    const server = await startResponsesSocket({
      steps: 1,
      refuse: kind === 'refuse' ? () => 401 : undefined,
      onTurn: (socket) => {
        if (kind === 'stall') return 'ignore';
        if (kind === 'cut') {
          socket.send(responseEvents('resp_x', [])[0]);
          setTimeout(() => socket.ws.terminate(), 2);
          return 'ignore';
        }
        return 'answer';
      },
    });
    try {
      const tools = { get_weather: tool({ schema: z.object({ city: z.string() }), execute: () => 1 }) };
      const once = async (): Promise<unknown> => {
        const request = responsesWebSocket(server.url, { WebSocketCtor: WebSocket, body: { model: 'gpt-test' }, maxReconnects: 0 });
        const read = kind === 'stall' ? { idleTimeoutMs: 250 } : {}; // only the stall waits for a timer
        const seen = await lastValueFrom(toolLoop(request, tools, { format: 'openai-responses', messages: [{ role: 'user', content: 'x' }], read }).pipe(materialize(), toArray()));
        return seen.at(-1)?.kind === 'E' ? (seen.at(-1) as { error: unknown }).error : undefined;
      };
      const expected = { stall: { code: 'idle-timeout' }, cut: { code: 'connection-lost', source: 'responsesWebSocket' }, refuse: { code: 'provider-error', status: 401, retryable: false } }[kind];
      expect(await once()).toMatchObject(expected);
      await server.idle();
      const timers = process.getActiveResourcesInfo().filter((k) => k === 'Timeout').length;
      const heap = heapAfterGc();
      await repeat(100, 10, async () => expect(await once()).toMatchObject(expected));
      await server.idle();
      expect(await timersAfter(timers)).toBeLessThanOrEqual(timers);
      expect(heapAfterGc() - heap).toBeLessThan(4 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });
});
