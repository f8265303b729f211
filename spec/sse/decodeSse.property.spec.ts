/** Property tests: any chunking of a serialized stream gives the events of the model. */
import fc from 'fast-check';
import { cuts, sseStream, splitText } from '../helpers/sseArbitraries';
import type { ToolStreamError } from 'rxjs-tool-calls';
import { splitEveryByte } from 'rxjs-tool-calls/marbles';
import { decodeAll, parseAll, splitAt, utf8 } from '../helpers/sse';

describe('decodeSse (properties)', () => {
  it('decodes the model events from one byte chunk', () => {
    fc.assert(
      fc.property(sseStream(), ({ text, expected }) => {
        expect(parseAll([utf8(text)])).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same events for random byte boundaries as for one chunk', () => {
    fc.assert(
      fc.property(sseStream(), cuts, ({ text, expected }, points) => {
        const bytes = utf8(text);
        const chunks = splitAt(
          bytes,
          points.map((p) => p % (bytes.length + 1)),
        );
        const result = decodeAll(chunks);
        expect(result.error).toBeUndefined();
        expect(result.events).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same events for one byte per chunk', () => {
    fc.assert(
      fc.property(sseStream(), ({ text, expected }) => {
        expect(parseAll(splitEveryByte(text))).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same events for string chunks cut anywhere (even between surrogates)', () => {
    fc.assert(
      fc.property(sseStream(), cuts, ({ text, expected }, points) => {
        expect(parseAll(splitText(text, points))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('decodeSse (properties of the size limit)', () => {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  it('fails on the same event, at a byte offset where its text starts, however the input is cut', () => {
    fc.assert(
      fc.property(sseStream(), cuts, fc.integer({ min: 1, max: 40 }), ({ text }, points, maxEventSize) => {
        const bytes = utf8(text);
        const whole = decodeAll([bytes], { maxEventSize });
        const chunked = decodeAll(
          splitAt(
            bytes,
            points.map((p) => p % (bytes.length + 1)),
          ),
          { maxEventSize },
        );
        expect(chunked).toEqual(whole);
        if (whole.error === undefined) return;
        const { byteOffset, start } = whole.error as ToolStreamError<'event-too-large'>;
        // the event's text starts right there, at the start of the stream (after a BOM) or of a line
        expect(decoder.decode(bytes.subarray(byteOffset)).startsWith(start)).toBe(true);
        const before = decoder.decode(bytes.subarray(0, byteOffset));
        expect(before === '' || before === '\uFEFF' || /[\r\n]$/.test(before)).toBe(true);
        expect(start.length).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });
});
