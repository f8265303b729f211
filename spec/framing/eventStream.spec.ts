/**
 * The AWS event-stream core against AWS's own codec (`@smithy/eventstream-codec`): frames it makes
 * are read under every chunking, every header type the specification defines decodes to the same
 * value, frames our writer makes are read back by AWS's codec, and every kind of bad input is a
 * typed error with the byte offset of its frame, the same however the input was cut. Frames with
 * bad lengths or headers are built by hand, their checksums from `node:zlib`'s CRC-32.
 */
import { Int64, type MessageHeaders, type MessageHeaderValue } from '@smithy/eventstream-codec';
import fc from 'fast-check';
import { crc32 } from 'node:zlib';
import { isToolStreamError, ToolStreamError, type FramedRecord } from 'rxjs-tool-calls';
import { EventStreamParser } from 'rxjs-tool-calls/advanced';
import { DEFAULT_MAX_FRAME_SIZE, type EventStreamHeaders, type EventStreamHeaderValue } from '../../src/framing/eventStream';
import { EventStreamWriter } from 'rxjs-tool-calls/gateway';
import { splitRandom } from 'rxjs-tool-calls/marbles';
import { chunkings } from '../helpers/chunking';
import { awsCodec, awsEvent, awsException, awsFrame, concatBytes, parseChunks } from '../helpers/framing';

const event = (name: string, data: string): FramedRecord => ({ event: name, data, id: undefined, retry: undefined });

/** Our header value as AWS's codec types it. */
function toSmithy(value: EventStreamHeaderValue): MessageHeaderValue {
  switch (value.type) {
    case 'long': {
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setBigInt64(0, value.value);
      return { type: 'long', value: new Int64(bytes) };
    }
    default:
      return value as MessageHeaderValue;
  }
}

/** AWS's codec's header value as ours. */
function fromSmithy(value: MessageHeaderValue): EventStreamHeaderValue {
  if (value.type === 'long') return { type: 'long', value: new DataView(value.value.bytes.buffer, value.value.bytes.byteOffset, 8).getBigInt64(0) };
  return value as EventStreamHeaderValue;
}

function smithyHeaders(headers: EventStreamHeaders): MessageHeaders {
  const out: MessageHeaders = {};
  for (const [name, value] of Object.entries(headers)) out[name] = toSmithy(value);
  return out;
}

/** Every header type, as our parser reads them. */
const ALL_TYPES: EventStreamHeaders = {
  ':message-type': { type: 'string', value: 'event' },
  ':event-type': { type: 'string', value: 'everyType' },
  yes: { type: 'boolean', value: true },
  no: { type: 'boolean', value: false },
  int8: { type: 'byte', value: -5 },
  int16: { type: 'short', value: -300 },
  int32: { type: 'integer', value: -70_000 },
  int64: { type: 'long', value: -1_234_567_890_123n },
  bytes: { type: 'binary', value: new Uint8Array([0, 1, 254, 255]) },
  text: { type: 'string', value: 'héllo ☃' },
  when: { type: 'timestamp', value: new Date(1_700_000_000_123) },
  id: { type: 'uuid', value: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0' },
};

/** Read `bytes` cut as `chunks`, keeping each frame's headers and payload text. */
function messagesOf(chunks: ReadonlyArray<Uint8Array>, parser = new EventStreamParser()): Array<{ headers: Record<string, EventStreamHeaderValue>; payload: string; offset: number }> {
  const out: Array<{ headers: Record<string, EventStreamHeaderValue>; payload: string; offset: number }> = [];
  for (const chunk of chunks) parser.pushMessages(chunk, (m, offset) => out.push({ headers: { ...m.headers }, payload: new TextDecoder().decode(m.payload), offset }));
  parser.end();
  return out;
}

/** A frame built by hand: prelude (with `totalLength`/`headersLength` overridable), header bytes, payload, both CRCs right. */
function rawFrame(headerBytes: Uint8Array, payload: Uint8Array, lengths: { total?: number; headers?: number } = {}): Uint8Array {
  const total = 16 + headerBytes.length + payload.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, lengths.total ?? total);
  view.setUint32(4, lengths.headers ?? headerBytes.length);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  out.set(headerBytes, 12);
  out.set(payload, 12 + headerBytes.length);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)));
  return out;
}

/** The bytes of one string header. */
function stringHeader(name: string, value: string): Uint8Array {
  const n = new TextEncoder().encode(name);
  const v = new TextEncoder().encode(value);
  return concatBytes([new Uint8Array([n.length]), n, new Uint8Array([7, v.length >> 8, v.length & 0xff]), v]);
}

const STREAM = [
  awsEvent('messageStart', { role: 'assistant' }),
  awsEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Zürich ☃ 🌧' } }),
  awsFrame({ ':message-type': 'event', ':event-type': 'blob', ':content-type': 'application/octet-stream' }, new Uint8Array([0x68, 0x69])),
  awsException('throttlingException', { message: 'Too many requests' }),
  awsFrame({ ':message-type': 'error', ':error-code': 'InternalError', ':error-message': 'An internal error occurred.' }, ''),
];
const STREAM_EVENTS = [
  event('messageStart', '{"role":"assistant"}'),
  event('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"Zürich ☃ 🌧"}}'),
  event('blob', 'hi'),
  event('throttlingException', '{"message":"Too many requests"}'),
  event('error', '{"code":"InternalError","message":"An internal error occurred."}'),
];

describe('EventStreamParser', () => {
  const bytes = concatBytes(STREAM);

  it.each(chunkings(bytes))("reads the frames AWS's codec made (%s)", (_name, chunks) => {
    const parser = new EventStreamParser();
    expect(parseChunks(parser, chunks)).toEqual({ events: STREAM_EVENTS, error: undefined });
  });

  it('counts the bytes it took', () => {
    const parser = new EventStreamParser();
    parser.push(bytes.subarray(0, 30), () => undefined);
    expect(parser.bytesRead).toBe(30);
    parser.push(bytes.subarray(30), () => undefined);
    expect(parser.bytesRead).toBe(bytes.length);
  });

  it.each(chunkings(awsCodec.encode({ headers: smithyHeaders(ALL_TYPES), body: new TextEncoder().encode('{}') })))('decodes every header type as AWS encodes it (%s)', (_name, chunks) => {
    const [only, ...rest] = messagesOf(chunks);
    expect(rest).toEqual([]);
    expect(only?.headers).toEqual(ALL_TYPES);
    expect(only?.payload).toBe('{}');
  });

  it("writes frames AWS's codec reads, every header type included, and reads them back", () => {
    const writer = new EventStreamWriter();
    const frame = writer.frame(ALL_TYPES, 'payload ☃');
    const decoded = awsCodec.decode(frame);
    const headers: Record<string, EventStreamHeaderValue> = {};
    for (const [name, value] of Object.entries(decoded.headers)) headers[name] = fromSmithy(value);
    expect(headers).toEqual(ALL_TYPES);
    expect(new TextDecoder().decode(decoded.body)).toBe('payload ☃');
    expect(messagesOf([frame])).toEqual([{ headers: ALL_TYPES, payload: 'payload ☃', offset: 0 }]);
  });

  it("reads any frames AWS's codec makes, cut anywhere (property)", () => {
    const headerValue: fc.Arbitrary<EventStreamHeaderValue> = fc.oneof(
      fc.boolean().map((value) => ({ type: 'boolean' as const, value })),
      fc.integer({ min: -128, max: 127 }).map((value) => ({ type: 'byte' as const, value })),
      fc.integer({ min: -32768, max: 32767 }).map((value) => ({ type: 'short' as const, value })),
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((value) => ({ type: 'integer' as const, value })),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((value) => ({ type: 'long' as const, value })),
      fc.uint8Array({ maxLength: 40 }).map((value) => ({ type: 'binary' as const, value })),
      fc.string({ unit: 'grapheme', maxLength: 30 }).map((value) => ({ type: 'string' as const, value })),
      fc.integer({ min: -8.64e12, max: 8.64e12 }).map((value) => ({ type: 'timestamp' as const, value: new Date(value) })),
      fc.uuid().map((value) => ({ type: 'uuid' as const, value })),
    );
    const frame = fc.record({
      headers: fc.dictionary(
        fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== '__proto__'),
        headerValue,
        { maxKeys: 6 },
      ),
      payload: fc.uint8Array({ maxLength: 300 }),
    });
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 1000 }), (frames, seed) => {
        const encoded = frames.map((f) => awsCodec.encode({ headers: smithyHeaders(f.headers), body: f.payload }));
        const read = messagesOf(splitRandom(concatBytes(encoded), seed, 64));
        let offset = 0;
        const expected = frames.map((f, i) => {
          const out = { headers: f.headers, payload: new TextDecoder().decode(f.payload), offset };
          offset += (encoded[i] as Uint8Array).length;
          return out;
        });
        expect(read).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('takes a string chunk as its UTF-8 bytes', () => {
    const parser = new EventStreamParser();
    let error: unknown;
    try {
      parser.push('é'.repeat(6), () => undefined); // 12 bytes: a prelude whose checksum is wrong
    } catch (e) {
      error = e;
    }
    expect(parser.bytesRead).toBe(12);
    expect(error).toMatchObject({ code: 'invalid-frame', framing: 'aws-event-stream', byteOffset: 0 });
  });

  it('defaults maxFrameSize to the largest frame a service may send', () => {
    expect(DEFAULT_MAX_FRAME_SIZE).toBe(16 + 128 * 1024 + 24 * 1024 * 1024);
    expect(new EventStreamParser().maxFrameSize).toBe(DEFAULT_MAX_FRAME_SIZE);
  });
});

describe('EventStreamParser errors', () => {
  const first = STREAM[0] as Uint8Array;
  const second = awsEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hi' } });

  /** The same error (code, fields) under every chunking, after the same events. */
  function expectUnderEveryChunking(bytes: Uint8Array, expected: Record<string, unknown>, events: FramedRecord[] = [event('messageStart', '{"role":"assistant"}')], options = {}): void {
    for (const [name, chunks] of chunkings(bytes)) {
      const result = parseChunks(new EventStreamParser(options), chunks);
      expect([name, result.events]).toEqual([name, events]);
      expect(isToolStreamError(result.error)).toBe(true);
      expect([name, result.error]).toEqual([name, expect.objectContaining(expected)]);
    }
  }

  it('a prelude checksum that does not match: invalid-frame at the frame', () => {
    const bad = second.slice();
    bad[10] = (bad[10] as number) ^ 0xff;
    expectUnderEveryChunking(concatBytes([first, bad]), { code: 'invalid-frame', framing: 'aws-event-stream', byteOffset: first.length, detail: expect.stringContaining('prelude checksum') });
  });

  it('a message checksum that does not match (a payload byte changed): invalid-frame at the frame', () => {
    const bad = second.slice();
    bad[bad.length - 6] = (bad[bad.length - 6] as number) ^ 0x01;
    expectUnderEveryChunking(concatBytes([first, bad]), { code: 'invalid-frame', byteOffset: first.length, detail: expect.stringContaining('message checksum') });
  });

  it('input that ends inside a frame, at every byte of it: truncated with the frame offset', () => {
    const whole = concatBytes([first, second]);
    for (let cut = first.length + 1; cut < whole.length; cut++) {
      const bytes = whole.subarray(0, cut);
      expectUnderEveryChunking(bytes, { code: 'truncated', provider: 'aws-event-stream', byteOffset: first.length, detail: expect.stringContaining(`at byte ${first.length}`) });
    }
  });

  it('a frame over maxFrameSize: event-too-large from its prelude alone, nothing of it kept', () => {
    const limit = second.length - 1;
    const expected = new ToolStreamError('event-too-large', {
      limit,
      byteOffset: first.length,
      start: [...second.subarray(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join(' '),
      framing: 'aws-event-stream',
    });
    expectUnderEveryChunking(concatBytes([first, second]), { ...expected, code: 'event-too-large', message: expected.message }, undefined, { maxFrameSize: limit });
    const parser = new EventStreamParser({ maxFrameSize: limit });
    expect(() => parser.push(concatBytes([first, second.subarray(0, 12)]), () => undefined)).toThrow(expected.message);
    expect(expected.message).toBe(`An AWS event-stream frame starting at byte ${first.length} exceeds the limit of ${limit} bytes: ${JSON.stringify(expected.start)}`);
  });

  it.each([
    ['an unknown :message-type', { ':message-type': 'notice', ':event-type': 'x' }, 'unknown :message-type "notice"'],
    ['no :message-type', { ':event-type': 'x' }, 'without a :message-type header'],
    ['an event without :event-type', { ':message-type': 'event' }, 'an event frame without a :event-type header'],
    ['an exception without :exception-type', { ':message-type': 'exception' }, 'an exception frame without a :exception-type header'],
  ])('%s: invalid-frame', (_name, headers, detail) => {
    expectUnderEveryChunking(concatBytes([first, awsFrame(headers, '{}')]), { code: 'invalid-frame', byteOffset: first.length, detail: expect.stringContaining(detail) });
  });

  it('a :message-type that is not a string: invalid-frame', () => {
    const frame = awsCodec.encode({ headers: { ':message-type': { type: 'integer', value: 1 } }, body: new Uint8Array() });
    expectUnderEveryChunking(concatBytes([first, frame]), { code: 'invalid-frame', detail: 'the :message-type header is a integer, not a string' });
  });

  it.each([
    ['a header of an unknown type', concatBytes([stringHeader(':message-type', 'event'), new Uint8Array([1, 0x61, 10])]), 'header "a" has the unknown type 10'],
    ['a header named twice', concatBytes([stringHeader(':message-type', 'event'), stringHeader(':message-type', 'event')]), 'header ":message-type" appears twice'],
    ['an empty header name', concatBytes([stringHeader(':message-type', 'event'), new Uint8Array([0, 0])]), 'a header name is empty'],
    ['a header value past the end of the headers', concatBytes([stringHeader(':message-type', 'event'), new Uint8Array([1, 0x61, 7, 0, 9, 0x62])]), 'runs past the end of the headers'],
    ['a header name past the end of the headers', concatBytes([stringHeader(':message-type', 'event'), new Uint8Array([5, 0x61])]), 'a header runs past the end'],
  ])('%s: invalid-frame', (_name, headerBytes, detail) => {
    expectUnderEveryChunking(concatBytes([first, rawFrame(headerBytes, new Uint8Array([0x7b, 0x7d]))]), { code: 'invalid-frame', byteOffset: first.length, detail: expect.stringContaining(detail) });
  });

  it('a name repeated among thousands of headers: invalid-frame (and a frame of thousands of distinct headers reads)', () => {
    const many = Array.from({ length: 5000 }, (_, i) => stringHeader(`h${i}`, ''));
    const ok = rawFrame(concatBytes([stringHeader(':message-type', 'event'), stringHeader(':event-type', 'x'), ...many]), new Uint8Array([0x7b, 0x7d]));
    expect(parseChunks(new EventStreamParser(), [concatBytes([first, ok])]).events).toEqual([event('messageStart', '{"role":"assistant"}'), event('x', '{}')]);
    const repeated = rawFrame(concatBytes([stringHeader(':message-type', 'event'), ...many, stringHeader('h4000', '')]), new Uint8Array());
    expectUnderEveryChunking(concatBytes([first, repeated]), { code: 'invalid-frame', byteOffset: first.length, detail: 'header "h4000" appears twice' });
  });

  it('a total length under 16 bytes or a headers length that does not fit: invalid-frame', () => {
    const small = rawFrame(new Uint8Array(), new Uint8Array(), { total: 15 });
    expectUnderEveryChunking(concatBytes([first, small]), { code: 'invalid-frame', detail: 'the total length 15 is below the 16 bytes of every frame' });
    const overlong = rawFrame(stringHeader(':message-type', 'event'), new Uint8Array(), { headers: 100 });
    expectUnderEveryChunking(concatBytes([first, overlong]), { code: 'invalid-frame', detail: expect.stringContaining('the headers length 100 does not fit') });
  });

  it('keeps throwing the same error until reset, then reads a new stream', () => {
    const parser = new EventStreamParser();
    const bad = second.slice();
    bad[0] = 0xff;
    let error: unknown;
    try {
      parser.push(bad, () => undefined);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'invalid-frame', byteOffset: 0 });
    expect(() => parser.push(first, () => undefined)).toThrow(error as Error);
    expect(() => parser.end()).toThrow(error as Error);
    parser.reset();
    expect(parseChunks(parser, [first])).toEqual({ events: [event('messageStart', '{"role":"assistant"}')], error: undefined });
  });
});
