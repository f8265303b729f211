/**
 * An observer that keeps values in order when some of them are Promises (asynchronous validators).
 *
 * @module
 */
import type { Observer, Subscriber } from 'rxjs';
import { isPromiseLike } from './validate';

/** What `partialObject()`'s stage emits: one update (typed by `partialObject()`). */
export type Emitted = Readonly<Record<string, unknown>>;

/**
 * Emits values in order, holding later ones while an earlier one is a pending Promise; completion
 * and errors wait for what is pending.
 */
export class OrderedOut implements Observer<Emitted | Promise<Emitted>> {
  private readonly queue: Array<Emitted | Promise<Emitted>> = [];
  private waiting = false;
  private ending: { readonly error: boolean; readonly value: unknown } | undefined;

  constructor(private readonly subscriber: Subscriber<Emitted>) {}

  next(value: Emitted | Promise<Emitted>): void {
    if (this.queue.length === 0 && !isPromiseLike(value)) this.subscriber.next(value);
    else {
      this.queue.push(value);
      this.drain();
    }
  }

  error(error: unknown): void {
    this.ending = { error: true, value: error };
    this.drain();
  }

  complete(): void {
    this.ending = { error: false, value: undefined };
    this.drain();
  }

  private drain(): void {
    const subscriber = this.subscriber;
    while (this.queue.length > 0 && !subscriber.closed) {
      const head = this.queue[0] as Emitted | Promise<Emitted>;
      if (isPromiseLike(head)) {
        if (this.waiting) return;
        this.waiting = true;
        head.then(
          (value) => {
            this.waiting = false;
            this.queue[0] = value;
            this.drain();
          },
          (error: unknown) => subscriber.error(error),
        );
        return;
      }
      this.queue.shift();
      subscriber.next(head);
    }
    if (this.queue.length > 0 || this.ending === undefined) return;
    if (this.ending.error) subscriber.error(this.ending.value);
    else subscriber.complete();
  }
}
