/**
 * The exhaustive two-chunk sweep, shared by the fuzz shards. Each stream is split at every offset.
 *
 * Streams up to FULL_LIMIT bytes run the whole pipeline (bytes → events and results) at every
 * offset. Larger streams would take minutes that way (one run costs ~1 ms per 10 KB, mostly
 * `JSON.parse`), so at every offset they run the only stage that sees chunk boundaries, the SSE
 * parser, and compare its events and ending exactly; the whole pipeline runs at every offset next
 * to a line end or inside a multi-byte character, and at every 7th offset.
 */
import { SseParser } from 'rxjs-tool-calls/advanced';
import { splitEveryByte } from 'rxjs-tool-calls/marbles';
import { runChunks } from './runStream';
import { allStreams, errorPrint, fingerprint } from './timeline';

export const FULL_LIMIT = 20_000;

function sseRun(chunks: ReadonlyArray<Uint8Array>): string {
  const parser = new SseParser();
  const events: unknown[] = [];
  const onEvent = (e: unknown): number => events.push(e);
  try {
    for (const chunk of chunks) parser.push(chunk, onEvent);
    parser.end(onEvent);
  } catch (error) {
    return JSON.stringify({ events, error: errorPrint(error) });
  }
  return JSON.stringify({ events });
}

/** Offsets where a chunk boundary is most likely to matter. */
function sensitive(bytes: Uint8Array): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 10 || b === 13) [i - 1, i, i + 1, i + 2].forEach((k) => out.add(k));
    else if ((b & 0xc0) === 0x80) [i, i + 1].forEach((k) => out.add(k));
    if (i % 7 === 0) out.add(i);
  }
  return out;
}

/** The offsets at which the two-chunk split gave something else than one chunk. */
export function sweep(bytes: Uint8Array): Array<{ k: number; level: 'pipeline' | 'sse' }> {
  const wrong: Array<{ k: number; level: 'pipeline' | 'sse' }> = [];
  const whole = fingerprint(runChunks([bytes]));
  const full = bytes.length <= FULL_LIMIT;
  const wholeSse = full ? '' : sseRun([bytes]);
  const pipelineAt = full ? undefined : sensitive(bytes);
  for (let k = 1; k < bytes.length; k++) {
    const chunks = [bytes.subarray(0, k), bytes.subarray(k)];
    if (!full && sseRun(chunks) !== wholeSse) wrong.push({ k, level: 'sse' });
    if ((full || pipelineAt?.has(k) === true) && fingerprint(runChunks(chunks)) !== whole) wrong.push({ k, level: 'pipeline' });
  }
  return wrong;
}

/**
 * The chunking fuzz for one shard (`index % 2 === shard`) of every stream of the suite: two chunks
 * split at every offset (see {@link sweep}), and one chunk per byte, give what one chunk gives.
 * Call inside a spec file; the two shards are separate files so both jest workers run.
 */
export function chunkingShard(shard: 0 | 1): void {
  const streams = allStreams().filter((_, i) => i % 2 === shard);
  describe.each(streams)('%s', (_name, bytes) => {
    it('two chunks, split at every offset, give what one chunk gives', () => {
      expect(sweep(bytes)).toEqual([]);
    });

    it('one chunk per byte gives what one chunk gives', () => {
      expect(fingerprint(runChunks(splitEveryByte(bytes)))).toBe(fingerprint(runChunks([bytes])));
    });
  });
}
