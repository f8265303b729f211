/**
 * Cross-check against eventsource-parser 3.x (`createParser`), the parser we chose not to depend
 * on: on every input where it follows the WHATWG rules, both parsers dispatch the same events.
 *
 * Known eventsource-parser deviations from WHATWG (each pinned by a test below, so an upstream
 * change shows up here):
 * 1. A line ended by a final CR at the very end of input is left unprocessed (it waits for a
 *    possible LF that never comes), so a stream ending `data: a\n\r` dispatches nothing.
 * 2. `id` is reported only on the event that carries it; WHATWG keeps the last event ID for later
 *    events (also an id from a block that dispatched nothing, which eventsource-parser forgets).
 * 3. A BOM in decoded text is not stripped: `feed()` looks for the UTF-8 bytes EF BB BF as chars,
 *    which decoded text never contains (its stream wrapper relies on `TextDecoderStream` instead).
 *
 * The comparison therefore maps eventsource-parser's ids forward, keeps ids on events with data,
 * ends inputs without a lone CR and leaves out the BOM. `retry` is not compared: eventsource-parser
 * reports it through `onRetry`, not on the event.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { cuts, sseStream, splitText } from '../helpers/sseArbitraries';
import { seededRandom } from 'rxjs-tool-calls/marbles';
import { parseAll } from '../helpers/sse';
import { FIXTURES_DIR } from '../helpers/fixtures';

interface Compared {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

/** eventsource-parser's events, with its ids carried forward the WHATWG way. */
function viaEventsourceParser(chunks: ReadonlyArray<string>, raw = false): Compared[] {
  const out: Compared[] = [];
  let lastId: string | undefined;
  const parser = createParser({
    onEvent(message) {
      if (message.id !== undefined) lastId = message.id;
      out.push({ event: message.event ?? 'message', data: message.data, id: raw ? message.id : lastId });
    },
  });
  for (const chunk of chunks) parser.feed(chunk);
  parser.reset(); // end of input: drop what is pending (no `consume`)
  return out;
}

function viaOurs(chunks: ReadonlyArray<string>): Compared[] {
  return parseAll(chunks).map(({ event, data, id }) => ({ event, data, id }));
}

/** Make `text` end without a lone CR (deviation 1). */
function noFinalCR(text: string): string {
  return text.endsWith('\r') ? `${text}\n` : text;
}

describe('agreement with eventsource-parser 3.x', () => {
  it('agrees on random streams in one chunk', () => {
    fc.assert(
      fc.property(sseStream({ idsOnlyWithData: true, bom: false }), ({ text }) => {
        const input = [noFinalCR(text)];
        expect(viaOurs(input)).toEqual(viaEventsourceParser(input));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees on random streams cut into random string chunks', () => {
    fc.assert(
      fc.property(sseStream({ idsOnlyWithData: true, bom: false }), cuts, ({ text }, points) => {
        const input = splitText(noFinalCR(text), points);
        expect(viaOurs(input)).toEqual(viaEventsourceParser(input));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['multi-line data', 'data: a\ndata: b\n\n'],
    ['CR line ends', 'data: a\rdata: b\r\rdata: c\r\r\n'],
    ['CRLF split across chunks', ['data: a\r', '\n\r', '\n']],
    ['field without a colon', 'data\n\ndata\ndata\n\n'],
    ['two spaces after the colon', 'data:  a\n\n'],
    ['comments', ': x\ndata: a\n: y\n\n'],
    ['event with an empty name', 'event:\ndata: a\n\n'],
    ['unknown fields', 'foo: 1\ndata: a\n\n'],
    ['NUL in id', 'id: 1\0\ndata: a\n\n'],
    ['unterminated final event', 'data: a\n\ndata: b\n'],
    ['event without data', 'event: x\n\ndata: a\n\n'],
  ])('agrees on %s', (_name, input) => {
    const chunks = typeof input === 'string' ? [input] : input;
    expect(viaOurs(chunks)).toEqual(viaEventsourceParser(chunks));
  });

  it('agrees on every shared fixture, in one chunk and in random chunks', () => {
    const root = FIXTURES_DIR;
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((e) => (statSync(path.join(dir, e)).isDirectory() ? walk(path.join(dir, e)) : e.endsWith('.sse') ? [path.join(dir, e)] : []));
    const files = walk(root);
    expect(files.length).toBeGreaterThan(0);
    const random = seededRandom(42);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(viaOurs([text])).toEqual(viaEventsourceParser([text]));
      const chunks = splitText(
        text,
        Array.from({ length: 50 }, () => Math.floor(random() * text.length)),
      );
      expect(viaOurs(chunks)).toEqual(viaEventsourceParser(chunks));
    }
  });

  describe('known eventsource-parser deviations (WHATWG is on our side)', () => {
    it('1. leaves a line ended by a final CR unprocessed', () => {
      expect(viaOurs(['data: a\n\r'])).toEqual([{ event: 'message', data: 'a', id: undefined }]);
      expect(viaEventsourceParser(['data: a\n\r'])).toEqual([]);
    });

    it('2. reports `id` only on the event carrying it', () => {
      const input = ['id: 1\ndata: a\n\ndata: b\n\nid: 2\n\ndata: c\n\n'];
      expect(viaOurs(input).map((e) => e.id)).toEqual(['1', '1', '2']);
      expect(viaEventsourceParser(input, true).map((e) => e.id)).toEqual(['1', undefined, undefined]);
    });

    it('3. does not strip a BOM from decoded text', () => {
      expect(viaOurs(['\uFEFFdata: a\n\n'])).toEqual([{ event: 'message', data: 'a', id: undefined }]);
      expect(viaEventsourceParser(['\uFEFFdata: a\n\n'])).toEqual([]);
    });
  });
});
