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
import { type TestScheduler } from 'rxjs/testing';
import { testScheduler } from './marbles';

function scheduler(): TestScheduler {
  return testScheduler();
}

/** Options of {@link standardCases}. */
export interface StandardCasesOptions {
  /**
   * For operators that never error and end with a value of their own (view states such as
   * `chatState()`): the last value when an empty source completes, and the last value when the
   * source fails with `error` (either may be a jest asymmetric matcher). The empty and error cases
   * then expect that value, then completion, instead of silence or the error.
   */
  readonly endsWith?: {
    readonly completed: unknown;
    readonly failed: (error: unknown) => unknown;
  };
  /**
   * For readers of a whole stream (wire decoders, `readStreamEvents()`, `readToolCalls()`): an
   * empty source is a stream cut before it began, so it ends with this typed error (compared by
   * name, code and fields) instead of completing.
   */
  readonly emptyError?: unknown;
}

/**
 * @param makeOperator Builds a fresh operator under test.
 * @param sampleInput Source values that, emitted in order (and repeated), make the operator emit
 *   at least one value. Used as marble values `a`, `b`, `c`, … and for the synchronous source.
 * @param options `endsWith` for operators that turn the source's end into a last value, `emptyError`
 *   for readers of a whole stream.
 */
export function standardCases<I>(makeOperator: () => OperatorFunction<I, unknown>, sampleInput: readonly [I, ...I[]], options: StandardCasesOptions = {}): void {
  const endsWith = options.endsWith;
  const values: Record<string, I> = {};
  sampleInput.forEach((value, i) => (values[String.fromCharCode(97 + i)] = value));
  const letters = Object.keys(values);

  describe('standard operator cases', () => {
    it(options.emptyError === undefined ? 'completes with nothing when the source is empty' : 'ends an empty source with its typed error', () => {
      scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold<I>('---|');
        if (options.emptyError !== undefined) expectObservable(source.pipe(makeOperator())).toBe('---#', undefined, options.emptyError);
        else if (endsWith === undefined) expectObservable(source.pipe(makeOperator())).toBe('---|');
        else expectObservable(source.pipe(makeOperator())).toBe('---(z|)', { z: endsWith.completed });
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

    it(endsWith === undefined ? 'passes a source error through' : 'turns a source error into a last value and completes', () => {
      const error = new Error('source failed');
      scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold<I>('--#', undefined, error);
        if (endsWith === undefined) expectObservable(source.pipe(makeOperator())).toBe('--#', undefined, error);
        else expectObservable(source.pipe(makeOperator())).toBe('--(z|)', { z: endsWith.failed(error) });
        expectSubscriptions(source.subscriptions).toBe('^-!');
      });
    });

    it(endsWith === undefined ? 'passes a source error through after values' : 'turns a source error after values into a last value and completes', () => {
      const error = new Error('source failed');
      let received: unknown;
      const values: unknown[] = [];
      let completed = false;
      concat(
        from(sampleInput),
        throwError(() => error),
      )
        .pipe(makeOperator())
        .subscribe({ next: (v) => values.push(v), error: (e: unknown) => (received = e), complete: () => (completed = true) });
      if (endsWith === undefined) {
        expect(received).toBe(error);
      } else {
        expect([received, completed]).toEqual([undefined, true]);
        expect(values.length).toBeGreaterThan(1);
        expect(values.at(-1)).toEqual(endsWith.failed(error));
      }
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
