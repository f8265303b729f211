/**
 * Hostile input (fast set; the fuzz project runs many more cases): whatever arrives, the run ends in
 * results and typed errors only, with the offending input attached where it helps.
 */
import fc from 'fast-check';
import { runChunks } from '../helpers/runStream';
import { allStreams } from '../helpers/timeline';
import { mutate, mutationArb, sseText, untyped, WRONG_SHAPES, expectNoUnhandledErrors } from '../helpers/mutations';
import { TRUNCATION_STREAMS } from '../helpers/truncationStreams';
import type { ToolStreamError } from 'rxjs-tool-calls';

const enc = new TextEncoder();
const streams = new Map(allStreams());
/** One stream of every format, to put a wrong shape after its first (format-telling) event. */
const PREFIXES = TRUNCATION_STREAMS.map((name) => [name, streams.get(name)!] as const);

expectNoUnhandledErrors();

describe('whole bodies that are not SSE', () => {
  it('an HTML error page ends with unknown-format showing the page', () => {
    const out = runChunks([enc.encode('<html>502 Bad Gateway</html>')]);
    expect(out.error).toMatchObject({ name: 'ToolStreamError', code: 'unknown-format' });
    expect((out.error as ToolStreamError<'unknown-format'>).start).toContain('<html>502 Bad Gateway</html>');
  });

  it('a JSON error body without data: is the provider error it carries (a JSON body is read as the response)', () => {
    const out = runChunks([enc.encode('{"error":{"message":"x"}}')]);
    expect(out.error).toMatchObject({ name: 'ToolStreamError', code: 'provider-error', message: expect.stringContaining('x') });
  });

  it('the start shown does not depend on the chunking (multi-byte text past 512 bytes)', () => {
    const page = enc.encode(`<html>${'エラー'.repeat(200)}</html>`);
    const whole = runChunks([page]).error as ToolStreamError<'unknown-format'>;
    const bytewise = runChunks(Array.from(page, (b) => Uint8Array.of(b))).error as ToolStreamError<'unknown-format'>;
    expect(bytewise.start).toBe(whole.start);
    expect(whole.start.startsWith('<html>エラー')).toBe(true);
  });

  it.each([
    ['invalid UTF-8', Uint8Array.of(0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0xfe, 0xc3, 0x28, 0x0a, 0x0a)],
    ['NUL bytes', enc.encode('data: {"choices":[{"delta":{"content":"\u0000"}}]}\n\ndata: \u0000\u0000\n\n')],
    ['random bytes', Uint8Array.from({ length: 300 }, (_, i) => (i * 7919) % 256)],
  ])('%s end typed', (_name, bytes) => {
    expect(untyped(runChunks([bytes]))).toBeUndefined();
  });

  it('a data line that is not JSON, after a valid start, is invalid-event with the line', () => {
    const out = runChunks([enc.encode(`${sseText('', '{"choices":[{"index":0,"delta":{"content":"hi"}}]}')}data: not json {\n\n`)]);
    expect(out.error).toMatchObject({ name: 'ToolStreamError', code: 'invalid-event' });
    expect((out.error as ToolStreamError<'invalid-event'>).data).toBe('not json {');
  });
});

describe.each(WRONG_SHAPES.map(([event, data]) => [`${event || 'message'} ${data}`, event, data] as const))('wrong shape %s', (_label, event, data) => {
  it('as the first event, and after the first event of every format: typed', () => {
    const problems: string[] = [];
    const alone = untyped(runChunks([enc.encode(sseText(event, data))]));
    if (alone !== undefined) problems.push(`alone: ${alone}`);
    for (const [name, bytes] of PREFIXES) {
      const blocks = new TextDecoder().decode(bytes).split(/(?<=\r?\n\r?\n)/);
      const wire = blocks.slice(0, 2).join('') + sseText(event, data) + blocks.slice(2).join('');
      const problem = untyped(runChunks([enc.encode(wire)]));
      if (problem !== undefined) problems.push(`${name}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });
});

it('event and byte mutations of real streams end typed (fast sample)', () => {
  const names = [...streams.keys()];
  fc.assert(
    fc.property(fc.nat({ max: names.length - 1 }), fc.array(mutationArb, { minLength: 1, maxLength: 6 }), (which, mutations) => {
      const bytes = mutate(streams.get(names[which]!)!, mutations);
      expect(untyped(runChunks([bytes]))).toBeUndefined();
    }),
    { numRuns: 150, seed: 7 },
  );
});
