/**
 * `readStreamEvents()`: bytes → normalised {@link StreamEvent}s, any wire format.
 *
 * @module
 */
import type { MonoTypeOperatorFunction, OperatorFunction } from 'rxjs';
import type { FramedRecord, StreamEvent } from '../events';
import { operateWith } from '../internal/operate';
import { aCount, aDuration, checkOptions, type OptionChecks } from '../internal/options';
import { aProvider, type ProviderOption } from '../providers/auto';
import type { DecodeAwsEventStreamOptions } from '../framing/decodeAwsEventStream';
import type { DecodeJsonArrayOptions } from '../framing/decodeJsonArray';
import type { DecodeNdjsonOptions } from '../framing/decodeNdjson';
import type { DecodeSseOptions } from '../sse/decodeSse';
import { idleTimeout } from './idleTimeout';
import { readerConfig, StreamReader, type ReaderInput } from './streamReader';

/** Options of {@link readStreamEvents}. */
export interface ReadStreamEventsOptions extends DecodeSseOptions, DecodeAwsEventStreamOptions, DecodeNdjsonOptions, Omit<DecodeJsonArrayOptions, 'sequence'> {
  /**
   * The wire format; `auto` (the default) recognises the framing (from the response's content type,
   * else the first bytes after any leading whitespace: SSE, an AWS event stream, NDJSON or a JSON
   * body, a JSON array) and the format (from the first meaningful record).
   */
  readonly provider?: ProviderOption;
  /** End the stream with `idle-timeout` when no chunk arrives for this many ms (see `idleTimeout()`). Default: no timeout. */
  readonly idleTimeoutMs?: number;
}

/** The checks of {@link ReadStreamEventsOptions}' keys (the readers' and `retryStream()`'s options checks). */
export const READ_OPTION_CHECKS: OptionChecks = {
  provider: aProvider,
  idleTimeoutMs: aDuration,
  maxEventSize: /* @__PURE__ */ aCount(1),
  maxFrameSize: /* @__PURE__ */ aCount(1),
  maxLineSize: /* @__PURE__ */ aCount(1),
  maxElementSize: /* @__PURE__ */ aCount(1),
};

/** The idle watch of `idleTimeoutMs`, or nothing. */
export function idleWatch<T>(options: ReadStreamEventsOptions): MonoTypeOperatorFunction<T> | undefined {
  return options.idleTimeoutMs === undefined ? undefined : idleTimeout<T>(options.idleTimeoutMs);
}

/** One subscription of `readStreamEvents()`: the events go out as they are, nothing is pending at the end. */
class EventsReader extends StreamReader<StreamEvent> {
  event(event: StreamEvent): void {
    this.destination.next(event);
  }

  eventsEnded(): void {}

  eventsFailed(): void {}
}

/**
 * Read a streamed response's bytes as normalised events.
 *
 * <span class="informal">`decodeSse()` then the wire adapter (auto-detected by default).</span>
 *
 * ```text
 * --c1----c2------c3--|         c: network chunks, split anywhere
 *   readStreamEvents()
 * --t-----(xx)----(fd)|         t: text-delta, x: tool-call-delta, f: finish, d: done
 * ```
 *
 * 1. With `provider: 'auto'`, a stream of no known format ends with `unknown-format`, showing the
 *    first bytes that arrived (an HTML error page, a JSON body, …).
 * 2. Every error is typed; see `toolCalls()` for what the events mean per call.
 * 3. With `idleTimeoutMs`, a connection that sends nothing for that long ends with `idle-timeout`
 *    (the source is unsubscribed, which cancels a `fetch` body).
 * 4. A stream of records framed already (a WebSocket's messages, `fromWebSocket()` of
 *    `rxjs-tool-calls/websocket`) goes to the format as it is, without a framing.
 *
 * @param options The wire format, the SSE limits and the idle timeout.
 * @return An operator from byte (or text) chunks, or framed records, to {@link StreamEvent}s.
 */
export function readStreamEvents(options: ReadStreamEventsOptions = {}): OperatorFunction<Uint8Array | string | FramedRecord, StreamEvent> {
  checkOptions('readStreamEvents', options, READ_OPTION_CHECKS);
  const config = readerConfig(options);
  const read = operateWith<ReaderInput, StreamEvent>((subscriber) => new EventsReader(config, subscriber));
  const watch = idleWatch<ReaderInput>(options);
  return watch === undefined ? read : (source) => source.pipe(watch, read);
}
