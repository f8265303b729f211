/**
 * The OpenAI Realtime API's server events (a session's WebSocket messages) → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason, ProviderToolEvent } from '../../events';
import { asNumber, asRecord, asString, providerError, type EventSink } from '../decoder';
import { openaiUsage } from '../openaiChat/mapping';
import { countAt, toolCallDelta, TypedEventDecoder, usageEvent, wireString, type UsageCounts } from '../wire';

/**
 * Error codes a session outlives and that need nothing from the reader: the model was already
 * answering when a `response.create` came (a client's and the server's own response raced), a
 * cancel came after the response ended (pipecat-ai/pipecat#3960 treats both as harmless).
 */
const HARMLESS_ERRORS: ReadonlySet<string> = /* @__PURE__ */ new Set(['conversation_already_has_active_response', 'response_cancel_not_active']);

/** One `function_call` output item of the session, by its `call_id` (else its item id). */
interface CallState {
  readonly index: number;
  readonly callId: string | undefined;
  readonly responseId: string | undefined;
  /** The last full text handed on as a replace (`.done`, the item), to skip an identical resend. */
  final: string | undefined;
  ended: boolean;
}

/** Realtime `usage` → token counts (OpenAI's counting: cached inside input). */
export function realtimeUsage(usage: Record<string, unknown>): UsageCounts {
  return openaiUsage(asNumber(usage['input_tokens']), asNumber(usage['output_tokens']), asNumber(usage['total_tokens']), undefined, countAt(usage, 'input_token_details', 'cached_tokens'));
}

/** A response's final status stands for its finish reason. */
export function realtimeFinishReason(raw: string): FinishReason {
  return raw === 'completed' ? 'stop' : raw === 'incomplete' ? 'length' : raw === 'failed' ? 'error' : 'other';
}

/** The text a `text-delta` carries: the response's text, or the transcript of its audio. */
const TEXT_EVENTS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'response.output_text.delta',
  'response.text.delta', // the beta's name
  'response.output_audio_transcript.delta',
  'response.audio_transcript.delta', // the beta's name
]);

/** Decoder state for one Realtime session: many responses, one after another. */
export class OpenAIRealtimeDecoder extends TypedEventDecoder {
  /** The wire format this decoder reads: always `'openai-realtime'`. */
  readonly provider = 'openai-realtime' as const;
  /** The session's model (`session.created`), put on each response's `metadata`. */
  private model: string | undefined;
  /** The response in progress (between `response.created` and `response.done`), by id; `''` for one without an id. */
  private current: string | undefined;
  /** Whether the response in progress had a function call. */
  private currentHadCalls = false;
  /** Calls by `call_id` (else `#item_id`). */
  private readonly calls = new Map<string, CallState>();
  /** The key of a call by its item id, for the events that name the item only. */
  private readonly keyByItemId = new Map<string, string>();
  /** MCP runs by item id: their index, and whether their item is done. */
  private readonly mcpRuns = new Map<string, { readonly index: number | undefined; done: boolean }>();

  protected parses(name: string): boolean {
    return name !== 'ping';
  }

  protected handle(type: string, data: Record<string, unknown>, emit: EventSink): void {
    switch (type) {
      case 'session.created':
      case 'session.updated':
        this.model = wireString(asRecord(data['session'])?.['model']) ?? this.model;
        return;
      case 'response.created':
        this.started(asRecord(data['response']), emit);
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
      case 'response.mcp_call_arguments.delta':
        this.mcpDelta(data, emit);
        return;
      case 'response.done':
        this.responseDone(asRecord(data['response']), emit);
        return;
      case 'error':
        this.error(data);
        return;
      default:
        if (TEXT_EVENTS.has(type)) {
          const text = asString(data['delta']);
          if (text !== undefined && text !== '') emit({ type: 'text-delta', choice: 0, text });
        }
        return; // audio, transcripts of the user's speech, conversation items, rate limits, …: nothing to emit
    }
  }

  /** An `error` event: a `provider-error`, unless it is one the session outlives with nothing lost. */
  private error(data: Record<string, unknown>): void {
    const code = wireString(asRecord(data['error'])?.['code']);
    if (code !== undefined && HARMLESS_ERRORS.has(code)) return;
    throw providerError(this.provider, data);
  }

  /** A response began: its `metadata`. */
  private started(response: Record<string, unknown> | undefined, emit: EventSink): void {
    const responseId = wireString(response?.['id']);
    this.current = responseId ?? '';
    this.currentHadCalls = false;
    emit({ type: 'metadata', provider: this.provider, ...(responseId === undefined ? {} : { responseId }), ...(this.model === undefined ? {} : { model: this.model }) });
  }

  private itemAdded(data: Record<string, unknown>, emit: EventSink): void {
    const item = asRecord(data['item']);
    if (item?.['type'] === 'mcp_call') return this.mcpItem(item, asNumber(data['output_index']), false, emit);
    if (item?.['type'] !== 'function_call') return;
    this.open(item, asNumber(data['output_index']), wireString(data['response_id']), asString(item['arguments']) ?? '', false, emit);
  }

  /** The first delta of a call (id, name, item id, response id), and its state. */
  private open(item: Record<string, unknown>, outputIndex: number | undefined, responseId: string | undefined, args: string, replace: boolean, emit: EventSink): CallState {
    const callId = wireString(item['call_id']);
    const itemId = wireString(item['id']);
    const name = wireString(item['name']);
    const response = responseId ?? (this.current === '' ? undefined : this.current);
    const index = outputIndex ?? this.calls.size;
    const call: CallState = { index, callId, responseId: response, final: replace ? args : undefined, ended: false };
    const key = callId ?? `#${itemId ?? this.calls.size}`;
    this.calls.set(key, call);
    if (itemId !== undefined) this.keyByItemId.set(itemId, key);
    this.currentHadCalls = true;
    const metadata = { ...(itemId === undefined ? {} : { itemId }), ...(response === undefined ? {} : { responseId: response }) };
    emit(toolCallDelta(0, args, index, callId, name, replace, metadata));
    return call;
  }

  /** The call an event refers to: by `call_id`, else by `item_id`. */
  private callFor(data: Record<string, unknown>): CallState | undefined {
    const callId = wireString(data['call_id']);
    const byCall = callId === undefined ? undefined : this.calls.get(callId);
    if (byCall !== undefined) return byCall;
    const itemId = wireString(data['item_id']);
    const key = itemId === undefined ? undefined : this.keyByItemId.get(itemId);
    return key === undefined ? undefined : this.calls.get(key);
  }

  private argumentsDelta(data: Record<string, unknown>, emit: EventSink): void {
    const delta = asString(data['delta']);
    const call = this.callFor(data);
    if (delta === undefined || call === undefined || call.ended) return;
    emit(toolCallDelta(0, delta, call.index, call.callId));
  }

  /** The full arguments (`.done`, the item, `response.done`'s output): the most final non-empty text wins (rule `final-arguments-win`). */
  private argumentsDone(call: CallState, full: string | undefined, emit: EventSink): void {
    if (call.ended || full === undefined || full === '' || full === call.final) return;
    call.final = full;
    emit(toolCallDelta(0, full, call.index, call.callId, undefined, true));
  }

  private itemDone(data: Record<string, unknown>, emit: EventSink): void {
    const item = asRecord(data['item']);
    if (item?.['type'] === 'mcp_call') return this.mcpItem(item, asNumber(data['output_index']), true, emit);
    if (item?.['type'] !== 'function_call') return;
    const full = asString(item['arguments']);
    const known = this.callFor({ call_id: item['call_id'], item_id: item['id'] });
    const call = known ?? this.open(item, asNumber(data['output_index']), wireString(data['response_id']), full ?? '', true, emit);
    if (known !== undefined) this.argumentsDone(call, full, emit);
    this.endCall(call, emit, item['status'] === 'incomplete');
  }

  private endCall(call: CallState, emit: EventSink, incomplete: boolean, finishReason?: FinishReason): void {
    if (call.ended) return;
    call.ended = true;
    emit({
      type: 'tool-call-end',
      choice: 0,
      index: call.index,
      ...(call.callId === undefined ? {} : { id: call.callId }),
      ...(incomplete ? { incomplete: true } : {}),
      ...(incomplete && finishReason !== undefined ? { finishReason } : {}),
    });
  }

  /** An MCP tool's item started (`done` false) or finished: a `provider-tool` event, once per state. */
  private mcpItem(item: Record<string, unknown>, index: number | undefined, done: boolean, emit: EventSink): void {
    const id = wireString(item['id']) ?? '';
    const run = this.mcpRuns.get(id);
    if (run?.done === true) return;
    if (run === undefined) this.mcpRuns.set(id, { index, done });
    else run.done = done;
    const error = item['error'];
    const failed = error !== undefined && error !== null;
    const result = done ? (failed ? error : item['output']) : undefined;
    const event: ProviderToolEvent = {
      type: 'provider-tool',
      choice: 0,
      provider: this.provider,
      ...(index === undefined ? {} : { index }),
      id,
      tool: 'mcp',
      status: failed ? 'failed' : done ? 'completed' : 'running',
      input: { server: item['server_label'], name: item['name'], arguments: item['arguments'] },
      ...(result === undefined || result === null ? {} : { result }),
      raw: item,
    };
    emit(event);
  }

  private mcpDelta(data: Record<string, unknown>, emit: EventSink): void {
    const id = wireString(data['item_id']) ?? '';
    const run = this.mcpRuns.get(id);
    const delta = asString(data['delta']);
    if (run === undefined || run.done || delta === undefined || delta === '') return;
    emit({ type: 'provider-tool', choice: 0, provider: this.provider, ...(run.index === undefined ? {} : { index: run.index }), id, tool: 'mcp', status: 'running', inputDelta: delta });
  }

  /**
   * A response ended: its final output's calls (the most final arguments, and the calls a server
   * never streamed), every call of it still open ended (`incomplete` unless it completed), its usage
   * and its finish. The session goes on: the next response may follow.
   */
  private responseDone(response: Record<string, unknown> | undefined, emit: EventSink): void {
    const status = asString(response?.['status']) ?? 'completed';
    const responseId = wireString(response?.['id']);
    const details = asRecord(response?.['status_details']);
    if (status === 'failed') {
      this.current = undefined;
      throw providerError(this.provider, asRecord(details?.['error']) ?? response ?? {}, 'the response failed');
    }
    const output = response?.['output'];
    if (Array.isArray(output)) {
      output.forEach((value, position) => {
        const item = asRecord(value);
        if (item?.['type'] === 'mcp_call') return this.mcpItem(item, position, true, emit);
        if (item?.['type'] !== 'function_call') return;
        const call = this.callFor({ call_id: item['call_id'], item_id: item['id'] }) ?? this.open(item, position, responseId, asString(item['arguments']) ?? '', true, emit);
        this.argumentsDone(call, asString(item['arguments']), emit);
      });
    }
    const reason = asString(details?.['reason']);
    const cut: FinishReason | undefined = status === 'incomplete' ? (reason === 'content_filter' ? 'content-filter' : 'length') : undefined;
    const hadCalls = this.currentHadCalls;
    for (const [key, call] of this.calls) {
      if (responseId !== undefined && call.responseId !== undefined && call.responseId !== responseId) continue; // another response's call
      this.endCall(call, emit, status !== 'completed', cut);
      this.calls.delete(key); // the session's calls are only kept while their response runs
    }
    if (this.calls.size === 0) this.keyByItemId.clear();
    this.mcpRuns.clear();
    const usage = asRecord(response?.['usage']);
    if (usage !== undefined) {
      const event = usageEvent(realtimeUsage(usage), usage);
      if (event !== undefined) emit(event);
    }
    const finish: FinishReason = status === 'completed' ? (hadCalls ? 'tool-calls' : 'stop') : (cut ?? 'other');
    emit({ type: 'finish', choice: 0, reason: finish, rawReason: status });
    this.current = undefined;
    this.currentHadCalls = false;
  }

  /** The socket closed: the session is over (`done`), unless a response was still running (`truncated`). */
  end(emit: EventSink): void {
    if (this.current !== undefined) {
      const open = [...this.calls.values()].filter((c) => !c.ended).length;
      const detail = open > 0 ? ` (${open} function call${open === 1 ? '' : 's'} still open)` : '';
      throw new ToolStreamError('truncated', { provider: this.provider, detail: `the session ended during a response, before its response.done${detail}` });
    }
    this.done = true;
    emit({ type: 'done' });
  }
}
