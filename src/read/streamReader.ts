/**
 * The fused reader of `readStreamEvents()` and `readToolCalls()`: SSE framing, the wire decoder and
 * (for `readToolCalls()`) the reducer and result builder, called in one subscription with no
 * operator between them. Each part is the one the composed operators run (`decodeSse()`, the
 * format's operator, `toolCalls()`); only the hops between them are gone. A stream of records
 * already framed (a WebSocket's messages) skips the framing and goes to the decoder as it is.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import type { FramedRecord, StreamEvent } from '../events';
import { operate, SourceObserver } from '../internal/operate';
import { AutoFraming, framingOf, framingOfFirstChunk, type Framing, type FramingLimits } from '../framing/framing';
import { AutoDecoder, decoderFor, formatOf, type ProviderOption, type RawStart } from '../providers/auto';
import { wholeRecords, type EventSink, type WholeResponse, type WireDecoder } from '../providers/decoder';
import { asConnectionLost } from '../internal/networkError';
import { ToolStreamError } from '../errors';

/** How many bytes of the raw input `unknown-format` shows. */
const RAW_START = 512;

/**
 * The first 512 bytes of the raw input as they arrived (strings as UTF-8), decoded only when asked
 * for, so the start shown by `unknown-format` does not depend on how the bytes were chunked. Let go
 * as soon as the decoder recognised a format. Only in front of auto-detection.
 *
 * The chunk being read is held by reference ({@link RawHead.add}) and copied only when it was read
 * without a format being recognised ({@link RawHead.settle}): a stream recognised in its first
 * chunk, the usual case, copies nothing and allocates no buffer.
 */
export class RawHead implements RawStart {
  /** The bytes of the chunks read before this one, made at the first {@link RawHead.settle} that keeps any. */
  private kept: Uint8Array | undefined;
  private length = 0;
  /** The chunk being read. */
  private current: Uint8Array | string | undefined;
  private released = false;

  /** `chunk` is read next: held until {@link RawHead.settle} (a chunk still held is settled first). */
  add(chunk: Uint8Array | string): void {
    if (this.released) return;
    this.settle();
    this.current = chunk;
  }

  /** The chunk held was read and no format was recognised: keep its start (while fewer than 512 bytes are kept). */
  settle(): void {
    const chunk = this.current;
    if (chunk === undefined) return;
    this.current = undefined;
    if (this.released || this.length === RAW_START) return;
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk.slice(0, RAW_START)) : chunk;
    const take = Math.min(bytes.length, RAW_START - this.length);
    (this.kept ??= new Uint8Array(RAW_START)).set(bytes.subarray(0, take), this.length);
    this.length += take;
  }

  /** What was kept and the start of the chunk held, decoded (a streaming decode holds back a character cut at the end instead of showing U+FFFD). */
  get(): string {
    if (this.released) return '';
    this.settle();
    return this.kept === undefined ? '' : new TextDecoder().decode(this.kept.subarray(0, this.length), { stream: true });
  }

  release(): void {
    this.released = true;
    this.kept = this.current = undefined;
  }

  /** Whether bytes are still being kept. */
  get keeping(): boolean {
    return !this.released;
  }
}

/**
 * What the fused readers read: chunks of a byte stream (bytes or text, cut anywhere), or the records
 * of a stream that is framed already (a WebSocket's messages, `fromWebSocket()`). One stream is one
 * or the other, judged by its first value.
 */
export type ReaderInput = Uint8Array | string | FramedRecord;

/** Whether a reader's input is a framed record (not a chunk of bytes or text). */
export function isRecord(input: ReaderInput): input is FramedRecord {
  return typeof input !== 'string' && !ArrayBuffer.isView(input);
}

/**
 * The start of a stream of records, for the `unknown-format` error of a stream in which no format
 * was recognised: the records as SSE would write them (`event:` when named, `data:`), up to 512
 * characters. Let go as soon as the decoder recognised a format.
 */
class RecordHead implements RawStart {
  private text = '';
  private released = false;

  /** `record` is read next: keep its start while fewer than 512 characters are kept. */
  add(record: FramedRecord): void {
    if (this.released || this.text.length >= RAW_START) return;
    const shown = `${record.event === 'message' ? '' : `event: ${record.event}\n`}data: ${record.data}\n\n`;
    this.text = (this.text + shown).slice(0, RAW_START);
  }

  get(): string {
    return this.released ? '' : this.text;
  }

  release(): void {
    this.released = true;
    this.text = '';
  }

  /** Whether records are still being kept. */
  get keeping(): boolean {
    return !this.released;
  }
}

/** The "framing" of a stream of records: there is none (a record goes to the decoder as it is). */
const RECORDS: Framing = {
  push(chunk: Uint8Array | string) {
    throw mixedInput(chunk, 'readStreamEvents');
  },
  end() {},
  bytesRead: 0,
};

/** The error of a stream that mixes framed records with chunks of bytes or text. */
function mixedInput(input: ReaderInput, provider: string): ToolStreamError<'invalid-event'> {
  const record = isRecord(input);
  return new ToolStreamError('invalid-event', {
    provider,
    data: record ? input.data : typeof input === 'string' ? input : `(${input.byteLength} bytes)`,
    detail: record ? 'a framed record in a stream of bytes or text' : 'a chunk of bytes or text in a stream of framed records',
  });
}

/** The options of the fused reader, resolved once per operator. */
export interface ReaderConfig {
  /** The limits of the framings. */
  readonly limits: FramingLimits;
  /** The wire format (`auto` by default). */
  readonly provider: ProviderOption;
}

/** No framing limit given: every framing's defaults. */
const DEFAULT_LIMITS: FramingLimits = Object.freeze({});
/** No option given. */
const DEFAULT_CONFIG: ReaderConfig = Object.freeze({ limits: DEFAULT_LIMITS, provider: 'auto' });

/**
 * Resolve a reader's options once, after the operator checked them (the common cases share constant
 * objects: many open streams, each its own operator, hold no copies).
 */
export function readerConfig(options: FramingLimits & { readonly provider?: ProviderOption }): ReaderConfig {
  const { maxEventSize, maxFrameSize, maxLineSize, maxElementSize } = options;
  const limits =
    maxEventSize === undefined && maxFrameSize === undefined && maxLineSize === undefined && maxElementSize === undefined
      ? DEFAULT_LIMITS
      : { maxEventSize, maxFrameSize, maxLineSize, maxElementSize };
  const provider = options.provider ?? 'auto';
  return limits === DEFAULT_LIMITS && provider === 'auto' ? DEFAULT_CONFIG : { limits, provider };
}

/**
 * The framing of one stream: a Bedrock or Ollama format's own, else judged from the stream (SSE, a
 * JSON body or array, or, auto-detected, any framing): by its first chunk when that one tells
 * (`first`, the usual case: its parser is made directly), else by an {@link AutoFraming}.
 */
export function framingFor(provider: ProviderOption, limits: FramingLimits, first?: Uint8Array | string): Framing {
  const kind = provider === 'auto' ? 'sse' : (formatOf(provider)?.framing ?? 'sse');
  if (kind !== 'sse') return framingOf(kind, limits);
  const judged = first === undefined ? undefined : framingOfFirstChunk(first);
  return judged === undefined ? new AutoFraming(limits) : framingOf(judged, limits);
}

/**
 * The records of a byte stream in the framing the reader would use (`retryStream()` decodes its
 * attempts' records itself): a network failure of the source becomes `connection-lost`.
 */
export function decodeFramed(config: ReaderConfig): OperatorFunction<Uint8Array | string, FramedRecord> {
  return operate((subscriber) => {
    const framing = framingFor(config.provider, config.limits);
    return {
      next: (chunk) => framing.push(chunk, subscriber),
      complete: () => framing.end(subscriber),
      error: (error) => subscriber.error(asConnectionLost(error, 'readStreamEvents', framing.bytesRead)),
    };
  });
}

/**
 * One subscription of a fused reader: byte (or text) chunks → records of their framing (SSE
 * events, AWS event-stream frames, NDJSON lines, JSON-array elements) → the decoder's events →
 * {@link StreamReader.event}, where a subclass makes of them what it reads. A stream of records
 * framed already (its first value is a record) goes to the decoder as it is. Its parts are built
 * at the first notification, so an open stream that received nothing yet holds this object only.
 *
 * 0. A stream is bytes (or text) or records, judged by its first value: the other kind after it
 *    ends the stream with `invalid-event`.
 * 1. A source failure that is a network error becomes `connection-lost` (with the bytes read).
 * 2. A failure of the input to the decoder (the source's, or the SSE framing's own
 *    `event-too-large`) is offered to the decoder's `interrupt`, which may complete the stream.
 * 3. The decoder's own errors (`provider-error`, `invalid-event`, `truncated`, …) and the subclass's
 *    end the stream after the subclass emitted what is pending.
 */
export abstract class StreamReader<O> extends SourceObserver<ReaderInput, O> {
  /** The framing of the stream, once judged ({@link RECORDS} for a stream of records). */
  private parser: Framing | undefined;
  private decoder: WireDecoder | undefined;
  private head: RawHead | RecordHead | undefined;
  /** The decoder's output: {@link StreamReader.event}, or nothing once the stream ended. */
  private emit: EventSink | undefined;
  /** A named format's reading of a whole JSON response, until the first record. */
  private whole: WholeResponse | undefined;
  /** The decoder's error while the parser called it (to tell it from the parser's own). */
  private decoderError: unknown;
  private ended = false;
  /** The parser's output: each record to {@link record} (made with the parts, at the first notification). */
  private records: RecordSink | undefined;
  /** The operator's options, kept as two fields (not its object: a named format's is one per operator, so often one per stream). */
  private readonly provider: ProviderOption;
  private readonly framingLimits: FramingLimits;

  constructor(config: ReaderConfig, subscriber: Subscriber<O>) {
    super(subscriber);
    this.provider = config.provider;
    this.framingLimits = config.limits;
  }

  /**
   * What the reader does with each decoded event (the reader is its own sink: no object per stream
   * for it). May throw a typed error of its own (`too-many-tool-calls`): the stream ends with it.
   */
  abstract event(event: StreamEvent): void;
  /** The events ended: emit what is pending. */
  abstract eventsEnded(): void;
  /** The events failed with `error`: emit what is pending (the error goes on after). */
  abstract eventsFailed(error: unknown): void;

  protected handleNext(chunk: ReaderInput): void {
    if (isRecord(chunk)) return this.nextRecord(chunk);
    const parser = this.parser ?? this.build(chunk);
    const head = this.head as RawHead | undefined;
    if (head !== undefined) head.add(chunk);
    try {
      parser.push(chunk, this.records as RecordSink);
    } catch (error) {
      this.failed(error);
    }
    head?.settle();
    // Once the framing is judged, its parser is called directly (one object less per chunk).
    if (parser instanceof AutoFraming && parser.kind !== undefined) this.parser = parser.kind;
  }

  /** A record of a stream framed already: straight to the decoder. */
  private nextRecord(input: FramedRecord): void {
    const parser = this.parser ?? this.build(undefined, true);
    if (parser !== RECORDS) return this.failed(mixedInput(input, (this.decoder as WireDecoder).provider));
    (this.head as RecordHead | undefined)?.add(input);
    try {
      this.record(input);
    } catch (error) {
      this.end(error);
    }
  }

  protected override handleComplete(): void {
    const parser = this.parser ?? this.build();
    try {
      parser.end(this.records as RecordSink);
    } catch (error) {
      return this.failed(error);
    }
    if (this.ended) return;
    try {
      (this.decoder as WireDecoder).end(this.emit as EventSink);
    } catch (error) {
      return this.end(error);
    }
    if (this.ended) return;
    this.ended = true;
    this.eventsEnded();
  }

  protected override handleError(error: unknown): void {
    const parser = this.parser ?? this.build();
    this.inputFailed(asConnectionLost(error, 'readStreamEvents', parser === RECORDS ? undefined : parser.bytesRead));
  }

  /** One record (an SSE event, a frame, a line, an element) to the decoder. */
  record(event: FramedRecord): void {
    if (this.ended) return;
    try {
      if (this.whole !== undefined && this.wholeResponse(this.whole, event)) return;
      (this.decoder as WireDecoder).sse(event, this.emit as EventSink);
    } catch (error) {
      this.decoderError = error;
      throw error;
    }
    if (this.head !== undefined && !this.head.keeping) this.detected();
  }

  /** Auto-detection recognised the format (it let go of the raw start): the format's decoder is called directly from now on. */
  private detected(): void {
    this.head = undefined;
    const decoder = this.decoder;
    if (decoder instanceof AutoDecoder && decoder.detected !== undefined) this.decoder = decoder.detected;
  }

  /** The first record of a named format: when it is a whole JSON response, the decoder reads the records of its stream instead. */
  private wholeResponse(whole: WholeResponse, event: FramedRecord): boolean {
    this.whole = undefined;
    const records = wholeRecords(whole, event);
    if (records === undefined) return false;
    for (const record of records) (this.decoder as WireDecoder).sse(record, this.emit as EventSink);
    return true;
  }

  /** The parts, at the first notification (`first`: its chunk, when it is one; `records`: the stream is of records). */
  private build(first?: Uint8Array | string, records = false): Framing {
    const provider = this.provider;
    this.records = new RecordSink(this);
    const auto = provider === 'auto';
    this.head = auto ? (records ? new RecordHead() : new RawHead()) : undefined;
    this.decoder = decoderFor(provider, this.head)();
    this.whole = auto ? undefined : formatOf(provider)?.whole;
    // An arrow function, not a bound method: a call through a bound function is not inlined, which
    // costs more on a chatty stream than the context object it saves.
    this.emit = (event) => this.deliver(event);
    return (this.parser = records ? RECORDS : framingFor(provider, this.framingLimits, first));
  }

  /** The decoder's output: one event to {@link StreamReader.event}; its error ends the stream. */
  private deliver(event: StreamEvent): void {
    if (this.ended) return;
    try {
      this.event(event);
    } catch (error) {
      this.end(error);
    }
  }

  /** What `parser.push` / `parser.end` threw: the decoder's own error, or the parser's. */
  private failed(error: unknown): void {
    if (this.ended) return;
    if (error === this.decoderError) this.end(error);
    else this.inputFailed(error);
  }

  /** The decoder's input failed: it may declare the stream complete all the same. */
  private inputFailed(error: unknown): void {
    if (this.ended) return;
    let complete: boolean;
    try {
      complete = (this.decoder as WireDecoder).interrupt?.(error, this.emit as EventSink) === true;
    } catch (own) {
      return this.end(own);
    }
    if (this.ended) return;
    if (!complete) return this.end(error);
    this.ended = true;
    this.eventsEnded();
    this.destination.complete();
  }

  /** End the stream with `error`, after the subclass emitted what is pending. */
  private end(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.eventsFailed(error);
    this.destination.error(error);
  }
}

/** The parser's sink of one reader: hands each record to {@link StreamReader.record}. */
class RecordSink {
  constructor(private readonly reader: StreamReader<unknown>) {}

  next(event: FramedRecord): void {
    this.reader.record(event);
  }
}
