/**
 * Auto-detection and the start of the raw input: `AutoDecoder` asks for it only for a stream in
 * which no format was recognised, and tells its keeper to let go of it at the first recognised event
 * (a server with thousands of auto-detected streams open keeps no 512 bytes per stream).
 */
import { from, lastValueFrom, of, toArray } from 'rxjs';
import { readToolCalls, type FramedRecord, type StreamEvent } from 'rxjs-tool-calls';
import { AutoDecoder, type RawStart } from '../../src/providers/auto';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const sse = (data: string, event = 'message'): FramedRecord => ({ event, data, id: undefined, retry: undefined });

/** A raw start that records what the decoder asked of it. */
function keeper(start: string): RawStart & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    get: () => {
      calls.push('get');
      return start;
    },
    release: () => {
      calls.push('release');
    },
  };
}

describe('AutoDecoder and the raw start', () => {
  it('lets go of the raw start at the first recognised event, once, and never reads it', () => {
    const raw = keeper('unused');
    const decoder = new AutoDecoder(raw);
    const events: StreamEvent[] = [];
    decoder.sse(sse(''), (e) => events.push(e)); // says nothing: still detecting
    expect(raw.calls).toEqual([]);
    decoder.sse(sse(JSON.stringify({ id: 'c', model: 'm', choices: [{ index: 0, delta: { content: 'hi' } }] })), (e) => events.push(e));
    decoder.sse(sse(JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })), (e) => events.push(e));
    decoder.sse(sse('[DONE]'), (e) => events.push(e));
    decoder.end((e) => events.push(e));
    expect(raw.calls).toEqual(['release']);
    expect(events.map((e) => e.type)).toEqual(['metadata', 'text-delta', 'finish', 'done']);
  });

  it('reads the raw start for the error of a stream that ended before any recognisable event', () => {
    const raw = keeper('<html>502 Bad Gateway</html>');
    const decoder = new AutoDecoder(raw);
    decoder.sse(sse(' '), () => undefined);
    expect(() => decoder.end(() => undefined)).toThrow(expect.objectContaining({ code: 'unknown-format', start: '<html>502 Bad Gateway</html>' }));
    expect(raw.calls).toEqual(['get']);
  });

  it('takes a function as the raw start too, and shows the event itself when it matches no format', () => {
    expect(() => new AutoDecoder(() => '{"error":"x"}').end(() => undefined)).toThrow(
      expect.objectContaining({ code: 'unknown-format', start: '{"error":"x"}', detail: 'the body is a JSON error document, not an event stream' }),
    );
    const decoder = new AutoDecoder(() => 'not shown');
    expect(() => decoder.sse(sse('{"x":1}', 'update'), () => undefined)).toThrow(expect.objectContaining({ code: 'unknown-format', start: 'event: update\ndata: {"x":1}' }));
    expect(() => new AutoDecoder().end(() => undefined)).toThrow(expect.objectContaining({ code: 'unknown-format', start: '' }));
  });

  it('readToolCalls(): the raw start of a stream of no format, however it was chunked; a recognised stream reads as before', async () => {
    const page = '<!DOCTYPE html><title>Zürich gateway error</title>';
    const chunkings: Array<ReadonlyArray<string | Uint8Array>> = [[page], [...new TextEncoder().encode(page)].map((b) => new Uint8Array([b]))];
    for (const chunks of chunkings) {
      await expect(lastValueFrom(from(chunks).pipe(readToolCalls(), toArray()))).rejects.toMatchObject({ code: 'unknown-format', start: page });
    }
    const wire = [openaiChunk({ toolCalls: [{ index: 0, id: 'call_1', name: 'f', arguments: '{"a":1}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()];
    expect(await lastValueFrom(of(...wire).pipe(readToolCalls(), toArray()))).toEqual([{ success: true, data: expect.objectContaining({ id: 'call_1', arguments: { a: 1 } }) }]);
  });
});
