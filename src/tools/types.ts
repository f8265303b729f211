/**
 * The vocabulary of running tools: a tool's definition, the set of tools by name, and the typed
 * result of one run.
 *
 * @module
 */
import type { Observable } from 'rxjs';
import type { ToolRunError } from '../errors';
import type { StandardSchemaV1 } from '../parse/standardSchema';
import type { ToolCall } from '../result';

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext<Call extends ToolCall<string, unknown> = ToolCall> {
  /**
   * Aborted when the run is cancelled: the output was unsubscribed, the tool's timeout passed
   * (reason: the `ToolTimeoutError`), or another tool failed under `failFast`. Never aborted after
   * the tool finished.
   */
  readonly signal: AbortSignal;
  /** The call being run, with its validated arguments. */
  readonly call: Call;
}

/** The arguments a tool with schema `S` receives: the schema's output type, or `unknown` without a schema. */
export type ToolArgs<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : unknown;

/** What `execute` may return: a value, a Promise of it, or an Observable (its last value is the output). */
export type ToolReturn<Output> = Output | PromiseLike<Output> | Observable<Output>;

/** One tool: an optional schema for its arguments, the function that runs it and an optional timeout. */
export interface ToolDefinition<S extends StandardSchemaV1 | undefined = undefined, Output = unknown> {
  /** Validates (and may transform) the parsed arguments before `execute` sees them. */
  readonly schema?: S;
  /** Runs the tool. A throw, a rejection or an observable error becomes a `tool-failed` result. */
  readonly execute: (args: ToolArgs<S>, context: ToolContext<ToolCall<string, ToolArgs<S>>>) => ToolReturn<Output>;
  /** This tool's time limit in ms (overrides `RunToolsOptions.timeoutMs`). */
  readonly timeoutMs?: number;
  /** Free text for your own use (e.g. the tool list you send to the model); not read here. */
  readonly description?: string;
}

/**
 * Any tool. `execute` is written as a method so that a tool with typed arguments is assignable;
 * tools written inline in a {@link ToolSet} get `args: unknown` (use {@link tool} to type them).
 */
export interface AnyTool {
  /** Validates (and may transform) the parsed arguments before `execute` sees them; absent: the arguments are passed as parsed. */
  readonly schema?: StandardSchemaV1 | undefined;
  /**
   * Runs the tool: returns the output, a Promise of it, or an Observable (its last value is the output).
   *
   * @param args The call's arguments (validated by `schema` when there is one).
   * @param context The abort signal and the call.
   */
  execute(args: unknown, context: ToolContext): unknown;
  /** This tool's time limit in ms (overrides `RunToolsOptions.timeoutMs`); absent: the shared limit, if any. */
  readonly timeoutMs?: number | undefined;
  /** Free text for your own use (e.g. the tool list you send to the model); not read here. */
  readonly description?: string | undefined;
}

/** Tools by the name the model calls them with. */
export type ToolSet = Readonly<Record<string, AnyTool>>;

/**
 * Define one tool, with `execute`'s arguments typed from `schema`.
 *
 * ```ts
 * const getWeather = tool({
 *   schema: z.object({ city: z.string() }),
 *   execute: async ({ city }, { signal }) => (await fetch(`/weather?city=${city}`, { signal })).json(),
 * });
 * ```
 */
export function tool<S extends StandardSchemaV1 | undefined = undefined, Output = unknown>(definition: ToolDefinition<S, Output>): ToolDefinition<S, Output> {
  return definition;
}

/** The arguments type of a tool definition's `execute`. */
export type ToolArgsOf<D> = D extends {
  /** The tool's `execute`, whose first parameter type is inferred. */
  execute: (args: infer A, ...rest: never[]) => unknown;
}
  ? A
  : unknown;

/** The output type of a tool definition: what `execute` returns, awaited, or an Observable's value type. */
export type ToolOutputOf<D> = D extends {
  /** The tool's `execute`, whose return type is inferred. */
  execute: (...args: never[]) => infer R;
}
  ? (R extends Observable<infer V> ? V : Awaited<R>)
  : unknown;

/**
 * One successful run: the call (with validated arguments) and what the tool returned. `name`
 * repeats `call.name` so that `if (run.name === 'get_weather')` narrows `call` and `output` together.
 */
export interface ToolRun<Name extends string = string, Args = unknown, Output = unknown> {
  /** The tool's name, the same as `call.name` (e.g. `'get_weather'`). */
  readonly name: Name;
  /** The call that was run, with the arguments `execute` received (after the schema's transform). */
  readonly call: ToolCall<Name, Args>;
  /** What the tool returned: the awaited value, or an Observable's last value (`undefined` when it completed empty). */
  readonly output: Output;
}

/** The runs of a set of tools: a union discriminated by `call.name`. */
export type InferToolRun<T extends ToolSet> = {
  [Name in keyof T & string]: ToolRun<Name, ToolArgsOf<T[Name]>, ToolOutputOf<T[Name]>>;
}[keyof T & string];

/**
 * The result of one tool run: `{ success: true, data: { call, output } }` or
 * `{ success: false, error, call? }`. `call` is there whenever the call itself arrived whole
 * (`unknown-tool`, `invalid-arguments`, `tool-failed`, `tool-timeout`); every error also carries
 * the call's identity in `error.toolCall`.
 */
export type ToolRunResult<Run = ToolRun> =
  | {
      /** `true`: the tool ran and `data` holds its output. */
      readonly success: true;
      /** The run: the call and the tool's output. */
      readonly data: Run;
      /** Never set on a success. */
      readonly error?: never;
      /** Never set on a success (the call is `data.call`). */
      readonly call?: never;
    }
  | {
      /** `false`: the call failed to arrive or validate, or the tool failed or timed out. */
      readonly success: false;
      /** Why; its `toolCall` always identifies the call. */
      readonly error: ToolRunError;
      /**
       * The call, when `runTools()` had it whole: it found the tool unknown or the arguments invalid,
       * or the tool failed or timed out. Absent when the incoming result was already a failure.
       */
      readonly call?: ToolCall;
      /** Never set on a failure. */
      readonly data?: never;
    };
