/**
 * Every wire adapter by name, and the auto-detecting decoder.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import { UnknownFormatError } from '../errors';
import type { ProviderName, SseEvent, StreamEvent } from '../events';
import { decodeSseWith, type Emit, type WireDecoder } from './decoder';
import { detectFormat } from './detect';
import { AnthropicMessagesDecoder } from './anthropicMessages';
import { CohereChatDecoder } from './cohereChat';
import { GeminiDecoder } from './gemini';
import { OpenAIChatDecoder } from './openaiChat';
import { OpenAIResponsesDecoder } from './openaiResponses';

/** The decoder factory of each wire format. */
export const DECODERS: Readonly<Record<ProviderName, (() => WireDecoder) | undefined>> = {
  'openai-chat': () => new OpenAIChatDecoder(),
  'openai-responses': () => new OpenAIResponsesDecoder(),
  anthropic: () => new AnthropicMessagesDecoder(),
  gemini: () => new GeminiDecoder(),
  cohere: () => new CohereChatDecoder(),
};

/** `auto` or one wire format. */
export type ProviderOption = ProviderName | 'auto';

/** A decoder that picks the wire format at the first meaningful event, then delegates to it. */
export class AutoDecoder implements WireDecoder {
  private inner: WireDecoder | undefined;
  private readonly seen: string[] = [];

  /**
   * A decoder that has not picked a format yet.
   *
   * @param rawStart Returns the start of the raw input, for the `unknown-format` error of a stream
   *   that ended before any recognisable event (an HTML error page, a JSON body, …).
   */
  constructor(private readonly rawStart: () => string = () => this.seen.join('\n')) {}

  /** The detected wire format; `'openai-chat'` until the first meaningful event has picked one. */
  get provider(): ProviderName {
    return this.inner?.provider ?? 'openai-chat';
  }

  sse(event: SseEvent, emit: Emit): void {
    if (this.inner === undefined) {
      const format = detectFormat(event);
      if (format === undefined) return;
      if (this.seen.length < 4) this.seen.push(`${event.event === 'message' ? '' : `event: ${event.event}\n`}data: ${event.data}`);
      // Show the event itself: how much raw input has arrived by now depends on the chunking.
      const start = this.seen.join('\n\n');
      if (format === null) throw new UnknownFormatError(start, `event ${JSON.stringify(event.event)} matches no known wire format`);
      const factory = DECODERS[format];
      if (factory === undefined) throw new UnknownFormatError(start, `the ${format} format is not supported`);
      this.inner = factory();
    }
    this.inner.sse(event, emit);
  }

  payload(eventName: string, payload: unknown, emit: Emit): void {
    if (this.inner === undefined) this.sse({ event: eventName, data: JSON.stringify(payload) ?? 'null', id: undefined, retry: undefined }, emit);
    else this.inner.payload(eventName, payload, emit);
  }

  end(emit: Emit): void {
    if (this.inner === undefined) throw new UnknownFormatError(this.rawStart(), 'the stream ended before any recognisable event');
    this.inner.end(emit);
  }

  interrupt(error: unknown, emit: Emit): boolean {
    return this.inner?.interrupt?.(error, emit) === true;
  }
}

/** The decoder factory for a provider option. */
export function decoderFor(provider: ProviderOption, rawStart?: () => string): () => WireDecoder {
  if (provider === 'auto') return () => new AutoDecoder(rawStart);
  const factory = DECODERS[provider];
  if (factory === undefined) throw new TypeError(`rxjs-tool-calls: the ${provider} format is not supported`);
  return factory;
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
 * 1. Events that say nothing (empty data) are skipped while detecting.
 * 2. A stream no adapter recognises ends with `unknown-format`, whose `start` shows what arrived.
 *
 * @return An operator from {@link SseEvent}s to {@link StreamEvent}s.
 */
export function autoDetect(): OperatorFunction<SseEvent, StreamEvent> {
  return decodeSseWith(() => new AutoDecoder());
}
