/**
 * One stream per tool call: `groupToolCalls()`.
 *
 * @module
 */
import { Observable, Subject, Subscriber, type GroupedObservable, type OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import type { ArgumentsParser } from './results';
import { toolCallUpdates, type ToolCallsOptions, type ToolCallUpdate } from './toolCalls';

/**
 * Split the stream into one group per tool call.
 *
 * <span class="informal">Like `groupBy` keyed by call: each call gets its own stream of updates,
 * which completes when the call is complete.</span>
 *
 * ```text
 * --a0--b0--a1--b1--F--|        a0,a1: fragments of call A; b0,b1: of call B; F: finish
 *   groupToolCalls()
 * --A-------B----------|
 *    \       \
 *     a0--a1--(ar|)    \         ar: A's closing update, carrying A's result
 *              b0--b1--(br|)
 * ```
 *
 * 1. Identity is resolved once, by the tracker (`ToolCallTracker` in `rxjs-tool-calls/advanced`; see the README's identity rules): wire index, then id,
 *    then "continuation of the last open call".
 * 2. A group completes when its call is closed: the wire ended that call (`tool-call-end`), its choice
 *    finished, the terminator arrived, or the source completed. Never merely because the arguments
 *    happen to parse.
 * 3. The closing update carries `result`: the parsed arguments or a typed error.
 * 4. When the source errors, every open group first receives an `incomplete` closing update, then
 *    the error reaches the outer stream.
 *
 * Subscribe to groups with `mergeMap` (groups are hot).
 *
 * @example
 * ```ts
 * import { mergeMap, toArray, map } from 'rxjs';
 * import { groupToolCalls } from 'rxjs-tool-calls';
 *
 * events$.pipe(groupToolCalls(), mergeMap((call$) => call$.pipe(map((u) => u.rawArguments)))).subscribe(console.log);
 * // displays: '', '{"ci', '{"city": "Paris"}', …
 * ```
 *
 * @param options Limits and the id generator.
 * @param parse How a closed call's arguments are parsed (default `parseArguments`).
 * @return An operator from {@link StreamEvent}s to one grouped stream per call.
 */
export function groupToolCalls(options: ToolCallsOptions = {}, parse?: ArgumentsParser): OperatorFunction<StreamEvent, GroupedObservable<number, ToolCallUpdate>> {
  // One Subject per open call in a Map, dropped when the call closes (rxjs `groupBy` keeps its
  // groups' subscriptions in an array, so closing each of n open groups costs O(n)). As with
  // `groupBy`, the source stays subscribed while a group has subscribers, even after the outer
  // subscription ended (`take(1)` of the groups, then the first group to its end).
  return (source) =>
    new Observable<GroupedObservable<number, ToolCallUpdate>>((subscriber) => {
      const groups = new Map<number, Subject<ToolCallUpdate>>();
      let outerOpen = true;
      let watchers = 0;
      const endAll = (end: (group: Subject<ToolCallUpdate>) => void): void => {
        const open = [...groups.values()];
        groups.clear();
        for (const group of open) end(group);
      };
      const upstream = new Subscriber<ToolCallUpdate>({
        next: (u) => {
          let group = groups.get(u.key);
          if (group === undefined) {
            const subject = (group = new Subject<ToolCallUpdate>());
            groups.set(u.key, subject);
            const grouped = new Observable<ToolCallUpdate>((observer) => {
              watchers++;
              const watching = subject.subscribe(observer);
              return () => {
                watching.unsubscribe();
                watchers--;
                release();
              };
            });
            subscriber.next(Object.assign(grouped, { key: u.key }));
          }
          group.next(u);
          if (u.result === undefined) return;
          groups.delete(u.key);
          group.complete();
        },
        error: (error: unknown) => {
          endAll((group) => group.error(error));
          subscriber.error(error);
        },
        complete: () => {
          endAll((group) => group.complete());
          subscriber.complete();
        },
      });
      const release = (): void => {
        if (!outerOpen && watchers === 0) upstream.unsubscribe();
      };
      // Registered before subscribing, so a synchronous source stops as soon as nobody listens.
      subscriber.add(() => {
        outerOpen = false;
        release();
      });
      source.pipe(toolCallUpdates(options, parse)).subscribe(upstream);
    });
}
