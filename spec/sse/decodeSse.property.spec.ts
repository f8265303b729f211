/** Property tests: any chunking of a serialized stream gives the events of the model. */
import fc from 'fast-check';
import { cuts, sseStream, splitText } from '../helpers/sseArbitraries';
import { bytewise, decodeAll, parseAll, splitAt, utf8 } from '../helpers/sse';

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
        expect(parseAll(bytewise(text))).toEqual(expected);
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
