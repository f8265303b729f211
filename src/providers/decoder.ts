/**
 * The shape every wire adapter shares: a per-subscription decoder that turns one SSE event (or one
 * already-parsed SDK payload) into zero or more {@link StreamEvent}s, plus the operator that runs it.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import { asRecord } from '../internal/json';
import { operate } from '../internal/operate';
import { ToolStreamError } from '../errors';
import type { ProviderName, FramedRecord, StreamEvent } from '../events';

/** Where a decoder puts the events it produces (a callback, so the hot path allocates no arrays). */
export type EventSink = (event: StreamEvent) => void;

/** A stateful decoder for one wire format; one instance per subscription. */
export interface WireDecoder {
  /** The wire format this decoder reads; put on `metadata` events and on the errors it throws. */
  readonly provider: ProviderName;
  /** One SSE event. Throws a `ToolStreamError` (provider error, invalid event) to end the stream. */
  sse(event: FramedRecord, emit: EventSink): void;
  /**
   * One already-parsed payload, as the official SDKs yield them: the same as an SSE event named
   * `eventName` whose data parsed to `payload`.
   */
  payload(eventName: string, payload: unknown, emit: EventSink): void;
  /** The source completed: emit what is pending, or throw `truncated` error when the wire was cut. */
  end(emit: EventSink): void;
  /**
   * The source failed with `error` (a cut connection, an idle timeout, …): emit what is pending and
   * return `true` when the stream is complete all the same (it had reached its end, short of the
   * terminator), so the output completes instead of failing. Absent: the error always goes on.
   */
  interrupt?(error: unknown, emit: EventSink): boolean;
}

/**
 * Whether a source failure that came after every choice finished leaves the stream complete: an idle
 * timeout or a dropped connection after the last finish loses nothing (the terminator is all that is
 * missing). Any other failure is passed on.
 */
export function isAfterFinishFailure(error: unknown): boolean {
  if (!(error instanceof ToolStreamError)) return false;
  const code: string = error.code;
  return code === 'idle-timeout' || code === 'connection-lost';
}

/**
 * Run a decoder as an operator: one decoder per subscription (`create()`), fed each input with
 * `feed` (`decoder.sse(…)` for SSE events, `decoder.payload(…)` for SDK payloads). The decoder's
 * typed errors end the stream; a failure of the input is offered to its `interrupt` (see
 * {@link WireDecoder.interrupt}), which may complete the stream instead.
 */
export function decode<T>(create: () => WireDecoder, feed: (decoder: WireDecoder, value: T, emit: EventSink) => void, whole?: WholeResponse): OperatorFunction<T, StreamEvent> {
  return operate((subscriber) => {
    const decoder = create();
    const emit: EventSink = (event) => subscriber.next(event);
    /** Until the first input: a whole JSON response is read as the records of its stream. */
    let first = whole;
    return {
      next: (value) => {
        if (first !== undefined) {
          const records = typeof value === 'object' && value !== null && 'data' in value ? wholeRecords(first, value as unknown as FramedRecord) : undefined;
          first = undefined;
          if (records !== undefined) {
            for (const record of records) decoder.sse(record, emit);
            return;
          }
        }
        feed(decoder, value, emit);
      },
      complete: () => decoder.end(emit),
      error: (error) => {
        if (decoder.interrupt?.(error, emit) === true) subscriber.complete();
      },
    };
  });
}

/** Feeds one SSE event to a decoder. */
export const feedSse = (decoder: WireDecoder, event: FramedRecord, emit: EventSink): void => decoder.sse(event, emit);

/** {@link decode} for SSE input (`whole`: the format reads a whole JSON response as its first record). */
export function decodeSseWith(create: () => WireDecoder, whole?: WholeResponse): OperatorFunction<FramedRecord, StreamEvent> {
  return decode(create, feedSse, whole);
}

/** Turns a whole JSON response of a format into the records a stream of it carries (`WireFormatDefinition.whole`). */
export type WholeResponse = (payload: Record<string, unknown>) => ReadonlyArray<FramedRecord> | undefined;

/**
 * The records a stream of the whole JSON response in `event` would carry, when `event` (a stream's
 * first record) is one; else `undefined`, and the decoder reads `event` as it is.
 */
export function wholeRecords(whole: WholeResponse, event: FramedRecord): ReadonlyArray<FramedRecord> | undefined {
  // A whole response is an unnamed record (a JSON body, a line, an element); a named event is a stream's.
  if (event.event !== 'message' || !event.data.startsWith('{')) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(event.data);
  } catch {
    return undefined; // the decoder reports it
  }
  const record = asRecord(payload);
  return record === undefined ? undefined : whole(record);
}

/**
 * Whether an SSE event's data is empty or only whitespace: a keep-alive (a relay's `data:` between
 * chunks, a `ping` with an empty data line), never a payload. Costs one character test for the data
 * of a real event.
 */
export function isBlankData(data: string): boolean {
  if (data.length === 0) return true;
  const c = data.charCodeAt(0);
  if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  return data.trim() === '';
}

/** What {@link readEventData} returns for a keep-alive: an event to skip. */
export const KEEP_ALIVE: unique symbol = Symbol('rxjs-tool-calls.keep-alive');

/**
 * The data of one SSE event, parsed, or {@link KEEP_ALIVE} for an event that is only there to keep
 * the connection open: empty data (any event name), or data that is not a JSON object on an event
 * the format does not have to parse (`ping`, or any event name the format does not use: a
 * timestamp, `""`, `keepalive`, …). Only data the format must parse and cannot is an
 * `invalid-event` error.
 *
 * @param provider The format, for the error.
 * @param data The event's data.
 * @param mustParse Whether the event is one the format reads (its own event names, or no name).
 */
export function readEventData(provider: ProviderName, data: string, mustParse: boolean): unknown {
  if (isBlankData(data)) return KEEP_ALIVE;
  if (mustParse) return parseEventData(provider, data);
  try {
    const value = JSON.parse(data) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : KEEP_ALIVE;
  } catch {
    return KEEP_ALIVE;
  }
}

/**
 * An SSE event's data when it is a JSON object, else `undefined` (then {@link readEventData} says
 * whether it is a keep-alive or an error): the common case, without looking at the event's name.
 */
export function objectData(data: string): Record<string, unknown> | undefined {
  if (isBlankData(data)) return undefined;
  try {
    const value = JSON.parse(data) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Parse one SSE data field as JSON, or throw a typed `invalid-event` error that shows the data. */
export function parseEventData(provider: ProviderName, data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch (error) {
    throw new ToolStreamError('invalid-event', { provider, data, detail: `data is not JSON: ${(error as Error).message}` });
  }
}

export { asNumber, asRecord, asString } from '../internal/json';
export { isRetryable, providerError } from './providerError';
