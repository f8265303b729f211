/**
 * AWS Bedrock `InvokeModelWithResponseStream`: event-stream `chunk` frames whose payload is
 * `{"bytes":"<base64>"}` of the model's own streaming events → the inner format's decoder.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FramedRecord, StreamEvent } from '../../events';
import { base64ToBytes } from '../../internal/base64';
import { asRecord } from '../../internal/json';
import { AnthropicMessagesDecoder } from '../anthropic/decoder';
import { OpenAIChatDecoder } from '../openaiChat/decoder';
import { bedrockException, isBedrockException } from '../bedrockConverse/mapping';
import type { EventSink, WireDecoder } from '../decoder';
import { errorEvent, parseObject, requireObject, safeStringify } from '../wire';

/**
 * Decoder state for one `InvokeModelWithResponseStream` answer: each `chunk`'s `bytes`, decoded
 * from base64 as UTF-8 text, is one event of the model's own stream, read by the inner decoder:
 * by default, the one the first chunk shows — OpenAI chat chunks (`choices`: the OpenAI models
 * Bedrock hosts, gpt-oss) or Anthropic Messages events (Claude, and anything else).
 */
export class BedrockInvokeModelDecoder implements WireDecoder {
  /** The wire format this decoder reads: always `'bedrock-invoke-model'` (on `metadata` events and its own errors). */
  readonly provider = 'bedrock-invoke-model' as const;
  private inner: WireDecoder | undefined;
  private readonly utf8 = new TextDecoder();
  /** The last `emit` seen, and the one that relabels the inner decoder's `metadata` for it. */
  private outer: EventSink | undefined;
  private relabeled: EventSink | undefined;

  /**
   * A decoder for one stream, with its inner decoder.
   *
   * @param make The decoder of the model's own events, one per stream (default: chosen by the first
   *   chunk, OpenAI chat or Anthropic Messages).
   */
  constructor(private readonly make?: () => WireDecoder) {}

  /** The inner decoder, made for the first chunk's text (`undefined`: no chunk yet). */
  private innerFor(text: string | undefined): WireDecoder {
    if (this.inner !== undefined) return this.inner;
    if (this.make !== undefined) return (this.inner = this.make());
    let chat = false;
    if (text !== undefined) {
      try {
        chat = Array.isArray(asRecord(JSON.parse(text))?.['choices']);
      } catch {
        chat = false; // the Anthropic decoder reports it
      }
    }
    return (this.inner = chat ? new OpenAIChatDecoder() : new AnthropicMessagesDecoder());
  }

  /** One record of the event stream: a `chunk`, or an exception. */
  sse(event: FramedRecord, emit: EventSink): void {
    if (isBedrockException(event.event)) throw bedrockException(this.provider, event.event, event.data);
    if (event.event === 'error') throw errorEvent(this.provider, event);
    if (event.event !== 'chunk') return; // the union has no other member today
    this.chunk(parseObject(this.provider, event.data), event.data, emit);
  }

  /** One AWS SDK event (`chunk` with `bytes` as a `Uint8Array`, or base64 text). */
  payload(eventName: string, payload: unknown, emit: EventSink): void {
    if (isBedrockException(eventName)) throw bedrockException(this.provider, eventName, payload);
    if (eventName !== 'chunk') return;
    this.chunk(requireObject(this.provider, payload), undefined, emit);
  }

  end(emit: EventSink): void {
    this.innerFor(undefined).end(this.relabel(emit));
  }

  interrupt(error: unknown, emit: EventSink): boolean {
    return this.innerFor(undefined).interrupt?.(error, this.relabel(emit)) === true;
  }

  private chunk(record: Record<string, unknown>, data: string | undefined, emit: EventSink): void {
    const raw = record['bytes'];
    const bytes = typeof raw === 'string' ? base64ToBytes(raw) : raw instanceof Uint8Array ? raw : undefined;
    if (bytes === undefined) throw new ToolStreamError('invalid-event', { provider: this.provider, data: data ?? safeStringify(record), detail: 'a chunk must carry its event as base64 "bytes"' });
    const text = this.utf8.decode(bytes);
    this.innerFor(text).sse({ event: 'message', data: text, id: undefined, retry: undefined }, this.relabel(emit));
  }

  /** `emit`, with the inner decoder's `metadata` naming this format. */
  private relabel(emit: EventSink): EventSink {
    if (emit !== this.outer) {
      this.outer = emit;
      const provider = this.provider;
      this.relabeled = (event: StreamEvent) => emit(event.type === 'metadata' ? { ...event, provider } : event);
    }
    return this.relabeled as EventSink;
  }
}
