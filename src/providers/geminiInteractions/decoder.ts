/**
 * Gemini Interactions API streaming (`POST /v1beta/interactions` with `stream: true`, and
 * `GET /v1beta/interactions/{id}?stream=true`) → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason, ProviderToolEvent } from '../../events';
import { asNumber, asRecord, asString, isAfterFinishFailure, providerError, type EventSink } from '../decoder';
import { stringifyJson, sumOf, toolCallDelta, TypedEventDecoder, usageEvent, wireString, type UsageCounts } from '../wire';

/**
 * Interactions `usage` → token counts: `total_input_tokens` includes the cached tokens and
 * `total_tool_use_tokens` (the server tools' results the model read) is input too;
 * `total_output_tokens` excludes `total_thought_tokens`, so the output is both (the recorded totals
 * are input + tool use + output + thoughts).
 */
export function interactionsUsage(usage: Record<string, unknown>): UsageCounts {
  const thoughts = asNumber(usage['total_thought_tokens']);
  return {
    inputTokens: sumOf(asNumber(usage['total_input_tokens']), asNumber(usage['total_tool_use_tokens'])),
    outputTokens: sumOf(asNumber(usage['total_output_tokens']), thoughts),
    totalTokens: asNumber(usage['total_tokens']),
    reasoningTokens: thoughts,
    cachedInputTokens: asNumber(usage['total_cached_tokens']),
  };
}

/**
 * An interaction's status → the normalised {@link FinishReason}: `requires_action` (its function
 * calls wait for their results) is `tool-calls`; `completed` is `stop` (the decoder makes it
 * `tool-calls` when the interaction made function calls); the limits (`incomplete`,
 * `budget_exceeded`, `requires_continuation`) are `length`; `failed` is `error`.
 */
export function interactionsFinishReason(raw: string): FinishReason {
  switch (raw) {
    case 'completed':
      return 'stop';
    case 'requires_action':
      return 'tool-calls';
    case 'incomplete':
    case 'budget_exceeded':
    case 'requires_continuation':
      return 'length';
    case 'failed':
      return 'error';
    default:
      return 'other';
  }
}

/** The statuses that end the interaction's output (`in_progress` and `queued` do not). */
function isTerminal(status: string): boolean {
  return status !== 'in_progress' && status !== 'queued' && status !== '';
}

/** The server tool a step is a run (`…_call`) or a result (`…_result`) of, if any: never a function call. */
export function serverToolOf(type: string): { readonly tool: string; readonly result: boolean } | undefined {
  if (type === 'function_call' || type === 'function_result') return undefined;
  const result = type.endsWith('_result');
  if (!result && !type.endsWith('_call')) return undefined;
  const base = type.slice(0, type.length - (result ? '_result' : '_call').length);
  if (base === '') return undefined;
  return { tool: base === 'mcp_server_tool' ? 'mcp' : base, result };
}

/** One open `function_call` step. */
interface CallStep {
  readonly kind: 'call';
  readonly index: number;
  id: string | undefined;
  /** The step start carried non-empty `arguments`, written as a replace: the first streamed piece replaces it. */
  prefilled: boolean;
  /** Some argument text was handed on. */
  hasText: boolean;
  ended: boolean;
}

/** One open `thought` step: what its `reasoning-end` carries. */
interface ThoughtState {
  readonly kind: 'thought';
  text: string;
  signature: string;
}

/** One open step of a server tool: the step as the stream built it. */
interface ServerToolState {
  readonly kind: 'server-tool';
  readonly tool: string;
  readonly result: boolean;
  readonly step: Record<string, unknown>;
}

/** A step the decoder reads nothing more of (`model_output`: its text is emitted as it streams). */
interface OtherStep {
  readonly kind: 'other';
}

type StepState = CallStep | ThoughtState | ServerToolState | OtherStep;

/** The text of a list of content blocks (`text` blocks joined). */
function textOf(blocks: unknown): string {
  if (!Array.isArray(blocks)) return '';
  let text = '';
  for (const block of blocks) {
    const record = asRecord(block);
    if (record?.['type'] === 'text') text += asString(record['text']) ?? '';
  }
  return text;
}

/** Decoder state for one Interactions stream. */
export class GeminiInteractionsDecoder extends TypedEventDecoder {
  /** The wire format this decoder reads: always `'gemini-interactions'`. */
  readonly provider = 'gemini-interactions' as const;
  private metadataSent = false;
  private readonly steps = new Map<number, StepState>();
  /** Every function call of the interaction, by step index (ended ones too: the final steps may restate them). */
  private readonly calls = new Map<number, CallStep>();
  private lastUsage = '';
  /** The finish was emitted (a terminal status arrived). */
  private finished = false;

  /** The events whose data the decoder must read. */
  protected parses(name: string): boolean {
    return name.startsWith('step.') || name.startsWith('interaction.');
  }

  protected handle(name: string, data: Record<string, unknown>, emit: EventSink): void {
    // The SSE event's name, or the payload's own `event_type` (a stream without `event:` lines).
    const type = name === 'message' || name === '' ? (asString(data['event_type']) ?? name) : name;
    switch (type) {
      case 'step.delta':
        this.stepDelta(data, emit);
        return;
      case 'step.start':
        this.stepStart(data, emit);
        return;
      case 'step.stop':
        this.stepStop(asNumber(data['index']), emit);
        return;
      case 'interaction.created':
        this.metadata(asRecord(data['interaction']), emit);
        return;
      case 'interaction.status_update':
      case 'interaction.in_progress':
      case 'interaction.requires_action': {
        const status = asString(data['status']) ?? (type === 'interaction.requires_action' ? 'requires_action' : 'in_progress');
        const usage = asRecord(data['usage']);
        if (usage !== undefined) this.usage(usage, emit);
        this.status(status, data, emit);
        return;
      }
      case 'interaction.completed':
        this.completed(asRecord(data['interaction']) ?? {}, emit);
        return;
      case 'error':
        throw providerError(this.provider, data, 'the interaction failed');
      case 'content.start':
      case 'content.delta':
      case 'content.stop':
      case 'interaction.complete':
        // The API's earlier beta shape (`interaction.start`, `content.*`, `interaction.complete`),
        // replaced by steps: its content would be lost without a word, so it is refused.
        throw new ToolStreamError('invalid-event', {
          provider: this.provider,
          data: stringifyJson(data),
          detail: `${type} is an event of the Interactions API's earlier shape (content.* before step.*), which is not read`,
        });
      default:
        return; // events added later
    }
  }

  private metadata(interaction: Record<string, unknown> | undefined, emit: EventSink): void {
    if (this.metadataSent || interaction === undefined) return;
    const responseId = wireString(interaction['id']);
    const model = wireString(interaction['model']) ?? wireString(interaction['agent']);
    if (responseId === undefined && model === undefined) return;
    this.metadataSent = true;
    emit({ type: 'metadata', provider: this.provider, ...(responseId === undefined ? {} : { responseId }), ...(model === undefined ? {} : { model }) });
  }

  private stepStart(data: Record<string, unknown>, emit: EventSink): void {
    const index = asNumber(data['index']);
    const step = asRecord(data['step']);
    const type = asString(step?.['type']);
    if (index === undefined || step === undefined || type === undefined) return;
    switch (type) {
      case 'function_call':
        return this.callStart(index, step, emit);
      case 'thought': {
        const text = textOf(step['summary']);
        const signature = asString(step['signature']) ?? '';
        this.steps.set(index, { kind: 'thought', text, signature });
        if (text !== '') emit({ type: 'reasoning-delta', choice: 0, text });
        if (signature !== '') emit({ type: 'reasoning-delta', choice: 0, text: '', signature });
        return;
      }
      case 'model_output': {
        this.steps.set(index, { kind: 'other' });
        const text = textOf(step['content']);
        if (text !== '') emit({ type: 'text-delta', choice: 0, text });
        return;
      }
      default: {
        const server = serverToolOf(type);
        if (server === undefined) {
          this.steps.set(index, { kind: 'other' }); // user_input, function_result, steps added later
          return;
        }
        const state: ServerToolState = { kind: 'server-tool', tool: server.tool, result: server.result, step: { ...step } };
        this.steps.set(index, state);
        // A run is shown as it starts; a result when it is whole (at its step's stop).
        if (!server.result) emit(this.serverToolEvent(index, state, 'running'));
      }
    }
  }

  /** A `function_call` step opens a call: its id, name and signature are on the step, its arguments stream as `arguments_delta`s. */
  private callStart(index: number, step: Record<string, unknown>, emit: EventSink): void {
    const id = wireString(step['id']);
    const name = wireString(step['name']);
    const args = asRecord(step['arguments']);
    const prefilled = args !== undefined && Object.keys(args).length > 0;
    const signature = wireString(step['signature']);
    const call: CallStep = { kind: 'call', index, id, prefilled, hasText: prefilled, ended: false };
    this.steps.set(index, call);
    this.calls.set(index, call);
    emit({
      type: 'tool-call-delta',
      choice: 0,
      index,
      argumentsDelta: prefilled ? stringifyJson(args) : '',
      ...(id === undefined ? {} : { id }),
      ...(name === undefined ? {} : { name }),
      ...(prefilled ? { replace: true } : {}),
      ...(signature === undefined ? {} : { metadata: { thoughtSignature: signature } }),
    });
  }

  private stepDelta(data: Record<string, unknown>, emit: EventSink): void {
    const index = asNumber(data['index']);
    const delta = asRecord(data['delta']);
    const type = asString(delta?.['type']);
    if (index === undefined || delta === undefined || type === undefined) return;
    const state = this.steps.get(index);
    switch (type) {
      case 'arguments_delta': {
        if (state?.kind !== 'call' || state.ended) return;
        const piece = asString(delta['arguments']) ?? '';
        const id = wireString(delta['id']);
        const signature = wireString(delta['signature']);
        if (piece === '' && id === undefined && signature === undefined) return;
        // Streamed JSON wins over arguments given whole in the step start: its first piece replaces them.
        const replace = state.prefilled && piece !== '';
        if (replace) state.prefilled = false;
        if (piece !== '') state.hasText = true;
        if (state.id === undefined && id !== undefined) state.id = id;
        emit(toolCallDelta(0, piece, index, id, undefined, replace, signature === undefined ? undefined : { thoughtSignature: signature }));
        return;
      }
      case 'text': {
        const text = asString(delta['text']);
        if (text) emit({ type: 'text-delta', choice: 0, text });
        return;
      }
      case 'thought_summary': {
        const text = asString(asRecord(delta['content'])?.['text']);
        if (!text) return;
        if (state?.kind === 'thought') state.text += text;
        emit({ type: 'reasoning-delta', choice: 0, text });
        return;
      }
      case 'thought_signature': {
        const signature = asString(delta['signature']);
        if (!signature) return;
        if (state?.kind === 'thought') state.signature = signature;
        emit({ type: 'reasoning-delta', choice: 0, text: '', signature });
        return;
      }
      default:
        // A server tool's step: each delta of its own type sets the fields it carries.
        if (state?.kind === 'server-tool' && type === state.step['type']) {
          for (const [key, value] of Object.entries(delta)) if (key !== 'type') state.step[key] = value;
        }
        return; // images, audio, annotations, …: nothing to emit
    }
  }

  private stepStop(index: number | undefined, emit: EventSink): void {
    if (index === undefined) return;
    const state = this.steps.get(index);
    if (state === undefined) return;
    this.steps.delete(index);
    switch (state.kind) {
      case 'call':
        this.endCall(state, emit);
        return;
      case 'thought':
        emit({ type: 'reasoning-end', choice: 0, index, text: state.text, ...(state.signature === '' ? {} : { signature: state.signature }) });
        return;
      case 'server-tool':
        emit(this.serverToolEvent(index, state, state.result ? (state.step['is_error'] === true ? 'failed' : 'completed') : 'running'));
        return;
      default:
        return;
    }
  }

  /** A server tool's step as a `provider-tool` event: its input (a run) or result, and the step, whole so far. */
  private serverToolEvent(index: number, state: ServerToolState, status: ProviderToolEvent['status']): ProviderToolEvent {
    const step = state.step;
    const id = wireString(state.result ? step['call_id'] : step['id']) ?? `step_${index}`;
    const args = step['arguments'];
    const input = state.tool === 'mcp' ? { server: step['server_name'], name: step['name'], arguments: args } : args;
    const result = step['result'];
    return {
      type: 'provider-tool',
      choice: 0,
      provider: this.provider,
      index,
      id,
      tool: state.tool,
      status,
      ...(state.result || input === undefined ? {} : { input }),
      ...(state.result && result !== undefined ? { result } : {}),
      raw: { ...step },
    };
  }

  /** End a call: complete, or cut (`cut`: `true`, or the finish that cut it). */
  private endCall(call: CallStep, emit: EventSink, cut: boolean | FinishReason = false): void {
    if (call.ended) return;
    call.ended = true;
    emit({
      type: 'tool-call-end',
      choice: 0,
      index: call.index,
      ...(call.id === undefined ? {} : { id: call.id }),
      ...(cut === false ? {} : cut === true ? { incomplete: true } : { incomplete: true, finishReason: cut }),
    });
  }

  /**
   * A status of the interaction: a terminal one ends its output. `requires_action` is the
   * format's "the calls are complete, answer them": every open call ends, and the finish is
   * `tool-calls`. `failed` ends the stream with a `provider-error`. A limit (`incomplete`, …) or a
   * cancellation leaves the open calls cut.
   */
  private status(status: string, source: Record<string, unknown>, emit: EventSink): void {
    if (status === 'failed') throw providerError(this.provider, errorsOf(source), 'the interaction failed');
    if (this.finished || !isTerminal(status)) return;
    this.finished = true;
    const reason = interactionsFinishReason(status);
    // The calls are complete at `requires_action` and `completed`; a limit or a cancellation cut the open ones.
    const cut = status === 'requires_action' || status === 'completed' ? false : reason === 'length' ? reason : true;
    for (const call of this.calls.values()) this.endCall(call, emit, cut);
    const normalised = status === 'completed' && this.calls.size > 0 ? 'tool-calls' : reason;
    emit({ type: 'finish', choice: 0, reason: normalised, rawReason: status });
  }

  /** `interaction.completed`: the terminator, with the final status, the usage and possibly the final steps. */
  private completed(interaction: Record<string, unknown>, emit: EventSink): void {
    this.metadata(interaction, emit);
    const status = asString(interaction['status']) ?? 'completed';
    if (status === 'failed') throw providerError(this.provider, errorsOf(interaction), 'the interaction failed');
    const steps = interaction['steps'];
    if (Array.isArray(steps) && !this.finished) this.finalSteps(steps, emit);
    const usage = asRecord(interaction['usage']);
    if (usage !== undefined) this.usage(usage, emit);
    this.status(isTerminal(status) ? status : 'completed', interaction, emit);
    this.done = true;
    emit({ type: 'done' });
  }

  /**
   * The final steps of `interaction.completed` (when it carries them): the most final source of a
   * call's arguments when the stream gave none, and the only one for a call it never showed.
   */
  private finalSteps(steps: readonly unknown[], emit: EventSink): void {
    // The calls by id (the first with each), so that matching n steps stays linear.
    const byId = new Map<string, CallStep>();
    for (const call of this.calls.values()) if (call.id !== undefined && !byId.has(call.id)) byId.set(call.id, call);
    steps.forEach((value, position) => {
      const step = asRecord(value);
      if (step?.['type'] !== 'function_call') return;
      const id = wireString(step['id']);
      const known = id === undefined ? this.calls.get(position) : byId.get(id);
      const args = asRecord(step['arguments']);
      if (known === undefined) {
        this.callStart(position, step, emit); // ended with the others by the final status
        const started = this.calls.get(position);
        if (id !== undefined && started !== undefined) byId.set(id, started);
        return;
      }
      if (!known.hasText && !known.ended && args !== undefined && Object.keys(args).length > 0) {
        known.hasText = true;
        emit(toolCallDelta(0, stringifyJson(args), known.index, known.id, undefined, true));
      }
    });
  }

  private usage(usage: Record<string, unknown>, emit: EventSink): void {
    const key = JSON.stringify(usage);
    if (key === this.lastUsage) return;
    this.lastUsage = key;
    const event = usageEvent(interactionsUsage(usage), usage);
    if (event !== undefined) emit(event);
  }

  /** See {@link WireDecoder.end}: complete after the terminator, or after a terminal status (the terminator is all that is missing). */
  end(emit: EventSink): void {
    if (this.done) return;
    if (this.finished) {
      this.done = true;
      emit({ type: 'done' });
      return;
    }
    const open = [...this.calls.values()].filter((call) => !call.ended).length;
    throw new ToolStreamError('truncated', { provider: this.provider, detail: `no interaction.completed arrived${open > 0 ? ` (${open} function call${open === 1 ? '' : 's'} still open)` : ''}` });
  }

  /** After the terminator or a terminal status, an idle timeout or a dropped connection loses nothing: the stream is complete. */
  override interrupt(error: unknown, emit?: EventSink): boolean {
    if (!isAfterFinishFailure(error)) return false;
    if (this.done) return true;
    if (!this.finished || emit === undefined) return false;
    this.done = true;
    emit({ type: 'done' });
    return true;
  }
}

/** The error a failed interaction reports: its first entry of `errors`, or the record itself. */
function errorsOf(record: Record<string, unknown>): unknown {
  const errors = record['errors'];
  const first = Array.isArray(errors) ? asRecord(errors[0]) : undefined;
  return first === undefined ? record : { error: first };
}
