/**
 * fast-check generators for SSE streams: a list of events (the model), serialized with random
 * line endings, comments, field spellings and multibyte text, plus the events a WHATWG parser must
 * dispatch for it.
 */
import fc from 'fast-check';
import type { FramedRecord } from 'rxjs-tool-calls';

/** One generated event block. */
export interface EventModel {
  readonly event: string | undefined;
  readonly data: ReadonlyArray<string>;
  readonly id: string | undefined;
  readonly retry: number | undefined;
  /** Comment lines, and where they go among the field lines. */
  readonly comments: ReadonlyArray<string>;
}

/** Characters that stress the parser: multibyte (é, 😀, CJK), colons, spaces, JSON punctuation. */
const CHARS = ['a', 'b', 'z', '0', '7', ' ', ':', '{', '}', '"', ',', 'é', '😀', '中', '文', '\u00a0', '\t', '\\'];

const text = (maxLength: number) => fc.array(fc.constantFrom(...CHARS), { maxLength }).map((c) => c.join(''));
const name = fc.array(fc.constantFrom('a', 'b', 'x', '-', '_', '.', 'é'), { minLength: 1, maxLength: 8 }).map((c) => c.join(''));

export interface ModelOptions {
  /** Put an `id` only on events that have data (eventsource-parser forgets an id of an event it did not dispatch). */
  readonly idsOnlyWithData?: boolean;
}

export function eventModel(options: ModelOptions = {}): fc.Arbitrary<EventModel> {
  return fc
    .record({
      event: fc.option(name, { nil: undefined }),
      data: fc.array(text(12), { maxLength: 3 }),
      id: fc.option(text(6), { nil: undefined }),
      retry: fc.option(fc.nat({ max: 100_000 }), { nil: undefined }),
      comments: fc.array(text(8), { maxLength: 2 }),
    })
    .map((m) => (options.idsOnlyWithData && m.data.length === 0 ? { ...m, id: undefined } : m));
}

export const lineEnding = fc.constantFrom('\n', '\r', '\r\n');

export interface SerializedStream {
  readonly text: string;
  readonly expected: FramedRecord[];
}

/** Serialize events (each ended by a blank line) with the given line endings, cycled. */
export function serialize(events: ReadonlyArray<EventModel>, endings: ReadonlyArray<string>, spellings: ReadonlyArray<boolean>): SerializedStream {
  const lines: string[] = [];
  const expected: FramedRecord[] = [];
  let lastId: string | undefined;
  let k = 0;
  const spell = (): boolean => spellings[k++ % Math.max(1, spellings.length)] ?? false;
  for (const e of events) {
    const fields: string[] = [];
    if (e.event !== undefined) fields.push(`event: ${e.event}`);
    if (e.id !== undefined) fields.push(e.id === '' && spell() ? 'id' : `id: ${e.id}`);
    if (e.retry !== undefined) fields.push(spell() ? `retry:${e.retry}` : `retry: ${e.retry}`);
    for (const d of e.data) {
      // `data:x` (no space) is only the same as `data: x` when x does not start with a space
      if (d === '' && spell()) fields.push('data');
      else fields.push(d.startsWith(' ') || !spell() ? `data: ${d}` : `data:${d}`);
    }
    e.comments.forEach((c, i) => fields.splice(Math.min(i * 2, fields.length), 0, `:${c}`));
    lines.push(...fields, '');
    if (e.id !== undefined) lastId = e.id;
    if (e.data.length > 0) expected.push({ event: e.event ?? 'message', data: e.data.join('\n'), id: lastId, retry: e.retry });
  }
  let out = '';
  let previous = '';
  lines.forEach((line, i) => {
    let ending = endings[i % Math.max(1, endings.length)] ?? '\n';
    // a CR followed by an LF that ends an empty line would read as one CRLF: keep them apart
    if (previous === '\r' && line === '' && ending === '\n') ending = '\r';
    out += line + ending;
    previous = ending;
  });
  return { text: out, expected };
}

/** A whole stream: events, endings, field spellings, optional BOM and optional unterminated tail. */
export function sseStream(options: ModelOptions & { bom?: boolean; tail?: boolean } = {}): fc.Arbitrary<SerializedStream> {
  return fc
    .record({
      events: fc.array(eventModel(options), { maxLength: 8 }),
      endings: fc.array(lineEnding, { minLength: 1, maxLength: 6 }),
      spellings: fc.array(fc.boolean(), { maxLength: 6 }),
      bom: options.bom === false ? fc.constant(false) : fc.boolean(),
      tail: options.tail === false ? fc.constant('') : fc.constantFrom('', 'data: unterminated', 'data: x\n', 'event: y\ndata: z\r\n'),
    })
    .map(({ events, endings, spellings, bom, tail }) => {
      const s = serialize(events, endings, spellings);
      // an unterminated tail must not merge with a trailing CR into a CRLF
      const text = (bom ? '\uFEFF' : '') + s.text + (tail !== '' && s.text.endsWith('\r') ? `:\n${tail}` : tail);
      return { text, expected: s.expected };
    });
}

/** Cut points for a text of `length` units (from arbitrary naturals). */
export const cuts = fc.array(fc.nat(), { maxLength: 40 });

/** Split a string at the given points (mod its length). */
export function splitText(text: string, points: ReadonlyArray<number>): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of at) {
    out.push(text.slice(prev, p));
    prev = p;
  }
  out.push(text.slice(prev));
  return out;
}
