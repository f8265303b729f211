/**
 * `operate()`: how the library writes an operator whose per-subscription state turns one input into
 * zero or more outputs (a byte framing, a wire decoder, a fused reader). Public rxjs API only: an
 * `Observable` whose subscription subscribes the source with a `Subscription` that is also the
 * source's `Observer`.
 *
 * @module
 */
import { Observable, Subscription, type OperatorFunction, type Subscriber } from 'rxjs';

/**
 * What an operator made with {@link operate} does with its input, for one subscription. `next`
 * writes any number of outputs to the subscriber it was made with. A handler that throws ends the
 * output with what it threw (after what it wrote). Absent `error` / `complete`: the source's end is
 * passed on as it is.
 */
export interface InputHandler<I> {
  /** One input value. */
  next(value: I): void;
  /** The source failed: write what is pending; then end the output yourself, or return and the error is passed on. */
  error?(error: unknown): void;
  /** The source completed: write what is pending (or throw a typed error); the output completes after it. */
  complete?(): void;
  /**
   * `true`: the source's end goes to `error` / `complete` only, and the handler ends the output
   * itself, possibly later (after an asynchronous validation settles).
   */
  readonly endsItself?: boolean;
}

/**
 * The source's observer in one subscription of an {@link operate} operator. It is a `Subscription`
 * added to the subscriber, so unsubscribing the output closes it: a synchronous source that checks
 * `closed` (as `from(array)` does) stops at once, and the source's teardown runs with it.
 */
class SourceObserver<I, O> extends Subscription {
  private stopped = false;

  constructor(
    private readonly handler: InputHandler<I>,
    private readonly destination: Subscriber<O>,
  ) {
    super();
  }

  next(value: I): void {
    if (this.stopped) return;
    try {
      this.handler.next(value);
    } catch (error) {
      this.fail(error);
    }
  }

  error(error: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    const handler = this.handler;
    try {
      handler.error?.(error);
    } catch (own) {
      this.fail(own);
      return;
    }
    if (handler.endsItself === true) return;
    this.destination.error(error);
    this.unsubscribe();
  }

  complete(): void {
    if (this.stopped) return;
    this.stopped = true;
    const handler = this.handler;
    try {
      handler.complete?.();
    } catch (error) {
      this.fail(error);
      return;
    }
    if (handler.endsItself === true) return;
    this.destination.complete();
    this.unsubscribe();
  }

  private fail(error: unknown): void {
    this.stopped = true;
    this.destination.error(error);
    this.unsubscribe();
  }
}

/**
 * An operator from a handler made per subscription: `create(subscriber)` returns what to do with
 * each input; it writes to `subscriber` directly, so one input may give any number of outputs with
 * no array or inner observable between them.
 *
 * 1. Unsubscribing the output unsubscribes the source (a synchronous source stops at once).
 * 2. What a handler throws ends the output with that error, after what it already wrote; the source
 *    is unsubscribed.
 * 3. A handler may end the output itself (`subscriber.complete()` in its `error`, say): what follows
 *    is then ignored.
 *
 * @param create Builds the handler of one subscription around its subscriber.
 */
export function operate<I, O>(create: (subscriber: Subscriber<O>) => InputHandler<I>): OperatorFunction<I, O> {
  return (source) =>
    new Observable<O>((subscriber) => {
      const observer = new SourceObserver<I, O>(create(subscriber), subscriber);
      subscriber.add(observer);
      source.subscribe(observer);
    });
}
