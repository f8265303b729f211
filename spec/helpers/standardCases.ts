/**
 * Cases every operator of the library must pass, whatever it computes: completion, silence,
 * error pass-through and unsubscription (directly, through `mergeMap`, and of a synchronous
 * source cut by `take`). Call inside a `describe` of the operator's spec.
 *
 * @example
 * ```ts
 * describe('myOperator', () => {
 *   standardCases(() => myOperator(), [inputA, inputB]);
 * });
 * ```
 */
import { concat, finalize, from, mergeMap, Observable, take, throwError, timer, type OperatorFunction } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/**
 * @param makeOperator Builds a fresh operator under test.
 * @param sampleInput Source values that, emitted in order (and repeated), make the operator emit
 *   at least one value. Used as marble values `a`, `b`, `c`, … and for the synchronous source.
 */
export function standardCases<I>(makeOperator: () => OperatorFunction<I, unknown>, sampleInput: readonly [I, ...I[]]): void {
  const values: Record<string, I> = {};
  sampleInput.forEach((value, i) => (values[String.fromCharCode(97 + i)] = value));
  const letters = Object.keys(values);

  describe('standard operator cases', () => {
    it('completes with nothing when the source is empty', () => {
      scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold<I>('---|');
        expectObservable(source.pipe(makeOperator())).toBe('---|');
        expectSubscriptions(source.subscriptions).toBe('^--!');
      });
    });

    it('stays silent when the source never emits', () => {
      scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold<I>('-');
        expectObservable(source.pipe(makeOperator())).toBe('-');
        expectSubscriptions(source.subscriptions).toBe('^');
      });
    });

    it('passes a source error through', () => {
      const error = new Error('source failed');
      scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold<I>('--#', undefined, error);
        expectObservable(source.pipe(makeOperator())).toBe('--#', undefined, error);
        expectSubscriptions(source.subscriptions).toBe('^-!');
      });
    });

    it('passes a source error through after values', () => {
      const error = new Error('source failed');
      let received: unknown;
      concat(from(sampleInput), throwError(() => error))
        .pipe(makeOperator())
        .subscribe({ error: (e: unknown) => (received = e) });
      expect(received).toBe(error);
    });

    it('unsubscribes the source when unsubscribed early', () => {
      scheduler().run(({ cold, expectSubscriptions }) => {
        const source = cold<I>(`-${letters.join('-')}-${letters.join('-')}-|`, values);
        const subscription = source.pipe(makeOperator()).subscribe({ error: () => undefined });
        timer(2).subscribe(() => subscription.unsubscribe());
        expectSubscriptions(source.subscriptions).toBe('^-!');
      });
    });

    it('unsubscribes the source through mergeMap', () => {
      scheduler().run(({ cold, hot, expectSubscriptions }) => {
        const source = cold<I>(`-${letters.join('-')}-${letters.join('-')}-|`, values);
        const outer = hot('-x-------');
        const subscription = outer.pipe(mergeMap(() => source.pipe(makeOperator()))).subscribe({ error: () => undefined });
        timer(4).subscribe(() => subscription.unsubscribe());
        expectSubscriptions(source.subscriptions).toBe('-^--!');
      });
    });

    it('stops a synchronous source cut by take', () => {
      let produced = 0;
      let finalized = false;
      const source = new Observable<I>((subscriber) => {
        while (!subscriber.closed && produced < 100_000) {
          subscriber.next(sampleInput[produced % sampleInput.length] as I);
          produced++;
        }
        subscriber.complete();
      }).pipe(finalize(() => (finalized = true)));
      const received: unknown[] = [];
      source.pipe(makeOperator(), take(1)).subscribe((v) => received.push(v));
      expect(received).toHaveLength(1);
      expect(finalized).toBe(true);
      expect(produced).toBeLessThanOrEqual(sampleInput.length * 2);
    });
  });
}
