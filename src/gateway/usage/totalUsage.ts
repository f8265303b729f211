/**
 * Adding usage up: `addUsage()` for two counts, `totalUsage()` over the usage reports of one
 * stream or of many (the steps of a tool loop, the sources of a merge).
 *
 * @module
 */
import { defer, filter, map, type Observable, type OperatorFunction } from 'rxjs';
import { ToolStreamError } from '../../errors';
import type { StreamEvent } from '../../events';
import type { Usage } from '../../events';
import { aFunction, checkOptions, type OptionChecks } from '../../internal/options';
import { addUsage, usageCounts } from '../../internal/usage';

export { addUsage, usageCounts } from '../../internal/usage';

/** Options of {@link totalUsage} over items other than `StreamEvent`s. */
export interface TotalUsageOptions<T> {
  /** The usage an item reports, or `undefined` for an item that reports none. */
  readonly usageOf: (item: T) => Usage | undefined;
  /**
   * The stream an item belongs to (any value, compared with `Map` key equality), e.g. a tool
   * loop's `step` or a merge's `source`. Each stream's last usage replaces its earlier ones; the
   * streams add up. Default: every item belongs to one stream.
   */
  readonly streamOf?: (item: T) => unknown;
}

/** The checks of {@link TotalUsageOptions}' keys. */
const TOTAL_USAGE_OPTION_CHECKS: OptionChecks = { usageOf: aFunction, streamOf: aFunction };

/**
 * The total usage so far, after every usage report: per stream the last report (the most
 * complete: Anthropic reports at `message_start` and again at `message_delta`, Gemini repeats its
 * cumulative counts on every chunk), summed over the streams.
 *
 * <span class="informal">Like `scan(addUsage)`, except that a stream's later report replaces its
 * earlier one instead of adding to it.</span>
 *
 * ```text
 * --a--b--d--c--d--|        a: usage {in 10, out 1}, b: usage {in 10, out 5}, c: usage {in 20, out 2}, d: done
 *   totalUsage()
 * --A--B-----C-----|        A: {in 10, out 1}, B: {in 10, out 5}, C: {in 30, out 7}
 * ```
 *
 * 1. Without options the source is `StreamEvent`s: `usage` events are read, and a `done` event
 *    ends a stream (the events of several streams concatenated add up). A `restart` event
 *    (`retryStream()`) ends one too: the abandoned attempt's usage was spent and still counts.
 * 2. With `usageOf` (and `streamOf`) any items are read: e.g. a tool loop's items by `step`, a
 *    merge's items by `source`.
 * 3. Each output is a new {@link Usage} with the counts only; an item without usage emits
 *    nothing. Take the final total with `takeLast(1)` (nothing is emitted when no usage arrived).
 * 4. Errors and completion pass through; counts are summed as `addUsage()` does.
 *
 * @example
 * ```ts
 * import { takeLast, type Observable } from 'rxjs';
 * import { readStreamEvents } from 'rxjs-tool-calls';
 * import { totalUsage } from 'rxjs-tool-calls/gateway';
 *
 * declare const bytes$: Observable<Uint8Array>;
 *
 * bytes$.pipe(readStreamEvents(), totalUsage(), takeLast(1)).subscribe((usage) => console.log(usage));
 * // displays: { inputTokens: 1060, outputTokens: 20, totalTokens: 1080, cachedInputTokens: 1000 }
 * ```
 *
 * @example
 * ```ts
 * import { takeLast } from 'rxjs';
 * import { totalUsage } from 'rxjs-tool-calls/gateway';
 * import { toolLoop, type ToolLoopRequest, type ToolSet } from 'rxjs-tool-calls/tools';
 *
 * declare const request: ToolLoopRequest;
 * declare const tools: ToolSet;
 *
 * toolLoop(request, tools)
 *   .pipe(totalUsage({ usageOf: (item) => (item.type === 'event' && item.event.type === 'usage' ? item.event : undefined), streamOf: (item) => item.step }), takeLast(1))
 *   .subscribe((usage) => console.log(usage.totalTokens));
 * // displays: 3120
 * ```
 *
 * @param options `usageOf` and `streamOf`, to read items other than `StreamEvent`s.
 * @return An operator emitting the running total after each usage report.
 * @throws {ToolStreamError} `invalid-option`, at once, for options without `usageOf`, a key it does not take or a value that is not a function.
 */
export function totalUsage(options?: undefined): OperatorFunction<StreamEvent, Usage>;
export function totalUsage<T>(options: TotalUsageOptions<T>): OperatorFunction<T, Usage>;
export function totalUsage<T>(options?: TotalUsageOptions<T>): OperatorFunction<T, Usage> {
  checkOptions('totalUsage', options, TOTAL_USAGE_OPTION_CHECKS);
  if (options !== undefined && options.usageOf === undefined)
    throw new ToolStreamError('invalid-option', { function: 'totalUsage', option: 'options.usageOf', value: undefined, expected: 'a function (required with options)' });
  return (source: Observable<T>) =>
    defer(() => {
      const lastByStream = new Map<unknown, Usage>();
      let streamIndex = 0;
      const readEvent = (item: T): { usage: Usage | undefined; stream: unknown } => {
        const event = item as StreamEvent;
        const stream = streamIndex;
        if (event.type === 'done' || event.type === 'restart') streamIndex++;
        return { usage: event.type === 'usage' ? event : undefined, stream };
      };
      const read = options === undefined ? readEvent : (item: T) => ({ usage: options.usageOf(item), stream: options.streamOf?.(item) });
      return source.pipe(
        map((item) => {
          const { usage, stream } = read(item);
          if (usage === undefined) return undefined;
          lastByStream.set(stream, usageCounts(usage));
          let total: Usage = {};
          for (const last of lastByStream.values()) total = addUsage(total, last);
          return total;
        }),
        filter((total): total is Usage => total !== undefined),
      );
    });
}
