/**
 * Small helpers the event-typed wire adapters share (Responses, Anthropic, Gemini, Cohere): reading
 * the event type, untrusted ids and names, and building events without `undefined` members.
 *
 * @module
 */
import { InvalidEventError } from '../errors';
import type { ProviderName, SseEvent, UsageEvent } from '../events';
import { asNumber, asRecord, asString, parseEventData, providerError } from './decoder';

/**
 * The event type of one SSE event: the `event:` field, or the payload's own `type` when the field is
 * absent (`message`), e.g. Bedrock Mantle writes `data:` before `event:` and some proxies drop it.
 */
export function eventType(sseName: string, payload: Record<string, unknown>): string {
  if (sseName !== '' && sseName !== 'message') return sseName;
  return asString(payload['type']) ?? sseName;
}

/** A wire id or name: a non-empty string, or a finite number made into one; anything else is absent. */
export function wireString(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** `JSON.stringify` that never throws (for error messages). */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Parse one SSE event's data as a JSON object, or throw `invalid-event` naming what was wrong. */
export function parseObject(provider: ProviderName, data: string): Record<string, unknown> {
  return requireObject(provider, parseEventData(provider, data));
}

/** `payload` as a JSON object, or throw `invalid-event`. */
export function requireObject(provider: ProviderName, payload: unknown): Record<string, unknown> {
  const record = asRecord(payload);
  if (record === undefined) throw new InvalidEventError(provider, typeof payload === 'string' ? payload : safeStringify(payload), 'an event must be a JSON object');
  return record;
}

/** The error an `event: error` stands for; its data may be JSON or plain text. */
export function errorEvent(provider: ProviderName, event: SseEvent): Error {
  let payload: unknown = event.data;
  try {
    payload = JSON.parse(event.data);
  } catch {
    // a plain-text error message
  }
  return providerError(provider, payload);
}

/** Token counts read from a usage object (absent counts stay absent). */
export interface UsageCounts {
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
  readonly totalTokens?: number | undefined;
  readonly reasoningTokens?: number | undefined;
  readonly cachedInputTokens?: number | undefined;
}

/** Build a `usage` event without `undefined` members, or `undefined` when no count is known. */
export function usageEvent(counts: UsageCounts, raw: unknown): UsageEvent | undefined {
  const { inputTokens, outputTokens, totalTokens, reasoningTokens, cachedInputTokens } = counts;
  if (inputTokens === undefined && outputTokens === undefined && totalTokens === undefined && reasoningTokens === undefined && cachedInputTokens === undefined) return undefined;
  return {
    type: 'usage',
    raw,
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(totalTokens === undefined ? {} : { totalTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
  };
}

/** A count inside a nested usage object (`path` of keys), when it is a finite number. */
export function countAt(record: Record<string, unknown> | undefined, ...path: string[]): number | undefined {
  let value: unknown = record;
  for (const key of path) value = asRecord(value)?.[key];
  return asNumber(value);
}
