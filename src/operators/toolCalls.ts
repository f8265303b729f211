/**
 * `toolCalls()`: the groups of `groupToolCalls()`, each ending in its call's result.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import type { ToolCallsOptions, TrackedCall } from '../calls/call';
import { CALLS_OPTION_CHECKS, CallDriver, callsConfig, type CallSink, type CallsConfig } from '../calls/driver';
import type { StreamEvent } from '../events';
import { operate, type InputHandler } from '../internal/operate';
import { checkOptions } from '../internal/options';
import { resultOf } from '../parse/results';
import { checkTools, type ToolsInput, type TypedToolCallResult } from '../parse/validate';
import type { ToolCallResult } from '../result';
import { TOOLS_OPTION, validateResults } from './validateResults';

/** One subscription of `toolCalls()`: the driver's sink, each closed call's result out. */
class CallResults implements InputHandler<StreamEvent>, CallSink {
  private readonly driver: CallDriver;

  constructor(
    private readonly out: Subscriber<ToolCallResult>,
    config: CallsConfig,
  ) {
    this.driver = new CallDriver(config, this);
  }

  next(event: StreamEvent): void {
    this.driver.event(event);
  }

  complete(): void {
    this.driver.complete();
  }

  error(error: unknown): void {
    this.driver.error(error);
  }

  callFragment(): void {}

  callClosed(call: TrackedCall): void {
    this.out.next(resultOf(call, undefined, this.driver.config.repair));
  }
}

/** Options of `toolCalls()` with typed tools. */
export interface TypedToolCallsOptions<T extends ToolsInput> extends ToolCallsOptions {
  /**
   * The tools: names mapped to their argument schemas (zod 4 or any Standard Schema validator) or
   * to `tool()` records, or an array of named `tool()` records. Each call is validated once, on
   * completion: `unknown-tool` for a name not among them, `invalid-arguments` (with the
   * validator's issues) when the schema rejects the arguments.
   */
  readonly tools: T;
}

/**
 * One result per tool call, emitted the moment the call is complete.
 *
 * <span class="informal">Each group of `groupToolCalls()` ending in its parsed arguments or a
 * typed error: fragments in, `{ success: true, data }` or `{ success: false, error }` out, one per
 * call; a bad call never ends its siblings. (It emits what `groupToolCalls()` and `mergeMap` to
 * each group's last update would, property-tested, without a group per call: its cost per event
 * does not grow with the number of open calls.)</span>
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
 * 5. With `tools` (zod 4 or any Standard Schema per tool name, `tool()` records by name, or an
 *    array of named `tool()` records), each call is validated once, on completion, and the result type is a union by tool name with each tool's argument type:
 *    `unknown-tool` (with the available names) and `invalid-arguments` (with the validator's
 *    issues and their paths) are per-call failures like the others.
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { decodeSse, openaiChat, toolCalls } from 'rxjs-tool-calls';
 *
 * declare const bytes$: Observable<Uint8Array>;
 *
 * bytes$.pipe(decodeSse(), openaiChat(), toolCalls()).subscribe((r) => console.log(r.success ? r.data.arguments : r.error.code));
 * // displays: { city: 'Paris' }
 * ```
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { z } from 'zod';
 * import { readToolCalls } from 'rxjs-tool-calls';
 *
 * declare const bytes$: Observable<Uint8Array>;
 *
 * const tools = { get_weather: z.object({ city: z.string() }) };
 * bytes$.pipe(readToolCalls({ tools })).subscribe((r) => {
 *   if (r.success && r.data.name === 'get_weather') console.log(r.data.arguments.city); // typed: string
 * });
 * // displays: Paris
 * ```
 *
 * @param options Limits, the id generator, `repairArguments` and the typed `tools`.
 * @return An operator from {@link StreamEvent}s to {@link ToolCallResult}s.
 */
export function toolCalls(options?: ToolCallsOptions): OperatorFunction<StreamEvent, ToolCallResult>;
export function toolCalls<T extends ToolsInput>(options: TypedToolCallsOptions<T>): OperatorFunction<StreamEvent, TypedToolCallResult<T>>;
export function toolCalls(options: ToolCallsOptions & { readonly tools?: ToolsInput } = {}): OperatorFunction<StreamEvent, ToolCallResult> {
  checkOptions('toolCalls', options, CALLS_OPTION_CHECKS, TOOLS_OPTION);
  const config = callsConfig(options);
  const results = operate<StreamEvent, ToolCallResult>((subscriber) => new CallResults(subscriber, config));
  const tools = options.tools === undefined ? undefined : checkTools(options.tools, 'toolCalls');
  return tools === undefined ? results : (source) => source.pipe(results, validateResults(tools));
}
