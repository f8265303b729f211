/** The event size limit: typed error, byte offset, bounded memory, no quadratic rescans. */
import { Observable } from 'rxjs';
import { decodeSse, type FramedRecord, type ToolStreamError } from 'rxjs-tool-calls';
import { SseParser } from 'rxjs-tool-calls/advanced';
import { DEFAULT_MAX_EVENT_SIZE } from '../../src/sse/parser';
import { decodeAll, sse, utf8 } from '../helpers/sse';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** `prefix`, then `total` bytes of `x` in 64 KiB chunks, made lazily from one reused buffer. */
function hugeLine(prefix: string, total: number, onChunk: (sent: number) => void): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    const filler = new Uint8Array(CHUNK).fill(0x78);
    subscriber.next(utf8(prefix));
    let sent = 0;
    while (!subscriber.closed && sent < total) {
      subscriber.next(filler);
      sent += CHUNK;
      onChunk(sent);
    }
    subscriber.complete();
  });
}

describe('decodeSse: maxEventSize', () => {
  it('defaults to 16 MiB', () => {
    expect(DEFAULT_MAX_EVENT_SIZE).toBe(16 * MB);
    expect(new SseParser().maxEventSize).toBe(16 * MB);
  });

  it('accepts an event of exactly the limit and rejects one char more', () => {
    // `data: ` + 10 chars = a 16-char line
    expect(decodeAll(['data: 0123456789\n\n'], { maxEventSize: 16 }).events).toEqual([sse('0123456789')]);
    const { error } = decodeAll(['data: 0123456789\n\n'], { maxEventSize: 15 });
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'event-too-large' });
  });

  it('counts the data already buffered plus the pending line', () => {
    const { events, error } = decodeAll(['data: 0123\ndata: 4567\n\n'], { maxEventSize: 13 });
    expect(events).toEqual([]);
    expect(error).toMatchObject({ code: 'event-too-large', limit: 13, byteOffset: 0 });
  });

  it('reports the byte offset and start of the offending event (multibyte text before it)', () => {
    const before = 'data: é😀\n\n: c\n\n'; // 16 bytes, 13 chars
    const { events, error } = decodeAll([utf8(before), utf8('event: big\ndata: 0123'), utf8('456789abcdef')], { maxEventSize: 20 });
    expect(events).toEqual([sse('é😀')]);
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'event-too-large' });
    expect(error).toMatchObject({ code: 'event-too-large', byteOffset: utf8(before).length, start: 'event: big\ndata: 0123' }); // the first maxEventSize + 1 chars
  });

  it('reports the byte offset after a BOM and a CRLF split across chunks', () => {
    const { error } = decodeAll([utf8('\uFEFFdata: a\r\n\r'), utf8('\ndata: 0123456789')], { maxEventSize: 10 });
    expect(error).toMatchObject({ byteOffset: 3 + 'data: a\r\n\r\n'.length, start: 'data: 01234' });
  });

  it('fails on a complete oversized line inside one chunk', () => {
    const { events, error } = decodeAll([`data: a\n\ndata: ${'x'.repeat(100)}\n\ndata: b\n\n`], { maxEventSize: 50 });
    expect(events).toEqual([sse('a')]);
    expect(error).toMatchObject({ code: 'event-too-large', byteOffset: 9 });
  });

  it('keeps failing after the error (the parser is poisoned until reset)', () => {
    const parser = new SseParser({ maxEventSize: 8 });
    const onEvent = (_: FramedRecord): void => undefined;
    expect(() => parser.push('data: 123', onEvent)).toThrow(expect.objectContaining({ name: 'ToolStreamError', code: 'event-too-large' }));
    expect(() => parser.push('\n\n', onEvent)).toThrow(expect.objectContaining({ name: 'ToolStreamError', code: 'event-too-large' }));
    parser.reset();
    const out: FramedRecord[] = [];
    parser.push('data: 1\n\n', (e) => out.push(e));
    expect(out).toEqual([sse('1')]);
  });

  it('stops a never-ending 100 MB data line at the default limit with bounded memory', () => {
    const heapBefore = process.memoryUsage().heapUsed;
    let peak = 0;
    let sent = 0;
    let error: unknown;
    const started = performance.now();
    hugeLine('data: ', 100 * MB, (n) => {
      sent = n;
      if (n % (4 * MB) === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - heapBefore);
    })
      .pipe(decodeSse())
      .subscribe({ error: (e: unknown) => (error = e) });
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'event-too-large' });
    expect(error).toMatchObject({ limit: DEFAULT_MAX_EVENT_SIZE, byteOffset: 0 });
    expect((error as ToolStreamError<'event-too-large'>).start).toBe(`data: ${'x'.repeat(194)}`);
    // the source was unsubscribed right after the limit: nothing close to 100 MB was produced
    expect(sent).toBeLessThanOrEqual(DEFAULT_MAX_EVENT_SIZE + CHUNK);
    expect(peak).toBeLessThan(64 * MB);
    // linear: 16 MiB in 64 KiB pieces is a few tens of ms; a rescan per chunk would take seconds
    expect(elapsed).toBeLessThan(2000);
  });

  it('errors at a small limit after ~1 MiB of a 100 MB line, after earlier events', () => {
    const events: FramedRecord[] = [];
    let sent = 0;
    let error: unknown;
    hugeLine('data: first\n\ndata: ', 100 * MB, (n) => (sent = n))
      .pipe(decodeSse({ maxEventSize: MB }))
      .subscribe({ next: (e) => events.push(e), error: (e: unknown) => (error = e) });
    expect(events).toEqual([sse('first')]);
    expect(error).toMatchObject({ code: 'event-too-large', byteOffset: 'data: first\n\n'.length });
    expect(sent).toBeLessThanOrEqual(MB + CHUNK);
  });
});
