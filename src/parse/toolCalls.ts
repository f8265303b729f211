/**
 * One result per call (`toolCalls()`), and the updates every per-call view reads (`toolCallUpdates()`).
 *
 * @module
 */
import type { CallIdentity } from '../errors';
import { type Observer, type OperatorFunction } from 'rxjs';
import { TrackingStage } from '../accumulate/trackingStage';
import type { TrackedCall, TrackerOptions } from '../accumulate/trackedCall';
import type { StreamEvent } from '../events';
import { stageOperator } from '../internal/stage';
import type { ToolCallResult } from '../result';
import { resultOf, type ArgumentsParser } from './results';
import type { ToolSchemas, TypedToolCallResult } from './validate';
import { validateResults, validating } from './validateResults';

/** Options of `toolCalls()` / `groupToolCalls()`. */
export type ToolCallsOptions = TrackerOptions;

/** Options of `toolCalls()` with typed tools. */
export interface TypedToolCallsOptions<T extends ToolSchemas> extends TrackerOptions {
  /**
   * Tool names mapped to their argument schemas (zod 4 or any Standard Schema validator). Each
   * call is validated once, on completion: `unknown-tool` for a name not in the map,
   * `invalid-arguments` (with the validator's issues) when the schema rejects the arguments.
   */
  readonly tools: T;
}

/** One step in the life of one tool call. */
export interface ToolCallUpdate extends CallIdentity {
  /** Unique within the stream, in order of first sight (the group key). */
  readonly key: number;
  /** The fragment this update added (`''` on the closing update). */
  readonly argumentsDelta: string;
  /** All argument text so far. */
  readonly rawArguments: string;
  /** On the last update of the call only: its result. */
  readonly result?: ToolCallResult;
}

function update(call: TrackedCall, argumentsDelta: string, result?: ToolCallResult): ToolCallUpdate {
  const base = { key: call.seq, id: call.id, name: call.name, index: call.index, choice: call.choice, argumentsDelta, rawArguments: call.rawArguments };
  return result === undefined ? base : { ...base, result };
}

/**
 * The per-call updates, in wire order, with each call's closing update carrying its result. On a
 * source error, every open call gets a closing `incomplete` update before the error goes on.
 *
 * ```text
 * --a0--b0--a1--F--|          a, b: fragments of calls A and B; F: finish
 *   toolCallUpdates()
 * --A0--B0--A1--(AB)|         A0, B0, A1: one update per fragment; (AB): the closing updates, with results
 *
 * --a0--b0--#                 #: provider error
 *   toolCallUpdates()
 * --A0--B0--(AB#)             (AB): closing updates with incomplete results, then the error
 * ```
 *
 * @param options Limits and the id generator.
 * @param parse How a closed call's arguments are parsed (default `parseArguments`), e.g. to hand over
 *   a value an incremental parser of your own already built.
 * @return An operator from {@link StreamEvent}s to {@link ToolCallUpdate}s.
 */
export function toolCallUpdates(options: ToolCallsOptions = {}, parse?: ArgumentsParser): OperatorFunction<StreamEvent, ToolCallUpdate> {
  return stageOperator((out) => new UpdatesStage(out, options, parse));
}

/** Updates per fragment, and each call's closing update with its result. */
class UpdatesStage extends TrackingStage<ToolCallUpdate> {
  private readonly repair: boolean;

  constructor(
    out: Observer<ToolCallUpdate>,
    options: ToolCallsOptions,
    private readonly parse: ArgumentsParser | undefined,
  ) {
    super(out, options);
    this.repair = options.repairArguments !== false;
  }

  protected override fragment(call: TrackedCall, argumentsDelta: string, closed: boolean): void {
    this.out.next(update(call, argumentsDelta, closed ? resultOf(call, this.parse, this.repair) : undefined));
  }

  protected closed(call: TrackedCall): void {
    this.out.next(update(call, '', resultOf(call, this.parse, this.repair)));
  }
}

/** One result per call, the moment it closes. */
export class ResultsStage extends TrackingStage<ToolCallResult> {
  private readonly repair: boolean;

  /**
   * @param out Where the results go.
   * @param options Limits, the id generator and `repairArguments`.
   */
  constructor(out: Observer<ToolCallResult>, options: ToolCallsOptions) {
    super(out, options);
    this.repair = options.repairArguments !== false;
  }

  protected closed(call: TrackedCall): void {
    this.out.next(resultOf(call, undefined, this.repair));
  }
}

/** An event, or a call's result: what compositions that show both read (`mergeStreams`, the CLI, `toolLoop`). */
export type EventOrResult =
  | {
      /** An event, as `readStreamEvents()` emits it. */
      readonly type: 'event';
      /** The event. */
      readonly event: StreamEvent;
    }
  | {
      /** A call's result, as `toolCalls()` emits it. */
      readonly type: 'result';
      /** The result. */
      readonly result: ToolCallResult;
    };

/** Each event, then the results it completes: one subscription, one tracker. */
class EventsAndResultsStage extends TrackingStage<EventOrResult> {
  private readonly repair: boolean;

  constructor(
    out: Observer<EventOrResult>,
    options: ToolCallsOptions,
    private readonly withEvents: boolean,
  ) {
    super(out, options);
    this.repair = options.repairArguments !== false;
  }

  protected override onEvent(event: StreamEvent): void {
    if (this.withEvents) this.out.next({ type: 'event', event });
  }

  protected closed(call: TrackedCall): void {
    this.out.next({ type: 'result', result: resultOf(call, undefined, this.repair) });
  }
}

/**
 * Events and results from one subscription: each event, then the results it completes (validated
 * with `tools` when given); on an error, the open calls' `incomplete` results, then the error.
 * `events: false` leaves the events out.
 */
export function eventsAndResults(options: ToolCallsOptions & { readonly tools?: ToolSchemas; readonly events?: boolean } = {}): OperatorFunction<StreamEvent, EventOrResult> {
  const items = stageOperator<StreamEvent, EventOrResult>((out) => new EventsAndResultsStage(out, options, options.events !== false));
  const tools = options.tools;
  if (tools === undefined) return items;
  const validate = validating<EventOrResult, EventOrResult>(
    tools,
    (item) => (item.type === 'result' ? item.result : undefined),
    (_item, result) => ({ type: 'result', result }),
  );
  return (source) => source.pipe(items, validate);
}

/**
 * One result per tool call, emitted the moment the call is complete.
 *
 * <span class="informal">Fragments in, `{ success: true, data }` or `{ success: false, error }`
 * out, one per call; a bad call never ends its siblings.</span>
 *
 * ```text
 * --a--b--a--F--u--d--|          a,b: fragments of calls A and B; F: finish; u: usage; d: done
 *   toolCalls()
 * -----------(AB)-----|          A, B: ToolCallResult
 *
 * --a--b--a--#                   # : provider error
 *   toolCalls()
 * -----------(AB#)               A, B: { success: false, error: incomplete }, then the error
 * ```
 *
 * 1. A call is complete when the wire ends it, its choice finishes, or the terminator (`done`)
 *    arrives; its result is emitted then (calls of one choice in order of first sight).
 * 2. `arguments` is the parsed JSON (empty or whitespace-only → `{}`).
 * 3. Errors per call: `malformed-arguments` (with the JSON error's message and `position`),
 *    `incomplete` (the stream ended, was cut or failed first; or the choice finished with `length`
 *    and the JSON does not parse), `arguments-too-large` (over `maxArgumentsSize`).
 * 4. Stream-level errors (`provider-error`, `truncated`, `too-many-tool-calls`, …) end the output
 *    after every complete call was emitted and every open call was emitted as `incomplete`.
 * 5. With `tools` (zod 4 or any Standard Schema per tool name), each call is validated once, on
 *    completion, and the result type is a union by tool name with each tool's argument type:
 *    `unknown-tool` (with the available names) and `invalid-arguments` (with the validator's
 *    issues and their paths) are per-call failures like the others.
 *
 * @example
 * ```ts
 * import { decodeSse, openaiChat, toolCalls } from 'rxjs-tool-calls';
 *
 * bytes$.pipe(decodeSse(), openaiChat(), toolCalls()).subscribe((r) => console.log(r.success ? r.data.arguments : r.error.code));
 * // displays: { city: 'Paris' }
 * ```
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { readToolCalls } from 'rxjs-tool-calls';
 *
 * const tools = { get_weather: z.object({ city: z.string() }) };
 * bytes$.pipe(readToolCalls({ tools })).subscribe((r) => {
 *   if (r.success && r.data.name === 'get_weather') console.log(r.data.arguments.city); // typed: string
 * });
 * // displays: Paris
 * ```
 *
 * @param options Limits, the id generator and the typed `tools`.
 * @return An operator from {@link StreamEvent}s to {@link ToolCallResult}s.
 */
export function toolCalls(options?: ToolCallsOptions): OperatorFunction<StreamEvent, ToolCallResult>;
export function toolCalls<T extends ToolSchemas>(options: TypedToolCallsOptions<T>): OperatorFunction<StreamEvent, TypedToolCallResult<T>>;
export function toolCalls(options: ToolCallsOptions & { readonly tools?: ToolSchemas } = {}): OperatorFunction<StreamEvent, ToolCallResult> {
  const results = stageOperator<StreamEvent, ToolCallResult>((out) => new ResultsStage(out, options));
  const tools = options.tools;
  return tools === undefined ? results : (source) => source.pipe(results, validateResults(tools));
}
