/**
 * Auto-detection: the decoder that recognises the wire format from the first meaningful event,
 * by asking each format of the list, then delegates to that format's decoder.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import { ToolStreamError } from '../errors';
import type { ProviderName, FramedRecord, StreamEvent } from '../events';
import { asRecord } from '../internal/json';
import type { OptionCheck } from '../internal/options';
import { decodeSseWith, isBlankData, wholeRecords, type EventSink, type WireDecoder } from './decoder';
import type { WireFormat } from './format';
import { anyFormatNamed, FRAMED_FORMATS, WIRE_FORMATS } from './list';
import { openaiChat } from './openaiChat';

/** `auto`, a format's name, or a format itself (`openaiChat`, …: only that format is bundled in). */
export type ProviderOption = ProviderName | 'auto' | WireFormat;

/**
 * The format of a stream, judged from one event. Returns `undefined` when the event says nothing
 * (keep looking: a keep-alive) and `null` when it is not any known format. Keep-alives are events
 * with empty data, `ping`s (by name or `type`: every format may send them, so they show none), and
 * events under a name no format uses whose data is not a JSON object.
 */
export function detectFormat(event: FramedRecord): WireFormat | undefined | null {
  const data = event.data;
  if (isBlankData(data)) return undefined;
  let payload: Record<string, unknown> | undefined;
  if (data !== '[DONE]') {
    try {
      payload = asRecord(JSON.parse(data));
    } catch {
      payload = undefined;
    }
  }
  if (event.event === 'ping' || payload?.['type'] === 'ping') return undefined;
  for (const format of WIRE_FORMATS) if (format.detect(event, payload)) return format;
  for (const format of FRAMED_FORMATS) if (format.detect(event, payload)) return format;
  // A whole JSON response instead of a stream (a server that ignored `stream: true`).
  if (payload !== undefined) for (const format of WIRE_FORMATS) if (format.whole?.(payload) !== undefined) return format;
  if (payload === undefined && event.event !== 'message' && data !== '[DONE]') return undefined; // a named keep-alive
  // An error envelope of no recognisable format: every chat-like server reports errors this way.
  return payload !== undefined && 'error' in payload ? openaiChat : null;
}

/**
 * The start of a stream's raw input, kept for the `unknown-format` error of a stream in which no
 * format was recognised (`readStreamEvents()` keeps the first 512 bytes).
 */
export interface RawStart {
  /** What was kept, decoded. */
  get(): string;
  /** A format was recognised: nothing needs to be kept any more. */
  release(): void;
}

/** A decoder that picks the wire format at the first meaningful event, then delegates to it. */
export class AutoDecoder implements WireDecoder {
  private inner: WireDecoder | undefined;
  /** Until a format is recognised. */
  private rawStart: RawStart | undefined;

  /**
   * A decoder that has not picked a format yet.
   *
   * @param rawStart The start of the raw input, for the `unknown-format` error of a stream that
   *   ended before any recognisable event (an HTML error page, a JSON body, …): a function, or a
   *   {@link RawStart} that is also told when a format was recognised.
   */
  constructor(rawStart?: RawStart | (() => string)) {
    this.rawStart = typeof rawStart === 'function' ? { get: rawStart, release() {} } : rawStart;
  }

  /** The decoder of the recognised format, once there is one (a reader may call it directly from then on). */
  get detected(): WireDecoder | undefined {
    return this.inner;
  }

  /** The detected wire format; `'openai-chat'` until the first meaningful event has picked one. */
  get provider(): ProviderName {
    return this.inner?.provider ?? 'openai-chat';
  }

  sse(event: FramedRecord, emit: EventSink): void {
    if (this.inner === undefined) {
      const format = detectFormat(event);
      if (format === undefined) return;
      // Show the event itself: how much raw input has arrived by now depends on the chunking.
      if (format === null)
        throw new ToolStreamError('unknown-format', {
          start: `${event.event === 'message' ? '' : `event: ${event.event}\n`}data: ${event.data}`,
          detail: `event ${JSON.stringify(event.event)} matches no known wire format`,
        });
      const inner = (this.inner = format.decoder());
      this.rawStart?.release();
      this.rawStart = undefined;
      const records = format.whole === undefined ? undefined : wholeRecords(format.whole, event);
      if (records !== undefined) {
        for (const record of records) inner.sse(record, emit);
        return;
      }
    }
    this.inner.sse(event, emit);
  }

  payload(eventName: string, payload: unknown, emit: EventSink): void {
    if (this.inner === undefined) this.sse({ event: eventName, data: JSON.stringify(payload) ?? 'null', id: undefined, retry: undefined }, emit);
    else this.inner.payload(eventName, payload, emit);
  }

  end(emit: EventSink): void {
    if (this.inner === undefined) {
      const start = this.rawStart?.get() ?? '';
      // A whole JSON document instead of events: the request did not ask for a stream.
      const detail = /^\s*\{\s*"error"/.test(start)
        ? 'the body is a JSON error document, not an event stream'
        : /^\s*[{[]/.test(start)
          ? 'the body is a JSON document, not an event stream: set `stream: true` in the request'
          : 'the stream ended before any recognisable event';
      throw new ToolStreamError('unknown-format', { start, detail });
    }
    this.inner.end(emit);
  }

  interrupt(error: unknown, emit: EventSink): boolean {
    return this.inner?.interrupt?.(error, emit) === true;
  }
}

/** Every format's name, as a `provider` option takes it. */
function formatNames(): string[] {
  return [...WIRE_FORMATS, ...FRAMED_FORMATS].map((format) => format.format);
}

/** A format (`openaiChat`, …, or any object with a format's `format` name and `decoder`). */
function isFormat(value: unknown): boolean {
  if ((typeof value !== 'function' && typeof value !== 'object') || value === null) return false;
  const format = value as Partial<WireFormat>;
  return typeof format.format === 'string' && typeof format.decoder === 'function';
}

/** The check of a `provider` option: `'auto'`, a format's name, or a format (`openaiChat`, …). */
export const aProvider: OptionCheck = (value) => {
  if (value === 'auto') return undefined;
  if (typeof value === 'string' ? anyFormatNamed(value) !== undefined : isFormat(value)) return undefined;
  return `'auto', a format's name (${formatNames()
    .map((name) => `'${name}'`)
    .join(', ')}) or a format (openaiChat, anthropicMessages, …)`;
};

/** The format a provider option names (`undefined` for `auto`; options are checked when an operator is made, so a name here is known). */
export function formatOf(provider: ProviderOption): WireFormat | undefined {
  if (typeof provider !== 'string') return provider;
  if (provider === 'auto') return undefined;
  const format = anyFormatNamed(provider);
  if (format === undefined) throw new ToolStreamError('invalid-option', { function: 'readStreamEvents', option: 'options.provider', value: provider, expected: aProvider(provider) ?? '' });
  return format;
}

/** The decoder factory for a provider option (`rawStart`: the start of the raw input, for `unknown-format`; see {@link AutoDecoder}). */
export function decoderFor(provider: ProviderOption, rawStart?: RawStart | (() => string)): () => WireDecoder {
  const format = formatOf(provider);
  return format === undefined ? () => new AutoDecoder(rawStart) : format.decoder;
}

/**
 * Read any supported wire format, recognised from the first meaningful event.
 *
 * <span class="informal">Looks at event names (`message_start`, `response.created`,
 * `tool-call-start`, …) and payload shapes (`choices`, `candidates`), then behaves exactly like that
 * format's adapter.</span>
 *
 * ```text
 * --a----b----c--|          a: the first event (e.g. Anthropic message_start)
 *   autoDetect()
 * --m----x----d--|          as anthropicMessages() would emit
 *
 * --?--|                    ?: an event of no known format
 *   autoDetect()
 * --#                       #: unknown-format, showing the start of what arrived
 * ```
 *
 * 1. Keep-alives are skipped while detecting (empty data, `ping`s, a name no format uses with data
 *    that is not JSON) and, once a format is chosen, by its decoder.
 * 2. A stream no adapter recognises ends with `unknown-format`, whose `start` shows what arrived.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export function autoDetect(): OperatorFunction<FramedRecord, StreamEvent> {
  return decodeSseWith(() => new AutoDecoder());
}
