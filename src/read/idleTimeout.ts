/**
 * `idleTimeout()`: end a stalled stream with a typed `idle-timeout` error.
 *
 * @module
 */
import { asyncScheduler, type MonoTypeOperatorFunction, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { ToolStreamError } from '../errors';
import { operate } from '../internal/operate';
import { aDuration } from '../internal/options';
import { MAX_TIMER_MS } from '../internal/timers';

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
 * 2. When it fires, the error is emitted and the source is unsubscribed (a `fromReadableStream` /
 *    `fromResponse` source cancels its body, which closes the connection).
 * 3. Unsubscribing clears the timer: nothing is left scheduled. A value does not touch the timer
 *    (it only notes the time): the one timer, when it fires early, waits for the rest.
 * 4. Apply it to the byte chunks (`bytes$.pipe(idleTimeout(30_000), readToolCalls())`, or the
 *    `idleTimeoutMs` option of `readToolCalls()`) to watch the network; to the events to watch
 *    the model (a stream of keep-alive comments then still times out).
 *
 * @example
 * ```ts
 * import { fromResponse, idleTimeout, readToolCalls } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * fromResponse(fetch(url, init)).pipe(idleTimeout(30_000), readToolCalls()).subscribe(console.log);
 * // a stalled connection: every open call as { success: false, error: incomplete (idle-timeout) }, then `idle-timeout` error
 * ```
 *
 * @param ms The longest silence allowed, in milliseconds (a positive finite number; one longer than a
 *   timer can hold, 2^31 − 1 ms, is waited for in several timers, never cut short).
 * @param scheduler The scheduler that times the silence. Default `asyncScheduler`.
 * @return An operator that mirrors the source until it stalls.
 * @throws {ToolStreamError} `invalid-option` when `ms` is not a positive finite number.
 */
export function idleTimeout<T>(ms: number, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<T> {
  const wrong = aDuration(ms);
  if (wrong !== undefined) throw new ToolStreamError('invalid-option', { function: 'idleTimeout', option: 'ms', value: ms, expected: wrong });
  return operate<T, T>((subscriber) => {
    let last = scheduler.now();
    // One timer per subscription: at its deadline it waits again for what is left since the last value, or fires.
    const timer = scheduler.schedule(
      function (this: SchedulerAction<undefined>) {
        const left = last + ms - scheduler.now();
        if (left > 0) this.schedule(undefined, Math.min(left, MAX_TIMER_MS));
        else subscriber.error(new ToolStreamError('idle-timeout', { timeoutMs: ms }));
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    subscriber.add(timer);
    return {
      next(value) {
        last = scheduler.now();
        subscriber.next(value);
      },
      error: () => timer.unsubscribe(),
      complete: () => timer.unsubscribe(),
    };
  });
}
