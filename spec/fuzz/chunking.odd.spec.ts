/**
 * Chunking, exhaustively: for every stream of the suite (examples/ and ../shared/fixtures),
 * splitting the bytes into two chunks at EVERY offset, and into one chunk per byte, gives exactly
 * the same events, results and ending as one chunk. (Shard `index % 2 === SHARD`; see chunkSweep.)
 */
import { runChunks } from '../helpers/runStream';
import { sweep } from '../helpers/chunkSweep';
import { allStreams, fingerprint } from '../helpers/timeline';

const SHARD = 1;
const streams = allStreams().filter((_, i) => i % 2 === SHARD);

describe.each(streams)('%s', (_name, bytes) => {
  it('two chunks, split at every offset, give what one chunk gives', () => {
    expect(sweep(bytes)).toEqual([]);
  });

  it('one chunk per byte gives what one chunk gives', () => {
    const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    expect(fingerprint(runChunks(chunks))).toBe(fingerprint(runChunks([bytes])));
  });
});
