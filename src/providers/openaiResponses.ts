/**
 * OpenAI Responses API streaming (also Azure OpenAI, AWS Bedrock Mantle, LM Studio and other
 * Open Responses servers) → {@link StreamEvent}s.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import { TruncatedStreamError } from '../errors';
import type { FinishReason, SseEvent, StreamEvent } from '../events';
import { asNumber, asRecord, asString, decodeSseWith, providerError, type Emit } from './decoder';
import { countAt, toolCallDelta, TypedEventDecoder, usageEvent, wireString } from './wire';

/** One `function_call` output item, keyed by its `output_index`. */
interface FunctionCallState {
  readonly index: number;
  readonly callId: string | undefined;
  readonly itemId: string | undefined;
  /** Whether any non-empty argument text was handed on (deltas, `.done` or the item). */
  hasText: boolean;
  /** The last full text handed on as a replace (`.done`, then the item), to skip an identical resend. */
  final: string | undefined;
  /** The item arrived done with empty arguments: its end waits for `response.completed`, which may carry them. */
  held: boolean;
  ended: boolean;
}

/** The finish of a `response.incomplete`: `content-filter` or (token limits) `length`. */
function incompleteReason(response: Record<string, unknown> | undefined): FinishReason {
  return asString(asRecord(response?.['incomplete_details'])?.['reason']) === 'content_filter' ? 'content-filter' : 'length';
}

/** Decoder state for one Responses stream. */
export class OpenAIResponsesDecoder extends TypedEventDecoder {
  /** The wire format this decoder reads: always `'openai-responses'`. */
  readonly provider = 'openai-responses' as const;
  private metadataSent = false;
  private readonly calls = new Map<number, FunctionCallState>();
  private readonly indexByItemId = new Map<string, number>();

  protected handle(type: string, data: Record<string, unknown>, emit: Emit): void {
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        this.metadata(asRecord(data['response']), emit);
        return;
      case 'response.output_item.added':
        this.itemAdded(data, emit);
        return;
      case 'response.function_call_arguments.delta':
        this.argumentsDelta(data, emit);
        return;
      case 'response.function_call_arguments.done': {
        const call = this.callFor(data);
        if (call !== undefined) this.argumentsDone(call, asString(data['arguments']), emit);
        return;
      }
      case 'response.output_item.done':
        this.itemDone(data, emit);
        return;
      case 'response.output_text.delta':
        this.text('text-delta', data, emit);
        return;
      case 'response.reasoning_text.delta':
      case 'response.reasoning_summary_text.delta':
        this.text('reasoning-delta', data, emit);
        return;
      case 'response.completed':
        this.terminate(asRecord(data['response']), 'completed', emit);
        return;
      case 'response.incomplete':
        this.terminate(asRecord(data['response']), 'incomplete', emit);
        return;
      case 'response.failed': {
        const response = asRecord(data['response']);
        throw providerError(this.provider, response ?? data, 'the response failed');
      }
      case 'error':
        throw providerError(this.provider, data);
      default:
        return; // content_part, output_text.done, refusal, annotations, …: nothing to emit
    }
  }

  private metadata(response: Record<string, unknown> | undefined, emit: Emit): void {
    if (this.metadataSent || response === undefined) return;
    const responseId = wireString(response['id']);
    const model = wireString(response['model']);
    if (responseId === undefined && model === undefined) return;
    this.metadataSent = true;
    emit({ type: 'metadata', provider: this.provider, ...(responseId === undefined ? {} : { responseId }), ...(model === undefined ? {} : { model }) });
  }

  private itemAdded(data: Record<string, unknown>, emit: Emit): void {
    const item = asRecord(data['item']);
    if (item === undefined || item['type'] !== 'function_call') return;
    const index = asNumber(data['output_index']) ?? this.calls.size;
    this.open(index, item, asString(item['arguments']) ?? '', false, emit);
  }

  /** Emit the first delta of a call (id, name, item id) and remember it. */
  private open(index: number, item: Record<string, unknown>, args: string, replace: boolean, emit: Emit): FunctionCallState {
    const callId = wireString(item['call_id']);
    const itemId = wireString(item['id']);
    const name = wireString(item['name']);
    const call: FunctionCallState = { index, callId, itemId, hasText: args !== '', final: replace ? args : undefined, held: false, ended: false };
    this.calls.set(index, call);
    if (itemId !== undefined) this.indexByItemId.set(itemId, index);
    emit({
      type: 'tool-call-delta',
      choice: 0,
      index,
      argumentsDelta: args,
      ...(callId === undefined ? {} : { id: callId }),
      ...(name === undefined ? {} : { name }),
      ...(replace ? { replace: true } : {}),
      ...(itemId === undefined ? {} : { metadata: { itemId } }),
    });
    return call;
  }

  /** The call an event refers to, by `output_index` or else by `item_id`. */
  private callFor(data: Record<string, unknown>): FunctionCallState | undefined {
    const index = asNumber(data['output_index']);
    if (index !== undefined) return this.calls.get(index);
    const itemId = wireString(data['item_id']);
    const byItem = itemId === undefined ? undefined : this.indexByItemId.get(itemId);
    return byItem === undefined ? undefined : this.calls.get(byItem);
  }

  private argumentsDelta(data: Record<string, unknown>, emit: Emit): void {
    const delta = asString(data['delta']);
    if (delta === undefined) return;
    const call = this.callFor(data);
    if (call !== undefined && delta !== '') call.hasText = true;
    const index = call?.index ?? asNumber(data['output_index']);
    emit(toolCallDelta(0, delta, index, call?.callId));
  }

  /**
   * Full arguments arrived (`.done`, or the item in `output_item.done`): the most final non-empty
   * source wins, so non-empty full text replaces what was streamed (once per distinct text; handing
   * the one flat string on is also cheaper than comparing it with the streamed pieces, which would
   * join them first). Empty full text never replaces streamed text.
   */
  private argumentsDone(call: FunctionCallState, full: string | undefined, emit: Emit): void {
    if (full === undefined || full === '' || full === call.final) return;
    call.final = full;
    call.hasText = true;
    emit(toolCallDelta(0, full, call.index, call.callId, undefined, true));
  }

  private itemDone(data: Record<string, unknown>, emit: Emit): void {
    const item = asRecord(data['item']);
    if (item === undefined || item['type'] !== 'function_call') return;
    const full = asString(item['arguments']);
    let call = this.callFor(data);
    if (call === undefined) {
      // A server that never sent `output_item.added` for this call: open it whole.
      call = this.open(asNumber(data['output_index']) ?? this.calls.size, item, full ?? '', true, emit);
    } else {
      this.argumentsDone(call, full, emit);
    }
    if (call.ended || call.held) return;
    if (full === undefined || full === '') {
      // Some servers send the item with empty arguments and the real ones only in response.completed.
      call.held = true;
      return;
    }
    this.endCall(call, emit);
  }

  private endCall(call: FunctionCallState, emit: Emit, incomplete?: FinishReason): void {
    if (call.ended) return;
    call.ended = true;
    emit({ type: 'tool-call-end', choice: 0, index: call.index, ...(call.callId === undefined ? {} : { id: call.callId }), ...(incomplete === undefined ? {} : { incomplete: true, finishReason: incomplete }) });
  }

  private text(type: 'text-delta' | 'reasoning-delta', data: Record<string, unknown>, emit: Emit): void {
    const text = asString(data['delta']);
    if (text !== undefined && text.length > 0) emit({ type, choice: 0, text });
  }

  private terminate(response: Record<string, unknown> | undefined, status: 'completed' | 'incomplete', emit: Emit): void {
    this.metadata(response, emit);
    this.done = true;
    const incomplete = status === 'incomplete' ? incompleteReason(response) : undefined;
    // The final response's function calls: the most final source of their arguments, and the only
    // one for calls a server never streamed.
    const output = response?.['output'];
    if (Array.isArray(output)) {
      output.forEach((value, position) => {
        const item = asRecord(value);
        if (item?.['type'] !== 'function_call') return;
        const itemId = wireString(item['id']);
        const byItem = itemId === undefined ? undefined : this.indexByItemId.get(itemId);
        const call = this.calls.get(byItem ?? position);
        if (call === undefined) this.itemDone({ output_index: position, item }, emit);
        else if (!call.ended) this.argumentsDone(call, asString(item['arguments']), emit);
      });
    }
    for (const call of this.calls.values()) this.endCall(call, emit, incomplete);
    const usage = asRecord(response?.['usage']);
    if (usage !== undefined) {
      const event = usageEvent(
        {
          inputTokens: asNumber(usage['input_tokens']),
          outputTokens: asNumber(usage['output_tokens']),
          totalTokens: asNumber(usage['total_tokens']),
          reasoningTokens: countAt(usage, 'output_tokens_details', 'reasoning_tokens'),
          cachedInputTokens: countAt(usage, 'input_tokens_details', 'cached_tokens'),
        },
        usage,
      );
      if (event !== undefined) emit(event);
    }
    if (status === 'completed') {
      emit({ type: 'finish', choice: 0, reason: this.calls.size > 0 ? 'tool-calls' : 'stop', rawReason: 'completed' });
    } else {
      emit({ type: 'finish', choice: 0, reason: incomplete ?? 'length', rawReason: 'incomplete' });
    }
    emit({ type: 'done' });
  }

  end(): void {
    if (this.done) return;
    const open = [...this.calls.values()].filter((c) => !c.ended).length;
    const detail = open > 0 ? ` (${open} function call${open === 1 ? '' : 's'} still open)` : '';
    throw new TruncatedStreamError(this.provider, `no response.completed, response.incomplete or response.failed arrived${detail}`);
  }
}

/**
 * Read OpenAI Responses API events (OpenAI, Azure, Bedrock Mantle, LM Studio, …) as {@link StreamEvent}s.
 *
 * <span class="informal">SSE events in; one normalised event per text piece, reasoning piece,
 * function-call fragment, call end, finish and usage report out.</span>
 *
 * ```text
 * --c----a----x----X----o----C--|      c: response.created, a: output_item.added (function_call),
 *                                      x: arguments.delta, X: arguments.done, o: output_item.done, C: response.completed
 *   openaiResponses()
 * --m----x----x---------e----(ufd)--|  m: metadata, x: tool-call-delta, e: tool-call-end, u: usage, f: finish, d: done
 * ```
 *
 * 1. Emits `metadata` (response id and model), `text-delta` (`output_text.delta`), `reasoning-delta`
 *    (`reasoning_text.delta`, `reasoning_summary_text.delta`), `tool-call-delta` and `tool-call-end`
 *    for `function_call` items, then `usage`, `finish` and `done` on `response.completed` /
 *    `response.incomplete`.
 * 2. Call identity: `index` is the item's `output_index`, `id` its `call_id`; the `fc_…` item id is
 *    in `metadata.itemId`.
 * 3. The full arguments of `function_call_arguments.done` (or of the item in `output_item.done`) are
 *    authoritative: one `replace: true` delta carries them (LM Studio sends no deltas at all; other
 *    servers send the same text again, which then replaces the streamed pieces with one flat string).
 * 4. The event type is the `event:` field, or the payload's `type` when the field is absent
 *    (Bedrock Mantle writes `data:` before `event:`). `sequence_number` is not used: events are
 *    taken in arrival order.
 * 5. `finish` is `completed` (`tool-calls` when the output had a function call, else `stop`) or
 *    `incomplete` (`length`, or `content-filter`); calls still open on `response.incomplete` end
 *    `incomplete: true`.
 * 6. `error` events and `response.failed` end the stream with a `provider-error`; data that is not a
 *    JSON object ends it with `invalid-event`; a stream that ends without `response.completed`,
 *    `response.incomplete` or `response.failed` ends with `truncated`.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, openaiResponses } from 'rxjs-tool-calls';
 *
 * fromResponse(await fetch(url, init)).pipe(decodeSse(), openaiResponses()).subscribe(console.log);
 * // displays: { type: 'metadata', … }, { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '', metadata: { itemId: 'fc_1' } }, …
 * ```
 *
 * @return An operator from {@link SseEvent}s to {@link StreamEvent}s.
 */
export function openaiResponses(): OperatorFunction<SseEvent, StreamEvent> {
  return decodeSseWith(() => new OpenAIResponsesDecoder());
}
