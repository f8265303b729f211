/**
 * AWS Bedrock `ConverseStream` events (read from the AWS event stream by `decodeAwsEventStream()`,
 * or yielded by the AWS SDK) → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason, FramedRecord } from '../../events';
import { bytesToBase64 } from '../../internal/base64';
import { asNumber, asRecord, asString, isAfterFinishFailure, type EventSink } from '../decoder';
import { toolCallDelta, TypedEventDecoder, usageEvent, wireString } from '../wire';
import { bedrockException, converseUsage, isBedrockException, normalizeConverseStopReason } from './mapping';

/** One open `toolUse` content block. */
interface ToolBlock {
  readonly id: string | undefined;
  stopped: boolean;
}

/** One open `reasoningContent` block: what its `reasoning-end` carries. */
interface ReasoningBlock {
  text: string;
  signature: string;
  redacted: string | undefined;
}

/** Decoder state for one `ConverseStream` answer. */
export class BedrockConverseDecoder extends TypedEventDecoder {
  /** The wire format this decoder reads: always `'bedrock-converse'`. */
  readonly provider = 'bedrock-converse' as const;
  private metadataSent = false;
  /** `messageStop` arrived: the message is complete (its `metadata` event may still follow). */
  private stopped = false;
  private readonly tools = new Map<number, ToolBlock>();
  private readonly reasoning = new Map<number, ReasoningBlock>();
  /** How many tool blocks are started and not stopped. */
  private unstopped = 0;

  /** See {@link WireDecoder.sse}; an exception frame (`throttlingException`, …) ends the stream with a `provider-error`. */
  override sse(event: FramedRecord, emit: EventSink): void {
    if (!this.done && isBedrockException(event.event)) throw bedrockException(this.provider, event.event, event.data);
    super.sse(event, emit);
  }

  /** See {@link WireDecoder.payload}. */
  override payload(eventName: string, payload: unknown, emit: EventSink): void {
    if (!this.done && isBedrockException(eventName)) throw bedrockException(this.provider, eventName, payload);
    super.payload(eventName, payload, emit);
  }

  /** Every record of an event stream is one of the format's own events (the framing has no keep-alives). */
  protected parses(): boolean {
    return true;
  }

  protected handle(type: string, data: Record<string, unknown>, emit: EventSink): void {
    switch (type) {
      case 'messageStart':
        if (!this.metadataSent) {
          this.metadataSent = true;
          emit({ type: 'metadata', provider: this.provider });
        }
        return;
      case 'contentBlockStart':
        this.blockStart(data, emit);
        return;
      case 'contentBlockDelta':
        this.blockDelta(data, emit);
        return;
      case 'contentBlockStop':
        this.blockStop(asNumber(data['contentBlockIndex']) ?? -1, emit);
        return;
      case 'messageStop': {
        const rawReason = asString(data['stopReason']);
        const reason = rawReason ? normalizeConverseStopReason(rawReason) : undefined;
        this.closeUnstopped(emit, reason);
        this.stopped = true;
        if (rawReason && reason !== undefined) emit({ type: 'finish', choice: 0, reason, rawReason });
        return;
      }
      case 'metadata': {
        const usage = asRecord(data['usage']);
        if (usage !== undefined) {
          const event = usageEvent(converseUsage(usage), usage);
          if (event !== undefined) emit(event);
        }
        // The last event of a Converse stream: after `messageStop`, the stream is complete.
        if (this.stopped) this.finishStream(emit);
        return;
      }
      default:
        return; // event types added later
    }
  }

  private blockStart(data: Record<string, unknown>, emit: EventSink): void {
    const index = asNumber(data['contentBlockIndex']);
    const toolUse = asRecord(asRecord(data['start'])?.['toolUse']);
    if (index === undefined || toolUse === undefined) return;
    const id = wireString(toolUse['toolUseId']);
    const name = wireString(toolUse['name']);
    const previous = this.tools.get(index);
    if (previous === undefined || previous.stopped) this.unstopped++;
    this.tools.set(index, { id, stopped: false });
    emit(toolCallDelta(0, '', index, id, name));
  }

  private blockDelta(data: Record<string, unknown>, emit: EventSink): void {
    const index = asNumber(data['contentBlockIndex']);
    const delta = asRecord(data['delta']);
    if (delta === undefined) return;
    const text = delta['text'];
    if (typeof text === 'string') {
      if (text !== '') emit({ type: 'text-delta', choice: 0, text });
      return;
    }
    const toolUse = asRecord(delta['toolUse']);
    if (toolUse !== undefined) {
      const input = asString(toolUse['input']);
      if (input !== undefined) emit(toolCallDelta(0, input, index));
      return;
    }
    const reasoning = asRecord(delta['reasoningContent']);
    if (reasoning !== undefined) this.reasoningDelta(index, reasoning, emit);
    // citation, image and later additions: nothing to report
  }

  private reasoningDelta(index: number | undefined, delta: Record<string, unknown>, emit: EventSink): void {
    let block = index === undefined ? undefined : this.reasoning.get(index);
    if (block === undefined && index !== undefined) {
      block = { text: '', signature: '', redacted: undefined };
      this.reasoning.set(index, block);
    }
    const text = asString(delta['text']);
    if (text) {
      if (block !== undefined) block.text += text;
      emit({ type: 'reasoning-delta', choice: 0, text });
    }
    const signature = asString(delta['signature']);
    if (signature) {
      if (block !== undefined) block.signature += signature;
      emit({ type: 'reasoning-delta', choice: 0, text: '', signature });
    }
    // JSON carries the blob as base64; the AWS SDK hands over its bytes.
    const raw = delta['redactedContent'];
    const redacted = typeof raw === 'string' ? raw : raw instanceof Uint8Array ? bytesToBase64(raw) : undefined;
    if (redacted !== undefined && block !== undefined) block.redacted = (block.redacted ?? '') + redacted;
  }

  private blockStop(index: number, emit: EventSink): void {
    const reasoning = this.reasoning.get(index);
    if (reasoning !== undefined) {
      this.reasoning.delete(index);
      emit({
        type: 'reasoning-end',
        choice: 0,
        index,
        text: reasoning.text,
        ...(reasoning.signature === '' ? {} : { signature: reasoning.signature }),
        ...(reasoning.redacted === undefined ? {} : { redacted: reasoning.redacted }),
      });
    }
    const tool = this.tools.get(index);
    if (tool !== undefined && !tool.stopped) {
      tool.stopped = true;
      this.unstopped--;
      emit({ type: 'tool-call-end', choice: 0, index, ...(tool.id === undefined ? {} : { id: tool.id }) });
    }
  }

  /** Tool blocks without `contentBlockStop` when the message stopped were cut: end them incomplete (by `reason`, when known). */
  private closeUnstopped(emit: EventSink, reason: FinishReason | undefined): void {
    if (this.unstopped === 0) return;
    for (const [index, tool] of this.tools) {
      if (tool.stopped) continue;
      tool.stopped = true;
      emit({ type: 'tool-call-end', choice: 0, index, incomplete: true, ...(tool.id === undefined ? {} : { id: tool.id }), ...(reason === undefined ? {} : { finishReason: reason }) });
    }
    this.unstopped = 0;
  }

  private finishStream(emit: EventSink): void {
    this.done = true;
    emit({ type: 'done' });
  }

  /** The source completed: complete after `messageStop` (its `metadata` may be missing), else `truncated`. */
  end(emit: EventSink): void {
    if (this.done) return;
    if (this.stopped) return this.finishStream(emit);
    throw new ToolStreamError('truncated', {
      provider: this.provider,
      detail: `no messageStop arrived${this.unstopped > 0 ? ` (${this.unstopped} toolUse block${this.unstopped === 1 ? '' : 's'} still open)` : ''}`,
    });
  }

  /** After `messageStop`, an idle timeout or a dropped connection loses nothing but the usage: the stream is complete. */
  override interrupt(error: unknown, emit?: EventSink): boolean {
    if (this.done) return isAfterFinishFailure(error);
    if (!this.stopped || !isAfterFinishFailure(error) || emit === undefined) return false;
    this.finishStream(emit);
    return true;
  }
}
