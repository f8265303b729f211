/**
 * TextBuffer (the parser's line and data buffer) gives exactly `pieces.join(separator)` however the
 * pieces are sized and wherever `detach()` is called; and the parser built on it gives the same
 * events as before for events that span many blocks (thousands of lines, lines longer than a block,
 * in any chunking), with the size limit counted exactly.
 */
import fc from 'fast-check';
import { splitEveryByte, splitRandom } from '../../marbles';
import { TextBuffer } from '../../src/sse/textBuffer';
import { decodeAll, parseAll, sse, utf8 } from '../helpers/sse';

/** A piece: mostly short, sometimes empty, sometimes longer than a block (8,192 chars), some multi-byte. */
const piece = fc.oneof(
  { weight: 8, arbitrary: fc.string({ maxLength: 20, unit: fc.constantFrom('a', 'b', 'é', '😀', ' ') }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 20_000 }).map((n) => 'z'.repeat(n)) },
);

describe('TextBuffer', () => {
  it.each([
    ['lines', '\n'],
    ['chunks of a line', ''],
  ])('%s: take() is the pieces joined by the separator, length and count follow, detach() changes nothing', (_name, separator) => {
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, fc.boolean()), { maxLength: 3000 }), (steps) => {
        const buffer = new TextBuffer(separator);
        const pieces: string[] = [];
        for (const [p, detach] of steps) {
          buffer.add(p);
          pieces.push(p);
          if (detach) buffer.detach();
          expect(buffer.count).toBe(pieces.length);
        }
        const expected = pieces.join(separator);
        expect(buffer.length).toBe(expected.length);
        expect(buffer.take()).toBe(expected);
        expect([buffer.count, buffer.length, buffer.take()]).toEqual([0, 0, '']);
      }),
      { numRuns: 60 },
    );
  });

  it('is reusable after take() and clear()', () => {
    const buffer = new TextBuffer('\n');
    for (let i = 0; i < 5000; i++) buffer.add(String(i));
    buffer.clear();
    expect([buffer.count, buffer.length]).toEqual([0, 0]);
    buffer.add('a');
    buffer.add('b');
    expect(buffer.take()).toBe('a\nb');
    buffer.add('c');
    expect(buffer.take()).toBe('c');
  });
});

describe('SseParser: events spanning many blocks', () => {
  const lines = Array.from({ length: 5000 }, (_, i) => `${i}:${'é😀x'.repeat(i % 7)}`);
  const long = 'y'.repeat(30_000) + '€';
  const wire = `data: ${lines.join('\ndata: ')}\r\n\r\ndata: ${long}\ndata: ${long}\r\rdata: tail\n\n`;
  const expected = [sse(lines.join('\n')), sse(`${long}\n${long}`), sse('tail')];
  const bytes = utf8(wire);

  it.each<[string, Array<Uint8Array | string>]>([
    ['one text', [wire]],
    ['one byte chunk', [bytes]],
    ['every byte', splitEveryByte(bytes)],
    ['random byte chunks (seed 1)', splitRandom(bytes, 1, 64)],
    ['random byte chunks (seed 2)', splitRandom(bytes, 2, 20_000)],
    ['20 KB text chunks', Array.from({ length: Math.ceil(wire.length / 20_000) }, (_, i) => wire.slice(i * 20_000, (i + 1) * 20_000))],
  ])('%s: the same events as the lines joined', (_name, chunks) => {
    expect(parseAll(chunks)).toEqual(expected);
  });

  it('counts the limit exactly over thousands of lines: the data so far plus the line', () => {
    const many = Array.from({ length: 3000 }, () => 'data:ab').join('\n') + '\n\n';
    const data = Array.from({ length: 3000 }, () => 'ab').join('\n'); // 8,999 chars
    // The last line is checked as 7 chars + the 8,996 chars of data before it.
    expect(decodeAll([many], { maxEventSize: 8996 + 7 }).events).toEqual([sse(data)]);
    expect(decodeAll([many], { maxEventSize: 8996 + 6 }).error).toMatchObject({ code: 'event-too-large', byteOffset: 0 });
  });

  it('counts the limit exactly over a line in many chunks: the pending line plus the data so far', () => {
    const text = `data: a\ndata: ${'x'.repeat(20_000)}`;
    const chunks = Array.from({ length: text.length }, (_, i) => text[i] as string);
    expect(decodeAll([...chunks, '\n\n'], { maxEventSize: 1 + 20_006 }).events).toEqual([sse(`a\n${'x'.repeat(20_000)}`)]);
    expect(decodeAll(chunks, { maxEventSize: 1 + 20_005 }).error).toMatchObject({ code: 'event-too-large', byteOffset: 0 });
  });
});
