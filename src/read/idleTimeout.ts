/**
 * `idleTimeout()`: end a stalled stream with a typed `idle-timeout` error.
 *
 * @module
 */
import { asyncScheduler, throwError, timeout, type MonoTypeOperatorFunction, type Observable, type SchedulerLike } from 'rxjs';
import { ToolStreamError } from '../errors';

/**
 * End the stream with an `idle-timeout` error when nothing arrives for `ms` milliseconds.
 *
 * <span class="informal">Like `timeout({ each: ms })`, but the error is typed (`idle-timeout`), so
 * `toolCalls()` downstream reports every open call `incomplete` with reason `idle-timeout`.</span>
 *
 * ```text
 * --a--b----c--------…          (nothing after c)
 *   idleTimeout(5)
 * --a--b----c----#              #: `idle-timeout` error { code: 'idle-timeout', timeoutMs: 5 }
 *
 * ----------…                   (nothing at all)
 *   idleTimeout(5)
 * -----#                        the first value is waited for just as long
 * ```
 *
 * 1. The timer starts at subscription and restarts on every value; completion and errors of the
 *    source pass through and stop it.
 * 2. When it fires, the source is unsubscribed (a `fromReadableStream` / `fromResponse` source
 *    cancels its body, which closes the connection), then the error is emitted.
 * 3. Unsubscribing clears the timer: nothing is left scheduled.
 * 4. Apply it to the byte chunks (`bytes$.pipe(idleTimeout(30_000), readToolCalls())`, or the
 *    `idleTimeoutMs` option of `readToolCalls()`) to watch the network; to the events to watch
 *    the model (a stream of keep-alive comments then still times out).
 *
 * @example
 * ```ts
 * import { fromResponse, idleTimeout, readToolCalls } from 'rxjs-tool-calls';
 *
 * fromResponse(fetch(url, init)).pipe(idleTimeout(30_000), readToolCalls()).subscribe(console.log);
 * // a stalled connection: every open call as { success: false, error: incomplete (idle-timeout) }, then `idle-timeout` error
 * ```
 *
 * @param ms The longest silence allowed, in milliseconds (a positive finite number).
 * @param scheduler The scheduler that times the silence. Default `asyncScheduler`.
 * @return An operator that mirrors the source until it stalls.
 * @throws {RangeError} When `ms` is not a positive finite number.
 */
export function idleTimeout<T>(ms: number, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<T> {
  if (!(typeof ms === 'number' && ms > 0 && Number.isFinite(ms))) throw new RangeError(`idleTimeout: ms must be a positive finite number, got ${String(ms)}`);
  return timeout<T, Observable<never>>({ each: ms, scheduler, with: () => throwError(() => new ToolStreamError('idle-timeout', { timeoutMs: ms })) });
}
