/**
 * OpenAI Chat Completions streaming (and every OpenAI-compatible server: Azure, Groq, DeepSeek,
 * xAI, Mistral, Qwen, OpenRouter, vLLM, LM Studio, Ollama, Copilot, Gemini's compatibility
 * endpoint, …) → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { ProviderMetadata, FramedRecord } from '../../events';
import { asNumber, asRecord, asString, isAfterFinishFailure, KEEP_ALIVE, readEventData, providerError, type EventSink, type WireDecoder } from '../decoder';
import { chatUsage, normalizeChatFinishReason } from './mapping';
import { safeStringify, stringifyJson, toolCallDelta, usageEvent, wireString } from '../wire';

/** Whether an `error` member is a real error (Copilot sends `{ code: "", message: "" }` placeholders). */
function isRealError(value: unknown): boolean {
  const error = asRecord(value);
  if (error === undefined) return typeof value === 'string' && value.length > 0;
  return Object.values(error).some((v) => v !== '' && v !== null && v !== undefined);
}

/**
 * A tool call's `extra_content` (Gemini's compatibility endpoint puts the thought signature in
 * `extra_content.google.thought_signature`): kept as `extraContent`, the signature also as
 * `thoughtSignature`, the key the native Gemini adapter uses.
 */
function extraContentMetadata(value: unknown): ProviderMetadata | undefined {
  const extra = asRecord(value);
  if (extra === undefined) return undefined;
  const signature = wireString(asRecord(extra['google'])?.['thought_signature']);
  return { extraContent: extra, ...(signature === undefined ? {} : { thoughtSignature: signature }) };
}

/** The metadata of reasoning read from `delta.reasoning` and from Mistral `thinking` parts (shared, never changed). */
const REASONING_FIELD = Object.freeze({ field: 'reasoning' });
const THINKING_PART = Object.freeze({ field: 'thinking' });

/**
 * `delta.content` as an array of parts (Mistral's reasoning models): `{ type: 'text', text }` is
 * text, `{ type: 'thinking', thinking: [{ type: 'text', text }] | string }` is reasoning.
 */
function contentParts(choice: number, parts: unknown[], emit: EventSink): void {
  for (const value of parts) {
    const part = asRecord(value);
    if (part === undefined) continue;
    if (part['type'] === 'text') {
      const text = asString(part['text']);
      if (text) emit({ type: 'text-delta', choice, text });
    } else if (part['type'] === 'thinking') {
      const thinking = part['thinking'];
      const pieces = Array.isArray(thinking) ? thinking.map((t) => asString(asRecord(t)?.['text']) ?? '') : [asString(thinking) ?? ''];
      const text = pieces.join('');
      if (text) emit({ type: 'reasoning-delta', choice, text, metadata: THINKING_PART });
    }
  }
}

/** A choice's entry in `finished` once its finish was emitted. */
const EMITTED = '';

/** The choices seen by a stream that saw none yet, and by most streams (shared: only ever replaced, never written to). */
const CHOICE_ZERO: readonly number[] = [0];
const NO_CHOICES: readonly number[] = [];

/** Decoder state for one OpenAI chat stream. */
export class OpenAIChatDecoder implements WireDecoder {
  /** The wire format this decoder reads: always `'openai-chat'`. */
  readonly provider = 'openai-chat' as const;
  private done = false;
  private metadataSent = false;
  /** Every choice seen, in order of first sight (an exact-size array while short: most streams have one). */
  private seen: readonly number[] = NO_CHOICES;
  /** The same choices as a set, once there are many. */
  private seenSet: Set<number> | undefined;
  /**
   * The last finish reason of each choice. Held until `[DONE]` or the end of the stream: proxies
   * send `finish_reason` on every chunk, or more fragments after it, so a finish never closes calls
   * that may still grow (the last reason seen wins). `''` once the choice's finish was emitted (a
   * reason is never empty). Created at the first finish reason.
   */
  private finished: Map<number, string> | undefined;
  private lastUsage = '';
  /** A choice's own `usage` (Moonshot / Kimi put it in `choices[i].usage`), read after the chunk's choices. */
  private choiceUsage: Record<string, unknown> | undefined;

  sse(event: FramedRecord, emit: EventSink): void {
    if (this.done) return;
    const data = event.data;
    if (event.event === 'error') {
      this.flushFinishes(emit);
      let payload: unknown = data;
      try {
        payload = JSON.parse(data);
      } catch {
        // a plain-text error message
      }
      throw providerError(this.provider, payload);
    }
    if (data === '[DONE]') {
      this.done = true;
      this.flushFinishes(emit);
      emit({ type: 'done' });
      return;
    }
    // Chat names no events: data under any other name (`ping`, `keepalive`, …) is read only when it is JSON.
    const payload = readEventData(this.provider, data, event.event === 'message');
    if (payload === KEEP_ALIVE) return; // an empty `data:` or a named keep-alive between chunks
    this.payload(event.event, payload, emit);
  }

  payload(_eventName: string, payload: unknown, emit: EventSink): void {
    if (this.done) return;
    const chunk = asRecord(payload);
    if (chunk === undefined) throw new ToolStreamError('invalid-event', { provider: this.provider, data: safeStringify(payload), detail: 'a chunk must be a JSON object' });
    if ('error' in chunk && isRealError(chunk['error'])) {
      this.flushFinishes(emit);
      throw providerError(this.provider, chunk);
    }
    if (!this.metadataSent && (typeof chunk['id'] === 'string' || typeof chunk['model'] === 'string')) {
      this.metadataSent = true;
      const responseId = asString(chunk['id']) || undefined;
      const model = asString(chunk['model']) || undefined;
      if (responseId !== undefined || model !== undefined) {
        emit({ type: 'metadata', provider: this.provider, ...(responseId === undefined ? {} : { responseId }), ...(model === undefined ? {} : { model }) });
      } else {
        this.metadataSent = false;
      }
    }
    const choices = chunk['choices'];
    if (choices !== undefined && choices !== null) {
      if (!Array.isArray(choices)) throw new ToolStreamError('invalid-event', { provider: this.provider, data: safeStringify(payload), detail: '`choices` must be an array' });
      for (let position = 0; position < choices.length; position++) this.choice(choices[position], position, emit);
    }
    // Usage where the servers put it: `usage` (OpenAI), `x_groq.usage` (Groq), a choice's `usage` (Moonshot / Kimi).
    const usage = asRecord(chunk['usage']) ?? asRecord(asRecord(chunk['x_groq'])?.['usage']) ?? this.choiceUsage;
    this.choiceUsage = undefined;
    if (usage !== undefined) this.usage(usage, emit);
  }

  private choice(value: unknown, position: number, emit: EventSink): void {
    const choice = asRecord(value);
    if (choice === undefined) return;
    const index = asNumber(choice['index']) ?? position;
    this.see(index);
    const delta = asRecord(choice['delta']) ?? asRecord(choice['message']);
    if (delta !== undefined) {
      const content = delta['content'];
      if (typeof content === 'string') {
        if (content.length > 0) emit({ type: 'text-delta', choice: index, text: content });
      } else if (Array.isArray(content)) {
        contentParts(index, content, emit);
      }
      const reasoningContent = asString(delta['reasoning_content']);
      const reasoning = reasoningContent ?? asString(delta['reasoning']);
      if (reasoning !== undefined && reasoning.length > 0)
        emit(reasoningContent === undefined ? { type: 'reasoning-delta', choice: index, text: reasoning, metadata: REASONING_FIELD } : { type: 'reasoning-delta', choice: index, text: reasoning });
      const toolCalls = delta['tool_calls'];
      if (Array.isArray(toolCalls)) {
        for (const call of toolCalls) this.toolCall(index, asRecord(call), emit);
      } else if (toolCalls !== undefined && toolCalls !== null) {
        this.toolCall(index, asRecord(toolCalls), emit); // one entry sent as an object instead of an array
      }
      const legacy = asRecord(delta['function_call']);
      if (legacy !== undefined) this.toolCall(index, { function: legacy }, emit);
    }
    if (choice['usage'] !== undefined) this.choiceUsage ??= asRecord(choice['usage']);
    const rawReason = choice['finish_reason'];
    if (typeof rawReason === 'string' && rawReason.length > 0) {
      // OpenRouter reports the upstream's failure in `native_finish_reason` beside a harmless `finish_reason`.
      const native = asString(choice['native_finish_reason']);
      const nativeReason = native ? normalizeChatFinishReason(native) : undefined;
      (this.finished ??= new Map()).set(
        index,
        (nativeReason === 'error' || nativeReason === 'content-filter') && normalizeChatFinishReason(rawReason) !== nativeReason ? (native as string) : rawReason,
      );
    }
  }

  private see(choice: number): void {
    const seen = this.seen;
    if (seen[seen.length - 1] === choice || (this.seenSet === undefined ? seen.includes(choice) : this.seenSet.has(choice))) return;
    if (seen.length < 16) {
      this.seen = seen.length === 0 && choice === 0 ? CHOICE_ZERO : seen.concat(choice); // exact size (a spread or a push would allocate 17 slots)
    } else {
      (this.seenSet ??= new Set(seen)).add(choice);
      (seen as number[]).push(choice); // a copy made by `concat` above (16 or more): not a shared one
    }
  }

  /** EventSink the held finish of every choice that has one, in order of first sight (once). */
  private flushFinishes(emit: EventSink): void {
    const finished = this.finished;
    if (finished === undefined) return;
    for (const choice of this.seen) {
      const rawReason = finished.get(choice);
      if (rawReason === undefined || rawReason === EMITTED) continue;
      finished.set(choice, EMITTED);
      emit({ type: 'finish', choice, reason: normalizeChatFinishReason(rawReason), rawReason });
    }
  }

  /** Whether every choice seen so far sent a finish reason (and at least one did). */
  private allFinished(): boolean {
    const finished = this.finished;
    if (finished === undefined) return false;
    for (const choice of this.seen) if (!finished.has(choice)) return false;
    return true;
  }

  private toolCall(choice: number, call: Record<string, unknown> | undefined, emit: EventSink): void {
    if (call === undefined) return;
    const fn = asRecord(call['function']);
    // A custom (freeform) tool's call: `type: "custom"`, `custom: { name, input }` with text input.
    const custom = fn === undefined ? asRecord(call['custom']) : undefined;
    if (custom !== undefined || call['type'] === 'custom') return this.customCall(choice, call, custom, emit);
    const rawArgs = fn?.['arguments'];
    const argumentsDelta = typeof rawArgs === 'string' ? rawArgs : rawArgs === undefined || rawArgs === null ? '' : stringifyJson(rawArgs);
    const index = asNumber(call['index']);
    const id = wireString(call['id']);
    const name = wireString(fn?.['name']);
    const metadata = extraContentMetadata(call['extra_content']);
    emit(toolCallDelta(choice, argumentsDelta, index, id, name, false, metadata));
  }

  /** A custom tool's fragment: a piece of its input text (not JSON), kind `custom`. */
  private customCall(choice: number, call: Record<string, unknown>, custom: Record<string, unknown> | undefined, emit: EventSink): void {
    const input = custom?.['input'];
    const text = typeof input === 'string' ? input : input === undefined || input === null ? '' : stringifyJson(input);
    emit(toolCallDelta(choice, text, asNumber(call['index']), wireString(call['id']), wireString(custom?.['name']), false, undefined, 'custom'));
  }

  private usage(usage: Record<string, unknown>, emit: EventSink): void {
    const counts = chatUsage(usage);
    const key = `${counts.inputTokens},${counts.outputTokens},${counts.totalTokens},${counts.reasoningTokens},${counts.cachedInputTokens}`;
    if (key === this.lastUsage) return; // vLLM repeats usage on every chunk
    this.lastUsage = key;
    const event = usageEvent(counts, usage);
    if (event !== undefined) emit(event);
  }

  end(emit: EventSink): void {
    if (this.done) return;
    const complete = this.allFinished();
    this.flushFinishes(emit);
    if (complete) {
      // Finished without [DONE] (Groq, Ollama, proxies): complete.
      emit({ type: 'done' });
      return;
    }
    // Every finish that arrived was emitted just now: the choices without one never finished.
    const finished = this.finished;
    const open = this.seen.filter((c) => finished?.has(c) !== true);
    if (finished === undefined)
      throw new ToolStreamError('truncated', { provider: this.provider, detail: this.seen.length === 0 ? 'no choice arrived and no [DONE]' : 'no finish_reason and no [DONE]' });
    throw new ToolStreamError('truncated', { provider: this.provider, detail: `choice ${open.join(', ')} never finished and no [DONE] arrived` });
  }

  /**
   * The source failed: finishes that arrived are handed on first. A stream that stopped after
   * every choice finished (idle past the timeout, or the connection dropped instead of closing)
   * is complete: `done` is emitted and `true` returned.
   */
  interrupt(error: unknown, emit: EventSink): boolean {
    if (this.done) return isAfterFinishFailure(error); // the terminator arrived: a later cut loses nothing
    const complete = this.allFinished() && isAfterFinishFailure(error);
    this.flushFinishes(emit);
    if (!complete) return false;
    this.done = true;
    emit({ type: 'done' });
    return true;
  }
}
