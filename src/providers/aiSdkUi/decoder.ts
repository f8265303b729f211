/**
 * The AI SDK UI message stream (what `useChat` reads: `toUIMessageStream()`, openai-agents-js,
 * LangChain's adapter) → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason, FramedRecord, ProviderToolEvent } from '../../events';
import { asNumber, asRecord, asString, isAfterFinishFailure, isRetryable, objectData, type EventSink, type WireDecoder } from '../decoder';
import { countAt, otherData, requireObject, safeStringify, stringifyJson, usageEvent, type UsageCounts } from '../wire';

/** The AI SDK's finish reasons: the vocabulary's own names. */
const FINISH_REASONS: ReadonlySet<string> = /* @__PURE__ */ new Set(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']);

/** An AI SDK finish reason → the normalised one (the same names; anything else is `other`). */
export function aiSdkFinishReason(raw: string): FinishReason {
  return FINISH_REASONS.has(raw) ? (raw as FinishReason) : 'other';
}

/**
 * The AI SDK's `LanguageModelUsage` → token counts (the same meaning as the vocabulary's: input
 * counts cache reads and writes, output counts reasoning). The deprecated flat `reasoningTokens` /
 * `cachedInputTokens` are read when the details are absent.
 */
export function aiSdkUsage(usage: Record<string, unknown>): UsageCounts {
  return {
    inputTokens: asNumber(usage['inputTokens']),
    outputTokens: asNumber(usage['outputTokens']),
    totalTokens: asNumber(usage['totalTokens']),
    reasoningTokens: countAt(usage, 'outputTokenDetails', 'reasoningTokens') ?? asNumber(usage['reasoningTokens']),
    cachedInputTokens: countAt(usage, 'inputTokenDetails', 'cacheReadTokens') ?? asNumber(usage['cachedInputTokens']),
    cacheWriteInputTokens: countAt(usage, 'inputTokenDetails', 'cacheWriteTokens'),
  };
}

/**
 * The usage a message's metadata carries, by the AI SDK's convention (its docs' `messageMetadata`
 * callback returns `{ totalUsage }` at `finish`): `usage` or `totalUsage`, when it holds a count.
 */
function metadataUsage(metadata: unknown): Record<string, unknown> | undefined {
  const record = asRecord(metadata);
  if (record === undefined) return undefined;
  for (const key of ['totalUsage', 'usage']) {
    const usage = asRecord(record[key]);
    if (usage !== undefined && (asNumber(usage['inputTokens']) !== undefined || asNumber(usage['outputTokens']) !== undefined || asNumber(usage['totalTokens']) !== undefined)) return usage;
  }
  return undefined;
}

/** One tool call of the stream, by its `toolCallId`. */
interface CallState {
  /** Its position among the stream's calls (the vocabulary's `index`). */
  readonly index: number;
  /** The name the wire gave (`undefined`: a call that began with a delta). */
  name: string | undefined;
  /** Until its `tool-input-available` / `tool-input-error`, or the message's end. */
  open: boolean;
  /** The input text streamed so far, to compare the final input with. */
  text: string;
  /** `inputEncoding: 'text'`: a custom tool's free text. */
  readonly custom: boolean;
}

/** A tool the provider ran (`providerExecuted: true`), by `toolCallId`. */
interface ProviderRun {
  readonly tool: string;
  done: boolean;
}

/**
 * Decoder state for one AI SDK UI message stream. Identity is the protocol's `toolCallId`: each
 * call gets its own `index` (its position), so the reducer never guesses.
 */
export class AiSdkUiDecoder implements WireDecoder {
  /** The wire format this decoder reads: always `'ai-sdk-ui'`. */
  readonly provider = 'ai-sdk-ui' as const;
  /** `[DONE]` arrived: later events are ignored. */
  private done = false;
  /** A `finish` (or `abort`) arrived: the stream may end without `[DONE]`. */
  private finished = false;
  private metadataSent = false;
  private readonly calls = new Map<string, CallState>();
  private readonly runs = new Map<string, ProviderRun>();
  private nextIndex = 0;

  sse(event: FramedRecord, emit: EventSink): void {
    if (this.done) return;
    const data = event.data;
    if (data === '[DONE]') return this.terminate(emit);
    const payload = objectData(data) ?? otherData(this.provider, data, event.event === 'message');
    if (payload !== undefined) this.handle(payload, emit);
  }

  payload(_eventName: string, payload: unknown, emit: EventSink): void {
    if (this.done) return;
    this.handle(requireObject(this.provider, payload), emit);
  }

  /** One chunk. Unknown types are skipped (a newer protocol's); a known one without the fields it needs is `invalid-event`. */
  private handle(chunk: Record<string, unknown>, emit: EventSink): void {
    const type = chunk['type'];
    if (typeof type !== 'string') throw this.invalid(chunk, 'a chunk needs a string `type`');
    switch (type) {
      case 'text-delta': {
        const delta = this.need(chunk, 'delta');
        if (delta !== '') emit({ type: 'text-delta', choice: 0, text: delta });
        return;
      }
      case 'reasoning-delta': {
        const delta = this.need(chunk, 'delta');
        if (delta !== '') emit({ type: 'reasoning-delta', choice: 0, text: delta });
        return;
      }
      case 'tool-input-start':
        return this.inputStart(chunk, emit);
      case 'tool-input-delta':
        return this.inputDelta(chunk, emit);
      case 'tool-input-available':
      case 'tool-input-error':
        return this.inputDone(chunk, type === 'tool-input-error', emit);
      case 'tool-output-available':
      case 'tool-output-error':
      case 'tool-output-denied':
        return this.output(chunk, type, emit);
      case 'tool-approval-request':
        emit({ type: 'tool-approval-request', choice: 0, id: this.need(chunk, 'toolCallId'), approvalId: this.need(chunk, 'approvalId') });
        return;
      case 'start': {
        const messageId = asString(chunk['messageId']);
        if (!this.metadataSent && messageId !== undefined && messageId !== '') {
          this.metadataSent = true;
          emit({ type: 'metadata', provider: this.provider, responseId: messageId });
        }
        return this.usage(chunk['messageMetadata'], emit);
      }
      case 'message-metadata':
        return this.usage(chunk['messageMetadata'], emit);
      case 'finish': {
        const raw = chunk['finishReason'];
        const rawReason = typeof raw === 'string' ? raw : undefined;
        const reason = rawReason === undefined ? undefined : aiSdkFinishReason(rawReason);
        this.closeOpen(reason, emit);
        this.usage(chunk['messageMetadata'], emit);
        if (rawReason !== undefined && reason !== undefined) emit({ type: 'finish', choice: 0, reason, rawReason });
        this.finished = true;
        return;
      }
      case 'abort':
        this.closeOpen(undefined, emit);
        emit({ type: 'finish', choice: 0, reason: 'other', rawReason: 'abort' });
        this.finished = true;
        return;
      case 'error': {
        const message = this.need(chunk, 'errorText');
        throw new ToolStreamError('provider-error', {
          provider: this.provider,
          providerCode: undefined,
          type: undefined,
          message,
          status: undefined,
          retryable: isRetryable(undefined, undefined, undefined),
          payload: chunk,
        });
      }
      default:
        // text-start / -end, reasoning-start / -end, start-step, finish-step, source-url,
        // source-document, file, data-*, and types of a newer protocol: nothing to read.
        return;
    }
  }

  /** A call opens (or, `providerExecuted`, a provider's tool starts). */
  private inputStart(chunk: Record<string, unknown>, emit: EventSink): void {
    const id = this.need(chunk, 'toolCallId');
    const name = this.need(chunk, 'toolName');
    if (chunk['providerExecuted'] === true) return this.run(id, name, 'running', chunk, emit, {});
    const known = this.calls.get(id);
    if (known?.open === true) return; // a second start of an open call: the same call (rule `ui-call-ids`)
    const custom = chunk['inputEncoding'] === 'text';
    const call = this.open(id, name, custom);
    emit({ type: 'tool-call-delta', choice: 0, index: call.index, id, name, argumentsDelta: '', ...(custom ? { kind: 'custom' as const } : {}) });
  }

  /** A piece of a call's input, live. */
  private inputDelta(chunk: Record<string, unknown>, emit: EventSink): void {
    const id = this.need(chunk, 'toolCallId');
    const delta = this.need(chunk, 'inputTextDelta');
    const run = this.runs.get(id);
    if (run !== undefined) {
      if (!run.done && delta !== '') emit({ type: 'provider-tool', choice: 0, provider: this.provider, id, tool: run.tool, status: 'running', inputDelta: delta });
      return;
    }
    let call = this.calls.get(id);
    if (call !== undefined && !call.open) return; // after the call's end: it is complete, and stays as it was (rule `ui-call-ids`)
    if (call === undefined) {
      // No start: a call of its own, without a name (`missing-name` when it closes).
      call = this.open(id, undefined, false);
      call.text = delta;
      emit({ type: 'tool-call-delta', choice: 0, index: call.index, id, argumentsDelta: delta });
      return;
    }
    call.text += delta;
    emit({ type: 'tool-call-delta', choice: 0, index: call.index, argumentsDelta: delta });
  }

  /**
   * A call's input is complete (`tool-input-available`), or could not be used (`tool-input-error`):
   * its final input is the call's arguments (rule `ui-final-input`), then the call ends; an error
   * also becomes the call's `tool-result` with the error.
   */
  private inputDone(chunk: Record<string, unknown>, failed: boolean, emit: EventSink): void {
    const id = this.need(chunk, 'toolCallId');
    const name = this.need(chunk, 'toolName');
    const errorText = failed ? this.need(chunk, 'errorText') : undefined;
    const input = chunk['input'];
    if (chunk['providerExecuted'] === true || this.runs.has(id)) {
      return this.run(id, name, failed ? 'failed' : 'running', chunk, emit, { ...(input === undefined ? {} : { input }), ...(failed ? { result: errorText } : {}) });
    }
    let call = this.calls.get(id);
    if (call === undefined || !call.open) {
      // The whole call at once (no start, or a new call with a finished one's id).
      call = this.open(id, name, false);
      emit({ type: 'tool-call-delta', choice: 0, index: call.index, id, name, argumentsDelta: inputText(input, failed) ?? '' });
    } else {
      // A failed call's input is its raw text when it is a string (not JSON of a string).
      const text = inputText(input, call.custom || failed);
      const late = call.name === undefined ? name : undefined;
      if (text !== undefined && !sameInput(call.text, text, input))
        emit({ type: 'tool-call-delta', choice: 0, index: call.index, id, argumentsDelta: text, replace: true, ...(late === undefined ? {} : { name: late }) });
      else if (late !== undefined) emit({ type: 'tool-call-delta', choice: 0, index: call.index, id, name: late, argumentsDelta: '' });
    }
    call.open = false;
    call.text = '';
    emit({ type: 'tool-call-end', choice: 0, index: call.index, id });
    if (errorText !== undefined) emit({ type: 'tool-result', choice: 0, id, error: errorText });
  }

  /** What a tool returned, its failure or its denial: the call's `tool-result` (a provider's tool: its `provider-tool` end). */
  private output(chunk: Record<string, unknown>, type: 'tool-output-available' | 'tool-output-error' | 'tool-output-denied', emit: EventSink): void {
    const id = this.need(chunk, 'toolCallId');
    const errorText = type === 'tool-output-error' ? this.need(chunk, 'errorText') : undefined;
    const run = this.runs.get(id);
    if (run !== undefined || chunk['providerExecuted'] === true) {
      const tool = run?.tool ?? asString(chunk['toolName']) ?? '';
      const result = type === 'tool-output-available' ? chunk['output'] : errorText;
      return this.run(id, tool, type === 'tool-output-available' ? 'completed' : 'failed', chunk, emit, result === undefined ? {} : { result });
    }
    const metadata = outputMetadata(chunk);
    if (type === 'tool-output-denied') emit({ type: 'tool-result', choice: 0, id, denied: true });
    else if (errorText !== undefined) emit({ type: 'tool-result', choice: 0, id, error: errorText, ...(metadata === undefined ? {} : { metadata }) });
    else
      emit({ type: 'tool-result', choice: 0, id, output: chunk['output'] ?? null, ...(chunk['preliminary'] === true ? { preliminary: true } : {}), ...(metadata === undefined ? {} : { metadata }) });
  }

  /** A tool the provider ran: one `provider-tool` event per chunk (never a call to run). */
  private run(id: string, tool: string, status: ProviderToolEvent['status'], chunk: Record<string, unknown>, emit: EventSink, fields: { input?: unknown; result?: unknown }): void {
    let run = this.runs.get(id);
    if (run?.done === true) return;
    if (run === undefined) this.runs.set(id, (run = { tool, done: false }));
    if (status === 'completed' || status === 'failed') run.done = true;
    emit({ type: 'provider-tool', choice: 0, provider: this.provider, id, tool: run.tool, status, ...fields, raw: chunk });
  }

  private open(id: string, name: string | undefined, custom: boolean): CallState {
    const call: CallState = { index: this.nextIndex++, name, open: true, text: '', custom };
    this.calls.set(id, call);
    return call;
  }

  /** The message ended (`finish`, `abort`, `[DONE]`): calls whose input never completed were cut. */
  private closeOpen(reason: FinishReason | undefined, emit: EventSink): void {
    for (const [id, call] of this.calls) {
      if (!call.open) continue;
      call.open = false;
      call.text = '';
      emit({ type: 'tool-call-end', choice: 0, index: call.index, id, incomplete: true, ...(reason === undefined ? {} : { finishReason: reason }) });
    }
  }

  private usage(metadata: unknown, emit: EventSink): void {
    const usage = metadataUsage(metadata);
    if (usage === undefined) return;
    const event = usageEvent(aiSdkUsage(usage), usage);
    if (event !== undefined) emit(event);
  }

  private terminate(emit: EventSink): void {
    this.closeOpen(undefined, emit);
    this.done = true;
    emit({ type: 'done' });
  }

  /** `chunk[key]` as a string, or `invalid-event` naming the chunk's type and the key. */
  private need(chunk: Record<string, unknown>, key: string): string {
    const value = chunk[key];
    if (typeof value !== 'string') throw this.invalid(chunk, `${String(chunk['type'])} needs a string \`${key}\``);
    return value;
  }

  private invalid(chunk: Record<string, unknown>, detail: string): ToolStreamError<'invalid-event'> {
    return new ToolStreamError('invalid-event', { provider: this.provider, data: safeStringify(chunk), detail });
  }

  end(emit: EventSink): void {
    if (this.done) return;
    if (this.finished) {
      this.closeOpen(undefined, emit);
      return;
    }
    const open = [...this.calls.values()].filter((call) => call.open).length;
    throw new ToolStreamError('truncated', { provider: this.provider, detail: `no finish chunk and no [DONE]${open > 0 ? ` (${open} tool call${open === 1 ? '' : 's'} still open)` : ''}` });
  }

  /** After `finish` (or `[DONE]`), an idle timeout or a dropped connection loses nothing: the stream is complete. */
  interrupt(error: unknown): boolean {
    return (this.done || this.finished) && isAfterFinishFailure(error);
  }
}

/** A call's final input as its argument text: a string as it is when `raw` (a custom tool's text, a failed call's raw input), any other value as JSON; `undefined` when absent. */
function inputText(input: unknown, raw: boolean): string | undefined {
  if (input === undefined) return undefined;
  if (raw && typeof input === 'string') return input;
  return stringifyJson(input);
}

/** Whether the streamed text already is the final input: the same text, or JSON of the same value. */
function sameInput(streamed: string, final: string, input: unknown): boolean {
  if (streamed === final) return true;
  if (streamed === '' || typeof input === 'string') return false;
  try {
    return stringifyJson(JSON.parse(streamed)) === final;
  } catch {
    return false;
  }
}

/** What a result chunk carries besides its output: `providerMetadata`, `dynamic`. */
function outputMetadata(chunk: Record<string, unknown>): Record<string, unknown> | undefined {
  const providerMetadata = asRecord(chunk['providerMetadata']);
  const dynamic = chunk['dynamic'] === true;
  if (providerMetadata === undefined && !dynamic) return undefined;
  return { ...(providerMetadata === undefined ? {} : { providerMetadata }), ...(dynamic ? { dynamic: true } : {}) };
}
