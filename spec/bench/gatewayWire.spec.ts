/**
 * bench/gateway-wire.mjs must measure right answers: the upstream's writes carry exactly the call
 * they promise (read back by the library), the marker first appears in the write the upstream
 * stamps, and the checks of what a client received pass the gateway's and the pass-through's
 * wires and catch a lost, duplicated or corrupted call.
 */
import { from, lastValueFrom, map, toArray } from 'rxjs';
import { readStreamEvents, toolCalls } from 'rxjs-tool-calls';
import { encodeOpenAIChat } from 'rxjs-tool-calls/gateway';
import type * as WireNs from '../../bench/gateway-wire.mjs';

let wire: typeof WireNs;
beforeAll(async () => {
  wire = await import('../../bench/gateway-wire.mjs');
});

const bytes = (writes: readonly string[]) => from(writes.map((w) => new TextEncoder().encode(w)));

describe('the upstream of bench/gateway.mjs', () => {
  it('writes one call per stream, read back by the library as expectedCall(s)', async () => {
    for (const s of [0, 7, 999]) {
      const results = await lastValueFrom(bytes(wire.upstreamWrites(s).writes).pipe(readStreamEvents({ provider: 'anthropic' }), toolCalls(), toArray()));
      expect(results.map((r) => (r.success ? { id: r.data.id, name: r.data.name, arguments: r.data.rawArguments } : r.error.code))).toEqual([wire.expectedCall(s)]);
    }
  });

  it('the marker first appears in the write it stamps, on both wires', async () => {
    const { writes, firstArgument } = wire.upstreamWrites(3);
    expect(writes.findIndex((w) => w.includes(wire.MARKER))).toBe(firstArgument);
    const chat = await lastValueFrom(bytes(writes).pipe(readStreamEvents({ provider: 'anthropic' }), encodeOpenAIChat({ model: 'm' }), toArray()));
    expect(chat.join('').indexOf(wire.MARKER)).toBeGreaterThan(chat.join('').indexOf('"name":"get_weather"'));
  });

  it('the stream number is read from either request body', () => {
    expect(wire.streamOf({ messages: [{ role: 'user', content: 'stream 42' }] })).toBe(42);
    expect(wire.streamOf({ messages: [{ role: 'user', content: 'hello' }] })).toBe(-1);
  });
});

describe('checkStream', () => {
  const anthropic = (s: number) => wire.upstreamWrites(s).writes;
  const chatOf = (writes: readonly string[]) =>
    lastValueFrom(
      bytes(writes).pipe(
        readStreamEvents({ provider: 'anthropic' }),
        encodeOpenAIChat({ model: 'm' }),
        toArray(),
        map((parts) => parts.join('')),
      ),
    );

  it('passes both wires of a good stream', async () => {
    expect(wire.checkStream('anthropic', 5, anthropic(5).join(''))).toMatchObject({ ok: true });
    expect(wire.checkStream('chat', 5, await chatOf(anthropic(5)))).toMatchObject({ ok: true });
  });

  it('catches a stream given to the wrong client, a dropped fragment, a duplicate, a cut and a non-JSON event', async () => {
    const writes = anthropic(5);
    const { firstArgument } = wire.upstreamWrites(5);
    expect(wire.checkStream('anthropic', 6, writes.join(''))).toMatchObject({ ok: false, corrupted: true });
    const dropped = writes.filter((_, i) => i !== firstArgument + 2);
    expect(wire.checkStream('anthropic', 5, dropped.join(''))).toMatchObject({ ok: false, corrupted: true });
    expect(wire.checkStream('chat', 5, await chatOf(dropped))).toMatchObject({ ok: false, corrupted: true });
    const chat = await chatOf(writes);
    // The tool_use block sent twice (again at block index 2): two calls.
    const again = writes.slice(firstArgument - 1, -1).map((w) => w.replaceAll('"index":1', '"index":2').replace('"index":0', '"index":9'));
    const doubled = [...writes.slice(0, -1), ...again, writes.at(-1) ?? ''];
    expect(wire.checkStream('anthropic', 5, doubled.join(''))).toMatchObject({ ok: false, duplicated: true });
    expect(wire.checkStream('chat', 5, await chatOf(doubled))).toMatchObject({ ok: false, duplicated: true });
    expect(wire.checkStream('chat', 5, chat.slice(0, chat.indexOf('data: [DONE]')))).toMatchObject({ ok: false, lost: true });
    expect(wire.checkStream('anthropic', 5, writes.slice(0, -1).join(''))).toMatchObject({ ok: false, lost: true });
    expect(wire.checkStream('chat', 5, `${chat}data: {oops\n\n`)).toMatchObject({ ok: false, corrupted: true });
  });
});
