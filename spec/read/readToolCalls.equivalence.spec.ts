/**
 * readToolCalls() runs the SSE parser, the wire decoder and the tracker fused into one operator;
 * it must give exactly what the composition readStreamEvents() + toolCalls() gives, on every
 * stream, under every chunking, including how it ends.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { from } from 'rxjs';
import { isToolStreamError, readToolCalls, type ReadToolCallsOptions, type ToolCallResult } from 'rxjs-tool-calls';
import { chunkings } from '../helpers/chunking';
import { loadFixtures } from '../helpers/fixtures';
import { plain } from '../helpers/plain';
import { runChunks } from '../helpers/runStream';

function fused(chunks: Uint8Array[], options: ReadToolCallsOptions) {
  const results: ToolCallResult[] = [];
  let error: unknown;
  let completed = false;
  from(chunks)
    .pipe(readToolCalls(options))
    .subscribe({ next: (r) => results.push(r), error: (e: unknown) => (error = e), complete: () => (completed = true) });
  return { results: results.map(plain), error: isToolStreamError(error) ? error.toJSON() : error, completed };
}

const streams: Array<[string, Uint8Array]> = [
  ['examples/weather.sse', new Uint8Array(readFileSync(resolve(__dirname, '../../examples/weather.sse')))],
  ...loadFixtures().map((f): [string, Uint8Array] => [f.name, f.bytes]),
  ['html error page', new TextEncoder().encode('<html>502 Bad Gateway</html>')],
  ['cut mid-call', new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\\"x\\":"}}]}}]}\n\n')],
];

describe.each(streams)('%s', (_name, bytes) => {
  it.each(chunkings(bytes).slice(0, 4))('gives what readStreamEvents() + toolCalls() gives (%s)', (_how, chunks) => {
    let n = 0;
    const generateId = () => `gen_${n++}`;
    const composed = runChunks(chunks, { generateId });
    n = 0;
    const expected = { results: composed.results.map(plain), error: isToolStreamError(composed.error) ? composed.error.toJSON() : composed.error, completed: composed.completed };
    expect(fused(chunks, { generateId })).toEqual(expected);
  });
});

it('limits behave the same (maxToolCalls, maxArgumentsSize, maxEventSize)', () => {
  for (const f of loadFixtures().slice(0, 12)) {
    for (const options of [{ maxToolCalls: 1 }, { maxArgumentsSize: 8 }, { maxEventSize: 64 }]) {
      let n = 0;
      const generateId = () => `gen_${n++}`;
      const composed = runChunks([f.bytes], { ...options, generateId });
      n = 0;
      expect(fused([f.bytes], { ...options, generateId })).toEqual({
        results: composed.results.map(plain),
        error: isToolStreamError(composed.error) ? composed.error.toJSON() : composed.error,
        completed: composed.completed,
      });
    }
  }
});
