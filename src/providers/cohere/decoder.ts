/**
 * Cohere v2 Chat streaming → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason } from '../../events';
import { asNumber, asRecord, asString, providerError, type EventSink } from '../decoder';
import { countAt, stringifyJson, toolCallDelta, TypedEventDecoder, usageEvent, wireString, type UsageCounts } from '../wire';

/** Map a Cohere `finish_reason` to the normalised {@link FinishReason}. */
export function normalizeCohereFinishReason(raw: string): FinishReason {
  switch (raw) {
    case 'COMPLETE':
    case 'STOP_SEQUENCE':
      return 'stop';
    case 'TOOL_CALL':
      return 'tool-calls';
    case 'MAX_TOKENS':
    case 'ERROR_LIMIT':
      return 'length';
    case 'ERROR_TOXIC':
      return 'content-filter';
    case 'ERROR':
      return 'error';
    default:
      return 'other';
  }
}

/** Cohere `usage` → token counts (`tokens`, else `billed_units`). */
export function cohereUsage(usage: Record<string, unknown>): UsageCounts {
  return {
    inputTokens: countAt(usage, 'tokens', 'input_tokens') ?? countAt(usage, 'billed_units', 'input_tokens'),
    outputTokens: countAt(usage, 'tokens', 'output_tokens') ?? countAt(usage, 'billed_units', 'output_tokens'),
    cachedInputTokens: asNumber(usage['cached_tokens']),
  };
}

/** `delta.message` of a Cohere event. */
function messageOf(data: Record<string, unknown>): Record<string, unknown> | undefined {
  return asRecord(asRecord(data['delta'])?.['message']);
}

/** Cohere v2's event names (as `event:` or the payload's `type`). */
export const COHERE_EVENTS = /* @__PURE__ */ new Set([
  'message-start',
  'content-start',
  'content-delta',
  'content-end',
  'tool-plan-delta',
  'tool-call-start',
  'tool-call-delta',
  'tool-call-end',
  'citation-start',
  'citation-end',
  'message-end',
  'debug',
]);

/** Decoder state for one Cohere v2 stream. */
export class CohereChatDecoder extends TypedEventDecoder {
  /** The wire format this decoder reads: always `'cohere'`. */
  readonly provider = 'cohere' as const;
  private metadataSent = false;
  /** Started, not yet ended calls: index → wire id. */
  private readonly open = new Map<number, string | undefined>();
  private position = 0;

  protected parses(name: string): boolean {
    return COHERE_EVENTS.has(name);
  }

  protected handle(type: string, data: Record<string, unknown>, emit: EventSink): void {
    switch (type) {
      case 'message-start': {
        const responseId = wireString(data['id']);
        if (!this.metadataSent && responseId !== undefined) {
          this.metadataSent = true;
          emit({ type: 'metadata', provider: this.provider, responseId });
        }
        return;
      }
      case 'content-start':
      case 'content-delta':
        this.content(asRecord(messageOf(data)?.['content']), emit);
        return;
      case 'tool-plan-delta': {
        const text = asString(messageOf(data)?.['tool_plan']);
        if (text) emit({ type: 'reasoning-delta', choice: 0, text });
        return;
      }
      case 'tool-call-start':
        this.toolCallStart(data, emit);
        return;
      case 'tool-call-delta': {
        const index = asNumber(data['index']);
        const fragment = asString(asRecord(asRecord(messageOf(data)?.['tool_calls'])?.['function'])?.['arguments']);
        if (fragment === undefined) return;
        emit(toolCallDelta(0, fragment, index));
        return;
      }
      case 'tool-call-end': {
        const index = asNumber(data['index']);
        const id = index === undefined ? undefined : this.open.get(index);
        if (index !== undefined) this.open.delete(index);
        emit({ type: 'tool-call-end', choice: 0, ...(index === undefined ? {} : { index }), ...(id === undefined ? {} : { id }) });
        return;
      }
      case 'message-end':
        this.messageEnd(asRecord(data['delta']), emit);
        return;
      case 'error':
        throw providerError(this.provider, data);
      default:
        return; // citation-start, citation-end, content-end, …
    }
  }

  private content(content: Record<string, unknown> | undefined, emit: EventSink): void {
    if (content === undefined) return;
    const text = asString(content['text']);
    if (text) emit({ type: 'text-delta', choice: 0, text });
    const thinking = asString(content['thinking']);
    if (thinking) emit({ type: 'reasoning-delta', choice: 0, text: thinking });
  }

  private toolCallStart(data: Record<string, unknown>, emit: EventSink): void {
    const call = asRecord(messageOf(data)?.['tool_calls']);
    const fn = asRecord(call?.['function']);
    const index = asNumber(data['index']) ?? this.position;
    this.position = index + 1;
    const id = wireString(call?.['id']);
    const name = wireString(fn?.['name']);
    const args = fn?.['arguments'];
    this.open.set(index, id);
    emit({
      type: 'tool-call-delta',
      choice: 0,
      index,
      argumentsDelta: typeof args === 'string' ? args : args === undefined || args === null ? '' : stringifyJson(args),
      ...(id === undefined ? {} : { id }),
      ...(name === undefined ? {} : { name }),
    });
  }

  private messageEnd(delta: Record<string, unknown> | undefined, emit: EventSink): void {
    this.done = true;
    const rawReason = asString(delta?.['finish_reason']);
    const reason = rawReason ? normalizeCohereFinishReason(rawReason) : undefined;
    // Calls the wire started but never ended were cut off.
    for (const [index, id] of this.open)
      emit({ type: 'tool-call-end', choice: 0, index, incomplete: true, ...(id === undefined ? {} : { id }), ...(reason === undefined ? {} : { finishReason: reason }) });
    this.open.clear();
    if (rawReason && reason !== undefined) emit({ type: 'finish', choice: 0, reason, rawReason });
    const usage = asRecord(delta?.['usage']);
    if (usage !== undefined) {
      const event = usageEvent(cohereUsage(usage), usage);
      if (event !== undefined) emit(event);
    }
    emit({ type: 'done' });
  }

  end(): void {
    if (this.done) return;
    throw new ToolStreamError('truncated', {
      provider: this.provider,
      detail: `no message-end arrived${this.open.size > 0 ? ` (${this.open.size} tool call${this.open.size === 1 ? '' : 's'} still open)` : ''}`,
    });
  }
}
