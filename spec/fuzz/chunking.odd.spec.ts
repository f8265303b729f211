/**
 * Chunking, exhaustively: for every stream of the suite (examples/ and ../shared/fixtures),
 * splitting the bytes into two chunks at EVERY offset, and into one chunk per byte, gives exactly
 * the same events, results and ending as one chunk. Shard 1 of 2 (see chunkSweep).
 */
import { chunkingShard } from '../helpers/chunkSweep';

chunkingShard(1);
