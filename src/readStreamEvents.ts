/**
 * `readStreamEvents()`: bytes → normalised {@link StreamEvent}s, any wire format.
 *
 * @module
 */
import { identity, type MonoTypeOperatorFunction, type Observer, type OperatorFunction } from 'rxjs';
import type { SseEvent, StreamEvent } from './events';
import { hasResident, keepResident, warmupChunks } from './internal/resident';
import { lazyStageOperator, Stage } from './internal/stage';
import { sseDecodeStage, type WireDecoder } from './providers/decoder';
import { decoderFor, type ProviderOption, type RawStart } from './providers/auto';
import { formatNamed } from './providers/list';
import { openaiChat } from './providers/openaiChat';
import { idleTimeout } from './reliability/idleTimeout';
import { asConnectionLost } from './sources/networkError';
import { SseStage, type DecodeSseOptions } from './sse/decodeSse';

/** Options of {@link readStreamEvents}. */
export interface ReadStreamEventsOptions extends DecodeSseOptions {
  /** The wire format; `auto` (the default) recognises it from the first meaningful event. */
  readonly provider?: ProviderOption;
  /** End the stream with `idle-timeout` when no chunk arrives for this many ms (see `idleTimeout()`). Default: no timeout. */
  readonly idleTimeoutMs?: number;
}

/** How many bytes of the raw input `unknown-format` shows. */
const RAW_START = 512;
/** The raw start of a stream whose provider is named (nothing is recorded). */
const NO_RAW_START: RawStart = { get: () => '', release() {} };
const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * The first 512 bytes of the raw input as they arrived (strings as UTF-8), decoded only when asked
 * for, so the start shown by `unknown-format` does not depend on how the bytes were chunked. Let go
 * as soon as the decoder recognised a format. Only in front of auto-detection.
 */
class RawHead implements RawStart {
  private head: Uint8Array | undefined = new Uint8Array(RAW_START);
  private length = 0;

  add(chunk: Uint8Array | string): void {
    const head = this.head;
    if (head === undefined || this.length === RAW_START) return;
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk.slice(0, RAW_START)) : chunk;
    const take = Math.min(bytes.length, RAW_START - this.length);
    head.set(bytes.subarray(0, take), this.length);
    this.length += take;
  }

  /** What was kept, decoded (a streaming decode holds back a character cut at the end instead of showing U+FFFD). */
  get(): string {
    return this.head === undefined ? '' : new TextDecoder().decode(this.head.subarray(0, this.length), { stream: true });
  }

  release(): void {
    this.head = undefined;
  }
}

/** Passes chunks on after recording the start of the raw input in a {@link RawHead}. */
class RawStartStage extends Stage<Uint8Array | string, Uint8Array | string> {
  constructor(
    out: Observer<Uint8Array | string>,
    private readonly head: RawHead,
  ) {
    super(out);
  }

  protected push(chunk: Uint8Array | string): void {
    this.head.add(chunk);
    this.out.next(chunk);
  }
}

/**
 * The SSE stage of `readStreamEvents()`: a byte source of the user's own that fails with a network
 * error (fetch's `TypeError: terminated`, `ECONNRESET`, …) is reported as `connection-lost`, as the
 * library's own sources do, with the bytes read so far as its `byteOffset` (string chunks counted
 * as their UTF-8 encoding).
 */
class SourceSseStage extends SseStage {
  override error(error: unknown): void {
    super.error(asConnectionLost(error, 'readStreamEvents', this.parser.bytesRead));
  }
}

/**
 * How a composition that reads several sources as one stream (`retryStream()`) changes the chain of
 * {@link eventsStage}; nothing of it costs anything when absent.
 */
export interface EventsStageParts {
  /**
   * The decoder to use, instead of a new one for `options.provider` (`retryStream()` keeps one
   * decoder across the attempts that resume a stream). `rawStart` is the start of this source's raw
   * input (for `unknown-format`; empty when the provider is not `auto`).
   */
  readonly decoder?: (rawStart: RawStart) => WireDecoder;
  /** A stage between the SSE framing and the decoder, around the decoder's observer. */
  readonly between?: (decoder: Observer<SseEvent>) => Observer<SseEvent>;
}

/**
 * The stages that read bytes as events (`readStreamEvents()`), around `out`: SSE framing, then the
 * wire decoder (auto-detection records the start of the raw input first, for `unknown-format`).
 */
export function eventsStage(out: Observer<StreamEvent>, options: ReadStreamEventsOptions, parts?: EventsStageParts): Observer<Uint8Array | string> {
  const provider = options.provider ?? 'auto';
  if (provider !== 'auto' && parts === undefined) return new SourceSseStage(sseDecodeStage(out, decoderFor(provider)()), options);
  const head = provider === 'auto' ? new RawHead() : undefined;
  const decoder = parts?.decoder === undefined ? decoderFor(provider, head)() : parts.decoder(head ?? NO_RAW_START);
  const decode = sseDecodeStage(out, decoder);
  const sse = new SourceSseStage(parts?.between === undefined ? decode : parts.between(decode), options);
  return head === undefined ? sse : new RawStartStage(sse, head);
}

/**
 * The operator of `build` (a chain that starts with {@link eventsStage}), built at the first chunk of
 * each subscription: an open stream that received nothing yet holds its subscriber only. An
 * unsupported provider name still fails at subscription, as when the chain is built then. The first
 * subscription of `build` for a format also makes that format's resident stream
 * (`internal/resident.ts`), once.
 */
export function lazyEventsOperator<O, P extends ReadStreamEventsOptions>(options: P, build: (out: Observer<O>, options: P) => Observer<Uint8Array | string>): OperatorFunction<Uint8Array | string, O> {
  return lazyStageOperator(build, options, () => prepareEvents(options, build));
}

/** At a subscription of {@link lazyEventsOperator}: check the provider, and make the resident stream once. */
function prepareEvents<O, P extends ReadStreamEventsOptions>(options: P, build: (out: Observer<O>, options: P) => Observer<Uint8Array | string>): void {
  const provider = options.provider;
  // Auto-detection is warmed with the OpenAI chat stream (the format most servers speak).
  const format = provider === undefined || provider === 'auto' ? openaiChat : typeof provider === 'string' ? formatNamed(provider) : provider;
  // An unsupported name has no format: `decoderFor` throws its error, at subscription.
  if (format === undefined) decoderFor(provider as ProviderOption);
  else if (format.warmup !== undefined) {
    const variant = typeof provider === 'string' ? provider : (provider?.format ?? 'auto');
    if (!hasResident(build, variant)) {
      const params = { provider: provider ?? 'auto' } as P;
      const { warmup, warmupEnd } = format;
      keepResident(
        build,
        variant,
        () => lazyStageOperator<Uint8Array | string, O, P>(build, params),
        () => warmupChunks(warmup),
        warmupEnd === undefined ? undefined : () => warmupChunks(warmup + warmupEnd),
      );
    }
  }
}

/** The idle watch of `idleTimeoutMs`, or nothing. */
export function idleWatch(options: ReadStreamEventsOptions): MonoTypeOperatorFunction<Uint8Array | string> {
  return options.idleTimeoutMs === undefined ? identity : idleTimeout(options.idleTimeoutMs);
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
 *
 * @param options The wire format, the SSE limits and the idle timeout.
 * @return An operator from byte (or text) chunks to {@link StreamEvent}s.
 */
export function readStreamEvents(options: ReadStreamEventsOptions = {}): OperatorFunction<Uint8Array | string, StreamEvent> {
  const read = lazyEventsOperator<StreamEvent, ReadStreamEventsOptions>(options, eventsStage);
  if (options.idleTimeoutMs === undefined) return read;
  const watch = idleWatch(options);
  return (source) => source.pipe(watch, read);
}
