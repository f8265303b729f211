/**
 * The AWS event stream (`application/vnd.amazon.eventstream`), free of RxJS: the binary framing of
 * Bedrock's `ConverseStream` and `InvokeModelWithResponseStream` answers, read into
 * {@link FramedRecord}s so that the wire decoders read it as they read SSE (the gateway's
 * `EventStreamWriter` writes it).
 *
 * One frame (the spec calls it a message), every integer big-endian:
 *
 * ```text
 * total length (4) | headers length (4) | prelude CRC-32 (4) | headers | payload | message CRC-32 (4)
 * ```
 *
 * The prelude CRC covers the first 8 bytes, the message CRC everything before it. A header is a
 * name (1-byte length, UTF-8), a type (1 byte) and a value: `0` true, `1` false (no value bytes),
 * `2` byte (int8), `3` short (int16), `4` integer (int32), `5` long (int64), `6` byte array and `7`
 * string (each with a 2-byte length), `8` timestamp (int64 milliseconds since the epoch), `9` UUID
 * (16 bytes).
 *
 * @module
 */
import { ToolStreamError } from '../errors';
import { aCount, checkOptions } from '../internal/options';
import type { FramedRecord } from '../events';
import { Crc32 } from './crc32';
import { deliver, type RecordSink } from '../sse/recordSink';

/**
 * The default {@link DecodeAwsEventStreamOptions.maxFrameSize}: 25,296,912 bytes, the largest frame the
 * specification lets a service send (24 MiB of payload, 128 KiB of headers and the 16 bytes of
 * prelude and checksums). A frame whose prelude announces more is refused before any of it is kept.
 */
export const DEFAULT_MAX_FRAME_SIZE = 25_165_824 + 131_072 + 16;

/** The prelude: total length, headers length, prelude CRC. */
export const PRELUDE = 12;
/** The prelude and the message CRC: the smallest frame. */
export const OVERHEAD = 16;
const FRAMING = 'aws-event-stream';

/** Options of {@link EventStreamParser} and `decodeAwsEventStream()`. */
export interface DecodeAwsEventStreamOptions {
  /** The largest frame accepted, in bytes (its total length). Default 25,296,912 bytes (24 MiB of payload, 128 KiB of headers and the frame's 16 bytes). */
  readonly maxFrameSize?: number;
}

/** One header value, typed as the specification defines them (the names are `@smithy/eventstream-codec`'s). */
export type EventStreamHeaderValue =
  | {
      /** Types 0 (true) and 1 (false). */
      readonly type: 'boolean';
      /** The value. */
      readonly value: boolean;
    }
  | {
      /** Types 2 (int8), 3 (int16) and 4 (int32). */
      readonly type: 'byte' | 'short' | 'integer';
      /** The value. */
      readonly value: number;
    }
  | {
      /** Type 5 (int64). */
      readonly type: 'long';
      /** The value. */
      readonly value: bigint;
    }
  | {
      /** Type 6 (byte array). */
      readonly type: 'binary';
      /** The bytes (a copy: it keeps no chunk alive). */
      readonly value: Uint8Array;
    }
  | {
      /** Type 7 (UTF-8 string). */
      readonly type: 'string';
      /** The value. */
      readonly value: string;
    }
  | {
      /** Type 8 (int64 milliseconds since 1970-01-01T00:00:00Z). */
      readonly type: 'timestamp';
      /** The value. */
      readonly value: Date;
    }
  | {
      /** Type 9 (16 bytes). */
      readonly type: 'uuid';
      /** The value, as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hex. */
      readonly value: string;
    };

/** A frame's headers by name (a header name appears at most once in a frame). */
export type EventStreamHeaders = Readonly<Record<string, EventStreamHeaderValue>>;

/** One frame, decoded. */
export interface EventStreamMessage {
  /** The headers (`:message-type`, `:event-type`, `:content-type`, …). */
  readonly headers: EventStreamHeaders;
  /** The payload bytes (a view into the input: copy it to keep it beyond the callback). */
  readonly payload: Uint8Array;
}

/** Receives each frame with the byte offset of its first byte in the stream. */
export type EventStreamMessageHandler = (message: EventStreamMessage, byteOffset: number) => void;

/** Header names and values up to this many bytes are kept decoded, per parser. */
const MAX_CACHED = 64;
/** Up to this many headers of a frame, repeated names are found by comparing with each. */
const FEW_HEADERS = 8;
/** How many decoded names and values one parser keeps at most. */
const MAX_STRINGS = 256;
/** The type names of the type indicators, for error details. */
const TYPE_NAMES = ['boolean', 'boolean', 'byte', 'short', 'integer', 'long', 'byte_array', 'string', 'timestamp', 'uuid'];

const TRUE: EventStreamHeaderValue = { type: 'boolean', value: true };
const FALSE: EventStreamHeaderValue = { type: 'boolean', value: false };

function u32(bytes: Uint8Array, at: number): number {
  return (((bytes[at] as number) << 24) | ((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number)) >>> 0;
}

const hex32 = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;

function hexBytes(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++) out += `${i === start ? '' : ' '}${(bytes[i] as number).toString(16).padStart(2, '0')}`;
  return out;
}

/**
 * An AWS event-stream parser for one stream: bytes cut anywhere in, one record per frame out. Feed
 * it with {@link EventStreamParser.push} and finish with {@link EventStreamParser.end}.
 *
 * Each frame's prelude CRC is checked as soon as its 12 bytes are in (so a garbage length is never
 * trusted), its total length against `maxFrameSize` before anything of it is kept, and its message
 * CRC when it is complete. A frame that arrives whole in one chunk is read in place; one cut across
 * chunks is copied once into a buffer of its announced size.
 *
 * As an {@link FramedRecord} (what {@link EventStreamParser.push} hands over):
 *
 * | `:message-type` | `event` | `data` |
 * |---|---|---|
 * | `event` | the `:event-type` header (`contentBlockDelta`, `chunk`, …) | the payload as UTF-8 text |
 * | `exception` | the `:exception-type` header (`throttlingException`, …) | the payload as UTF-8 text |
 * | `error` | `'error'` | `{"code":<:error-code>,"message":<:error-message>}` (each when present) |
 *
 * `id` and `retry` are always `undefined`. Errors, each thrown from `push`/`end` and again by every
 * later call until {@link EventStreamParser.reset}:
 *
 * - `invalid-frame` (`byteOffset`: the frame's first byte): a prelude or message CRC that does not
 *   match, a total length under 16 bytes or a headers length that does not fit, a malformed or
 *   repeated header or an unknown header type, a missing or unknown `:message-type` (only `event`,
 *   `exception` and `error` exist), an event without `:event-type` or an exception without
 *   `:exception-type`.
 * - `event-too-large` (`framing: 'aws-event-stream'`, `limit` in bytes, `start`: the prelude in
 *   hex): a total length over `maxFrameSize`.
 * - `truncated` (`provider: 'aws-event-stream'`, `byteOffset`): the input ended inside a frame.
 *
 * String chunks are taken as their UTF-8 encoding (binary input should arrive as bytes).
 */
export class EventStreamParser {
  /** The size limit in use, in bytes of a frame's total length. */
  readonly maxFrameSize: number;

  private readonly crc = new Crc32();
  private readonly utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  private encoder: TextEncoder | undefined;
  private bytesIn = 0;
  /** The prelude of a frame cut before its 12th byte. */
  private readonly prelude = new Uint8Array(PRELUDE);
  /** The frame being collected across chunks, once its prelude is known. */
  private frame: Uint8Array | undefined;
  /** Bytes of the cut frame collected so far (0: no frame is cut). */
  private filled = 0;
  /** Its total length (0 while its prelude is incomplete). */
  private total = 0;
  /** The byte offset of its first byte. */
  private frameStart = 0;
  private failure: ToolStreamError | undefined;
  /** Where the frames of the chunk being read go: records (`push`), or whole messages (`pushMessages`). */
  private sink: RecordSink | undefined;
  private onMessage: EventStreamMessageHandler | undefined;
  /** The header {@link EventStreamParser.nextHeader} read last: its name, type and value bytes. */
  private headerName = '';
  private headerType = 0;
  private valueStart = 0;
  private valueEnd = 0;
  /** The header names of the frame being read (one list, overwritten frame after frame: a repeated name is an error). */
  private readonly seen: string[] = [];
  /** Short ASCII names and values already decoded (the same few repeat in every frame), by a hash of their bytes. */
  private readonly strings = new Map<number, string>();

  /**
   * A parser for one stream (reusable for the next after {@link EventStreamParser.end}).
   *
   * @param options `maxFrameSize`.
   * @throws {ToolStreamError} `invalid-option` for an option it does not take or a size below 1.
   */
  constructor(options: DecodeAwsEventStreamOptions = {}) {
    checkOptions('EventStreamParser', options, { maxFrameSize: /* @__PURE__ */ aCount(1) });
    this.maxFrameSize = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
  }

  /** How many bytes of input this stream took so far (string chunks count as their UTF-8 encoding). */
  get bytesRead(): number {
    return this.bytesIn;
  }

  /** Read the next chunk, handing `out` one {@link FramedRecord} per frame it completes (see the class for the mapping). */
  push(chunk: Uint8Array | string, out: RecordSink): void {
    this.sink = out;
    this.onMessage = undefined;
    this.read(chunk);
  }

  /** Read the next chunk, handing `onMessage` every frame it completes, headers decoded (no mapping to events). */
  pushMessages(chunk: Uint8Array | string, onMessage: EventStreamMessageHandler): void {
    this.sink = undefined;
    this.onMessage = onMessage;
    this.read(chunk);
  }

  /**
   * The input ended: throw `truncated` when it ended inside a frame, else reset for a new stream.
   * `out` is never called (a frame is handed over as soon as it is complete); it is there so that
   * every framing parser is driven the same way.
   */
  end(_out?: RecordSink): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.filled > 0) {
      const detail =
        this.total === 0
          ? `the input ended inside the prelude of a frame (${this.filled} of its 12 bytes) at byte ${this.frameStart}`
          : `the input ended inside a frame of ${this.total} bytes at byte ${this.frameStart} (${this.filled} received)`;
      throw this.fail(new ToolStreamError('truncated', { provider: FRAMING, detail, byteOffset: this.frameStart }));
    }
    this.reset();
  }

  /** Forget all state, including a failure. */
  reset(): void {
    this.bytesIn = this.filled = this.total = this.frameStart = 0;
    this.frame = this.failure = this.sink = this.onMessage = undefined;
  }

  private read(chunk: Uint8Array | string): void {
    if (this.failure !== undefined) throw this.failure;
    let bytes: Uint8Array;
    if (typeof chunk === 'string') bytes = (this.encoder ??= new TextEncoder()).encode(chunk);
    // A Node Buffer (or another subclass) as a plain view: its `subarray` is several times slower.
    else bytes = chunk.constructor === Uint8Array ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const base = this.bytesIn;
    const length = bytes.length;
    this.bytesIn += length;
    let pos = this.filled > 0 ? this.resume(bytes) : 0;
    while (pos < length) {
      const offset = base + pos;
      if (length - pos < PRELUDE) {
        this.prelude.set(bytes.subarray(pos));
        this.filled = length - pos;
        this.frameStart = offset;
        return;
      }
      const total = this.checkPrelude(bytes, pos, offset);
      if (length - pos >= total) {
        this.message(bytes, pos, total, offset);
        pos += total;
        continue;
      }
      const frame = new Uint8Array(total);
      frame.set(bytes.subarray(pos));
      this.frame = frame;
      this.filled = length - pos;
      this.total = total;
      this.frameStart = offset;
      return;
    }
  }

  /** Continue the frame cut at the end of the last chunk; returns how many bytes of `bytes` it took. */
  private resume(bytes: Uint8Array): number {
    let pos = 0;
    if (this.total === 0) {
      pos = Math.min(PRELUDE - this.filled, bytes.length);
      this.prelude.set(bytes.subarray(0, pos), this.filled);
      this.filled += pos;
      if (this.filled < PRELUDE) return pos;
      const total = this.checkPrelude(this.prelude, 0, this.frameStart);
      this.frame = new Uint8Array(total);
      this.frame.set(this.prelude);
      this.total = total;
    }
    const frame = this.frame as Uint8Array;
    const take = Math.min(this.total - this.filled, bytes.length - pos);
    frame.set(bytes.subarray(pos, pos + take), this.filled);
    this.filled += take;
    pos += take;
    if (this.filled < this.total) return pos;
    const offset = this.frameStart;
    this.frame = undefined;
    this.filled = this.total = 0;
    this.message(frame, 0, frame.length, offset);
    return pos;
  }

  /** Check the prelude at `bytes[at]` (a frame starting at byte `offset`) and return the frame's total length. */
  private checkPrelude(bytes: Uint8Array, at: number, offset: number): number {
    const total = u32(bytes, at);
    const headers = u32(bytes, at + 4);
    const expected = u32(bytes, at + 8);
    const actual = this.crc.of(bytes, at, at + 8);
    if (actual !== expected) throw this.invalid(offset, `the prelude checksum ${hex32(expected)} does not match the prelude (${hex32(actual)})`);
    if (total < OVERHEAD) throw this.invalid(offset, `the total length ${total} is below the ${OVERHEAD} bytes of every frame`);
    if (headers > total - OVERHEAD) throw this.invalid(offset, `the headers length ${headers} does not fit in a frame of ${total} bytes`);
    if (total > this.maxFrameSize) {
      throw this.fail(new ToolStreamError('event-too-large', { limit: this.maxFrameSize, byteOffset: offset, start: hexBytes(bytes, at, at + PRELUDE), framing: FRAMING }));
    }
    return total;
  }

  /** The whole frame `bytes[start, start + total)` (its prelude checked): check its CRC and hand it over. */
  private message(bytes: Uint8Array, start: number, total: number, offset: number): void {
    const end = start + total;
    const expected = u32(bytes, end - 4);
    // The message CRC continues the prelude's (which covers the first 8 bytes) over the rest.
    const actual = this.crc.of(bytes, start + 8, end - 4, u32(bytes, start + 8));
    if (actual !== expected) throw this.invalid(offset, `the message checksum ${hex32(expected)} does not match the frame (${hex32(actual)})`);
    const headersStart = start + PRELUDE;
    const headersEnd = headersStart + u32(bytes, start + 4);
    const payload = bytes.subarray(headersEnd, end - 4);
    const sink = this.sink;
    if (sink !== undefined) deliver(sink, this.eventOf(bytes, headersStart, headersEnd, payload, offset));
    else this.onMessage?.({ headers: this.headers(bytes, headersStart, headersEnd, offset), payload }, offset);
  }

  /**
   * Read the header at `bytes[pos]` (the headers end at `end`) into the scratch fields (its name, its
   * type, where its value bytes are) and return where the next header starts. Throws `invalid-frame`
   * for an empty name, an unknown type or a header that runs past the end of the headers.
   */
  private nextHeader(bytes: Uint8Array, pos: number, start: number, end: number, offset: number): number {
    const nameLength = bytes[pos] as number;
    if (nameLength === 0) throw this.invalid(offset, `a header name is empty (at byte ${pos - start} of the headers)`);
    if (pos + 1 + nameLength + 1 > end) throw this.invalid(offset, `a header runs past the end of the headers (at byte ${pos - start} of the headers)`);
    const name = this.text(bytes, pos + 1, pos + 1 + nameLength);
    pos += 1 + nameLength;
    const type = bytes[pos++] as number;
    let length: number;
    switch (type) {
      case 0:
      case 1:
        length = 0;
        break;
      case 2:
        length = 1;
        break;
      case 3:
        length = 2;
        break;
      case 4:
        length = 4;
        break;
      case 5:
      case 8:
        length = 8;
        break;
      case 6:
      case 7:
        if (pos + 2 > end) throw this.invalid(offset, `the value of header ${JSON.stringify(name)} runs past the end of the headers`);
        length = ((bytes[pos] as number) << 8) | (bytes[pos + 1] as number);
        pos += 2;
        break;
      case 9:
        length = 16;
        break;
      default:
        throw this.invalid(offset, `header ${JSON.stringify(name)} has the unknown type ${type}`);
    }
    if (pos + length > end) throw this.invalid(offset, `the value of header ${JSON.stringify(name)} runs past the end of the headers`);
    this.headerName = name;
    this.headerType = type;
    this.valueStart = pos;
    this.valueEnd = pos + length;
    return pos + length;
  }

  /** Decode the headers in `bytes[start, end)` of the frame at byte `offset`. */
  private headers(bytes: Uint8Array, start: number, end: number, offset: number): EventStreamHeaders {
    const headers = Object.create(null) as Record<string, EventStreamHeaderValue>;
    for (let pos = start; pos < end;) {
      pos = this.nextHeader(bytes, pos, start, end, offset);
      const name = this.headerName;
      const at = this.valueStart;
      let value: EventStreamHeaderValue;
      switch (this.headerType) {
        case 0:
          value = TRUE;
          break;
        case 1:
          value = FALSE;
          break;
        case 2:
          value = { type: 'byte', value: ((bytes[at] as number) << 24) >> 24 };
          break;
        case 3:
          value = { type: 'short', value: ((((bytes[at] as number) << 8) | (bytes[at + 1] as number)) << 16) >> 16 };
          break;
        case 4:
          value = { type: 'integer', value: u32(bytes, at) | 0 };
          break;
        case 5:
        case 8: {
          const long = (BigInt(u32(bytes, at) | 0) << BigInt(32)) | BigInt(u32(bytes, at + 4));
          value = this.headerType === 5 ? { type: 'long', value: long } : { type: 'timestamp', value: new Date(Number(long)) };
          break;
        }
        case 6:
          value = { type: 'binary', value: bytes.slice(at, this.valueEnd) };
          break;
        case 7:
          value = { type: 'string', value: this.text(bytes, at, this.valueEnd) };
          break;
        default: {
          const h = hexBytes(bytes, at, at + 16).replace(/ /g, '');
          value = { type: 'uuid', value: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` };
        }
      }
      if (name in headers) throw this.invalid(offset, `header ${JSON.stringify(name)} appears twice`);
      headers[name] = value;
    }
    return headers;
  }

  /**
   * A frame as an {@link FramedRecord} (see the class), reading only the headers it needs (the others
   * are checked, not decoded).
   */
  private eventOf(bytes: Uint8Array, start: number, end: number, payload: Uint8Array, offset: number): FramedRecord {
    let type: string | undefined;
    let eventType: string | undefined;
    let exceptionType: string | undefined;
    let code: string | undefined;
    let text: string | undefined;
    const seen = this.seen;
    let count = 0;
    /** Past a few headers, their names in a set (a frame may hold thousands of tiny headers). */
    let many: Set<string> | undefined;
    for (let pos = start; pos < end;) {
      pos = this.nextHeader(bytes, pos, start, end, offset);
      const name = this.headerName;
      if (many === undefined) {
        for (let i = 0; i < count; i++) if (seen[i] === name) throw this.invalid(offset, `header ${JSON.stringify(name)} appears twice`);
        if (count < FEW_HEADERS) seen[count++] = name;
        else many = new Set([...seen, name]);
      } else {
        if (many.has(name)) throw this.invalid(offset, `header ${JSON.stringify(name)} appears twice`);
        many.add(name);
      }
      if (name.charCodeAt(0) !== 58) continue; // only `:`-names matter here
      switch (name) {
        case ':message-type':
          type = this.stringValue(bytes, name, offset);
          break;
        case ':event-type':
          eventType = this.stringValue(bytes, name, offset);
          break;
        case ':exception-type':
          exceptionType = this.stringValue(bytes, name, offset);
          break;
        case ':error-code':
          code = this.stringValue(bytes, name, offset);
          break;
        case ':error-message':
          text = this.stringValue(bytes, name, offset);
          break;
        default:
      }
    }
    switch (type) {
      case 'event':
        if (eventType === undefined) throw this.invalid(offset, 'an event frame without a :event-type header');
        return { event: eventType, data: this.utf8.decode(payload), id: undefined, retry: undefined };
      case 'exception':
        if (exceptionType === undefined) throw this.invalid(offset, 'an exception frame without a :exception-type header');
        return { event: exceptionType, data: this.utf8.decode(payload), id: undefined, retry: undefined };
      case 'error': {
        const data = JSON.stringify({ ...(code === undefined ? {} : { code }), ...(text === undefined ? {} : { message: text }) });
        return { event: 'error', data, id: undefined, retry: undefined };
      }
      case undefined:
        throw this.invalid(offset, 'a frame without a :message-type header');
      default:
        throw this.invalid(offset, `unknown :message-type ${JSON.stringify(type)} (expected event, exception or error)`);
    }
  }

  /** The value of the header just read, which must be a string. */
  private stringValue(bytes: Uint8Array, name: string, offset: number): string {
    if (this.headerType !== 7) throw this.invalid(offset, `the ${name} header is a ${TYPE_NAMES[this.headerType] ?? 'value'}, not a string`);
    return this.text(bytes, this.valueStart, this.valueEnd);
  }

  /**
   * UTF-8 text of `bytes[start, end)`. Short ASCII (header names and values: the same few in every
   * frame) is looked up by a hash of its bytes among the strings this parser already made (at most
   * {@link MAX_STRINGS}), so that it is decoded once per stream.
   */
  private text(bytes: Uint8Array, start: number, end: number): string {
    const length = end - start;
    if (length > MAX_CACHED) return this.utf8.decode(bytes.subarray(start, end));
    let hash = 0x811c9dc5 ^ length;
    for (let i = start; i < end; i++) {
      const b = bytes[i] as number;
      if (b >= 0x80) return this.utf8.decode(bytes.subarray(start, end));
      hash = Math.imul(hash ^ b, 0x01000193);
    }
    const known = this.strings.get(hash);
    if (known !== undefined && known.length === length) {
      let same = true;
      for (let i = 0; i < length; i++) {
        if (known.charCodeAt(i) !== bytes[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return known;
    }
    const made = String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
    if (this.strings.size < MAX_STRINGS) this.strings.set(hash, made);
    return made;
  }

  private invalid(byteOffset: number, detail: string): ToolStreamError {
    return this.fail(new ToolStreamError('invalid-frame', { framing: FRAMING, byteOffset, detail }));
  }

  private fail(error: ToolStreamError): ToolStreamError {
    this.frame = undefined;
    this.filled = this.total = 0;
    this.failure = error;
    return error;
  }
}
