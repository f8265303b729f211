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
 *
 * An operator on the hot path of many open streams (the fused readers) extends it with its handler's
 * methods (`handleNext`, …) and is made with {@link operateWith}: one object less per stream and
 * per input than a handler of its own.
 */
export abstract class SourceObserver<I, O> extends Subscription {
  private stopped = false;

  constructor(protected readonly destination: Subscriber<O>) {
    super();
  }

  /** {@link InputHandler.next}. */
  protected abstract handleNext(value: I): void;

  /** {@link InputHandler.error} (nothing by default). */
  protected handleError(_error: unknown): void {}

  /** {@link InputHandler.complete} (nothing by default). */
  protected handleComplete(): void {}

  /** {@link InputHandler.endsItself}. */
  protected get endsItself(): boolean {
    return false;
  }

  next(value: I): void {
    if (this.stopped) return;
    try {
      this.handleNext(value);
    } catch (error) {
      this.fail(error);
    }
  }

  error(error: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    try {
      this.handleError(error);
    } catch (own) {
      this.fail(own);
      return;
    }
    if (this.endsItself) return;
    this.destination.error(error);
    this.unsubscribe();
  }

  complete(): void {
    if (this.stopped) return;
    this.stopped = true;
    try {
      this.handleComplete();
    } catch (error) {
      this.fail(error);
      return;
    }
    if (this.endsItself) return;
    this.destination.complete();
    this.unsubscribe();
  }

  private fail(error: unknown): void {
    this.stopped = true;
    this.destination.error(error);
    this.unsubscribe();
  }
}

/** The observer of an {@link InputHandler}. */
class HandlerObserver<I, O> extends SourceObserver<I, O> {
  constructor(
    private readonly handler: InputHandler<I>,
    destination: Subscriber<O>,
  ) {
    super(destination);
  }

  protected handleNext(value: I): void {
    this.handler.next(value);
  }

  protected override handleError(error: unknown): void {
    this.handler.error?.(error);
  }

  protected override handleComplete(): void {
    this.handler.complete?.();
  }

  protected override get endsItself(): boolean {
    return this.handler.endsItself === true;
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
  return operateWith((subscriber) => new HandlerObserver<I, O>(create(subscriber), subscriber));
}

/**
 * {@link operate} for an operator whose per-subscription state is its own source observer (a
 * {@link SourceObserver} subclass): the same rules.
 *
 * @param create Builds the observer of one subscription around its subscriber.
 */
export function operateWith<I, O>(create: (subscriber: Subscriber<O>) => SourceObserver<I, O>): OperatorFunction<I, O> {
  return (source) =>
    new Observable<O>((subscriber) => {
      const observer = create(subscriber);
      subscriber.add(observer);
      source.subscribe(observer);
    });
}
