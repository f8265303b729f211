/**
 * The one operator idiom of the library: a per-subscription {@link Stage} (an observer of its input
 * that writes to the observer of its output) run as an operator by {@link stageOperator}. Stages
 * chain — `new SseStage(new DecodeStage(new CallsStage(out)))` — so a composition such as
 * `readToolCalls()` is the same stage objects as the stage operators it is made of, in one
 * subscription, with no operator hop between them.
 *
 * Imports nothing but rxjs: every stage of the pipeline may use it.
 *
 * @module
 */
import { Observable, Subscriber, type Observer, type OperatorFunction } from 'rxjs';

/**
 * One step of a pipeline, for one subscription. Subclasses implement `push` (one input value) and,
 * when they hold something, `end` (the input completed) and `interrupt` (the input failed).
 *
 * 1. A value, completion or failure after the stage stopped is ignored.
 * 2. A stage's own error (thrown by `push` or `end`) stops it and goes on as the output's error:
 *    downstream stages see it as their input's failure and report what they hold first
 *    ("emit then fail").
 * 3. A failure of the input is offered to `interrupt`, which emits what is pending and may declare
 *    the stream complete all the same (`true`): then the output completes instead of failing.
 */
export abstract class Stage<I, O> implements Observer<I> {
  private stopped = false;

  /**
   * A stage writing to `out`.
   *
   * @param out Where this stage's output goes: the next stage, or the subscriber.
   */
  constructor(protected readonly out: Observer<O>) {}

  /** One input value. */
  next(value: I): void {
    if (this.stopped) return;
    try {
      this.push(value);
    } catch (error) {
      this.stop(error);
    }
  }

  /** The input failed. */
  error(error: unknown): void {
    if (this.stopped) return;
    let complete: boolean;
    try {
      complete = this.interrupt(error);
    } catch (own) {
      this.stop(own);
      return;
    }
    this.stopped = true;
    if (complete) this.out.complete();
    else this.out.error(error);
  }

  /** The input completed. */
  complete(): void {
    if (this.stopped) return;
    try {
      this.end();
    } catch (error) {
      this.stop(error);
      return;
    }
    this.stopped = true;
    this.out.complete();
  }

  /** Handle one input value; throw a typed error to end the stream. */
  protected abstract push(value: I): void;

  /** The input completed: emit what is pending, or throw a typed error (e.g. `truncated`). */
  protected end(): void {
    // nothing pending by default
  }

  /** The input failed: emit what is pending; return `true` when the stream is complete all the same. */
  protected interrupt(_error: unknown): boolean {
    return false;
  }

  /** Stop taking input and pass `error` on. */
  protected stop(error: unknown): void {
    this.stopped = true;
    this.out.error(error);
  }
}

/**
 * Run a stage (or a chain of stages) as an operator: one stage object per subscription, built by
 * `create` around the subscriber.
 *
 * The source is subscribed with one plain `Subscriber`, added to the downstream subscriber, that
 * hands each notification to the stage: a synchronous source stops as soon as the consumer
 * unsubscribes (e.g. `take(1)`), even in the middle of an emission, and unsubscribing unsubscribes
 * the source. The source's own completion or failure reaches the subscriber after the stage has
 * handled it (a stage that already ended the output makes it a no-op), as through `tap`.
 *
 * @param create Builds the stage for one subscription, writing to `out`.
 */
export function stageOperator<I, O>(create: (out: Observer<O>) => Observer<I>): OperatorFunction<I, O> {
  return operate(create, true);
}

/**
 * {@link stageOperator} for a stage that ends its output itself, possibly later than its input
 * (after an asynchronous validation): the source's completion or failure goes to the stage only.
 *
 * @param create Builds the stage for one subscription, writing to `out`.
 * @internal
 */
export function selfEndingStageOperator<I, O>(create: (out: Subscriber<O>) => Observer<I>): OperatorFunction<I, O> {
  return operate(create, false);
}

/** The operator of both: one {@link StageSubscriber} per subscription. */
function operate<I, O>(create: (out: Subscriber<O>) => Observer<I>, forwardEnd: boolean): OperatorFunction<I, O> {
  return (source) =>
    new Observable<O>((subscriber) => {
      source.subscribe(new StageSubscriber(create(subscriber), subscriber, forwardEnd));
    });
}

/**
 * The subscriber of a stage operator to its source: values go to the stage; the source's end goes
 * to the stage, then (unless the stage ends the output itself) to the downstream subscriber.
 * Passing a `Subscriber` to `subscribe` uses it as is (no wrapper), and constructing it with the
 * downstream subscriber as destination adds it to that subscriber's teardown: one object per
 * subscription. (rxjs 7 marks the constructor internal; its operators build their subscribers the
 * same way.)
 */
class StageSubscriber<I, O> extends Subscriber<I> {
  constructor(
    protected stage: Observer<I>,
    downstream: Subscriber<O>,
    private readonly forwardEnd: boolean,
  ) {
    super(downstream);
  }

  protected override _next(value: I): void {
    this.stage.next(value);
  }

  // The stage may end the output first, which unsubscribes this subscriber: then it is done.
  protected override _error(error: unknown): void {
    try {
      this.stage.error(error);
    } finally {
      if (!this.forwardEnd) this.unsubscribe();
      else if (!this.closed) super._error(error);
    }
  }

  protected override _complete(): void {
    try {
      this.stage.complete();
    } finally {
      if (!this.forwardEnd) this.unsubscribe();
      else if (!this.closed) super._complete();
    }
  }
}

/**
 * {@link stageOperator} for a stage chain built at its first notification, so that a subscription
 * that has received nothing yet (a server's stream waiting for its first byte) holds only its
 * subscriber. `build` is a function shared by every subscription (no closure per subscription),
 * called with `params`; an error it throws ends the output like a stage's own error. `prepare` runs
 * at each subscription, before the source is subscribed (a check that must fail there, not at the
 * first value).
 *
 * @param build Builds the chain around the downstream subscriber, at the first notification.
 * @param params What `build` needs besides its output (the operator's options).
 * @param prepare Run at each subscription; what it throws fails the subscription.
 */
export function lazyStageOperator<I, O, P>(build: (out: Observer<O>, params: P) => Observer<I>, params: P, prepare?: () => void): OperatorFunction<I, O> {
  return (source) =>
    new Observable<O>((subscriber) => {
      prepare?.();
      source.subscribe(new LazyStageSubscriber(build, params, subscriber));
    });
}

/** Stands for the chain of a {@link LazyStageSubscriber} until it is built (and after its build failed: the subscriber is closed then). */
const UNBUILT: Observer<unknown> = { next() {}, error() {}, complete() {} };

/** A {@link StageSubscriber} whose stage chain is built at its first notification: one object until then. */
class LazyStageSubscriber<I, O, P> extends StageSubscriber<I, O> {
  constructor(
    private readonly build: (out: Observer<O>, params: P) => Observer<I>,
    private readonly params: P,
    downstream: Subscriber<O>,
  ) {
    super(UNBUILT as Observer<I>, downstream, true);
  }

  protected override _next(value: I): void {
    if (this.stage === UNBUILT) this.built();
    this.stage.next(value);
  }

  protected override _error(error: unknown): void {
    if (this.stage === UNBUILT) this.built();
    super._error(error);
  }

  protected override _complete(): void {
    if (this.stage === UNBUILT) this.built();
    super._complete();
  }

  private built(): void {
    const out = this.destination as Observer<O>; // the downstream subscriber
    try {
      this.stage = this.build(out, this.params);
    } catch (error) {
      this.unsubscribe(); // nothing more reaches the chain, which stays UNBUILT
      out.error(error);
    }
  }
}
