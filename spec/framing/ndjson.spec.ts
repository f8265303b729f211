/**
 * The NDJSON core: lines cut anywhere (multi-byte characters included), LF and CRLF, a last line
 * without a line end, blank lines skipped, and the line-size limit, the same under every chunking.
 */
import fc from 'fast-check';
import { ToolStreamError } from 'rxjs-tool-calls';
import { NdjsonParser } from 'rxjs-tool-calls/advanced';
import { DEFAULT_MAX_LINE_SIZE } from '../../src/framing/ndjson';
import { chunkings, cutAt } from '../helpers/chunking';
import { message, parseChunks } from '../helpers/framing';

const encoder = new TextEncoder();

describe('NdjsonParser', () => {
  const text = '\uFEFF{"a":"Zürich ☃ 🌧"}\r\n\n   \r\n{"b":2}\n\t\n{"c":[1,\n';
  const tail = '"x"]}';

  it.each(chunkings(encoder.encode(text + tail)))('reads one record per line: CRLF, blank lines, a BOM, a last line without its line end (%s)', (_name, chunks) => {
    expect(parseChunks(new NdjsonParser(), chunks)).toEqual({
      events: [message('{"a":"Zürich ☃ 🌧"}'), message('{"b":2}'), message('{"c":[1,'), message('"x"]}')],
      error: undefined,
    });
  });

  it('reads string chunks as text and counts them as UTF-8', () => {
    const parser = new NdjsonParser();
    const result = parseChunks(parser, ['{"a":"é', '"}\r', '\n{"b"', ':1}']);
    expect(result).toEqual({ events: [message('{"a":"é"}'), message('{"b":1}')], error: undefined });
    const counting = new NdjsonParser();
    counting.push('{"a":"é"}\n', () => undefined);
    expect(counting.bytesRead).toBe(11);
  });

  it('hands a line over as soon as its line end arrives', () => {
    const parser = new NdjsonParser();
    const seen: string[] = [];
    parser.push('{"a":1}\n{"b"', (e) => seen.push(e.data));
    expect(seen).toEqual(['{"a":1}']);
    parser.push(':2}\n', (e) => seen.push(e.data));
    expect(seen).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('reads any lines cut anywhere (property)', () => {
    const line = fc.json().filter((j) => j.trim() !== '');
    const separator = fc.constantFrom('\n', '\r\n', '\n\n', '\r\n \r\n', '\n\t\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(line, separator), { maxLength: 12 }), fc.boolean(), fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true })), (lines, lastEnds, cuts) => {
        let wire = lines.map(([l, s]) => l + s).join('');
        if (!lastEnds && lines.length > 0) wire = wire.replace(/[\r\n\t ]+$/, '');
        const bytes = encoder.encode(wire);
        const chunks = cutAt(String.fromCharCode(...bytes), cuts).map((piece) => Uint8Array.from(piece, (c) => c.charCodeAt(0)));
        expect(parseChunks(new NdjsonParser(), chunks)).toEqual({ events: lines.map(([l]) => message(l)), error: undefined });
      }),
      { numRuns: 200 },
    );
  });

  describe('maxLineSize', () => {
    it('defaults to 16 MiB', () => {
      expect(DEFAULT_MAX_LINE_SIZE).toBe(16 * 1024 * 1024);
      expect(new NdjsonParser().maxLineSize).toBe(DEFAULT_MAX_LINE_SIZE);
    });

    it.each(chunkings(encoder.encode('{"a":1}\n"12345678"\r\n"1234567"\r\n"12345678"')))('accepts a line of exactly maxLineSize chars, CR not counted (%s)', (_name, chunks) => {
      expect(parseChunks(new NdjsonParser({ maxLineSize: 10 }), chunks).events.map((e) => e.data)).toEqual(['{"a":1}', '"12345678"', '"1234567"', '"12345678"']);
    });

    const first = '{"a":"é"}\n';
    const long = '"123456789"\n';
    const expected = new ToolStreamError('event-too-large', { limit: 10, byteOffset: encoder.encode(first).length, start: '"123456789"', framing: 'ndjson' });

    it.each(chunkings(encoder.encode(first + long)))('ends with event-too-large at a line over the limit, the same under every chunking (%s)', (_name, chunks) => {
      const result = parseChunks(new NdjsonParser({ maxLineSize: 10 }), chunks);
      expect(result.events).toEqual([message('{"a":"é"}')]);
      expect(result.error).toEqual(expected);
      expect((result.error as Error).message).toBe(`An NDJSON line starting at byte 11 exceeds the limit of 10 chars: "\\"123456789\\""`);
    });

    it('fails before the line end arrives, keeping nothing past the limit, then keeps failing until reset', () => {
      const parser = new NdjsonParser({ maxLineSize: 10 });
      parser.push(first, () => undefined);
      parser.push('"1234', () => undefined);
      expect(() => parser.push('56789"', () => undefined)).toThrow(expected.message);
      expect(() => parser.push('\n', () => undefined)).toThrow(expected.message);
      expect(() => parser.end(() => undefined)).toThrow(expected.message);
      parser.reset();
      expect(parseChunks(parser, ['{}'])).toEqual({ events: [message('{}')], error: undefined });
    });

    it('reports the first 200 chars of a long line, whatever the chunking', () => {
      const line = `"${'x'.repeat(500)}"`;
      for (const [, chunks] of chunkings(encoder.encode(`${line}\n`))) {
        const { error } = parseChunks(new NdjsonParser({ maxLineSize: 300 }), chunks);
        expect(error).toMatchObject({ code: 'event-too-large', byteOffset: 0, start: line.slice(0, 200) });
      }
    });
  });
});
