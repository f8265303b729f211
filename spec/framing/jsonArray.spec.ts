/**
 * The streamed-JSON-array core: Gemini's `[{…}\n,\r\n{…}]` cut anywhere, strings holding brackets,
 * commas and escapes, scalars, malformed arrays as `invalid-frame` at the unexpected character,
 * cut arrays as `truncated`, and the element-size limit, the same under every chunking.
 */
import fc from 'fast-check';
import { ToolStreamError } from 'rxjs-tool-calls';
import { JsonArrayParser } from 'rxjs-tool-calls/advanced';
import { DEFAULT_MAX_ELEMENT_SIZE } from '../../src/framing/jsonArray';
import { chunkings, cutAt } from '../helpers/chunking';
import { message, parseChunks } from '../helpers/framing';

const encoder = new TextEncoder();
const bytesOf = (text: string): number => encoder.encode(text).length;

describe('JsonArrayParser', () => {
  const elements = [
    '{"candidates":[{"content":{"parts":[{"text":"a [b], {c} \\"d\\" \\\\"}]}}],"modelVersion":"m"}',
    '{"t":"Zürich ☃ 🌧 \\u005d"}',
    '[1,[2,[3]],{"x":"]"}]',
    '"a string, with ] and \\" inside"',
    '-12.5e3',
    'true',
    'null',
  ];
  const wire = `\uFEFF[${elements[0]}\n,\r\n${elements[1]}\r\n,${elements[2]} , ${elements[3]},${elements[4]}\t,${elements[5]},\n${elements[6]}\n]\r\n`;

  it.each(chunkings(encoder.encode(wire)))("reads each element of Gemini's streamed array, strings holding brackets, commas and escapes (%s)", (_name, chunks) => {
    expect(parseChunks(new JsonArrayParser(), chunks)).toEqual({ events: elements.map(message), error: undefined });
  });

  it('hands an element over as soon as its last char arrives (a scalar at the comma after it)', () => {
    const parser = new JsonArrayParser();
    const seen: string[] = [];
    parser.push('[{"a":1', (e) => seen.push(e.data));
    expect(seen).toEqual([]);
    parser.push('}', (e) => seen.push(e.data));
    expect(seen).toEqual(['{"a":1}']);
    parser.push(',12', (e) => seen.push(e.data));
    expect(seen).toEqual(['{"a":1}']);
    parser.push(',', (e) => seen.push(e.data));
    expect(seen).toEqual(['{"a":1}', '12']);
  });

  it('reads an empty array, and an empty input as no elements', () => {
    expect(parseChunks(new JsonArrayParser(), [' [ \r\n ] '])).toEqual({ events: [], error: undefined });
    expect(parseChunks(new JsonArrayParser(), [' \r\n'])).toEqual({ events: [], error: undefined });
    expect(parseChunks(new JsonArrayParser(), [])).toEqual({ events: [], error: undefined });
  });

  it('reads any array of JSON values, with any whitespace, cut anywhere (property)', () => {
    const space = fc.constantFrom('', ' ', '\n', '\r\n', '\t \r\n ');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.jsonValue(), space, space), { maxLength: 10 }), space, fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true })), (items, edge, cuts) => {
        const texts = items.map(([value]) => JSON.stringify(value));
        const wireText = `${edge}[${edge}${items.map(([, before, after], i) => `${before}${texts[i]}${after}`).join(',')}${edge}]${edge}`;
        const bytes = encoder.encode(wireText);
        const chunks = cutAt(String.fromCharCode(...bytes), cuts).map((piece) => Uint8Array.from(piece, (c) => c.charCodeAt(0)));
        expect(parseChunks(new JsonArrayParser(), chunks)).toEqual({ events: texts.map(message), error: undefined });
      }),
      { numRuns: 200 },
    );
  });

  describe('errors, at the byte of the unexpected character, under every chunking', () => {
    it.each([
      ['text before the array', ' \r\n{"é":1}', ' \r\n'.length, 'expected "[" to open the array, found "{"'],
      ['text after the array', '[{"é":1}] x', '[{"é":1}] '.length, 'text after the "]" that closed the array, found "x"'],
      ['a missing comma', '[{"é":1} {"b":2}]', '[{"é":1} '.length, 'expected "," or "]" after an element, found "{"'],
      ['an empty first element', '[ ,1]', '[ '.length, 'expected an element or "]", found ","'],
      ['an empty element between commas', '[1,,2]', '[1,'.length, 'expected an element after ",", found ","'],
      ['a trailing comma', '[1,]', '[1,'.length, 'expected an element after ",", found "]"'],
      ['a wrong closing bracket', '[{"é":[1}]', '[{"é":[1'.length, 'expected "]", found "}"'],
      ['a closer that opens an element', '[}]', '['.length, 'expected an element or "]", found "}"'],
    ])('%s: invalid-frame', (_name, text, chars, detail) => {
      const byteOffset = bytesOf(text.slice(0, chars));
      for (const [name, chunks] of chunkings(encoder.encode(text))) {
        const { error } = parseChunks(new JsonArrayParser(), chunks);
        expect([name, error]).toEqual([name, new ToolStreamError('invalid-frame', { framing: 'json-array', byteOffset, detail })]);
      }
    });

    it('the input ends inside an element: truncated at the element, at every cut', () => {
      const text = '[{"a":"é"},{"b":[1,2,"]"]}]';
      const start = bytesOf('[{"a":"é"},');
      const end = bytesOf('[{"a":"é"},{"b":[1,2,"]"]}');
      const bytes = encoder.encode(text);
      for (let cut = start + 1; cut < end; cut++) {
        for (const [name, chunks] of chunkings(bytes.subarray(0, cut))) {
          const result = parseChunks(new JsonArrayParser(), chunks);
          expect([cut, name, result.events]).toEqual([cut, name, [message('{"a":"é"}')]]);
          expect([cut, name, result.error]).toEqual([cut, name, expect.objectContaining({ code: 'truncated', provider: 'json-array', byteOffset: start })]);
        }
      }
    });

    it('the input ends before the "]": truncated at the end of input', () => {
      for (const text of ['[', '[{"a":1}', '[{"a":1} ,', '[1']) {
        const { error } = parseChunks(new JsonArrayParser(), [text]);
        expect(error).toMatchObject({ code: 'truncated', provider: 'json-array', byteOffset: text === '[1' ? 1 : text.length });
      }
    });
  });

  describe('maxElementSize', () => {
    it('defaults to 16 MiB', () => {
      expect(DEFAULT_MAX_ELEMENT_SIZE).toBe(16 * 1024 * 1024);
      expect(new JsonArrayParser().maxElementSize).toBe(DEFAULT_MAX_ELEMENT_SIZE);
    });

    it.each(chunkings(encoder.encode('[{"a":"é"}, 1234567890 ,{"b":"12"}]')))('accepts an element of exactly maxElementSize chars (%s)', (_name, chunks) => {
      expect(parseChunks(new JsonArrayParser({ maxElementSize: 10 }), chunks)).toEqual({ events: [message('{"a":"é"}'), message('1234567890'), message('{"b":"12"}')], error: undefined });
    });

    it.each(chunkings(encoder.encode('[{"a":"é"},\r\n{"b":"123"}]')))('ends with event-too-large at an element over the limit (%s)', (_name, chunks) => {
      const result = parseChunks(new JsonArrayParser({ maxElementSize: 10 }), chunks);
      expect(result.events).toEqual([message('{"a":"é"}')]);
      expect(result.error).toEqual(new ToolStreamError('event-too-large', { limit: 10, byteOffset: bytesOf('[{"a":"é"},\r\n'), start: '{"b":"123"}', framing: 'json-array' }));
    });

    it('fails as soon as an element outgrows the limit, before it ends', () => {
      const parser = new JsonArrayParser({ maxElementSize: 10 });
      parser.push('[{"b":"12', () => undefined);
      expect(() => parser.push('3",', () => undefined)).toThrow('A JSON-array element starting at byte 1 exceeds the limit of 10 chars');
      expect(() => parser.end(() => undefined)).toThrow('A JSON-array element starting at byte 1');
      parser.reset();
      expect(parseChunks(parser, ['[1]'])).toEqual({ events: [message('1')], error: undefined });
    });
  });
});
