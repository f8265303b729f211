/**
 * Timers that never fire early: a wait longer than a timer can hold is made of several timers, one
 * after another.
 *
 * @module
 */
import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';

/** The longest wait one timer can be armed for: 2^31 − 1 ms (about 24.8 days; `setTimeout` fires a longer one after 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Run `work` after `ms` milliseconds on `scheduler`: in one timer when it can hold the wait, else in
 * a chain of timers of at most {@link MAX_TIMER_MS} each (`Infinity`: never). Unsubscribing the
 * subscription cancels the chain.
 */
export function after(scheduler: SchedulerLike, ms: number, work: () => void): Subscription {
  const deadline = scheduler.now() + ms;
  return scheduler.schedule(
    function (this: SchedulerAction<undefined>) {
      const left = deadline - scheduler.now();
      if (left > 0) this.schedule(undefined, Math.min(left, MAX_TIMER_MS));
      else work();
    },
    Math.min(ms, MAX_TIMER_MS),
  );
}
