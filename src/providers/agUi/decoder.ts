/**
 * AG-UI events (TanStack AI, Mastra, LangGraph, CopilotKit's runtimes, `@ag-ui/encoder`) → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason, FramedRecord } from '../../events';
import { asNumber, asRecord, asString, isAfterFinishFailure, isRetryable, objectData, type EventSink, type WireDecoder } from '../decoder';
import { otherData, requireObject, safeStringify, usageEvent, type UsageCounts } from '../wire';

const COUNTS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens', 'cacheWriteInputTokens'] as const;

/**
 * AG-UI's usage (`RUN_FINISHED` / `RUN_ERROR` `usage`: one entry per provider and model, in the
 * vocabulary's own accounting) → token counts: the entries summed (an object is read as one entry).
 */
export function agUiUsage(usage: Record<string, unknown>): UsageCounts {
  const entries = Array.isArray(usage) ? (usage as unknown[]) : [usage];
  const counts: { -readonly [K in (typeof COUNTS)[number]]?: number } = {};
  for (const entry of entries) {
    const record = asRecord(entry);
    if (record === undefined) continue;
    for (const key of COUNTS) {
      const value = asNumber(record[key]);
      if (value !== undefined) counts[key] = (counts[key] ?? 0) + value;
    }
  }
  return counts;
}

/** AG-UI has no finish reason: a run's outcome stands for one (`success`, `interrupt`, `cancelled`). */
export function agUiFinishReason(raw: string): FinishReason {
  return raw === 'success' || raw === '' ? 'stop' : 'other';
}

/** One tool call of the run, by its `toolCallId`. */
interface CallState {
  /** Its position among the run's calls (the vocabulary's `index`). */
  readonly index: number;
  /** Until its `TOOL_CALL_END` (or the run's end). */
  open: boolean;
  /** A `TOOL_CALL_RESULT` answered it. */
  answered: boolean;
}

/** A message or call being assembled from `*_CHUNK` events, in one lane (a subagent, or the agent itself). */
interface Pending {
  readonly kind: 'text' | 'tool' | 'reasoning';
  readonly id: string;
}

/** An open reasoning message: its text so far (for its `reasoning-end`) and its encrypted value. */
interface Reasoning {
  text: string;
  encrypted: string | undefined;
}

/**
 * Decoder state for one AG-UI stream (one run). Identity is the protocol's `toolCallId` (rule
 * `ui-call-ids`); `*_CHUNK` events are expanded as `@ag-ui/client` does (rule `ui-chunks`).
 */
export class AgUiDecoder implements WireDecoder {
  /** The wire format this decoder reads: always `'ag-ui'`. */
  readonly provider = 'ag-ui' as const;
  /** `RUN_FINISHED` arrived: later events are ignored. */
  private done = false;
  private metadataSent = false;
  private readonly calls = new Map<string, CallState>();
  private nextIndex = 0;
  /** Per lane (`subagentRunId`, `undefined` for the agent), what chunk events are assembling. */
  private readonly lanes = new Map<string | undefined, Pending>();
  /** Text messages whose role is not the assistant's (their text is not the answer). */
  private readonly otherRoles = new Set<string>();
  private readonly reasoning = new Map<string, Reasoning>();

  sse(event: FramedRecord, emit: EventSink): void {
    if (this.done) return;
    const data = event.data;
    const payload = objectData(data) ?? otherData(this.provider, data, event.event === 'message');
    if (payload !== undefined) this.handle(payload, emit);
  }

  payload(_eventName: string, payload: unknown, emit: EventSink): void {
    if (this.done) return;
    this.handle(requireObject(this.provider, payload), emit);
  }

  private handle(event: Record<string, unknown>, emit: EventSink): void {
    const type = event['type'];
    if (typeof type !== 'string') throw this.invalid(event, 'an event needs a string `type`');
    const lane = laneOf(event);
    switch (type) {
      case 'RUN_STARTED': {
        this.closeAll(emit);
        const runId = asString(event['runId']);
        if (!this.metadataSent && runId !== undefined && runId !== '') {
          this.metadataSent = true;
          emit({ type: 'metadata', provider: this.provider, responseId: runId });
        }
        return;
      }
      case 'RUN_FINISHED':
        return this.runFinished(event, emit);
      case 'RUN_ERROR': {
        this.closeAll(emit);
        const message = this.need(event, 'message');
        this.usage(event['usage'], emit);
        const code = asString(event['code']) || undefined;
        throw new ToolStreamError('provider-error', {
          provider: this.provider,
          providerCode: code,
          type: undefined,
          message,
          status: undefined,
          retryable: isRetryable(undefined, code, undefined),
          payload: event,
        });
      }
      case 'TEXT_MESSAGE_START': {
        this.closeLane(lane, emit);
        const messageId = this.need(event, 'messageId');
        const role = event['role'];
        if (role !== undefined && role !== 'assistant') this.otherRoles.add(messageId);
        else this.otherRoles.delete(messageId);
        return;
      }
      case 'TEXT_MESSAGE_CONTENT': {
        this.closeLane(lane, emit);
        return this.text(this.need(event, 'messageId'), this.need(event, 'delta'), emit);
      }
      case 'TOOL_CALL_START': {
        this.closeLane(lane, emit);
        return this.start(this.need(event, 'toolCallId'), this.need(event, 'toolCallName'), emit);
      }
      case 'TOOL_CALL_ARGS': {
        this.closeLane(lane, emit);
        return this.args(this.need(event, 'toolCallId'), this.need(event, 'delta'), emit);
      }
      case 'TOOL_CALL_END': {
        this.closeLane(lane, emit);
        return this.endCall(this.need(event, 'toolCallId'), emit);
      }
      case 'TOOL_CALL_RESULT': {
        this.closeLane(lane, emit);
        const id = this.need(event, 'toolCallId');
        const content = event['content'];
        if (typeof content !== 'string' && !Array.isArray(content)) throw this.invalid(event, 'TOOL_CALL_RESULT needs `content`: a string or content parts');
        const call = this.calls.get(id);
        if (call !== undefined) call.answered = true;
        const messageId = asString(event['messageId']);
        emit({ type: 'tool-result', choice: 0, id, output: content, ...(messageId === undefined ? {} : { metadata: { messageId } }) });
        return;
      }
      case 'REASONING_MESSAGE_START':
        this.closeLane(lane, emit);
        this.reasoning.set(this.need(event, 'messageId'), { text: '', encrypted: undefined });
        return;
      case 'REASONING_MESSAGE_CONTENT': {
        this.closeLane(lane, emit);
        return this.thought(this.need(event, 'messageId'), this.need(event, 'delta'), emit);
      }
      case 'REASONING_MESSAGE_END':
        this.closeLane(lane, emit);
        return this.thoughtEnd(this.need(event, 'messageId'), emit);
      case 'REASONING_ENCRYPTED_VALUE': {
        // Kept on the open reasoning message it belongs to, sent back with its `reasoning-end`.
        const open = event['subtype'] === 'message' ? this.reasoning.get(asString(event['entityId']) ?? '') : undefined;
        const value = asString(event['encryptedValue']);
        if (open !== undefined && value !== undefined) open.encrypted = value;
        return;
      }
      case 'TEXT_MESSAGE_CHUNK':
      case 'TOOL_CALL_CHUNK':
      case 'REASONING_MESSAGE_CHUNK':
        return this.chunk(type, event, lane, emit);
      case 'MESSAGES_SNAPSHOT':
        this.closeAll(emit);
        return;
      case 'SUBAGENT_FINISHED':
      case 'SUBAGENT_ERROR':
        if (lane !== undefined) this.closeLane(lane, emit);
        return;
      case 'TEXT_MESSAGE_END':
      case 'REASONING_START':
      case 'REASONING_END':
      case 'STEP_STARTED':
      case 'STEP_FINISHED':
      case 'STATE_SNAPSHOT':
      case 'STATE_DELTA':
      case 'CUSTOM':
        // Nothing of the answer; like any event of its lane, it ends the lane's chunk assembly.
        this.closeLane(lane, emit);
        return;
      default:
        // RAW, ACTIVITY_SNAPSHOT, ACTIVITY_DELTA, SUBAGENT_STARTED, and types of a newer protocol.
        return;
    }
  }

  private text(messageId: string, delta: string, emit: EventSink): void {
    if (delta !== '' && !this.otherRoles.has(messageId)) emit({ type: 'text-delta', choice: 0, text: delta });
  }

  private thought(messageId: string, delta: string, emit: EventSink): void {
    if (delta === '') return;
    const open = this.reasoning.get(messageId);
    if (open !== undefined) open.text += delta;
    emit({ type: 'reasoning-delta', choice: 0, text: delta });
  }

  /** A reasoning message closed: the whole part, with its encrypted value when one came. */
  private thoughtEnd(messageId: string, emit: EventSink): void {
    const open = this.reasoning.get(messageId);
    if (open === undefined) return;
    this.reasoning.delete(messageId);
    emit({ type: 'reasoning-end', choice: 0, text: open.text, ...(open.encrypted === undefined ? {} : { encryptedContent: open.encrypted }) });
  }

  /** A call opens; a second start of an open call is the same call (rule `ui-call-ids`). */
  private start(id: string, name: string | undefined, emit: EventSink): void {
    if (this.calls.get(id)?.open === true) return;
    const call = this.open(id);
    emit({ type: 'tool-call-delta', choice: 0, index: call.index, id, ...(name === undefined ? {} : { name }), argumentsDelta: '' });
  }

  /** A piece of a call's arguments: after its end it is dropped; without a start it is a nameless call of its own. */
  private args(id: string, delta: string, emit: EventSink): void {
    const call = this.calls.get(id);
    if (call !== undefined && !call.open) return;
    if (call === undefined) {
      const opened = this.open(id);
      emit({ type: 'tool-call-delta', choice: 0, index: opened.index, id, argumentsDelta: delta });
      return;
    }
    emit({ type: 'tool-call-delta', choice: 0, index: call.index, argumentsDelta: delta });
  }

  /** A call's end (an end for an unknown or ended call is dropped). */
  private endCall(id: string, emit: EventSink): void {
    const call = this.calls.get(id);
    if (call === undefined || !call.open) return;
    call.open = false;
    emit({ type: 'tool-call-end', choice: 0, index: call.index, id });
  }

  private open(id: string): CallState {
    const call: CallState = { index: this.nextIndex++, open: true, answered: false };
    this.calls.set(id, call);
    return call;
  }

  /**
   * A `*_CHUNK` event, expanded as `@ag-ui/client`'s `transformChunks` does (rule `ui-chunks`): a
   * chunk with a new id (or when its lane assembles nothing of its kind) opens a message or call,
   * closing what the lane assembled; a chunk without an id continues it.
   */
  private chunk(type: string, event: Record<string, unknown>, lane: string | undefined, emit: EventSink): void {
    const kind = type === 'TOOL_CALL_CHUNK' ? 'tool' : type === 'TEXT_MESSAGE_CHUNK' ? 'text' : 'reasoning';
    const idKey = kind === 'tool' ? 'toolCallId' : 'messageId';
    const id = asString(event[idKey]);
    if (event[idKey] !== undefined && id === undefined) throw this.invalid(event, `${type}'s \`${idKey}\` must be a string`);
    const delta = event['delta'];
    if (delta !== undefined && typeof delta !== 'string') throw this.invalid(event, `${type}'s \`delta\` must be a string`);
    const holder = this.laneOfChunk(kind, id, lane);
    let pending = this.lanes.get(holder);
    if (pending === undefined || pending.kind !== kind || (id !== undefined && id !== pending.id)) {
      this.closeLane(holder, emit);
      if (id === undefined) throw this.invalid(event, `the first ${type} of a ${kind === 'tool' ? 'call' : 'message'} needs a \`${idKey}\``);
      pending = { kind, id };
      this.lanes.set(holder, pending);
      if (kind === 'tool') this.start(id, asString(event['toolCallName']), emit);
      else if (kind === 'reasoning') this.reasoning.set(id, { text: '', encrypted: undefined });
      else {
        const role = event['role'];
        if (role !== undefined && role !== 'assistant') this.otherRoles.add(id);
      }
    }
    if (delta === undefined || delta === '') return;
    if (kind === 'tool') this.args(pending.id, delta, emit);
    else if (kind === 'text') this.text(pending.id, delta, emit);
    else this.thought(pending.id, delta, emit);
  }

  /** The lane a chunk belongs to: the one assembling its id, else its own tag, else the only lane assembling its kind. */
  private laneOfChunk(kind: Pending['kind'], id: string | undefined, tag: string | undefined): string | undefined {
    if (id !== undefined) {
      for (const [lane, pending] of this.lanes) if (pending.kind === kind && pending.id === id) return lane;
      return tag;
    }
    if (tag !== undefined || this.lanes.get(undefined)?.kind === kind) return tag;
    let only: string | undefined;
    let count = 0;
    for (const [lane, pending] of this.lanes) {
      if (pending.kind !== kind) continue;
      only = lane;
      count++;
    }
    return count === 1 ? only : undefined;
  }

  /** What a lane assembled from chunks ends: a call's end, a reasoning message's end. */
  private closeLane(lane: string | undefined, emit: EventSink): void {
    const pending = this.lanes.get(lane);
    if (pending === undefined) return;
    this.lanes.delete(lane);
    if (pending.kind === 'tool') this.endCall(pending.id, emit);
    else if (pending.kind === 'reasoning') this.thoughtEnd(pending.id, emit);
  }

  private closeAll(emit: EventSink): void {
    for (const lane of [...this.lanes.keys()]) this.closeLane(lane, emit);
  }

  /**
   * The run finished: chunk assemblies end, calls still open were never ended (`incomplete`), the
   * usage, the approvals the interrupt outcome asks for (interrupts naming a call), the finish and
   * `done`.
   */
  private runFinished(event: Record<string, unknown>, emit: EventSink): void {
    this.closeAll(emit);
    for (const [id, call] of this.calls) {
      if (!call.open) continue;
      call.open = false;
      emit({ type: 'tool-call-end', choice: 0, index: call.index, id, incomplete: true });
    }
    this.usage(event['usage'], emit);
    const outcome = asRecord(event['outcome']);
    const kind = asString(outcome?.['type']) ?? '';
    let reason: FinishReason = agUiFinishReason(kind);
    if (kind === 'interrupt') {
      const interrupts = Array.isArray(outcome?.['interrupts']) ? (outcome['interrupts'] as unknown[]) : [];
      for (const item of interrupts) {
        const interrupt = asRecord(item);
        const id = asString(interrupt?.['toolCallId']);
        const approvalId = asString(interrupt?.['id']);
        if (id === undefined || approvalId === undefined) continue;
        reason = 'tool-calls';
        const why = asString(interrupt?.['reason']);
        const message = asString(interrupt?.['message']);
        const metadata = { ...(why === undefined ? {} : { reason: why }), ...(message === undefined ? {} : { message }) };
        emit({ type: 'tool-approval-request', choice: 0, id, approvalId, ...(Object.keys(metadata).length === 0 ? {} : { metadata }) });
      }
    } else if (kind !== 'cancelled' && this.calls.size > 0) {
      // A completed run that left calls unanswered (frontend tools): it stopped for them.
      const named = Array.isArray(outcome?.['pendingToolCallIds']) ? (outcome['pendingToolCallIds'] as unknown[]) : [];
      if (named.length > 0 || [...this.calls.values()].some((call) => !call.answered)) reason = 'tool-calls';
    }
    emit({ type: 'finish', choice: 0, reason, rawReason: kind });
    this.done = true;
    emit({ type: 'done' });
  }

  private usage(raw: unknown, emit: EventSink): void {
    if (!Array.isArray(raw) && asRecord(raw) === undefined) return;
    const event = usageEvent(agUiUsage(raw as Record<string, unknown>), raw);
    if (event !== undefined) emit(event);
  }

  /** `event[key]` as a string, or `invalid-event` naming the event's type and the key (as `@ag-ui/client`'s schema check refuses it). */
  private need(event: Record<string, unknown>, key: string): string {
    const value = event[key];
    if (typeof value !== 'string') throw this.invalid(event, `${String(event['type'])} needs a string \`${key}\``);
    return value;
  }

  private invalid(event: Record<string, unknown>, detail: string): ToolStreamError<'invalid-event'> {
    return new ToolStreamError('invalid-event', { provider: this.provider, data: safeStringify(event), detail });
  }

  end(): void {
    if (this.done) return;
    const open = [...this.calls.values()].filter((call) => call.open).length;
    throw new ToolStreamError('truncated', { provider: this.provider, detail: `no RUN_FINISHED and no RUN_ERROR${open > 0 ? ` (${open} tool call${open === 1 ? '' : 's'} still open)` : ''}` });
  }

  /** After `RUN_FINISHED`, an idle timeout or a dropped connection loses nothing: the stream is complete. */
  interrupt(error: unknown): boolean {
    return this.done && isAfterFinishFailure(error);
  }
}

/** The lane of an event: its `subagentRunId` (absent: the agent itself). */
function laneOf(event: Record<string, unknown>): string | undefined {
  return asString(event['subagentRunId']);
}
