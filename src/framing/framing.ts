/**
 * Which framing a byte stream is in, and a framing that decides it from the stream itself: from the
 * response's content type when the source marked it, else from the first bytes, the same however
 * the bytes were chunked. What `readStreamEvents()` and `readToolCalls()` use with `provider: 'auto'`.
 *
 * @module
 */
import type { FramingName } from '../errors';
import { contentTypeOf } from '../internal/contentType';
import { SseParser } from '../sse/parser';
import type { RecordSink } from '../sse/recordSink';
import { EventStreamParser } from './eventStream';
import { JsonArrayParser } from './jsonArray';
import { NdjsonParser } from './ndjson';

/** What reads one framing: bytes (or text) cut anywhere in, `FramedRecord`-shaped records out. */
export interface Framing {
  /** Read the next chunk, handing `out` every record it completes. */
  push(chunk: Uint8Array | string, out: RecordSink): void;
  /** The input ended: hand over what is pending, or throw the framing's typed error. */
  end(out: RecordSink): void;
  /** How many bytes of input were read. */
  readonly bytesRead: number;
}

/** The limits of every framing (each reads its own). */
export interface FramingLimits {
  /** SSE: the largest event, in chars. */
  readonly maxEventSize?: number | undefined;
  /** AWS event stream: the largest frame, in bytes. */
  readonly maxFrameSize?: number | undefined;
  /** NDJSON: the longest line, in chars. */
  readonly maxLineSize?: number | undefined;
  /** JSON array or JSON values: the largest element, in chars. */
  readonly maxElementSize?: number | undefined;
}

/** SSE, or one of the other framings. */
export type FramingKind = 'sse' | Exclude<FramingName, 'websocket'>;

/** A parser of `kind`, with its limits. */
export function framingOf(kind: FramingKind, limits: FramingLimits): Framing {
  const set = <K extends string>(key: K, value: number | undefined): { readonly [P in K]?: number } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: number }));
  switch (kind) {
    case 'sse':
      return new SseParser(set('maxEventSize', limits.maxEventSize));
    case 'aws-event-stream':
      return new EventStreamParser(set('maxFrameSize', limits.maxFrameSize));
    case 'ndjson':
      return new NdjsonParser(set('maxLineSize', limits.maxLineSize));
    case 'json-array':
      return new JsonArrayParser(set('maxElementSize', limits.maxElementSize));
    case 'json-sequence':
      return new JsonArrayParser({ ...set('maxElementSize', limits.maxElementSize), sequence: true });
  }
}

/** The framing a response's `content-type` names (`undefined`: it names none; judge from the bytes). */
export function framingOfContentType(contentType: string): 'sse' | 'aws-event-stream' | 'ndjson' | 'json' | undefined {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/event-stream') return 'sse';
  if (type === 'application/vnd.amazon.eventstream') return 'aws-event-stream';
  if (type === 'application/x-ndjson' || type === 'application/ndjson' || type === 'application/jsonl') return 'ndjson';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  return undefined;
}

/** The CRC-32 of the first `n` bytes, bit by bit (for the 8 bytes of a prelude; the parsers use tables). */
function crc32(bytes: Uint8Array, n: number): number {
  let c = ~0;
  for (let i = 0; i < n; i++) {
    c ^= bytes[i] as number;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return ~c >>> 0;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** How many bytes of a stream's start its framing is judged by (12 for an AWS prelude, a BOM and a few more). */
const HEAD_BYTES = 16;
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * `head` (the bytes of the stream's start kept so far) grown by the start of `chunk`, up to
 * {@link HEAD_BYTES}. A run of whitespace before the first other byte (after a BOM) is kept as one
 * byte: {@link sniffFraming} reads it the same, and a stream that opens with any number of
 * keep-alive blank lines is judged by what follows them.
 */
function growHead(head: number[], chunk: Uint8Array | string): number[] {
  // Whether `head` is a BOM (or its start) and whitespace, nothing else.
  let blank = true;
  for (let i = 0; i < head.length; i++) blank &&= i < 3 ? head[i] === BOM[i] || isSpace(head[i] as number) : isSpace(head[i] as number);
  // Enough once the first byte is neither a possible AWS prelude nor a BOM and another byte came after the blanks.
  const enough = (): boolean => !blank && (head[0] as number) > 1 && head[0] !== 0xef;
  const take = (b: number): void => {
    if (blank && isSpace(b) && head.length > 0 && isSpace(head[head.length - 1] as number)) return;
    blank &&= isSpace(b) || (head.length < 3 && b === BOM[head.length] && head.every((c, i) => c === BOM[i]));
    head.push(b);
  };
  if (typeof chunk !== 'string') {
    for (let i = 0; i < chunk.length && head.length < HEAD_BYTES && !enough(); i++) take(chunk[i] as number);
    return head;
  }
  for (let i = 0; i < chunk.length && head.length < HEAD_BYTES && !enough(); i++) {
    const c = chunk.charCodeAt(i);
    if (c < 0x80) take(c);
    else {
      // The rest as UTF-8 (a BOM is U+FEFF): only the first few bytes can matter.
      for (const b of new TextEncoder().encode(chunk.slice(i, i + HEAD_BYTES))) if (head.length < HEAD_BYTES) take(b);
      break;
    }
  }
  return head;
}

/**
 * The framing of a stream from its first bytes (as {@link growHead} keeps them), or `undefined`
 * when they do not tell yet.
 *
 * 1. A binary AWS event-stream prelude (a total length whose first byte is 0 or 1, at least 16, and
 *    the CRC-32 of the first 8 bytes in bytes 8–12): `aws-event-stream` (12 bytes are needed).
 * 2. After a BOM and whitespace, `[`: a JSON array; `{`: JSON values one after another (NDJSON, or
 *    one JSON document answering a request that asked for a stream); anything else: SSE.
 * 3. `ended`: the input ended; a stream of only whitespace (or nothing) is SSE.
 */
export function sniffFraming(head: ArrayLike<number>, ended: boolean): FramingKind | undefined {
  const first = head[0];
  if (first === undefined) return ended ? 'sse' : undefined;
  if (first <= 1) {
    if (head.length < 12) return ended ? 'sse' : undefined;
    const bytes = Uint8Array.from(head);
    const view = new DataView(bytes.buffer, 0, 12);
    const total = view.getUint32(0);
    return total >= 16 && crc32(bytes, 8) === view.getUint32(8) ? 'aws-event-stream' : 'sse';
  }
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  else if (head.length < 3 && first === 0xef && !ended) return undefined;
  while (i < head.length && isSpace(head[i] as number)) i++;
  if (i === head.length) return ended ? 'sse' : undefined;
  const c = head[i];
  return c === 0x5b ? 'json-array' : c === 0x7b ? 'json-sequence' : 'sse';
}

/**
 * The framing the first chunk of a stream decides by itself (the content type a source marked on
 * it, else its first bytes), or `undefined` when it does not tell yet. The fused readers make the
 * framing's parser directly then; an {@link AutoFraming} asks the same question.
 */
export function framingOfFirstChunk(chunk: Uint8Array | string): FramingKind | undefined {
  const type = contentTypeOf(chunk);
  const named = type === undefined ? undefined : framingOfContentType(type);
  if (named !== undefined && named !== 'json') return named;
  const kind = sniffFraming(growHead([], chunk), false);
  // A JSON content type: an array, or JSON values (one document, usually).
  return named === 'json' && kind !== undefined && kind !== 'json-array' ? 'json-sequence' : kind;
}

/**
 * A framing that decides which one it is at the first chunks: the content type a source marked on
 * the first chunk (`text/event-stream`, `application/vnd.amazon.eventstream`,
 * `application/x-ndjson`, `application/json`), else the first bytes ({@link sniffFraming}). Until
 * it knows, it keeps the chunks (at most the few bytes a decision needs), then reads them with the
 * framing it chose.
 */
export class AutoFraming implements Framing {
  private inner: Framing | undefined;
  /** The chunks held while undecided (none before the first, and none kept after the decision). */
  private held: Array<Uint8Array | string> | undefined;
  /** The first bytes held so far ({@link growHead}), for the decision. */
  private head: number[] | undefined;
  /** The content type said `application/json`: an array or JSON values, by the first character. */
  private json = false;
  /** The bytes held (string chunks as UTF-8), while undecided. */
  private heldBytes = 0;

  constructor(private readonly limits: FramingLimits) {}

  /** The framing chosen, once it is. */
  get kind(): Framing | undefined {
    return this.inner;
  }

  get bytesRead(): number {
    return this.inner?.bytesRead ?? this.heldBytes;
  }

  push(chunk: Uint8Array | string, out: RecordSink): void {
    if (this.inner !== undefined) return this.inner.push(chunk, out);
    if (this.held === undefined) {
      const kind = framingOfFirstChunk(chunk);
      if (kind !== undefined) return this.choose(kind, chunk, out);
      const type = contentTypeOf(chunk);
      this.json = type !== undefined && framingOfContentType(type) === 'json';
    }
    (this.held ??= []).push(chunk);
    this.heldBytes += typeof chunk === 'string' ? new TextEncoder().encode(chunk).length : chunk.length;
    this.head = growHead(this.head ?? [], chunk);
    const kind = this.decide(false);
    if (kind !== undefined) this.replay(kind, out);
  }

  end(out: RecordSink): void {
    if (this.inner === undefined) this.replay(this.decide(true) ?? 'sse', out);
    (this.inner as Framing).end(out);
  }

  private decide(ended: boolean): FramingKind | undefined {
    const kind = sniffFraming(this.head ?? [], ended); // no head: the stream ended before its first byte
    // A JSON content type: an array, or JSON values (one document, usually).
    if (this.json && kind !== undefined && kind !== 'json-array') return 'json-sequence';
    return kind;
  }

  private choose(kind: FramingKind, chunk: Uint8Array | string, out: RecordSink): void {
    this.inner = framingOf(kind, this.limits);
    this.inner.push(chunk, out);
  }

  private replay(kind: FramingKind, out: RecordSink): void {
    const inner = (this.inner = framingOf(kind, this.limits));
    const held = this.held;
    this.held = this.head = undefined;
    if (held !== undefined) for (const chunk of held) inner.push(chunk, out);
  }
}
