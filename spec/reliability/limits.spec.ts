/**
 * Limits, end to end through readToolCalls(): an endless event ends with event-too-large while
 * memory stays bounded; maxToolCalls and maxArgumentsSize end with their typed errors.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { fromReadableStream, readToolCalls, type ToolCallResult, type ToolStreamError } from 'rxjs-tool-calls';
import { DEFAULT_MAX_EVENT_SIZE } from '../../src/sse/parser';
import { anthropicEvent, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { runChunks } from '../helpers/runStream';

const CHUNK = 64 * 1024;
const HUNDRED_MB = 100 * 1024 * 1024;

/** `data: xxxx…` that never ends (100 MB, no line end), made lazily 64 KB at a time. */
function endlessLine(): { stream: ReadableStream<Uint8Array>; pulled: () => number; peakHeap: () => number } {
  let sent = 0;
  let peak = 0;
  const filler = new Uint8Array(CHUNK).fill(0x78);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
        if (sent >= HUNDRED_MB) return controller.close();
        const chunk = filler.slice();
        if (sent === 0) chunk.set(new TextEncoder().encode('data: '));
        controller.enqueue(chunk);
        sent += CHUNK;
      },
    },
    { highWaterMark: 1 },
  );
  return { stream, pulled: () => sent, peakHeap: () => peak };
}

describe('one SSE event larger than the limit', () => {
  it.each([
    ['the default limit (16 MiB)', undefined],
    ['maxEventSize: 1 MiB', 1024 * 1024],
  ])(
    '%s: a 100 MB data line that never ends gives event-too-large, read no further, heap bounded',
    async (_name, maxEventSize) => {
      const limit = maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;
      const source = endlessLine();
      const before = process.memoryUsage().heapUsed;
      const error: unknown = await lastValueFrom(fromReadableStream(source.stream).pipe(readToolCalls(maxEventSize === undefined ? {} : { maxEventSize }), toArray())).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ToolStreamError', code: 'event-too-large' });
      expect((error as ToolStreamError<'event-too-large'>).limit).toBe(limit);
      expect((error as ToolStreamError<'event-too-large'>).byteOffset).toBe(0);
      expect((error as ToolStreamError<'event-too-large'>).start.startsWith('data: xxx')).toBe(true);
      // Reading stopped just past the limit: the other ~84-99 MB were never pulled.
      expect(source.pulled()).toBeLessThanOrEqual(limit + 4 * CHUNK);
      // The heap held at most about the limit (one-byte chars), far below 100 MB.
      expect(source.peakHeap() - before).toBeLessThan(limit * 2 + 8 * 1024 * 1024);
    },
    30_000,
  );
});

describe('maxToolCalls', () => {
  const calls = (n: number): string[] => Array.from({ length: n }, (_, i) => openaiChunk({ toolCalls: [{ index: i, id: `call_${i}`, name: 'f', arguments: '{}' }] }));

  it('one call more than the limit ends the stream with too-many-tool-calls after the open calls', () => {
    const out = runChunks([[...calls(3), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()].join('')], { maxToolCalls: 2 });
    expect(out.error).toMatchObject({ name: 'ToolStreamError', code: 'too-many-tool-calls' });
    expect((out.error as ToolStreamError<'too-many-tool-calls'>).limit).toBe(2);
    expect(out.results.map((r) => (r.success ? 'ok' : `${r.error.code}:${r.error.toolCall.id}`))).toEqual(['incomplete:call_0', 'incomplete:call_1']);
  });

  it('exactly the limit is fine', () => {
    const out = runChunks([[...calls(2), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()].join('')], { maxToolCalls: 2 });
    expect(out.error).toBeUndefined();
    expect(out.results.every((r) => r.success)).toBe(true);
  });

  it('also for Anthropic, through readToolCalls on a byte source', async () => {
    const wire = [
      anthropicEvent('message_start', { message: { id: 'msg_1', model: 'claude', content: [], usage: {} } }),
      ...[0, 1].map((i) => anthropicEvent('content_block_start', { index: i, content_block: { type: 'tool_use', id: `toolu_${i}`, name: 'f', input: {} } })),
    ].join('');
    const stream = new Blob([wire]).stream();
    const settled = await lastValueFrom(fromReadableStream(stream).pipe(readToolCalls({ maxToolCalls: 1 }), toArray())).catch((e: unknown) => e);
    expect(settled).toMatchObject({ name: 'ToolStreamError', code: 'too-many-tool-calls' });
  });
});

describe('maxArgumentsSize', () => {
  it('the call over the limit fails with arguments-too-large; its sibling goes on', () => {
    const wire = [
      openaiChunk({ toolCalls: [{ index: 0, id: 'big', name: 'f', arguments: '{"a":"' }] }),
      openaiChunk({ toolCalls: [{ index: 1, id: 'small', name: 'g', arguments: '{"b":1}' }] }),
      openaiChunk({ toolCalls: [{ index: 0, arguments: 'x'.repeat(100) }] }),
      openaiChunk({ toolCalls: [{ index: 0, arguments: 'more"}' }] }),
      openaiChunk({ finishReason: 'tool_calls' }),
      openaiDone(),
    ].join('');
    const out = runChunks([wire], { maxArgumentsSize: 50 });
    expect(out.error).toBeUndefined();
    const byId = new Map(out.results.map((r: ToolCallResult) => [r.success ? r.data.id : r.error.toolCall.id, r]));
    const big = byId.get('big');
    expect(big?.success).toBe(false);
    expect(big?.error).toMatchObject({ name: 'ToolStreamError', code: 'arguments-too-large' });
    expect((big?.error as ToolStreamError<'arguments-too-large'>).limit).toBe(50);
    expect(byId.get('small')).toMatchObject({ success: true, data: { arguments: { b: 1 } } });
  });
});
