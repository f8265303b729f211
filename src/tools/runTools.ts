/**
 * `runTools()`: run each tool call the moment it arrives, with typed results.
 *
 * @module
 */
import { asyncScheduler, catchError, concat, defer, EMPTY, from, identity, isObservable, mergeMap, Observable, of, throwError, type OperatorFunction, type Subscription } from 'rxjs';
import { ToolStreamError } from '../errors';
import { aBoolean, aCount, aWait, checkOptions, type OptionChecks } from '../internal/options';
import { checkTools, contextOf, customInputOf, isPromiseLike, validateArguments } from '../parse/validate';
import type { Result, ToolCall, ToolCallResult } from '../result';
import type { AnyTool, InferToolRun, ToolList, ToolRunResult, ToolSet } from './types';

/** Options of {@link runTools}. */
export interface RunToolsOptions {
  /** How many tools may run at once; the others wait, in arrival order. Default `Infinity`. */
  readonly concurrency?: number;
  /** The time limit of every tool without its own `timeoutMs`, in ms. Default: none. */
  readonly timeoutMs?: number;
  /**
   * When a tool fails (`tool-failed` or `tool-timeout`), emit its result, abort every other running
   * tool and end the output with that error. Default `false`: one failure never touches the others.
   */
  readonly failFast?: boolean;
}

/** The checks of {@link RunToolsOptions}' keys. */
export const RUN_OPTION_CHECKS: OptionChecks = { concurrency: /* @__PURE__ */ aCount(1), timeoutMs: aWait, failFast: aBoolean };

/** An async iterable (an async generator's result), not a string or an array. */
function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { readonly [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

function failed(error: ToolRunResult['error'] & object, call?: ToolCall): ToolRunResult {
  return call === undefined ? { success: false, error } : { success: false, error, call };
}

/**
 * One run: validate, execute, time out. Emits its progress results (a streaming tool's), then one
 * final result, then completes. Unsubscribing before the
 * result aborts the tool's signal and unsubscribes an observable the tool returned.
 */
function runOne(tool: AnyTool, call: ToolCall, defaultTimeoutMs: number | undefined): Observable<ToolRunResult> {
  return new Observable<ToolRunResult>((subscriber) => {
    const controller = new AbortController();
    const context = contextOf(call);
    let settled = false;
    let output: Subscription | undefined;
    let timer: Subscription | undefined;
    /** The pending show of a streaming tool's held progress value. */
    let tick: Subscription | undefined;
    const settle = (result: ToolRunResult): void => {
      if (settled) return;
      settled = true;
      timer?.unsubscribe();
      tick?.unsubscribe();
      output?.unsubscribe();
      subscriber.next(result);
      subscriber.complete();
    };

    const execute = (args: unknown): void => {
      const typedCall: ToolCall = { ...call, arguments: args };
      const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
        timer = asyncScheduler.schedule(() => {
          const error = new ToolStreamError('tool-timeout', { toolCall: context, timeoutMs });
          controller.abort(error);
          settle(failed(error, typedCall));
        }, timeoutMs);
      }
      let returned: unknown;
      try {
        returned = tool.execute(args, { signal: controller.signal, call: typedCall });
      } catch (error) {
        settle(failed(new ToolStreamError('tool-failed', { toolCall: context }, { cause: error }), typedCall));
        return;
      }
      const streamed = isObservable(returned) || isAsyncIterable(returned);
      const output$ = isObservable(returned) ? returned : isAsyncIterable(returned) ? from(returned) : isPromiseLike(returned) ? from(returned) : of(returned);
      let last: unknown;
      // A value of a streaming tool is a progress result unless it is the last: it is held until the
      // next value, the completion, or the next macrotask, whichever comes first (an
      // Observable that completes at once after its value, as an HTTP call does, gives no progress).
      let held: { readonly value: unknown } | undefined;
      const progress = (value: unknown): void => {
        if (!settled && !subscriber.closed) subscriber.next({ success: true, preliminary: true, data: { name: typedCall.name, call: typedCall, output: value } });
      };
      const subscription = output$.subscribe({
        next: (value) => {
          if (streamed) {
            if (held !== undefined) progress(held.value);
            held = { value };
            // One timer per burst of values, not one per value.
            tick ??= asyncScheduler.schedule(() => {
              tick = undefined;
              const shown = held;
              held = undefined;
              if (shown !== undefined) progress(shown.value);
            });
          }
          last = value;
        },
        error: (error: unknown) => settle(failed(new ToolStreamError('tool-failed', { toolCall: context }, { cause: error }), typedCall)),
        complete: () => {
          held = undefined;
          settle({ success: true, data: { name: typedCall.name, call: typedCall, output: last } });
        },
      });
      if (settled) subscription.unsubscribe();
      else output = subscription;
    };

    const checked = (validation: Result<unknown, ToolStreamError<'invalid-arguments'>>): void => {
      if (subscriber.closed) return;
      if (validation.success) execute(validation.data);
      else settle(failed(validation.error, call));
    };

    // A custom tool runs with its call's text: the input of a custom call, or `{ "input": "…" }` of a
    // format without custom tools (the function toolSpecs() declares for it).
    let args: unknown = call.arguments;
    if (tool.kind === 'custom') {
      const input = customInputOf(call);
      if (input === undefined) {
        settle(
          failed(
            new ToolStreamError('invalid-arguments', { toolCall: context, issues: [{ message: 'a custom tool is called with text (or JSON {"input": "…"})', path: [] }], value: call.arguments }),
            call,
          ),
        );
        return () => undefined;
      }
      args = input;
      call = { ...call, kind: 'custom', input, arguments: input };
    }
    if (tool.schema === undefined) execute(args);
    else {
      // validateArguments never throws or rejects: a throwing validator fails this call (invalid-arguments).
      const validation = validateArguments(tool.schema, args, context);
      if (isPromiseLike(validation)) void validation.then(checked);
      else checked(validation);
    }

    return () => {
      timer?.unsubscribe();
      tick?.unsubscribe();
      output?.unsubscribe();
      if (!settled) controller.abort();
    };
  });
}

/**
 * Run every tool call the moment its result arrives, and emit what each run produced.
 *
 * <span class="informal">`mergeMap` over tool-call results: look the tool up, validate the
 * arguments with its schema, execute it; one typed `{ success, data: { call, output } }` or
 * `{ success: false, error }` per call, in the order the runs finish.</span>
 *
 * ```text
 * --A-----B-----|              A, B: ToolCallResult (B's tool is slow, A's is fast)
 *   runTools(tools)
 * -----a--------(b|)           a, b: ToolRunResult; the output waits for running tools
 *
 * --A--#                       #: the source fails while A's tool runs
 *   runTools(tools)
 * -----(a#)                    A's run finishes first, then the error
 * ```
 *
 * 1. A tool starts as soon as its call arrives, not when the stream ends. At most `concurrency`
 *    runs at once (default `Infinity`); calls beyond it wait their turn, in arrival order (a call
 *    that cannot run — a failed call, an unknown tool — waits for a slot too, keeping the order).
 * 2. Results: the call's own error passed through (`malformed-arguments`, `incomplete`, …),
 *    `unknown-tool`, `invalid-arguments` (the schema's issues), `tool-failed` (`execute` threw,
 *    rejected or its observable errored; the thrown value is the error's `cause`), `tool-timeout`
 *    (per-tool `timeoutMs` or the `timeoutMs` option; the tool's signal is aborted).
 * 3. `execute` may return a value, a Promise, an Observable or an async iterable (its last value is
 *    the output; `undefined` when it completes empty). Every value of an Observable or an async
 *    iterable but the last is also emitted as it comes, as a progress result
 *    (`{ success: true, preliminary: true, data }`); a value followed at once by the completion (an
 *    HTTP call's one response) is the output only. Its `context.signal` aborts when the run is cancelled.
 * 4. One failure never cancels the others, unless `failFast: true`: then the failing result is
 *    emitted, the other tools are aborted, and the output ends with that `tool-failed` /
 *    `tool-timeout` error.
 * 5. Unsubscribing aborts every running tool through its signal and unsubscribes the observables
 *    tools returned.
 * 6. When the source errors, every call already received (running, or waiting for a slot) is run to
 *    the end and its result emitted; then the error goes on. Nothing is aborted.
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { z } from 'zod';
 * import { readToolCalls } from 'rxjs-tool-calls';
 * import { runTools, tool } from 'rxjs-tool-calls/tools';
 *
 * declare const bytes$: Observable<Uint8Array>;
 *
 * const tools = {
 *   get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => ({ city, temperature: 21 }) }),
 * };
 * bytes$.pipe(readToolCalls(), runTools(tools)).subscribe((run) => {
 *   if (run.success) console.log(run.data.name, run.data.output);
 *   else console.error(run.error.code, run.error.message);
 * });
 * // displays: get_weather { city: 'Paris', temperature: 21 }
 * ```
 *
 * @param tools The tools by name, or an array of named tools (e.g. made with `tool()`); a name
 *   missing or repeated in an array is an `invalid-option` error.
 * @param options `concurrency`, the default `timeoutMs`, `failFast`.
 * @return An operator from {@link ToolCallResult}s to {@link ToolRunResult}s.
 * @throws {ToolStreamError} `invalid-option`, at once, for such tools, an option it does not take or a value it cannot use.
 */
export function runTools<T extends ToolSet | ToolList>(tools: T, options: RunToolsOptions = {}): OperatorFunction<ToolCallResult, ToolRunResult<InferToolRun<T>>> {
  checkOptions('runTools', options, RUN_OPTION_CHECKS);
  const concurrency = options.concurrency ?? Infinity;
  const byName = toolsByName(tools, 'runTools');
  const names = [...byName.keys()];
  const run = (result: ToolCallResult): Observable<ToolRunResult> => {
    if (!result.success) return of(failed(result.error));
    const call = result.data;
    const tool = byName.get(call.name);
    if (tool === undefined) return of(failed(new ToolStreamError('unknown-tool', { toolCall: contextOf(call), availableTools: names }), call));
    return runOne(tool, call, options.timeoutMs);
  };
  const failFast: OperatorFunction<ToolRunResult, ToolRunResult> = mergeMap((result) =>
    !result.success && (result.error.code === 'tool-failed' || result.error.code === 'tool-timeout')
      ? concat(
          of(result),
          throwError(() => result.error),
        )
      : of(result),
  );
  return (source) =>
    defer(() => {
      let sourceError: { readonly error: unknown } | undefined;
      const runs = source.pipe(
        catchError((error: unknown) => {
          sourceError = { error };
          return EMPTY;
        }),
        mergeMap(run, concurrency),
      );
      const end = defer(() => (sourceError === undefined ? EMPTY : throwError(() => sourceError?.error)));
      return concat(runs, end).pipe(options.failFast === true ? failFast : identity) as Observable<ToolRunResult<InferToolRun<T>>>;
    });
}

/**
 * The tools of `runTools()` / `toolLoop()` by name, checked once (`invalid-option` for an array's
 * tool without a name or with a repeated one, or a record's tool named unlike its key).
 *
 * @param tools Tools by name, or an array of named tools.
 * @param fn The function they were given to (for the error).
 */
export function toolsByName(tools: ToolSet | ToolList, fn: string): ReadonlyMap<string, AnyTool> {
  checkTools(tools, fn);
  return new Map(Array.isArray(tools) ? (tools as ToolList).map((tool): [string, AnyTool] => [tool.name, tool]) : Object.entries(tools as ToolSet));
}
