/**
 * Small helpers the event-typed wire adapters share (Responses, Anthropic, Gemini, Cohere): reading
 * the event type, untrusted ids and names, and building events without `undefined` members.
 *
 * @module
 */
import { ToolStreamError } from '../errors';
import type { ProviderMetadata, ProviderName, FramedRecord, ToolCallDeltaEvent, Usage, UsageEvent } from '../events';
import { asNumber, asRecord, asString, isAfterFinishFailure, KEEP_ALIVE, objectData, parseEventData, providerError, readEventData, type EventSink, type WireDecoder } from './decoder';
import { safeStringify } from '../internal/json';

export { safeStringify, stringifyJson } from '../internal/json';

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

/** Parse one SSE event's data as a JSON object, or throw `invalid-event` naming what was wrong. */
export function parseObject(provider: ProviderName, data: string): Record<string, unknown> {
  return requireObject(provider, parseEventData(provider, data));
}

/** `payload` as a JSON object, or throw `invalid-event`. */
export function requireObject(provider: ProviderName, payload: unknown): Record<string, unknown> {
  const record = asRecord(payload);
  if (record === undefined) throw new ToolStreamError('invalid-event', { provider, data: typeof payload === 'string' ? payload : safeStringify(payload), detail: 'an event must be a JSON object' });
  return record;
}

/** The error an `event: error` stands for; its data may be JSON or plain text. */
export function errorEvent(provider: ProviderName, event: FramedRecord): Error {
  let payload: unknown = event.data;
  try {
    payload = JSON.parse(event.data);
  } catch {
    // a plain-text error message
  }
  return providerError(provider, payload);
}

/** Token counts a format reads from its usage object (absent counts stay absent), with the meaning of {@link Usage}. */
export type UsageCounts = { readonly [K in keyof Usage]?: number | undefined };

/** The sum of the counts that are present; `undefined` when none is. */
export function sumOf(...counts: ReadonlyArray<number | undefined>): number | undefined {
  let sum: number | undefined;
  for (const count of counts) if (count !== undefined) sum = (sum ?? 0) + count;
  return sum;
}

const USAGE_KEYS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens', 'cacheWriteInputTokens'] as const;

/**
 * A `usage` event without `undefined` members, `totalTokens` computed as input + output when the
 * provider sent no total; `undefined` when no count is known.
 */
export function usageEvent(counts: UsageCounts, raw: unknown): UsageEvent | undefined {
  const totalTokens = counts.totalTokens ?? (counts.inputTokens !== undefined && counts.outputTokens !== undefined ? counts.inputTokens + counts.outputTokens : undefined);
  const event: { -readonly [K in keyof UsageEvent]?: UsageEvent[K] } = { type: 'usage' };
  let any = false;
  for (const key of USAGE_KEYS) {
    const value = key === 'totalTokens' ? totalTokens : counts[key];
    if (value !== undefined) {
      event[key] = value;
      any = true;
    }
  }
  if (!any) return undefined;
  event.raw = raw;
  return event as UsageEvent;
}

/** A count inside a nested usage object (`path` of keys), when it is a finite number. */
export function countAt(record: Record<string, unknown> | undefined, ...path: string[]): number | undefined {
  let value: unknown = record;
  for (const key of path) value = asRecord(value)?.[key];
  return asNumber(value);
}

/**
 * The shared front of the formats whose events are typed (`event:` name or the payload's own
 * `type`): Responses, Anthropic, Cohere. Reads the SSE event or SDK payload, turns `event: error`
 * into a `provider-error`, skips keep-alives (empty data under any name; data that is not JSON
 * under `ping` or a name the format does not use, see {@link TypedEventDecoder.parses}), ignores
 * everything after the terminator, and hands `(type, payload)` to {@link TypedEventDecoder.handle}.
 */
/**
 * A record's data that is not a JSON object (see `objectData`): a keep-alive (`undefined`), or an
 * `invalid-event` error when the record is one the format reads (`read`).
 */
export function otherData(provider: ProviderName, data: string, read: boolean): Record<string, unknown> | undefined {
  const value = readEventData(provider, data, read);
  return value === KEEP_ALIVE ? undefined : requireObject(provider, value);
}

export abstract class TypedEventDecoder implements WireDecoder {
  abstract readonly provider: ProviderName;
  /** Set once the terminator arrived; later events are ignored. */
  protected done = false;

  /** One event of the format, with its payload object. */
  protected abstract handle(type: string, data: Record<string, unknown>, emit: EventSink): void;

  /**
   * Whether `name` (an `event:` field other than the default `message`) is one of the format's own
   * events, whose data must be a JSON object. Data under any other name (`ping`, a relay's
   * `keepalive`, …) is read when it is JSON and skipped when it is not.
   */
  protected abstract parses(name: string): boolean;

  /** See {@link WireDecoder.end}. */
  abstract end(emit: EventSink): void;

  /** See {@link WireDecoder.sse}. */
  sse(event: FramedRecord, emit: EventSink): void {
    if (this.done) return;
    const name = event.event;
    if (name === 'error') throw errorEvent(this.provider, event);
    // Nearly every event is one of the format's own with an object as its data: the name is looked
    // at only when the data is not one (a keep-alive, or an error when the format reads that event).
    const payload = objectData(event.data) ?? otherData(this.provider, event.data, name === 'message' || this.parses(name));
    if (payload !== undefined) this.handle(eventType(name, payload), payload, emit);
  }

  /** After the terminator, an idle timeout or a dropped connection loses nothing: the stream is complete. */
  interrupt(error: unknown): boolean {
    return this.done && isAfterFinishFailure(error);
  }

  /** See {@link WireDecoder.payload}. */
  payload(eventName: string, payload: unknown, emit: EventSink): void {
    if (this.done) return;
    const record = requireObject(this.provider, payload);
    this.handle(eventType(eventName, record), record, emit);
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A `tool-call-delta` event with only the fields the wire gave. This runs once per fragment: a
 * fragment with an index and arguments only (most of them) is one literal, so the event is one
 * object with every member in it (a member added to a smaller literal goes to a separate property
 * store: a second allocation per fragment).
 */
export function toolCallDelta(
  choice: number,
  argumentsDelta: string,
  index: number | undefined,
  id?: string,
  name?: string,
  replace?: boolean,
  metadata?: ProviderMetadata,
  kind?: 'custom',
): ToolCallDeltaEvent {
  if (index !== undefined && id === undefined && name === undefined && replace !== true && metadata === undefined && kind === undefined)
    return { type: 'tool-call-delta', choice, argumentsDelta, index };
  const event: Mutable<ToolCallDeltaEvent> = { type: 'tool-call-delta', choice, argumentsDelta };
  if (index !== undefined) event.index = index;
  if (id !== undefined) event.id = id;
  if (name !== undefined) event.name = name;
  if (replace === true) event.replace = true;
  if (metadata !== undefined) event.metadata = metadata;
  if (kind !== undefined) event.kind = kind;
  return event;
}
