/**
 * `toolSpecs(tools, format)`: the request's tool definitions, from the tools defined once with
 * `tool()`. Each format writes its own (a file of `specs/`); this module derives every tool's JSON
 * Schema and picks the format's builder.
 *
 * @module
 */
import { ToolStreamError } from '../errors';
import { aMaxDepth, DEFAULT_MAX_REQUEST_DEPTH, jsonProblem } from '../internal/jsonDepth';
import { aBoolean, aFunction, checkOptions, oneOf, type OptionChecks } from '../internal/options';
import type * as AnthropicWire from '../providers/anthropic/wire';
import type * as ConverseWire from '../providers/bedrockConverse/wire';
import type * as GeminiWire from '../providers/gemini/wire';
import type * as GeminiInteractionsWire from '../providers/geminiInteractions/wire';
import type * as OllamaWire from '../providers/ollama/wire';
import type * as OpenAIChatWire from '../providers/openaiChat/wire';
import type * as RealtimeWire from '../providers/openaiRealtime/wire';
import type * as ResponsesWire from '../providers/openaiResponses/wire';
import { anthropicToolSpec } from './specs/anthropic';
import { converseToolSpec } from './specs/bedrockConverse';
import { geminiToolSpec } from './specs/gemini';
import { geminiInteractionsToolSpec } from './specs/geminiInteractions';
import type { GeminiSchemaDrop } from './specs/geminiSchema';
import { ollamaToolSpec } from './specs/ollama';
import { chatCustomToolSpec, chatToolSpec } from './specs/openaiChat';
import { realtimeToolSpec } from './specs/openaiRealtime';
import { responsesCustomToolSpec, responsesToolSpec } from './specs/openaiResponses';
import { allowsStrict, customInputSchema, type ToolSpecInput } from './specs/shared';
import { aMessageFormat, type MessageFormat } from './messages';
import type { StandardSchemaV1 } from '../parse/standardSchema';
import { isStandardSchema } from '../parse/validate';
import type { CustomToolDeclaration, ToolDeclaration } from './types';

/** The value of a request's `tools` field in each format (`Custom`: whether the tools may hold a custom tool). */
export interface ToolSpecsByFormat<Custom extends boolean = boolean> {
  /** Chat Completions: `[{ type: 'function', function: { name, description, parameters, strict? } }]` (a custom tool: `{ type: 'custom', custom: { name, description, format } }`). */
  'openai-chat': Custom extends true ? Array<OpenAIChatWire.FunctionTool | OpenAIChatWire.CustomTool> : OpenAIChatWire.FunctionTool[];
  /** Responses: `[{ type: 'function', name, description, parameters, strict }]` (a custom tool: `{ type: 'custom', name, description, format }`). */
  'openai-responses': Custom extends true ? Array<ResponsesWire.FunctionTool | ResponsesWire.CustomTool> : ResponsesWire.FunctionTool[];
  /** Anthropic Messages: `[{ name, description, input_schema }]`. */
  anthropic: AnthropicWire.Tool[];
  /** Gemini: one tool holding every function, `[{ functionDeclarations: [...] }]`. */
  gemini: GeminiWire.Tool[];
  /** Gemini Interactions: `[{ type: 'function', name, description, parameters }]` (the JSON Schema as it is). */
  'gemini-interactions': GeminiInteractionsWire.FunctionTool[];
  /** Bedrock Converse: the `toolConfig.tools` value, `[{ toolSpec: { name, description, inputSchema: { json } } }]`. */
  'bedrock-converse': ConverseWire.Tool[];
  /** Bedrock InvokeModel (Claude): the body is an Anthropic Messages request, so Anthropic's tools. */
  'bedrock-invoke-model': AnthropicWire.Tool[];
  /** Ollama chat: `[{ type: 'function', function: { name, description, parameters } }]`. */
  ollama: OllamaWire.Tool[];
  /** A Realtime session (`session.update`'s `session.tools`): `[{ type: 'function', name, description, parameters }]`. */
  'openai-realtime': RealtimeWire.FunctionTool[];
}

/** The request's `tools` value in format `F` (`Custom`: whether the tools may hold a custom tool). */
export type ToolSpecs<F extends MessageFormat = MessageFormat, Custom extends boolean = boolean> = ToolSpecsByFormat<Custom>[F];

/** Options of {@link toolSpecs}. */
export interface ToolSpecsOptions {
  /**
   * OpenAI formats: ask for strict schema adherence. Default `'auto'`: strict exactly when the
   * schema allows it (every object lists all its properties in `required` and has
   * `additionalProperties: false`, e.g. zod's `z.strictObject` without optional fields). `false`:
   * never (Responses then writes `strict: false`).
   */
  readonly strict?: 'auto' | false;
  /** Gemini: called for every JSON Schema keyword dropped because Gemini rejects it (throw from it to refuse). */
  readonly onSchemaDrop?: (drop: GeminiSchemaDrop) => void;
  /**
   * The deepest nesting accepted in a tool's JSON Schema, in JSON levels (the schema itself is
   * level 1; for Gemini also once references are inlined): deeper is an `unsupported-request` error
   * naming the tool, so the definitions can always be sent with `JSON.stringify`. A whole number
   * from 1 to 1,024; default 512.
   */
  readonly maxDepth?: number;
  /**
   * Anthropic: write `eager_input_streaming: true` on every tool (fine-grained tool streaming), so
   * Claude streams each call's input as it writes it, live, instead of buffering and validating each
   * parameter first (and losing a long one at `max_tokens`). The input may then be invalid JSON: it
   * is read as a `malformed-arguments` result, and `toolMessages()` writes it back as `{
   * "INVALID_JSON": text }`. Default `true`; `false` leaves the field out (for an
   * Anthropic-compatible endpoint that refuses unknown tool fields). Bedrock InvokeModel
   * rejects the field (Bedrock turns the feature on with the request's `anthropic_beta:
   * ["fine-grained-tool-streaming-2025-05-14"]` instead), so its tools never carry it.
   */
  readonly eagerInputStreaming?: boolean;
}

/** The checks of {@link ToolSpecsOptions}' keys. */
export const SPECS_OPTION_CHECKS: OptionChecks = { strict: /* @__PURE__ */ oneOf(['auto', false]), onSchemaDrop: aFunction, maxDepth: aMaxDepth, eagerInputStreaming: aBoolean };

/** One tool as `toolSpecs()` reads it: a JSON tool's declaration, or a custom tool's. */
type AnyDeclaration = ToolDeclaration<StandardSchemaV1 | undefined> | CustomToolDeclaration;

/**
 * Tools by name (as `runTools()` / `toolLoop()` take them; an entry may also be a bare Standard
 * Schema, as the readers' `tools` take it), or an array of tools that each have a `name`; any of
 * them may be a custom tool (`customTool()`).
 */
export type ToolDeclarations = Readonly<Record<string, AnyDeclaration | StandardSchemaV1>> | ReadonlyArray<AnyDeclaration>;

/**
 * Whether a set of tools may hold a custom tool (a member whose `kind` may be `'custom'`): then the
 * OpenAI formats' tool lists are typed with custom tools too.
 */
export type HasCustomTool<T> =
  T extends ReadonlyArray<infer E> ? ('custom' extends KindOf<E> ? true : false) : true extends { [K in keyof T]: 'custom' extends KindOf<T[K]> ? true : false }[keyof T] ? true : false;

/** The `kind` a tool's type allows (`never` when it has none). */
type KindOf<E> = E extends { readonly kind?: infer K } ? K : never;

const record = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The JSON Schema of a tool's arguments (the JSON the model sends): `parameters` when given, else
 * the schema's Standard JSON Schema (`~standard.jsonSchema.input`, zod ≥ 4.2 and other libraries),
 * else its own `toJSONSchema({ io: 'input' })` method (zod 4), else `{ type: 'object', properties: {} }`
 * for a tool without a schema. `$schema` is left out. An `unsupported-request` error when a schema
 * cannot describe itself.
 */
export function toolJsonSchema(tool: ToolDeclaration<StandardSchemaV1 | undefined>, name: string): OpenAIChatWire.JsonSchema {
  const { schema, parameters } = tool as ToolDeclaration<StandardSchemaV1 | undefined> & { readonly schema?: unknown };
  let derived: unknown = parameters;
  if (derived === undefined && schema === undefined) return { type: 'object', properties: {} };
  if (derived === undefined && record(schema)) {
    const standard = schema['~standard'];
    const converter = record(standard) ? standard['jsonSchema'] : undefined;
    const input = record(converter) ? converter['input'] : undefined;
    const own = schema['toJSONSchema'];
    if (typeof input === 'function') derived = (input as (options: { target: string }) => unknown).call(converter, { target: 'draft-2020-12' });
    else if (typeof own === 'function') derived = (own as (options: { io: string }) => unknown).call(schema, { io: 'input' });
  }
  if (!record(derived)) {
    const vendor = record(schema) && record(schema['~standard']) ? String(schema['~standard']['vendor']) : 'this';
    throw new ToolStreamError('unsupported-request', {
      target: 'json-schema',
      field: `${name}.schema`,
      detail: `no JSON Schema can be derived from ${vendor} schema (it has no ~standard.jsonSchema nor toJSONSchema): give the tool \`parameters\` (its JSON Schema), or use zod ≥ 4.2`,
    });
  }
  const { $schema: _dialect, ...rest } = derived;
  return rest;
}

/** Every tool with its name, in order (a record's keys are the names). */
function named(tools: ToolDeclarations): Array<[string, AnyDeclaration]> {
  if (Array.isArray(tools)) {
    return (tools as ReadonlyArray<AnyDeclaration>).map((tool, i): [string, AnyDeclaration] => {
      if (tool.name === undefined || tool.name === '') throw new ToolStreamError('unsupported-request', { target: 'tools', field: `[${i}].name`, detail: 'a tool in an array needs a name' });
      return [tool.name, tool];
    });
  }
  return Object.entries(tools as Readonly<Record<string, AnyDeclaration | StandardSchemaV1>>).map(([key, entry]): [string, AnyDeclaration] => {
    const tool: AnyDeclaration = isStandardSchema(entry) ? { schema: entry } : entry;
    if (tool.name !== undefined && tool.name !== key)
      throw new ToolStreamError('unsupported-request', { target: 'tools', field: `${key}.name`, detail: `the tool is named '${tool.name}' but listed as '${key}': calls are looked up by the key` });
    return [key, tool];
  });
}

/**
 * The request's tool definitions in `format`, from tools defined once with `tool()`.
 *
 * <span class="informal">The same tools object you give `runTools()` / `toolLoop()`, written as the
 * `tools` field each provider's request expects.</span>
 *
 * 1. Each tool's JSON Schema is its `parameters`, or derived from its `schema` (Standard JSON
 *    Schema, zod 4's own conversion). A schema that cannot describe itself
 *    (zod 3, valibot) is an `unsupported-request` error naming the tool: give `parameters`.
 * 2. OpenAI chat writes `strict: true` only when the schema allows it (all properties required,
 *    `additionalProperties: false` at every level); Responses always writes `strict`, the same way.
 * 3. Anthropic (and Bedrock InvokeModel, whose body is Anthropic's) writes `input_schema` (an
 *    object schema), and for Anthropic `eager_input_streaming: true` (fine-grained tool streaming:
 *    the input is live; `eagerInputStreaming: false` leaves it out); Gemini one `{ functionDeclarations }`
 *    with each schema cleaned by `toGeminiSchema()` (keywords Gemini rejects dropped, `$ref`s inlined);
 *    Gemini Interactions `{ type: 'function', name, description, parameters }` with the JSON Schema as
 *    it is; Bedrock Converse
 *    `toolSpec` with `inputSchema.json` (the `toolConfig.tools` value); Ollama chat's own list; a
 *    Realtime session's flat functions (`session.update`'s `session.tools`, no `strict`).
 * 4. Names: a record's keys; a `name` that differs from its key is an `unsupported-request` error
 *    (the model would call a name `runTools()` does not know). An array needs a `name` on each tool.
 *    A record's entry may be a bare schema (the `tools` of `readToolCalls()`): a tool with no description.
 * 5. A schema nested deeper than `maxDepth` (default 512 levels) is an `unsupported-request` error
 *    naming the level too deep; the strict check walks any width and depth without recursion.
 * 6. A custom tool (`customTool()`, `kind: 'custom'`) is a `type: "custom"` tool with its `format`
 *    in OpenAI chat and Responses; the other formats have no custom tools and get a function with one
 *    required string parameter `input` (described by the grammar), whose calls are read as the text.
 * 7. A tool with `deferLoading: true` is written with `defer_loading: true` for Anthropic (and
 *    Bedrock InvokeModel) and Responses, whose tool search loads it when the model needs it (put
 *    the provider's tool search tool in the request too); the other formats have no such flag and
 *    declare it as usual.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { tool, toolSpecs } from 'rxjs-tool-calls/tools';
 *
 * const tools = { get_weather: tool({ description: 'Weather in a city', schema: z.strictObject({ city: z.string() }) }) };
 * console.log(JSON.stringify(toolSpecs(tools, 'openai-chat')));
 * // displays: [{"type":"function","function":{"name":"get_weather","description":"Weather in a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"strict":true}}]
 * ```
 *
 * @param tools Tools by name (or an array of named tools), e.g. made with `tool()`.
 * @param format The request format: `'openai-chat'`, `'openai-responses'`, `'anthropic'`, `'gemini'`, `'gemini-interactions'`, `'bedrock-converse'`, `'bedrock-invoke-model'`, `'ollama'` or `'openai-realtime'`.
 * @param options `strict` (OpenAI), `onSchemaDrop` (Gemini), `eagerInputStreaming` (Anthropic) and `maxDepth`.
 * @return The value of the request's `tools` field.
 * @throws {ToolStreamError} `invalid-option` for a `format` it does not write, an option it does not
 *   take or a value it cannot use; `unsupported-request` for a tool it cannot declare.
 */
export function toolSpecs<F extends MessageFormat, T extends ToolDeclarations = ToolDeclarations>(tools: T, format: F, options: ToolSpecsOptions = {}): ToolSpecs<F, HasCustomTool<T>> {
  const formatProblem = aMessageFormat(format);
  if (formatProblem !== undefined) throw new ToolStreamError('invalid-option', { function: 'toolSpecs', option: 'format', value: format, expected: formatProblem });
  checkOptions('toolSpecs', options, SPECS_OPTION_CHECKS);
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_REQUEST_DEPTH;
  const inputs = named(tools).map(([name, tool]): ToolSpecInput => {
    // A custom tool: text input, written as `type: "custom"` where the format has it, else as one string `input`.
    const deferLoading = tool.deferLoading === true ? { deferLoading: true } : {};
    if ('kind' in tool && tool.kind === 'custom')
      return { name, description: tool.description, parameters: customInputSchema(tool.format), strict: false, custom: { format: tool.format }, ...deferLoading };
    const parameters = toolJsonSchema(tool, name);
    const problem = jsonProblem(parameters, maxDepth, `${name}.parameters`);
    if (problem !== undefined) throw new ToolStreamError('unsupported-request', { target: String(format), field: problem.path, detail: problem.detail });
    return { name, description: tool.description, parameters, strict: options.strict !== false && allowsStrict(parameters), ...deferLoading };
  });
  const byFormat: { readonly [K in MessageFormat]: () => ToolSpecsByFormat[K] } = {
    'openai-chat': () => inputs.map((input) => (input.custom === undefined ? chatToolSpec(input) : chatCustomToolSpec(input, input.custom.format))),
    'openai-responses': () => inputs.map((input) => (input.custom === undefined ? responsesToolSpec(input) : responsesCustomToolSpec(input, input.custom.format))),
    anthropic: () => inputs.map((input) => anthropicToolSpec(input, options.eagerInputStreaming !== false)),
    gemini: () => [{ functionDeclarations: inputs.map((input) => geminiToolSpec(input, options.onSchemaDrop, maxDepth)) }],
    'gemini-interactions': () => inputs.map(geminiInteractionsToolSpec),
    'bedrock-converse': () => inputs.map(converseToolSpec),
    'bedrock-invoke-model': () => inputs.map((input) => anthropicToolSpec(input, false)),
    ollama: () => inputs.map(ollamaToolSpec),
    'openai-realtime': () => inputs.map(realtimeToolSpec),
  };
  return byFormat[format]() as ToolSpecs<F, HasCustomTool<T>>;
}
