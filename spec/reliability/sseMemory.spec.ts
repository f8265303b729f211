/**
 * Memory for one SSE event stays within 3 × `maxEventSize`, whatever its shape:
 * millions of tiny `data:` lines, one long line in 1-char or 1-byte chunks (multi-byte characters
 * split), CR / LF / CRLF mixes cut anywhere, short data lines each in a large chunk padded with a
 * comment. Each case runs `SseParser` in a child process whose old generation is limited to
 * 3 × the event's size in bytes + 8 MB (for Node itself): it must dispatch the right event, or end
 * with `event-too-large` when the event is one line too long, never crash out of memory.
 *
 * Before the fix, the data string was a rope of two cells per line (8M one-char lines at the
 * default 16 MiB limit: 549 MB of heap) and a long line an array of one-char chunks (19 bytes a
 * char): every case below crashed out of memory under its limit.
 */
import path from 'node:path';
import { bundleChild, lastJsonLine, type ChildScript } from '../helpers/childProcess';
import type { SseShapeName } from './children/sseShapes';

const MiB = 1024 * 1024;

interface Report {
  readonly events: ReadonlyArray<{ length: number; digest: number }>;
  readonly error: { code: string; byteOffset: number } | null;
  readonly peakHeapMb: number;
}

let child: ChildScript;
beforeAll(async () => {
  child = await bundleChild(path.join(__dirname, 'children/sseEvent.ts'));
}, 60_000);
afterAll(() => child?.dispose());

/** Parse shape `name` of size `n` with `maxEventSize` in a child limited to 3 × the event's bytes + 8 MB. */
async function parseInChild(name: SseShapeName, n: number, maxEventSize: number, bytesPerChar: 1 | 2): Promise<Report> {
  const maxOldSpaceMb = 8 + (3 * bytesPerChar * maxEventSize) / MiB;
  return lastJsonLine<Report>(await child.run(['parse', name, String(n), String(maxEventSize)], { maxOldSpaceMb, timeoutMs: 90_000 }));
}

/** The `{ length, digest }` of the data shape `name` of size `n` must dispatch (built piece by piece, not parsed). */
async function expectedData(name: SseShapeName, n: number): Promise<{ length: number; digest: number }> {
  return lastJsonLine(await child.run(['expected', name, String(n)], { timeoutMs: 90_000 }));
}

describe('SseParser: one huge event in bounded memory (child process, heap limited to 3 × maxEventSize + 8 MB)', () => {
  it.each<[string, SseShapeName, number, number, 1 | 2]>([
    ["the issue's case: 8,388,600 lines `data:x` (58 MB on the wire, 16.8M chars of data) at the default 16 MiB", 'lines', 8_388_600, 16 * MiB, 1],
    ['900,000 lines of 2-, 3- and 4-byte chars ended by LF, CR and CRLF in turn, cut every 4,093 bytes, at 2 MiB', 'mixedLineEnds', 900_000, 2 * MiB, 2],
    ['one 4M-char line in 1-char string chunks at 4 MiB', 'longLineChars', 4_000_000, 4 * MiB, 1],
    ['one 1M-char line of `aé€😀` in 1-byte chunks at 1 MiB', 'longLineBytes', 200_000, 1 * MiB, 2],
    ['600 short data lines, each in a 64 KB chunk padded with a comment (40 MB), at 1 MiB', 'commentPadded', 600, 1 * MiB, 1],
  ])(
    '%s: dispatches the whole event',
    async (_name, shape, n, maxEventSize, bytesPerChar) => {
      const report = await parseInChild(shape, n, maxEventSize, bytesPerChar);
      expect(report.error).toBeNull();
      expect(report.events).toEqual([await expectedData(shape, n)]);
    },
    120_000,
  );

  it.each<[string, SseShapeName, number, number, 1 | 2]>([
    ['2,097,200 lines `data:x` at 4 MiB', 'lines', 2_097_200, 4 * MiB, 1],
    ['one 4.2M-char line in 1-char string chunks at 4 MiB', 'longLineChars', 4_200_000, 4 * MiB, 1],
    ['one 1.1M-char line in 1-byte chunks at 1 MiB', 'longLineBytes', 220_000, 1 * MiB, 2],
  ])(
    '%s, just over the limit: event-too-large at byte 0',
    async (_name, shape, n, maxEventSize, bytesPerChar) => {
      const report = await parseInChild(shape, n, maxEventSize, bytesPerChar);
      expect(report.events).toEqual([]);
      expect(report.error).toEqual({ code: 'event-too-large', byteOffset: 0 });
    },
    120_000,
  );

  it('the limit is not vacuous: the same child crashes out of memory when given far too little', async () => {
    const result = await child.run(['parse', 'longLineChars', String(4_000_000), String(64 * MiB)], { maxOldSpaceMb: 6, timeoutMs: 90_000 });
    expect(result.code).not.toBe(0);
    expect(result.outOfMemory).toBe(true);
  }, 120_000);
});
