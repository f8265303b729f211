/**
 * Gemini's answer without `alt=sse` is one JSON array of the same chunks: every recorded Gemini
 * stream in ../shared/fixtures, re-framed at test time as that array (each event's data an element,
 * pretty-printed with CRLF as the API writes it), reads through `decodeJsonArray()` and the same
 * `gemini()` decoder exactly as the SSE recording does, under every chunking.
 */
import { from } from 'rxjs';
import { decodeJsonArray, decodeSse, gemini } from 'rxjs-tool-calls';
import { SseParser } from 'rxjs-tool-calls/advanced';
import { chunkings } from '../../helpers/chunking';
import { loadFixtures } from '../../helpers/fixtures';
import { collect } from '../../helpers/reencode';

const google = loadFixtures().filter((f) => f.name.startsWith('google/'));

/** The SSE recording's data payloads as one streamed JSON array. */
function asArray(bytes: Uint8Array): Uint8Array {
  const elements: string[] = [];
  const parser = new SseParser();
  parser.push(bytes, (event) => elements.push(JSON.stringify(JSON.parse(event.data), null, 2).replace(/\n/g, '\r\n')));
  parser.end(() => undefined);
  return new TextEncoder().encode(`[${elements.join('\r\n,\r\n')}]`);
}

it('covers every recorded Gemini stream', () => {
  expect(google.length).toBe(7);
});

describe.each(google.map((f) => [f.name, f.bytes] as const))('%s as a JSON array', (_name, bytes) => {
  const expected = collect(from([bytes]).pipe(decodeSse(), gemini()));

  it.each(chunkings(asArray(bytes)))('gives the events of the SSE recording (%s)', (_chunking, chunks) => {
    const actual = collect(from(chunks).pipe(decodeJsonArray(), gemini()));
    expect(actual).toEqual(expected);
  });
});
