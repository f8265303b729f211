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
import type { ProviderName, SseEvent, StreamEvent } from '../events';

/** Where a decoder puts the events it produces (a callback, so the hot path allocates no arrays). */
export type Emit = (event: StreamEvent) => void;

/** A stateful decoder for one wire format; one instance per subscription. */
export interface WireDecoder {
  /** The wire format this decoder reads; put on `metadata` events and on the errors it throws. */
  readonly provider: ProviderName;
  /** One SSE event. Throws a `ToolStreamError` (provider error, invalid event) to end the stream. */
  sse(event: SseEvent, emit: Emit): void;
  /**
   * One already-parsed payload, as the official SDKs yield them: the same as an SSE event named
   * `eventName` whose data parsed to `payload`.
   */
  payload(eventName: string, payload: unknown, emit: Emit): void;
  /** The source completed: emit what is pending, or throw `truncated` error when the wire was cut. */
  end(emit: Emit): void;
  /**
   * The source failed with `error` (a cut connection, an idle timeout, …): emit what is pending and
   * return `true` when the stream is complete all the same (it had reached its end, short of the
   * terminator), so the output completes instead of failing. Absent: the error always goes on.
   */
  interrupt?(error: unknown, emit: Emit): boolean;
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
export function decode<T>(create: () => WireDecoder, feed: (decoder: WireDecoder, value: T, emit: Emit) => void, whole?: WholeResponse): OperatorFunction<T, StreamEvent> {
  return operate((subscriber) => {
    const decoder = create();
    const emit: Emit = (event) => subscriber.next(event);
    /** Until the first input: a whole JSON response is read as the records of its stream. */
    let first = whole;
    return {
      next: (value) => {
        if (first !== undefined) {
          const records = typeof value === 'object' && value !== null && 'data' in value ? wholeRecords(first, value as unknown as SseEvent) : undefined;
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
export const feedSse = (decoder: WireDecoder, event: SseEvent, emit: Emit): void => decoder.sse(event, emit);

/** {@link decode} for SSE input (`whole`: the format reads a whole JSON response as its first record). */
export function decodeSseWith(create: () => WireDecoder, whole?: WholeResponse): OperatorFunction<SseEvent, StreamEvent> {
  return decode(create, feedSse, whole);
}

/** Turns a whole JSON response of a format into the records a stream of it carries (`WireFormatDefinition.whole`). */
export type WholeResponse = (payload: Record<string, unknown>) => ReadonlyArray<SseEvent> | undefined;

/**
 * The records a stream of the whole JSON response in `event` would carry, when `event` (a stream's
 * first record) is one; else `undefined`, and the decoder reads `event` as it is.
 */
export function wholeRecords(whole: WholeResponse, event: SseEvent): ReadonlyArray<SseEvent> | undefined {
  if (!event.data.startsWith('{')) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(event.data);
  } catch {
    return undefined; // the decoder reports it
  }
  const record = asRecord(payload);
  return record === undefined ? undefined : whole(record);
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
