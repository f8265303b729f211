/**
 * AWS Bedrock `InvokeModelWithResponseStream`: event-stream `chunk` frames whose payload is
 * `{"bytes":"<base64>"}` of the model's own streaming events → the inner format's decoder.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { SseEvent, StreamEvent } from '../../events';
import { base64ToBytes } from '../../internal/base64';
import { AnthropicMessagesDecoder } from '../anthropic/decoder';
import { bedrockException, isBedrockException } from '../bedrockConverse/mapping';
import type { Emit, WireDecoder } from '../decoder';
import { errorEvent, parseObject, requireObject, safeStringify } from '../wire';

/**
 * Decoder state for one `InvokeModelWithResponseStream` answer: each `chunk`'s `bytes`, decoded
 * from base64 as UTF-8 text, is one event of the model's own stream, read by the inner decoder
 * (Anthropic Messages by default: Claude's native events).
 */
export class BedrockInvokeModelDecoder implements WireDecoder {
  /** The wire format this decoder reads: always `'bedrock-invoke-model'` (on `metadata` events and its own errors). */
  readonly provider = 'bedrock-invoke-model' as const;
  private readonly inner: WireDecoder;
  private readonly utf8 = new TextDecoder();
  /** The last `emit` seen, and the one that relabels the inner decoder's `metadata` for it. */
  private outer: Emit | undefined;
  private relabeled: Emit | undefined;

  /**
   * A decoder for one stream, with its inner decoder.
   *
   * @param inner The decoder of the model's own events, one per stream (default: Anthropic Messages,
   *   for Claude; `openaiChat.decoder` for the OpenAI models Bedrock hosts, …).
   */
  constructor(inner: () => WireDecoder = () => new AnthropicMessagesDecoder()) {
    this.inner = inner();
  }

  /** One record of the event stream: a `chunk`, or an exception. */
  sse(event: SseEvent, emit: Emit): void {
    if (isBedrockException(event.event)) throw bedrockException(this.provider, event.event, event.data);
    if (event.event === 'error') throw errorEvent(this.provider, event);
    if (event.event !== 'chunk') return; // the union has no other member today
    this.chunk(parseObject(this.provider, event.data), event.data, emit);
  }

  /** One AWS SDK event (`chunk` with `bytes` as a `Uint8Array`, or base64 text). */
  payload(eventName: string, payload: unknown, emit: Emit): void {
    if (isBedrockException(eventName)) throw bedrockException(this.provider, eventName, payload);
    if (eventName !== 'chunk') return;
    this.chunk(requireObject(this.provider, payload), undefined, emit);
  }

  end(emit: Emit): void {
    this.inner.end(this.relabel(emit));
  }

  interrupt(error: unknown, emit: Emit): boolean {
    return this.inner.interrupt?.(error, this.relabel(emit)) === true;
  }

  private chunk(record: Record<string, unknown>, data: string | undefined, emit: Emit): void {
    const raw = record['bytes'];
    const bytes = typeof raw === 'string' ? base64ToBytes(raw) : raw instanceof Uint8Array ? raw : undefined;
    if (bytes === undefined) throw new ToolStreamError('invalid-event', { provider: this.provider, data: data ?? safeStringify(record), detail: 'a chunk must carry its event as base64 "bytes"' });
    this.inner.sse({ event: 'message', data: this.utf8.decode(bytes), id: undefined, retry: undefined }, this.relabel(emit));
  }

  /** `emit`, with the inner decoder's `metadata` naming this format. */
  private relabel(emit: Emit): Emit {
    if (emit !== this.outer) {
      this.outer = emit;
      const provider = this.provider;
      this.relabeled = (event: StreamEvent) => emit(event.type === 'metadata' ? { ...event, provider } : event);
    }
    return this.relabeled as Emit;
  }
}
