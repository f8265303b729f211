/**
 * The one result shape: `{ success: true, data } | { success: false, error }`.
 *
 * The absent side is typed `?: never`, so `const { data, error } = result` stays type-safe.
 *
 * @module
 */
import type { ProviderMetadata } from './events';
import type { CallIdentity, ToolCallError } from './errors';

/** A success or a typed failure. */
export type Result<T, E> =
  | {
      /** `true`: `data` holds the value. */
      readonly success: true;
      /** The value. */
      readonly data: T;
      /** Never set on a success (typed `never` so destructuring stays type-safe). */
      readonly error?: never;
    }
  | {
      /** `false`: `error` says what went wrong. */
      readonly success: false;
      /** The typed error. */
      readonly error: E;
      /** Never set on a failure (typed `never` so destructuring stays type-safe). */
      readonly data?: never;
    };

/** One completed tool call. */
export interface ToolCall<Name extends string = string, Args = unknown> extends CallIdentity {
  /** The tool name (narrowed by tool when tools are typed). */
  readonly name: Name;
  /** The parsed JSON arguments (`{}` when the call sent none or only whitespace). */
  readonly arguments: Args;
  /** The argument text exactly as it arrived, concatenated. */
  readonly rawArguments: string;
  /** Provider extras (Responses item id, Gemini thought signature, the wire id when it was generated or de-duplicated, …). */
  readonly providerMetadata?: ProviderMetadata;
  /**
   * Present only when the argument text as it arrived was not the call's one JSON document:
   * `'repeated'` (the text was k copies of one JSON document, exact or differing only in whitespace:
   * the arguments were streamed, then sent whole once more), `'cumulative'` (each fragment repeated
   * all earlier text; the last one is the arguments), or `'split'` (several calls' JSON objects were
   * glued into one call's arguments, `{…}{…}`: this call is one of them, with its own object as
   * `rawArguments`). Otherwise `rawArguments` is still the text as it arrived. `'repeated'` and
   * `'cumulative'` are turned off with `repairArguments: false`.
   */
  readonly repaired?: 'repeated' | 'cumulative' | 'split';
  /**
   * `'custom'` for a call of a custom (freeform) tool (OpenAI chat `type: "custom"`, Responses
   * `custom_tool_call`): its input is text, never parsed as JSON, so `arguments` is that text (a
   * string, the same as `input`). Absent for a JSON tool's call: test `call.kind === 'custom'`
   * before reading `arguments` as an object.
   */
  readonly kind?: 'custom';
  /** With `kind: 'custom'`: the call's input text, whole (e.g. a patch for an `apply_patch` grammar tool). */
  readonly input?: string;
}

/**
 * A custom (freeform) tool's call: `kind: 'custom'`, its input text as `input`; `arguments` is that
 * text too, or what the tool's validator made of it (`Args`).
 */
export interface CustomToolCall<Name extends string = string, Args = string> extends ToolCall<Name, Args> {
  /** Always `'custom'`. */
  readonly kind: 'custom';
  /** The call's input text, whole. */
  readonly input: string;
}

/** The result of one tool call. */
export type ToolCallResult<Call extends ToolCall<string, unknown> = ToolCall> = Result<Call, ToolCallError>;

/** Build a success. */
export function ok<T>(data: T): {
  /** Always `true`. */
  readonly success: true;
  /** The value passed in. */
  readonly data: T;
} {
  return { success: true, data };
}

/** Build a failure. */
export function fail<E>(error: E): {
  /** Always `false`. */
  readonly success: false;
  /** The error passed in. */
  readonly error: E;
} {
  return { success: false, error };
}
