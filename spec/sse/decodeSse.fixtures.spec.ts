/**
 * Real recorded provider streams from the shared fixture corpus (read in place, never copied):
 * the number of dispatched events matches `sseEventCount`, for one chunk and for random chunking.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SseParser } from 'rxjs-tool-calls/advanced';
import { splitRandom } from 'rxjs-tool-calls/marbles';
import { parseAll } from '../helpers/sse';
import { FIXTURES_DIR } from '../helpers/fixtures';

const FIXTURES = FIXTURES_DIR;

function sseFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sseFiles(full);
    return entry.endsWith('.sse') ? [full] : [];
  });
}

const files = sseFiles(FIXTURES).sort();

describe('decodeSse on the shared fixtures', () => {
  it('finds the fixture corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
  });

  describe.each(files.map((file) => [path.relative(FIXTURES, file), file] as const))('%s', (_name, file) => {
    const bytes = new Uint8Array(readFileSync(file));
    const expected = (JSON.parse(readFileSync(file.replace(/\.sse$/, '.expected.json'), 'utf8')) as { sseEventCount: number }).sseEventCount;
    const whole = parseAll([bytes]);

    it('dispatches sseEventCount events from one chunk', () => {
      expect(whole).toHaveLength(expected);
    });

    it('dispatches the same events for random chunking', () => {
      for (const [seed, max] of [
        [1, 1],
        [2, 3],
        [3, 17],
        [4, 256],
        [5, 4096],
      ] as const) {
        expect(parseAll(splitRandom(bytes, seed, max), new SseParser())).toEqual(whole);
      }
    });

    it('dispatches the same events to an observer as to a handler', () => {
      const parser = new SseParser();
      const seen: unknown[] = [];
      const observer = { next: (event: unknown) => seen.push(event) };
      for (const chunk of splitRandom(bytes, 6, 64)) parser.push(chunk, observer);
      parser.end(observer);
      expect(seen).toEqual(whole);
    });
  });
});
