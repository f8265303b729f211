/**
 * The vocabulary of running tools: a tool's definition, the set of tools by name, and the typed
 * result of one run.
 *
 * @module
 */
import type { Observable } from 'rxjs';
import type { ToolRunError } from '../errors';
import { aBoolean, aFunction, anObject, aString, aWait, checkOptionsAt, oneOf, type OptionCheck, type OptionChecks } from '../internal/options';
import type { StandardSchemaV1 } from '../parse/standardSchema';
import { isStandardSchema, type ToolsByName } from '../parse/validate';
import type { ToolCall } from '../result';
import type { JsonSchema } from '../providers/openaiChat/wire';
import type { CustomToolFormat } from '../providers/openaiResponses/wire';

export type { CustomToolFormat } from '../providers/openaiResponses/wire';

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext<Call extends ToolCall<string, unknown> = ToolCall> {
  /**
   * Aborted when the run is cancelled: the output was unsubscribed, the tool's timeout passed
   * (reason: the `tool-timeout` error), or another tool failed under `failFast`. Never aborted after
   * the tool finished.
   */
  readonly signal: AbortSignal;
  /** The call being run, with its validated arguments. */
  readonly call: Call;
}

/** The arguments a tool with schema `S` receives: the schema's output type, or `unknown` without a schema. */
export type ToolArgs<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : unknown;

/**
 * What `execute` may return: a value, a Promise of it, an Observable or an async iterable (each
 * value a progress result as it arrives, the last one the output).
 */
export type ToolReturn<Output> = Output | PromiseLike<Output> | Observable<Output> | AsyncIterable<Output>;

/**
 * What the model is told about a tool: its name, description and argument schema. Enough for
 * `toolSpecs()`; a tool the application runs itself (no `execute`) is just this.
 */
export interface ToolDeclaration<S extends StandardSchemaV1 | undefined = undefined> {
  /**
   * The name the model calls the tool by. Optional in a record of tools (the key is the name; a
   * `name` that differs from its key is an `unsupported-request` error in `toolSpecs()`); required
   * in an array given to `toolSpecs()`.
   */
  readonly name?: string | undefined;
  /** What the tool does, for the model: sent as the tool's description by `toolSpecs()`. */
  readonly description?: string | undefined;
  /** Validates (and may transform) the parsed arguments; its JSON Schema is what `toolSpecs()` sends. */
  readonly schema?: S;
  /**
   * The arguments' JSON Schema, when it cannot be derived from `schema` (zod 3, valibot, zod before
   * 4.2: convert it yourself, e.g. `z.toJSONSchema(schema, { io: 'input' })`); overrides the derived one.
   */
  readonly parameters?: JsonSchema | undefined;
  /**
   * Leave the tool out of the model's context until the provider's tool search loads it:
   * `toolSpecs()` writes `defer_loading: true` for Anthropic (with a `tool_search_tool_*` tool in
   * the request) and OpenAI Responses (with a `tool_search` tool); the other formats have no such
   * flag and declare the tool as usual.
   */
  readonly deferLoading?: boolean | undefined;
}

/** One tool: its declaration (name, description, schema), the function that runs it and an optional timeout. */
export interface ToolDefinition<S extends StandardSchemaV1 | undefined = undefined, Output = unknown> extends ToolDeclaration<S> {
  /** Runs the tool. A throw, a rejection or an observable error becomes a `tool-failed` result. */
  readonly execute: (args: ToolArgs<S>, context: ToolContext<ToolCall<string, ToolArgs<S>>>) => ToolReturn<Output>;
  /** This tool's time limit in ms (overrides `RunToolsOptions.timeoutMs`). */
  readonly timeoutMs?: number;
  /**
   * Whether a call must be approved before it runs (in `toolLoop()`, by its `approve` option): `true`,
   * or a function of the validated arguments (may be async; a throw or rejection means `true`).
   * `runTools()` alone does not ask.
   */
  readonly needsApproval?: boolean | ((args: ToolArgs<S>, context: { readonly call: ToolCall<string, ToolArgs<S>> }) => boolean | PromiseLike<boolean>);
}

/**
 * Any tool. `execute` is written as a method so that a tool with typed arguments is assignable;
 * tools written inline in a {@link ToolSet} get `args: unknown` (use {@link tool} to type them).
 */
export interface AnyTool {
  /** Validates (and may transform) the parsed arguments before `execute` sees them; absent: the arguments are passed as parsed. */
  readonly schema?: StandardSchemaV1 | undefined;
  /**
   * Runs the tool: returns the output, a Promise of it, or an Observable or async iterable (each
   * value but the last a progress result, the last the output).
   *
   * @param args The call's arguments (validated by `schema` when there is one).
   * @param context The abort signal and the call.
   */
  execute(args: unknown, context: ToolContext): unknown;
  /** This tool's time limit in ms (overrides `RunToolsOptions.timeoutMs`); absent: the shared limit, if any. */
  readonly timeoutMs?: number | undefined;
  /** What the tool does, for the model (sent by `toolSpecs()`). */
  readonly description?: string | undefined;
  /** The name the model calls it by (see {@link ToolDeclaration.name}). */
  readonly name?: string | undefined;
  /** The arguments' JSON Schema, overriding the one derived from `schema` (see {@link ToolDeclaration.parameters}). */
  readonly parameters?: JsonSchema | undefined;
  /** Whether a call must be approved before it runs in `toolLoop()` (see {@link ToolDefinition.needsApproval}). */
  readonly needsApproval?: boolean | ((args: never, context: { readonly call: ToolCall<string, never> }) => boolean | PromiseLike<boolean>) | undefined;
  /** `'custom'` for a custom (freeform) tool: `execute` gets its input text (see {@link customTool}). */
  readonly kind?: 'custom' | undefined;
  /** A custom tool's input format. */
  readonly format?: CustomToolFormat | undefined;
}

/** Tools by the name the model calls them with. */
export type ToolSet = Readonly<Record<string, AnyTool>>;

/** Tools as an array, each with its `name` (as `tool({ name: 'get_weather', … })` writes it). */
export type ToolList = ReadonlyArray<
  AnyTool & {
    /** The tool's name (its calls' `name`). */
    readonly name: string;
  }
>;

/** The `name` a `tool()` definition was given, kept as its literal type so that an array of tools narrows by name. */
export type NamedAs<N extends string> = string extends N
  ? unknown
  : {
      /** The tool's name, as written. */
      readonly name: N;
    };

/** The check of a tool's `schema`. */
const aSchema: OptionCheck = (value) => (isStandardSchema(value) ? undefined : 'a Standard Schema (zod, valibot, ArkType, …)');

/** The check of a custom tool's `format`: `{ type: 'text' }` or `{ type: 'grammar', syntax: 'lark' | 'regex', definition }`. */
const aCustomFormat: OptionCheck = (value) => {
  const format = value as Readonly<Record<string, unknown>>;
  const fine =
    anObject(value) === undefined &&
    (format['type'] === 'text' || (format['type'] === 'grammar' && (format['syntax'] === 'lark' || format['syntax'] === 'regex') && typeof format['definition'] === 'string'));
  return fine ? undefined : "{ type: 'text' } or { type: 'grammar', syntax: 'lark' or 'regex', definition: string }";
};

/** The keys of every tool definition, checked. */
const DEFINITION_CHECKS: OptionChecks = {
  name: aString,
  description: aString,
  schema: aSchema,
  execute: aFunction,
  timeoutMs: aWait,
  deferLoading: aBoolean,
  needsApproval: (value) => (typeof value === 'boolean' || typeof value === 'function' ? undefined : 'a boolean or a function of the arguments'),
};

/** The checks of a {@link tool} definition's keys. */
const TOOL_CHECKS: OptionChecks = { ...DEFINITION_CHECKS, parameters: anObject };

/** The checks of a {@link customTool} definition's keys (`kind: 'custom'` is taken too: a custom tool spread into a new one). */
const CUSTOM_TOOL_CHECKS: OptionChecks = { ...DEFINITION_CHECKS, format: aCustomFormat, kind: /* @__PURE__ */ oneOf(['custom']) };

/**
 * Define a tool once: its description and schema give the request's tool definitions
 * (`toolSpecs(tools, format)`), the schema validates and types its calls, and `execute` (optional)
 * runs it in `runTools()` / `toolLoop()` with arguments typed from the schema.
 *
 * ```ts
 * import { z } from 'zod';
 * import { tool, toolSpecs } from 'rxjs-tool-calls/tools';
 *
 * const tools = {
 *   get_weather: tool({
 *     description: 'The weather in a city',
 *     schema: z.strictObject({ city: z.string() }),
 *     execute: async ({ city }, { signal }) => (await fetch(`/weather?city=${city}`, { signal })).json(),
 *   }),
 * };
 * console.log(JSON.stringify(toolSpecs(tools, 'anthropic')));
 * // displays: [{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"description":"The weather in a city"}]
 * ```
 *
 * @param definition `description`, `schema` (any Standard Schema), optional `name`, `parameters`,
 *   `timeoutMs`, and `execute`; without `execute` the tool is only declared (for `toolSpecs()`).
 * @return The definition itself, with its types inferred (a `name` keeps its literal type, so an
 *   array of tools narrows by name as a record does).
 * @throws {ToolStreamError} `invalid-option` for a key a definition does not have (a misspelt `execute`
 *   would leave a tool that cannot run) or a value of the wrong kind.
 */
export function tool<S extends StandardSchemaV1 | undefined = undefined, Output = unknown, const N extends string = string>(
  definition: ToolDefinition<S, Output> & { readonly name?: N },
): ToolDefinition<S, Output> & NamedAs<N>;
export function tool<S extends StandardSchemaV1 | undefined = undefined, const N extends string = string>(
  definition: ToolDeclaration<S> & { readonly execute?: undefined; readonly name?: N },
): ToolDeclaration<S> & NamedAs<N>;
export function tool(definition: ToolDeclaration<StandardSchemaV1 | undefined>): ToolDeclaration<StandardSchemaV1 | undefined> {
  checkOptionsAt('tool', 'definition', definition, [TOOL_CHECKS]);
  return definition;
}

/** The input a custom tool with validator `S` receives: the validator's output, else the text. */
export type CustomToolInput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : string;

/** What the model is told about a custom (freeform) tool, whose input is text (see {@link customTool}). */
export interface CustomToolDeclaration<S extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined> {
  /** Always `'custom'`. */
  readonly kind: 'custom';
  /** The name the model calls the tool by (optional in a record of tools, as for {@link ToolDeclaration.name}). */
  readonly name?: string | undefined;
  /** What the tool does, for the model. */
  readonly description?: string | undefined;
  /** What the input text must be: any text (the default) or text in a `lark` / `regex` grammar. */
  readonly format?: CustomToolFormat | undefined;
  /** Validates (and may transform) the input text (a Standard Schema of a string). */
  readonly schema?: S;
  /** Leave the tool out of the model's context until a tool search loads it (OpenAI Responses; see {@link ToolDeclaration.deferLoading}). */
  readonly deferLoading?: boolean | undefined;
}

/** A custom (freeform) tool: its input is text, not JSON (see {@link customTool}). */
export interface CustomToolDefinition<S extends StandardSchemaV1 | undefined = undefined, Output = unknown> extends CustomToolDeclaration<S> {
  /** Runs the tool with the input text (the validator's output when there is one). */
  readonly execute: (input: CustomToolInput<S>, context: ToolContext<ToolCall<string, CustomToolInput<S>>>) => ToolReturn<Output>;
  /** This tool's time limit in ms (overrides `RunToolsOptions.timeoutMs`). */
  readonly timeoutMs?: number;
}

/**
 * Define a custom (freeform) tool: the model calls it with text, not JSON (OpenAI's custom tools,
 * e.g. an `apply_patch` tool with a Lark grammar of patches). `toolSpecs()` writes it as a
 * `type: "custom"` tool with its `format` for OpenAI chat and Responses, and as a function with one
 * string parameter `input` for the formats that have no custom tools (a call of that function,
 * `{ "input": "…" }`, is read as the text). `runTools()` / `toolLoop()` call `execute` with the text
 * and send the output back as the format's tool message (`custom_tool_call_output` in Responses).
 *
 * ```ts
 * import { customTool, toolSpecs } from 'rxjs-tool-calls/tools';
 *
 * const tools = { apply_patch: customTool({ description: 'Apply a patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/s' }, execute: (patch) => apply(patch) }) };
 * console.log(JSON.stringify(toolSpecs(tools, 'openai-responses')));
 * // displays: [{"type":"custom","name":"apply_patch","description":"Apply a patch","format":{"type":"grammar","syntax":"lark","definition":"start: /.+/s"}}]
 * ```
 *
 * @param definition `description`, `format`, an optional `schema` for the text, `execute`, `timeoutMs`.
 * @return The definition, marked `kind: 'custom'` (a `name` keeps its literal type, as with `tool()`).
 * @throws {ToolStreamError} `invalid-option` for a key a definition does not have or a value of the wrong kind.
 */
export function customTool<S extends StandardSchemaV1 | undefined = undefined, Output = unknown, const N extends string = string>(
  definition: Omit<CustomToolDefinition<S, Output>, 'kind'> & { readonly name?: N },
): CustomToolDefinition<S, Output> & NamedAs<N>;
export function customTool<S extends StandardSchemaV1 | undefined = undefined, const N extends string = string>(
  definition: Omit<CustomToolDeclaration<S>, 'kind'> & { readonly execute?: undefined; readonly name?: N },
): CustomToolDeclaration<S> & NamedAs<N>;
export function customTool(definition: Omit<CustomToolDeclaration, 'kind'>): CustomToolDeclaration {
  checkOptionsAt('customTool', 'definition', definition, [CUSTOM_TOOL_CHECKS]);
  return { ...definition, kind: 'custom' };
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
  ? R extends Observable<infer V>
    ? V
    : R extends AsyncIterable<infer V>
      ? V
      : Awaited<R>
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

/** The runs of a set of tools (by name, or an array of named tools): a union discriminated by `call.name`. */
export type InferToolRun<T extends ToolSet | ToolList> = {
  [Name in keyof ToolsByName<T> & string]: ToolRun<Name, ToolArgsOf<ToolsByName<T>[Name]>, ToolOutputOf<ToolsByName<T>[Name]>>;
}[keyof ToolsByName<T> & string];

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
      /**
       * `true` on a progress value: the tool (its `execute` returned an Observable or an async
       * iterable) is still running and `data.output` is one of its values; the final result of the
       * call follows. Absent on the final result.
       */
      readonly preliminary?: true;
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
      /** Never set on a failure. */
      readonly preliminary?: never;
    };
