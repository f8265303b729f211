/**
 * Several live streams, each with its own wire format, read into one stream of events and results,
 * every item tagged with the name of the source it came from.
 *
 * @module
 */
import { catchError, concatWith, defer, isObservable, map, merge, Observable, of, tap, type OperatorFunction } from 'rxjs';
import { CALLS_OPTION_CHECKS } from '../calls/driver';
import { aBoolean, checkOptions, pickOptions, type OptionChecks } from '../internal/options';
import { eventsAndResults } from '../operators/eventsAndResults';
import { TOOLS_OPTION } from '../operators/validateResults';
import { checkTools, type InferToolCall, type ToolsInput } from '../parse/validate';
import type { StreamEvent, Usage } from '../events';
import { READ_OPTION_CHECKS, readStreamEvents } from '../read/readStreamEvents';
import type { ReadToolCallsOptions } from '../read/readToolCalls';
import type { ToolCall, ToolCallResult } from '../result';
import { usageCounts } from './usage/totalUsage';

/** One normalised event of source `source`. */
export interface MergedEvent<S extends string = string> {
  /** The name of the source (its key in the `mergeStreams()` record, or the name given to `tagSource()`). */
  readonly source: S;
  /** Discriminant: always `'event'`. */
  readonly type: 'event';
  /** The normalised event, as `readStreamEvents()` emits it. */
  readonly event: StreamEvent;
}

/**
 * One tool-call result of source `source` (ids stay as the wire sent them: `${source}:${id}` is
 * unique across the sources).
 * `Call` is the successful call's type: with typed `tools`, a union by tool name.
 */
export interface MergedResult<S extends string = string, Call extends ToolCall<string, unknown> = ToolCall> {
  /** The name of the source (its key in the `mergeStreams()` record, or the name given to `tagSource()`). */
  readonly source: S;
  /** Discriminant: always `'result'`. */
  readonly type: 'result';
  /** The call's result, as `toolCalls()` emits it (validated, and typed by tool name, when `tools` was given). */
  readonly result: ToolCallResult<Call>;
}

/**
 * Source `source` failed: usually a `ToolStreamError` (`provider-error`, `truncated`, …; narrow with
 * `isToolStreamError`), or whatever the byte source itself failed with (a network error).
 */
export interface MergedError<S extends string = string> {
  /** The name of the source that failed. */
  readonly source: S;
  /** Discriminant: always `'error'`. */
  readonly type: 'error';
  /** What the source failed with; its last item (no more items of this source follow). */
  readonly error: unknown;
  /** The source's usage up to the failure: its last `usage` event (counts only); absent when it reported none. */
  readonly usage?: Usage;
}

/** Source `source` completed normally. */
export interface MergedComplete<S extends string = string> {
  /** The name of the source that completed. */
  readonly source: S;
  /** Discriminant: always `'complete'`; the source's last item. */
  readonly type: 'complete';
  /** The source's usage: its last `usage` event (counts only; also with `events: false`); absent when it reported none. */
  readonly usage?: Usage;
}

/** One item of a merged stream, tagged by `type` and by `source` (`Call`: see {@link MergedResult}). */
export type MergedItem<S extends string = string, Call extends ToolCall<string, unknown> = ToolCall> = MergedEvent<S> | MergedResult<S, Call> | MergedError<S> | MergedComplete<S>;

/** Options of one source, in {@link tagSource} and per source in {@link mergeStreams}. */
export interface TagSourceOptions extends ReadToolCallsOptions {
  /** EventSink `event` items (every normalised event). Default `true`; `false` keeps only results, errors and completes. */
  readonly events?: boolean;
  /**
   * The tools (schemas or `tool()` records by name, or an array of named `tool()` records): each
   * source's calls are validated as by `toolCalls({ tools })`. Given in the
   * shared options of `mergeStreams()` (or to `tagSource()`), they also type `result.data` by tool
   * name; a source's own `tools` replace the shared ones at run time but do not change the type.
   */
  readonly tools?: ToolsInput;
}

/** The keys `tagSource()` takes beyond the readers'. */
const SOURCE_OPTION_CHECKS: OptionChecks = { events: aBoolean };

/** A source given with its own options (they override the shared ones). */
export interface MergeSourceOptions extends TagSourceOptions {
  /** The response body, as byte (or text) chunks. */
  readonly bytes$: Observable<Uint8Array | string>;
}

/** A source: its byte chunks, or its byte chunks with options. */
export type MergeSource = Observable<Uint8Array | string> | MergeSourceOptions;

/** Options of {@link mergeStreams}; everything but `failFast` is the default for every source. */
export interface MergeStreamsOptions extends TagSourceOptions {
  /**
   * End the merged stream with the first source's error (after emitting that source's `error` item),
   * unsubscribing every other source. Default `false`: a failed source is just reported.
   */
  readonly failFast?: boolean;
}

/**
 * Read one source's bytes as tagged items that never error: its events and results, then one
 * `error` item (instead of erroring) or one `complete` item.
 *
 * <span class="informal">`readToolCalls()` with the events kept, every item tagged with `source`,
 * and the end of the stream turned into an item.</span>
 *
 * ```text
 * --x----y-------#              x, y: byte chunks; #: the connection is cut
 *   tagSource('a')
 * --e----(eeR)---(IE|)          e: { source: 'a', type: 'event', … }, R, I: results (I: incomplete), E: { source: 'a', type: 'error', … }
 * ```
 *
 * 1. The bytes are read once (`connect`): events and results come from one subscription.
 * 2. For each event, its `event` item comes before the results it completed.
 * 3. On an error: complete calls were already emitted, open calls are emitted `incomplete`, then the
 *    `error` item, then the output completes.
 * 4. The `complete` or `error` item carries the source's `usage`: its last `usage` event (the most
 *    complete report), counts only, also with `events: false`; absent when it reported none.
 *
 * @example
 * ```ts
 * import { merge } from 'rxjs';
 * import { fromResponse } from 'rxjs-tool-calls';
 * import { tagSource } from 'rxjs-tool-calls/gateway';
 *
 * declare const openaiFetch: Promise<Response>; // fetch(…) of each provider, with stream: true
 * declare const claudeFetch: Promise<Response>;
 *
 * merge(fromResponse(openaiFetch).pipe(tagSource('openai')), fromResponse(claudeFetch).pipe(tagSource('claude'))).subscribe((item) => console.log(item.source, item.type));
 * // displays: openai event, claude event, …, openai result, openai complete, …
 * ```
 *
 * @param source The name every item carries.
 * @param options The wire format (`provider`, default `auto`), SSE and tool-call limits, `events`.
 * @return An operator from byte (or text) chunks to tagged {@link MergedItem}s.
 */
export function tagSource<S extends string, T extends ToolsInput>(source: S, options: TagSourceOptions & { readonly tools: T }): OperatorFunction<Uint8Array | string, MergedItem<S, InferToolCall<T>>>;
export function tagSource<S extends string>(source: S, options?: TagSourceOptions): OperatorFunction<Uint8Array | string, MergedItem<S>>;
export function tagSource<S extends string>(source: S, options: TagSourceOptions = {}): OperatorFunction<Uint8Array | string, MergedItem<S>> {
  checkOptions('tagSource', options, READ_OPTION_CHECKS, CALLS_OPTION_CHECKS, TOOLS_OPTION, SOURCE_OPTION_CHECKS);
  if (options.tools !== undefined) checkTools(options.tools, 'tagSource');
  const read = pickOptions(options, READ_OPTION_CHECKS);
  return (bytes$) =>
    defer(() => {
      let usage: Usage | undefined;
      const withUsage = <I extends MergedItem<S>>(item: I): I => (usage === undefined ? item : { ...item, usage });
      return bytes$.pipe(
        readStreamEvents(read),
        tap((event) => {
          if (event.type === 'usage') usage = usageCounts(event);
        }),
        // Each event precedes the results it completes; on an error, the open calls' `incomplete` results come first.
        eventsAndResults(options),
        map((item): MergedItem<S> => (item.type === 'event' ? { source, type: 'event', event: item.event } : { source, type: 'result', result: item.result })),
        concatWith(defer(() => of(withUsage<MergedItem<S>>({ source, type: 'complete' })))),
        catchError((error: unknown) => of(withUsage<MergedItem<S>>({ source, type: 'error', error }))),
      );
    });
}

function sourceOptions(shared: MergeStreamsOptions, own: MergeSource): [Observable<Uint8Array | string>, TagSourceOptions] {
  const { failFast: _failFast, ...defaults } = shared;
  if (isObservable(own)) return [own, defaults];
  const { bytes$, ...options } = own;
  return [bytes$, { ...defaults, ...options }];
}

/** Error the output right after the first `error` item. */
function failOnError<S extends string>(): OperatorFunction<MergedItem<S>, MergedItem<S>> {
  return (items$) =>
    new Observable<MergedItem<S>>((subscriber) =>
      items$.subscribe({
        next(item) {
          subscriber.next(item);
          if (item.type === 'error') subscriber.error(item.error);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
}

/**
 * Merge several providers' live streams into one stream of events and results, each item tagged
 * with its source's name.
 *
 * <span class="informal">One `tagSource(name)` per entry of the record, merged: wire formats are
 * recognised per source, and one source failing does not end the others.</span>
 *
 * ```text
 * a:  -x------y----------|            x, y: byte chunks of source a (its call completes in y)
 * b:  ---z---------#                  z: a chunk of source b (a call still open); #: b is cut
 *     mergeStreams({ a, b })
 *     -e-e----(eR)-(IE)--(C|)         e: event items, R: a's result, I: b's open call, incomplete,
 *                                     E: b's error item, C: a's complete item
 * ```
 *
 * 1. Every item is `{ source, type: 'event' | 'result' | 'error' | 'complete', … }`; filter with
 *    {@link isMerged}. Result ids stay as the wire sent them: two sources may both have `call_0`;
 *    `${item.source}:${id}` is unique across the merged stream.
 * 2. Each source is read once by `readStreamEvents()` (auto-detected unless `provider` is given)
 *    and `toolCalls()`; within a source, items keep that source's order.
 * 3. A failing source emits its complete results, its open calls as `incomplete`, then its `error`
 *    item; the other sources go on. With `failFast: true` the merged stream then errors with that
 *    error and unsubscribes the other sources.
 * 4. Completes when every source completed or failed; an empty record completes at once.
 *    Unsubscribing unsubscribes every source.
 * 5. Usage per source: its `complete` (or `error`) item carries `usage`, the source's last report.
 *    The total over the sources is `totalUsage()` by `source`: over those items (once per finished
 *    source), or over the `event` items' `usage` events (live, as reports arrive).
 *
 * @example
 * ```ts
 * import { filter } from 'rxjs';
 * import { fromResponse } from 'rxjs-tool-calls';
 * import { isMerged, mergeStreams } from 'rxjs-tool-calls/gateway';
 *
 * declare const openaiFetch: Promise<Response>; // fetch(…) of each provider, with stream: true
 * declare const claudeFetch: Promise<Response>;
 *
 * mergeStreams({ openai: fromResponse(openaiFetch), claude: { bytes$: fromResponse(claudeFetch), provider: 'anthropic' } })
 *   .pipe(filter(isMerged('result')))
 *   .subscribe(({ source, result }) => console.log(`${source}:${result.success ? result.data.id : result.error.toolCall.id}`, result.success));
 * // displays: openai:call_1 true, claude:toolu_01 true
 * ```
 *
 * @example
 * ```ts
 * import { takeLast, tap } from 'rxjs';
 * import { fromResponse } from 'rxjs-tool-calls';
 * import { mergeStreams, totalUsage } from 'rxjs-tool-calls/gateway';
 *
 * declare const openaiFetch: Promise<Response>;
 * declare const claudeFetch: Promise<Response>;
 *
 * mergeStreams({ openai: fromResponse(openaiFetch), claude: fromResponse(claudeFetch) })
 *   .pipe(
 *     tap((item) => item.type === 'complete' && console.log(item.source, item.usage?.totalTokens)),
 *     totalUsage({ usageOf: (item) => (item.type === 'complete' || item.type === 'error' ? item.usage : undefined), streamOf: (item) => item.source }),
 *     takeLast(1),
 *   )
 *   .subscribe((total) => console.log('total', total.totalTokens));
 * // displays: openai 1080, claude 412, total 1492
 * ```
 *
 * @example
 * ```ts
 * import { filter } from 'rxjs';
 * import { z } from 'zod';
 * import { fromResponse } from 'rxjs-tool-calls';
 * import { isMerged, mergeStreams } from 'rxjs-tool-calls/gateway';
 *
 * declare const openaiFetch: Promise<Response>;
 * declare const claudeFetch: Promise<Response>;
 *
 * const tools = { get_weather: z.object({ city: z.string() }) };
 * mergeStreams({ openai: fromResponse(openaiFetch), claude: fromResponse(claudeFetch) }, { tools })
 *   .pipe(filter(isMerged('result')))
 *   .subscribe(({ source, result }) => {
 *     if (result.success && result.data.name === 'get_weather') console.log(source, result.data.arguments.city); // typed: string
 *   });
 * // displays: openai Paris, claude Paris
 * ```
 *
 * @param sources The sources by name: byte chunks, or `{ bytes$, …options }` for options of its own.
 * @param options Defaults for every source (`provider`, `events`, limits, `tools`, …) and `failFast`.
 *   The shared `tools` type every result's `data` by tool name.
 * @return The tagged items of every source, merged as they arrive.
 */
export function mergeStreams<S extends string, T extends ToolsInput>(
  sources: Readonly<Record<S, MergeSource>>,
  options: MergeStreamsOptions & { readonly tools: T },
): Observable<MergedItem<S, InferToolCall<T>>>;
export function mergeStreams<S extends string>(sources: Readonly<Record<S, MergeSource>>, options?: MergeStreamsOptions): Observable<MergedItem<S>>;
export function mergeStreams<S extends string>(sources: Readonly<Record<S, MergeSource>>, options: MergeStreamsOptions = {}): Observable<MergedItem<S>> {
  checkOptions('mergeStreams', options, READ_OPTION_CHECKS, CALLS_OPTION_CHECKS, TOOLS_OPTION, SOURCE_OPTION_CHECKS, { failFast: aBoolean });
  if (options.tools !== undefined) checkTools(options.tools, 'mergeStreams');
  const tagged = (Object.keys(sources) as S[]).map((name) => {
    const [bytes$, own] = sourceOptions(options, sources[name]);
    return bytes$.pipe(tagSource(name, own));
  });
  const merged = merge(...tagged);
  return options.failFast === true ? merged.pipe(failOnError()) : merged;
}

/**
 * A predicate for `filter` that narrows merged items by `type` (and, optionally, `source`).
 *
 * ```ts
 * items$.pipe(filter(isMerged('result', 'openai'))) // Observable<MergedResult<'openai'>>
 * ```
 */
export function isMerged<T extends MergedItem['type'], S extends string = string>(
  type: T,
  source?: S,
): <I extends MergedItem>(
  item: I,
) => item is Extract<
  I,
  {
    /** The item type asked for. */
    type: T;
  }
> & {
  /** The source asked for (any source when none was given). */
  source: S;
} {
  return <I extends MergedItem>(item: I): item is Extract<I, { type: T }> & { source: S } => item.type === type && (source === undefined || item.source === source);
}
