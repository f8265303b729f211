/**
 * `StreamText` (src/sse/utf8.ts): byte chunks cut anywhere, valid UTF-8 or not, give the text one
 * streaming `TextDecoder` gives, and `end` is the offset of the bytes that text came from.
 */
import fc from 'fast-check';
import { StreamText } from '../../src/sse/utf8';
import { cuts } from '../helpers/sseArbitraries';
import { splitAt, utf8 } from '../helpers/sse';

/** Bytes around the UTF-8 boundaries: ASCII, continuation bytes, every kind of lead, invalid leads. */
const byte = fc.oneof(fc.constantFrom(0x41, 0x0a, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff), fc.integer({ min: 0, max: 255 }));
const bytes = fc.array(byte, { maxLength: 40 }).map((b) => new Uint8Array(b));
const streaming = (input: Uint8Array[]) => {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return input.map((chunk) => decoder.decode(chunk, { stream: true })).join('') + decoder.decode();
};

describe('StreamText', () => {
  it('gives the text of one streaming decoder for any bytes cut anywhere', () => {
    fc.assert(
      fc.property(bytes, cuts, (all, points) => {
        const chunks = splitAt(
          all,
          points.map((p) => p % (all.length + 1)),
        );
        const input = new StreamText();
        const text = chunks.map((chunk) => input.bytes(chunk)).join('') + input.flush();
        expect(text).toBe(streaming([all]));
        expect(input.end).toBe(all.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('ends each text at the byte where its last whole character ends (valid UTF-8)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), cuts, (s, points) => {
        const all = utf8(s);
        const input = new StreamText();
        let text = '';
        for (const chunk of splitAt(
          all,
          points.map((p) => p % (all.length + 1)),
        )) {
          const piece = input.bytes(chunk);
          expect(input.start).toBe(utf8(text).length);
          text += piece;
          expect(input.end).toBe(utf8(text).length);
        }
        expect(text).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });

  it('holds the start of a cut character, across several chunks, and turns it into U+FFFD when flushed', () => {
    const input = new StreamText();
    expect([input.bytes(utf8('a')), input.bytes(new Uint8Array([0xf0])), input.bytes(new Uint8Array([0x9f])), input.bytes(new Uint8Array([0x98]))]).toEqual(['a', '', '', '']);
    expect([input.start, input.end]).toEqual([1, 1]);
    expect(input.bytes(new Uint8Array([0x80, 0x62]))).toBe('😀b');
    expect([input.start, input.end]).toEqual([1, 6]);
    expect(input.bytes(new Uint8Array([0xe4, 0xb8]))).toBe('');
    expect(input.flush()).toBe('\uFFFD');
    expect([input.start, input.end, input.decoding]).toEqual([6, 8, false]);
    input.reset();
    expect([input.bytes(new Uint8Array([0xe4])), input.start, input.end]).toEqual(['', 0, 0]);
  });
});
