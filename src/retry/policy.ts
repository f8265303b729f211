/**
 * The options of `retryStream()` and the policy they make: whether a failed attempt is tried again,
 * and after how long.
 *
 * @module
 */
import type { SchedulerLike } from 'rxjs';
import { isToolStreamError } from '../errors';
import { MAX_TIMER_MS } from '../internal/timers';
import type { ReadStreamEventsOptions } from '../read/readStreamEvents';

/** What `request` is told about the attempt it makes. */
export interface RetryContext {
  /** The attempt's number: 1 for the first request, 2 for the first retry, … */
  readonly attempt: number;
  /** What ended the previous attempt; absent on the first. */
  readonly error?: unknown;
  /**
   * Set when this attempt resumes a stream that carried event ids: SSE `id:` fields (send it as the
   * `Last-Event-ID` header) or Gemini Interactions' `event_id`s (send it as `last_event_id`:
   * `GET /v1beta/interactions/{responseId}?stream=true&last_event_id=…`). Absent when the attempt
   * starts a response from the beginning.
   */
  readonly lastEventId?: string;
  /**
   * Set when this attempt resumes an OpenAI Responses stream: the last `sequence_number` received,
   * to send as `starting_after` (`GET /v1/responses/{responseId}?stream=true&starting_after=…`, for a
   * response created with `background: true`).
   */
  readonly lastSequenceNumber?: number;
  /** Set when this attempt resumes a stream: the response id it had (`resp_…`, `msg_…`, `chatcmpl-…`, an interaction's `v1_…`), when sent. */
  readonly responseId?: string;
}

/** What `shouldRetry` is told besides the error. */
export interface RetryPolicyContext {
  /** The number of the attempt that failed (1 for the first request). */
  readonly attempt: number;
  /** Whether the subscriber had received output (text, reasoning, tool calls, a finish) from this response. */
  readonly output: boolean;
  /**
   * The default verdict: `true` for a `retryable` error (`provider-error` error with an HTTP status 408, 409,
   * 429 or 5xx, or an overloaded / rate-limit / server error type; `connection-lost` error) and for
   * `idle-timeout` error.
   */
  readonly retryable: boolean;
}

/** What `backoff` is told. */
export interface BackoffContext {
  /** The number of the attempt that failed (1 for the first request). */
  readonly attempt: number;
  /** What ended it. */
  readonly error: unknown;
  /** The wait the provider asked for (``provider-error` error.retryAfterMs`), when it did. */
  readonly retryAfterMs: number | undefined;
}

/** Options of `retryStream()`: the decoding of each attempt (as `readStreamEvents()`) and the retry policy. */
export interface RetryStreamOptions extends ReadStreamEventsOptions {
  /** At most this many attempts in all (the first request included). Default 3. */
  readonly maxAttempts?: number;
  /**
   * Whether a failed attempt is tried again. Default: `context.retryable`. Called only while
   * attempts remain; how the next attempt goes (resume, start over, `restart`) does not depend on it.
   */
  readonly shouldRetry?: (error: unknown, context: RetryPolicyContext) => boolean;
  /**
   * The wait before the next attempt, in ms. Default: exponential with full jitter, a random wait
   * between 0 and `min(10_000, 500 × 2^(attempt − 1))`. The wait is never shorter than the
   * provider's `retryAfterMs`.
   */
  readonly backoff?: (context: BackoffContext) => number;
  /**
   * A provider that asks for a longer wait than this (`Retry-After`, `retry-after-ms`, the payload's
   * hint) is not retried: its error ends the stream (its `retryAfterMs` shows what was asked). A
   * wait exactly this long is waited for. A wait too long to represent (`Infinity`) is never
   * waited for, whatever this is. Default 60,000.
   */
  readonly maxRetryAfterMs?: number;
  /**
   * After output, when the stream cannot be resumed: start the response over (emitting a `restart`
   * event first) instead of ending with the error. Default `false`.
   */
  readonly restart?: boolean;
  /** Resume a stream that carried SSE ids or Responses sequence numbers. Default `true`; `false` treats every stream as not resumable. */
  readonly resume?: boolean;
  /** The scheduler of the waits (a `TestScheduler` in marble tests). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** The random source of the default backoff's jitter, in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
}

/** `RetryPolicyContext.retryable`: a retryable error of the family, or an idle timeout. */
export function isRetryableFailure(error: unknown): boolean {
  if (!isToolStreamError(error)) return false;
  return (error as { retryable?: unknown }).retryable === true || error.code === 'idle-timeout';
}

/** The default backoff: full jitter over an exponential cap (500 ms doubling, at most 10 s). */
export function fullJitter(random: () => number): (context: BackoffContext) => number {
  return ({ attempt }) => Math.floor(random() * Math.min(10_000, 500 * 2 ** (attempt - 1)));
}

/** The default `maxRetryAfterMs`: 60 s. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export { MAX_TIMER_MS };

/**
 * The provider's requested wait, when the error carries one: a number ≥ 0, `Infinity` included (a
 * wait too long to represent was still asked for). `undefined` when it asked for none.
 */
export function retryAfterOf(error: unknown): number | undefined {
  const value = isToolStreamError(error, 'provider-error') ? error.retryAfterMs : undefined;
  return typeof value === 'number' && value >= 0 ? value : undefined;
}

/**
 * The wait before the next attempt, or `undefined`: do not retry. Pure; `backoff` is called only
 * when the provider's wait is acceptable.
 *
 * 1. The provider asked for a wait (`retryAfterMs`) that is not finite or longer than
 *    `maxRetryAfterMs` (default 60,000; a wait exactly that long is taken): do not retry.
 * 2. Else the wait is the longer of `backoff()` (a `NaN` or negative one counts as 0) and
 *    `retryAfterMs`.
 * 3. A wait no timer can be armed for (longer than {@link MAX_TIMER_MS}, or `Infinity`): do not
 *    retry. No timer is ever armed past 2^31 − 1 ms, where `setTimeout` would fire after 1 ms.
 */
export function retryWait(retryAfterMs: number | undefined, maxRetryAfterMs: number | undefined, backoff: () => number): number | undefined {
  if (retryAfterMs !== undefined && !(Number.isFinite(retryAfterMs) && retryAfterMs <= (maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS))) return undefined;
  const backoffMs = backoff();
  const wait = Math.max(0, Number.isNaN(backoffMs) ? 0 : backoffMs, retryAfterMs ?? 0);
  return wait <= MAX_TIMER_MS ? wait : undefined;
}
