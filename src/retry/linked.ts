/**
 * Subscribing so that the subscription exists before the first value: what `retryStream()` and
 * `hedge()` need to stop an attempt from inside its own emissions.
 *
 * @module
 */
import { Observable, type Observer, type Subscription } from 'rxjs';

/**
 * Subscribe `observer` to `source`, handing the subscription to `started` before anything is
 * emitted. Unsubscribing it stops even a synchronous source in the middle of its emissions (the
 * subscriber itself is subscribed to the source, as `stageOperator` does).
 *
 * @param source What to subscribe to.
 * @param observer What receives it.
 * @param started Receives the subscription first.
 */
export function subscribeLinked<T>(source: Observable<T>, observer: Partial<Observer<T>>, started: (subscription: Subscription) => void): void {
  new Observable<T>((subscriber) => {
    started(subscriber);
    return source.subscribe(subscriber);
  }).subscribe(observer);
}
