/**
 * Ollama's native `/api/chat` stream (one JSON object per NDJSON line, read by `decodeNdjson()`)
 * → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason, FramedRecord } from '../../events';
import { asNumber, asRecord, asString, isAfterFinishFailure, isRetryable, providerError, type EventSink, type WireDecoder } from '../decoder';
import { normalizeChatFinishReason } from '../openaiChat/mapping';
import { errorEvent, parseObject, requireObject, stringifyJson, usageEvent, wireString, type UsageCounts } from '../wire';

/**
 * Map an Ollama `done_reason` to the normalised {@link FinishReason} (`stop` also ends a turn that
 * called tools). Ollama itself sends `stop`, `length`, `load` and `unload`; servers that emulate its
 * API send OpenAI's reasons (`tool_calls`, ollama/ollama#5995), read as chat reads them.
 */
export function normalizeOllamaDoneReason(raw: string): FinishReason {
  return normalizeChatFinishReason(raw); // load, unload, …: other
}

/** Ollama's counts → token counts: `prompt_eval_count` is the input evaluated, `eval_count` the output (thinking included). */
export function ollamaUsage(chunk: Record<string, unknown>): UsageCounts {
  return { inputTokens: asNumber(chunk['prompt_eval_count']), outputTokens: asNumber(chunk['eval_count']) };
}

/** Decoder state for one `/api/chat` stream. */
export class OllamaChatDecoder implements WireDecoder {
  /** The wire format this decoder reads: always `'ollama'`. */
  readonly provider = 'ollama' as const;
  private metadataSent = false;
  /** Calls so far (the next call's index: Ollama's wire has none that lasts across lines). */
  private calls = 0;
  /** The line with `"done": true` arrived. */
  private done = false;

  sse(event: FramedRecord, emit: EventSink): void {
    if (this.done) return;
    if (event.event === 'error') throw errorEvent(this.provider, event);
    this.chunk(parseObject(this.provider, event.data), emit);
  }

  payload(_eventName: string, payload: unknown, emit: EventSink): void {
    if (this.done) return;
    this.chunk(requireObject(this.provider, payload), emit);
  }

  private chunk(chunk: Record<string, unknown>, emit: EventSink): void {
    const error = chunk['error'];
    if (error !== undefined && error !== null) {
      if (typeof error !== 'string') throw providerError(this.provider, chunk);
      throw new ToolStreamError('provider-error', { provider: this.provider, message: error, retryable: isRetryable(undefined, undefined, error), payload: chunk });
    }
    if (!this.metadataSent) {
      const model = wireString(chunk['model']);
      if (model !== undefined) {
        this.metadataSent = true;
        emit({ type: 'metadata', provider: this.provider, model });
      }
    }
    const message = asRecord(chunk['message']);
    if (message !== undefined) this.message(message, emit);
    if (chunk['done'] !== true) return;
    this.done = true;
    const rawReason = asString(chunk['done_reason']) ?? '';
    const normalized = normalizeOllamaDoneReason(rawReason || 'stop');
    // Ollama ends a turn that called tools with `stop`: the turn asks for the tools to be run.
    emit({ type: 'finish', choice: 0, reason: normalized === 'stop' && this.calls > 0 ? 'tool-calls' : normalized, rawReason });
    const usage = usageEvent(ollamaUsage(chunk), chunk);
    if (usage !== undefined) emit(usage);
    emit({ type: 'done' });
  }

  private message(message: Record<string, unknown>, emit: EventSink): void {
    const thinking = asString(message['thinking']);
    if (thinking) emit({ type: 'reasoning-delta', choice: 0, text: thinking });
    const content = asString(message['content']);
    if (content) emit({ type: 'text-delta', choice: 0, text: content });
    const toolCalls = message['tool_calls'];
    if (!Array.isArray(toolCalls)) return;
    for (const value of toolCalls) {
      const call = asRecord(value);
      const fn = asRecord(call?.['function']);
      if (call === undefined || fn === undefined) continue;
      const index = this.calls++;
      const id = wireString(call['id']);
      const name = wireString(fn['name']);
      const args = fn['arguments'];
      // Whole calls: arguments as an object (some servers send the JSON text).
      const text = typeof args === 'string' ? args : args === undefined || args === null ? '{}' : stringifyJson(args);
      emit({ type: 'tool-call-delta', choice: 0, index, argumentsDelta: text, replace: true, ...(id === undefined ? {} : { id }), ...(name === undefined ? {} : { name }) });
      emit({ type: 'tool-call-end', choice: 0, index, ...(id === undefined ? {} : { id }) });
    }
  }

  /** The source completed: `truncated` unless the line with `"done": true` arrived. */
  end(): void {
    if (this.done) return;
    throw new ToolStreamError('truncated', { provider: this.provider, detail: 'no line with "done": true arrived' });
  }

  /** After the last line, an idle timeout or a dropped connection loses nothing. */
  interrupt(error: unknown): boolean {
    return this.done && isAfterFinishFailure(error);
  }
}
