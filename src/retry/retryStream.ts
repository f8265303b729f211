/**
 * `retryStream()`: one response read across as many requests as it takes.
 *
 * @module
 */
import { Observable, type ObservableInput } from 'rxjs';
import type { StreamEvent } from '../events';
import { aBoolean, aCount, aFunction, anObject, checkOptions, type OptionChecks } from '../internal/options';
import { READ_OPTION_CHECKS } from '../read/readStreamEvents';
import { readerConfig } from '../read/streamReader';
import type { RetryContext, RetryStreamOptions } from './policy';
import { RetryRun } from './retryRun';

/** The keys of the retry policy. */
const POLICY_OPTION_CHECKS: OptionChecks = {
  maxAttempts: /* @__PURE__ */ aCount(1),
  shouldRetry: aFunction,
  backoff: aFunction,
  maxRetryAfterMs: /* @__PURE__ */ aCount(0),
  restart: aBoolean,
  resume: aBoolean,
  scheduler: anObject,
  random: aFunction,
};

/**
 * Read a streamed response as {@link StreamEvent}s, making the request again when it fails: before
 * any output transparently, after output by resuming where it was cut.
 *
 * <span class="informal">`readStreamEvents()` over `request(context)`, with the failures the
 * library knows to be passing (rate limits, overload, 5xx, a cut connection, an idle timeout)
 * retried, and a cut stream resumed from its last event id (SSE, Gemini Interactions) or Responses
 * sequence number, exactly once.</span>
 *
 * ```text
 * request(1):  --m--#                              m: metadata, #: HTTP 429 before any output
 * request(2):         --m--t----x--(fd|)           t: text, x: a tool call, f: finish, d: [DONE]
 *   retryStream(request)
 *              -----r------(mt)-x--(FD|)           r: retry { attempt: 2, error, delayMs: 2 }; m waits for t
 *
 * request(1):  --a---b--p#                         SSE ids on every event; p: the start of c, then the cut
 * request(2):              --c--e-----f--(d|)      context.lastEventId: b's id; the server sends what follows b
 *   retryStream(request)
 *              --(mt)x---r---y--z--------(FD|)     c arrives whole: the call goes on, every event once
 *
 * request(1):  --a---b--#                          plain chat completions: no ids, not resumable
 *   retryStream(request)
 *              --(mt)x--#                          # = connection-lost { delivered: { text, toolCalls } }
 *   retryStream(request, { restart: true })
 *              --(mt)x--r-R-(mt)x-----(FD|)        R: restart; request(2) reads the response from its start
 * ```
 *
 * 1. Each attempt calls `request(context)` for the bytes (or text) of one response and decodes them
 *    as `readStreamEvents(options)` does (auto-detected by default, so an attempt may go to another
 *    provider: fallback). Pipe the result into `toolCalls()`, `partialToolCalls()`, … as usual.
 * 2. **Before output** (before the first text, reasoning, tool-call or finish event), a failed
 *    attempt is made again from the start when `shouldRetry` says so (by default: a `retryable`
 *    `provider-error` error, i.e. HTTP 408, 409, 429, 5xx or an overloaded / rate-limit error event, a
 *    `connection-lost` error, an `idle-timeout` error). Metadata and usage are held back until output
 *    arrives, so the subscriber sees one clean response.
 * 3. **After output, resumable**: a response whose events carried SSE `id:` fields, Gemini
 *    Interactions `event_id`s or Responses `sequence_number`s continues where it was cut. The next
 *    attempt gets `context.lastEventId` (send it as `Last-Event-ID`; Interactions: as
 *    `last_event_id` of `GET /v1beta/interactions/{context.responseId}?stream=true`) and
 *    `context.lastSequenceNumber` / `context.responseId` (Responses: `starting_after`); events the
 *    subscriber already received are dropped and the decoder reads on, so a call cut mid-arguments
 *    simply continues: every event, call and text exactly once. A resumed attempt that turns out to
 *    be another response (another Responses id or interaction, an id received before) is not read:
 *    the stream goes on as for 4.
 * 4. **After output, not resumable**: the stream ends with the error, which carries `delivered`
 *    (the text and the calls already emitted); with `restart: true` a new attempt starts the
 *    response over, announced by a `restart` event: `toolCalls()` closes the abandoned attempt's
 *    open calls `incomplete` and reads the new ones afresh; results already emitted stay emitted (a
 *    call may then be reported twice, once per attempt).
 * 5. Every further attempt is announced by a `retry` event `{ attempt, error, delayMs }` (which
 *    `toolCalls()` and the encoders ignore). The wait is `backoff` (default: full jitter, up to
 *    500 ms × 2^(attempt − 1), at most 10 s) and never shorter than the provider's `retryAfterMs`
 *    (`Retry-After`, `retry-after-ms`, Gemini's `RetryInfo`); a longer wait than `maxRetryAfterMs`
 *    (default 60 s; exactly that long is waited for), a wait too long to represent (`Infinity`)
 *    and a wait no timer can be armed for (over 2^31 − 1 ms, with `maxRetryAfterMs: Infinity` or
 *    from `backoff`) are not waited for: the error ends the stream, its `retryAfterMs` showing what
 *    was asked. At most `maxAttempts` (default 3) attempts in all.
 * 6. A failure after the terminator loses nothing (the stream completes, as with
 *    `readStreamEvents()`); when attempts run out, or `shouldRetry` says no, the stream ends with
 *    the last error (with `delivered` after output).
 * 7. Unsubscribing cancels the running attempt or the pending wait: no further request is made.
 *    With `fromResponse((signal) => fetch(url, { ...init, signal }))` (or `fromFetch`) as the
 *    request, the attempt's connection closes in every phase, before its headers too; a promise
 *    of a response can only be cancelled once it resolves.
 *
 * @example
 * ```ts
 * import { fromResponse, retryStream, toolCalls } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const body: string;
 *
 * retryStream((ctx) =>
 *   fromResponse((signal) => fetch(url, { method: 'POST', body, signal, headers: ctx.lastEventId === undefined ? {} : { 'Last-Event-ID': ctx.lastEventId } })),
 * )
 *   .pipe(toolCalls())
 *   .subscribe((result) => console.log(result.success && result.data.name));
 * // displays: get_weather (once, even when the first request got a 429 or was cut mid-call)
 * ```
 *
 * @param request Makes one attempt's request: `context` says which attempt and, when it resumes, from where.
 * @param options The decoding (`provider`, `idleTimeoutMs`, SSE limits) and the policy (`maxAttempts`, `shouldRetry`, `backoff`, `restart`, …).
 * @return The events of one response, with `retry` (and `restart`) events between attempts.
 */
export function retryStream(request: (context: RetryContext) => ObservableInput<Uint8Array | string>, options: RetryStreamOptions = {}): Observable<StreamEvent> {
  checkOptions('retryStream', options, READ_OPTION_CHECKS, POLICY_OPTION_CHECKS);
  const reader = readerConfig(options);
  return new Observable<StreamEvent>((subscriber) => {
    const run = new RetryRun(subscriber, request, options, reader);
    // Before the first request: a subscriber that unsubscribes during a synchronous attempt stops it.
    subscriber.add(() => run.dispose());
    run.start();
  });
}
