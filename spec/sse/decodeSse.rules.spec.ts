/** One test per WHATWG "event stream interpretation" rule, through `decodeSse()`. */
import { splitEveryByte } from 'rxjs-tool-calls/marbles';
import { decodeAll, events, sse, utf8 } from '../helpers/sse';

describe('decodeSse: WHATWG parsing rules', () => {
  describe('decoding', () => {
    it('decodes a UTF-8 character split across chunks once', () => {
      const bytes = utf8('data: é😀中\n\n');
      expect(events(bytes.subarray(0, 7), bytes.subarray(7, 9), bytes.subarray(9, 12), bytes.subarray(12))).toEqual([sse('é😀中')]);
      expect(events(...splitEveryByte('data: é😀中\n\n'))).toEqual([sse('é😀中')]);
    });

    it('turns invalid UTF-8 into U+FFFD', () => {
      expect(events(new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0x41, 0xc3, 0x0a, 0x0a]))).toEqual([sse('\uFFFDA\uFFFD')]);
    });

    it('flushes an incomplete character as U+FFFD before a string chunk and at the end of input', () => {
      expect(events(utf8('data: a'), new Uint8Array([0xe4, 0xb8]), '\n\n')).toEqual([sse('a\uFFFD')]);
      expect(events(utf8('data: a\n\n'), new Uint8Array([0xe4]))).toEqual([sse('a')]);
    });

    it('takes string chunks as already-decoded text', () => {
      expect(events('data: é', '😀\n', '\n')).toEqual([sse('é😀')]);
    });

    it('mixes byte and string chunks', () => {
      expect(events(utf8('data: a'), 'b\n\n', utf8('data: c\n\n'))).toEqual([sse('ab'), sse('c')]);
    });

    it('strips one leading BOM', () => {
      expect(events('\uFEFFdata: a\n\n')).toEqual([sse('a')]);
      expect(events('\uFEFF\uFEFFdata: a\n\n')).toEqual([]); // the second BOM is part of the field name
    });

    it('strips a BOM whose bytes arrive in separate chunks', () => {
      expect(events(new Uint8Array([0xef]), new Uint8Array([0xbb]), new Uint8Array([0xbf, 0x64]), utf8('ata: a\n\n'))).toEqual([sse('a')]);
    });

    it('keeps a BOM that is not at the start of the stream', () => {
      expect(events('data: a\n\n', '\uFEFFdata: b\n\n')).toEqual([sse('a')]);
    });
  });

  describe('line ends', () => {
    it('accepts LF, CR and CRLF', () => {
      expect(events('data: a\n\ndata: b\r\rdata: c\r\n\r\n')).toEqual([sse('a'), sse('b'), sse('c')]);
    });

    it('counts a CR at the end of a chunk and an LF at the start of the next as one line end', () => {
      expect(events('data: a\r', '\ndata: b\r', '\n\r', '\n')).toEqual([sse('a\nb')]);
    });

    it('counts a split CRLF once even when empty chunks come between', () => {
      expect(events('data: a\r', '', utf8(''), '\n\r', '\n')).toEqual([sse('a')]);
    });

    it('processes a line ended by a final CR at the end of input', () => {
      expect(events('data: a\n\r')).toEqual([sse('a')]);
      expect(events('data: a\r', '\r')).toEqual([sse('a')]);
    });
  });

  describe('fields', () => {
    it('ignores comment lines', () => {
      expect(events(': hello\ndata: a\n:\n: data: b\n\n')).toEqual([sse('a')]);
    });

    it('reads a line without a colon as a field with an empty value', () => {
      expect(events('data\n\n')).toEqual([sse('')]);
      expect(events('data\ndata\n\n')).toEqual([sse('\n')]);
      expect(events('event\ndata: a\n\n')).toEqual([sse('a')]);
    });

    it('reads `data:` without a space', () => {
      expect(events('data:a\n\n')).toEqual([sse('a')]);
    });

    it('strips exactly one space after the colon', () => {
      expect(events('data:  a \n\n')).toEqual([sse(' a ')]);
      expect(events('event:  x\ndata: a\n\n')).toEqual([sse('a', { event: ' x' })]);
    });

    it('joins multi-line data with \\n', () => {
      expect(events('data: a\ndata:\ndata: b\n\n')).toEqual([sse('a\n\nb')]);
    });

    it('dispatches `data:` with an empty value as data ""', () => {
      expect(events('data:\n\n')).toEqual([sse('')]);
    });

    it('does not dispatch an event without data', () => {
      expect(events('event: x\n\n', 'id: 1\n\n', 'retry: 5\n\n', ': c\n\n', '\n\n')).toEqual([]);
    });

    it('does not carry `event` or `retry` past a blank line, even when nothing was dispatched', () => {
      expect(events('event: x\nretry: 5\n\ndata: a\n\n')).toEqual([sse('a')]);
    });

    it('defaults `event` to message (also for an empty `event:`)', () => {
      expect(events('event: update\ndata: a\n\nevent:\ndata: b\n\n')).toEqual([sse('a', { event: 'update' }), sse('b')]);
    });

    it('keeps the last event id for later events, also from an event that was not dispatched', () => {
      expect(events('id: 1\ndata: a\n\ndata: b\n\nid: 2\n\ndata: c\n\nid\ndata: d\n\n')).toEqual([sse('a', { id: '1' }), sse('b', { id: '1' }), sse('c', { id: '2' }), sse('d', { id: '' })]);
    });

    it('ignores an id containing U+0000', () => {
      expect(events('id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n')).toEqual([sse('a', { id: '1' }), sse('b', { id: '1' })]);
    });

    it('sets `retry` only when it is all ASCII digits', () => {
      expect(events('retry: 1500\ndata: a\n\nretry: 15x\ndata: b\n\nretry: -1\ndata: c\n\nretry:\ndata: d\n\nretry: 1.5\ndata: e\n\n')).toEqual([
        sse('a', { retry: 1500 }),
        sse('b'),
        sse('c'),
        sse('d'),
        sse('e'),
      ]);
    });

    it('keeps a valid `retry` when a later one in the same event is invalid', () => {
      expect(events('retry: 10\nretry: x\ndata: a\n\n')).toEqual([sse('a', { retry: 10 })]);
    });

    it('ignores unknown fields', () => {
      expect(events('foo: bar\nData: x\ndata : y\ndata: a\n\n')).toEqual([sse('a')]);
    });

    it('accepts fields in any order (data before event)', () => {
      expect(events('data: a\nevent: e\n\n')).toEqual([sse('a', { event: 'e' })]);
    });
  });

  describe('dispatch', () => {
    it('dispatches only at a blank line', () => {
      const result = decodeAll(['data: a\n', 'data: b\n']);
      expect(result).toEqual({ events: [], error: undefined, completed: true });
      expect(events('data: a\n', 'data: b\n', '\n')).toEqual([sse('a\nb')]);
    });

    it('drops an unterminated final event at the end of input', () => {
      expect(events('data: a\n\ndata: b\n')).toEqual([sse('a')]);
      expect(events('data: a\n\ndata: b')).toEqual([sse('a')]);
    });

    it('dispatches many events from one chunk in order', () => {
      const text = Array.from({ length: 100 }, (_, i) => `data: ${i}\n\n`).join('');
      expect(events(text).map((e) => e.data)).toEqual(Array.from({ length: 100 }, (_, i) => String(i)));
    });
  });
});
