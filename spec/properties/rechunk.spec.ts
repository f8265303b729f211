/**
 * Property: for every stream in the suite (our own examples, the shared fixtures and our own streams of the formats they lack), any
 * re-chunking of its bytes — down to one byte per chunk, splits inside multi-byte characters —
 * gives exactly the same events and results as one chunk.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { plain } from '../helpers/plain';
import { loadFixtures, loadOwnFixtures } from '../helpers/fixtures';
import { runChunks, type RunOutcome } from '../helpers/runStream';
import { isToolStreamError } from 'rxjs-tool-calls';

const streams: Array<[string, Uint8Array]> = [
  ['examples/weather.sse', new Uint8Array(readFileSync(resolve(__dirname, '../../examples/weather.sse')))],
  ...[...loadFixtures(), ...loadOwnFixtures()].map((f): [string, Uint8Array] => [f.name, f.bytes]),
];

function comparable(outcome: RunOutcome): unknown {
  return {
    events: outcome.events,
    results: outcome.results.map(plain),
    error: isToolStreamError(outcome.error) ? outcome.error.toJSON() : outcome.error,
    completed: outcome.completed,
  };
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  out.push(bytes.subarray(prev));
  return out;
}

describe.each(streams)('%s', (_name, bytes) => {
  const whole = comparable(runChunks([bytes]));

  it('any set of split points gives the same events and results as one chunk', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
        expect(comparable(runChunks(splitAt(bytes, cuts)))).toEqual(whole);
      }),
      { numRuns: 25, seed: 42 },
    );
  });

  it('splitting inside every multi-byte character gives the same result', () => {
    const cuts: number[] = [];
    for (let i = 0; i < bytes.length; i++) if ((bytes[i]! & 0xc0) === 0x80) cuts.push(i);
    expect(comparable(runChunks(splitAt(bytes, cuts)))).toEqual(whole);
  });
});
