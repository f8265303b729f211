/**
 * The OpenAI Chat Completions request, as far as the request translators read and write it
 * (checked against the `openai` SDK's types in `spec/types/requests.test-d.ts`).
 *
 * Two views: {@link ChatRequest} is the precise shape the translators understand (and what
 * `fromAnthropicRequest()` writes); {@link ChatRequestInput} is what they accept: any
 * `ChatCompletionCreateParams` value. Its members that cannot be translated (image parts, custom
 * tools, …) are typed loosely and rejected at run time with `unsupported-request`.
 *
 * @module
 */

/** A JSON Schema object (a tool's `parameters`). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A text content part. */
export interface ChatTextPart {
  /** Always `'text'`. */
  type: 'text';
  /** The text. */
  text: string;
}

/** A `system` message: instructions for the model. */
export interface ChatSystemMessage {
  /** Always `'system'`. */
  role: 'system';
  /** The instructions, as one string or text parts. */
  content: string | ChatTextPart[];
}

/** A `developer` message (the newer name of `system` for reasoning models). */
export interface ChatDeveloperMessage {
  /** Always `'developer'`. */
  role: 'developer';
  /** The instructions, as one string or text parts. */
  content: string | ChatTextPart[];
}

/** A `user` message. */
export interface ChatUserMessage {
  /** Always `'user'`. */
  role: 'user';
  /** The user's text, as one string or text parts. */
  content: string | ChatTextPart[];
}

/** One tool call an assistant message made. */
export interface ChatToolCall {
  /** The call's id (e.g. `'call_abc123'`); the `tool` message answering it repeats it. */
  id: string;
  /** Always `'function'`. */
  type: 'function';
  /** The function called. */
  function: {
    /** The tool name. */
    name: string;
    /** The arguments as JSON text (e.g. `'{"city":"Paris"}'`). */
    arguments: string;
  };
}

/** An `assistant` message: the model's earlier turn. */
export interface ChatAssistantMessage {
  /** Always `'assistant'`. */
  role: 'assistant';
  /** The visible text, as one string or text parts; `null` when the turn only called tools. */
  content: string | ChatTextPart[] | null;
  /** The calls the turn made (absent when none). */
  tool_calls?: ChatToolCall[];
}

/** A `tool` message: one call's result. */
export interface ChatToolMessage {
  /** Always `'tool'`. */
  role: 'tool';
  /** The `id` of the call this answers. */
  tool_call_id: string;
  /** The result, as one string or text parts. */
  content: string | ChatTextPart[];
}

/** One message of a {@link ChatRequest}. */
export type ChatMessage = ChatSystemMessage | ChatDeveloperMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage;

/** A function tool the model may call. */
export interface ChatFunctionTool {
  /** Always `'function'`. */
  type: 'function';
  /** The function. */
  function: {
    /** The tool name (`a-z`, `A-Z`, `0-9`, `_`, `-`; at most 64). */
    name: string;
    /** What the tool does, for the model. */
    description?: string;
    /** The arguments' JSON Schema (absent: the function takes no arguments). */
    parameters?: JsonSchema;
    /** Whether the provider enforces the schema exactly. */
    strict?: boolean;
  };
}

/** How the model may use tools: `auto` (it decides), `none`, `required` (at least one), or one named function. */
export type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** The Chat Completions request the translators understand. */
export interface ChatRequest {
  /** The model (e.g. `'gpt-4o'`). */
  model: string;
  /** The conversation. */
  messages: ChatMessage[];
  /** The tools the model may call. */
  tools?: ChatFunctionTool[];
  /** How the model may use them. */
  tool_choice?: ChatToolChoice;
  /** `false`: at most one tool call per turn. */
  parallel_tool_calls?: boolean;
  /** The most tokens to generate (reasoning included). */
  max_completion_tokens?: number;
  /** The older name of `max_completion_tokens` (read, never written). */
  max_tokens?: number;
  /** Sampling temperature. */
  temperature?: number;
  /** Nucleus sampling. */
  top_p?: number;
  /** Sequences that end the generation. */
  stop?: string | string[];
  /** Whether to stream the answer as server-sent events. */
  stream?: boolean;
  /** Streaming options: `include_usage` asks for a final usage chunk. */
  stream_options?: { include_usage?: boolean };
  /** An end-user id for abuse monitoring. */
  user?: string;
}

/** `R`'s translation keeps a literal `stream: true`, so it fits the SDKs' `…Streaming` request types. */
export type WithStream<R, Out> = R extends { readonly stream: true } ? Out & { stream: true } : Out;

// ---- What the translators accept: every `ChatCompletionCreateParams` value (arrays may be readonly).

/** A content part the translators do not read (rejected at run time unless its type is ignored). */
export interface ChatOtherPartInput {
  /** `'image_url'`, `'input_audio'`, `'file'`, `'refusal'`. */
  readonly type: 'image_url' | 'input_audio' | 'file' | 'refusal';
}

/** Text as a string or parts. */
export type ChatTextInput = string | ReadonlyArray<Readonly<ChatTextPart>>;

/** A tool call as accepted: a function call (with Gemini's `extra_content` thought signature, if any) or a custom call (rejected). */
export type ChatToolCallInput =
  | {
      /** The call's id. */
      readonly id: string;
      /** Always `'function'`. */
      readonly type: 'function';
      /** The function called. */
      readonly function: { readonly name: string; readonly arguments: string };
      /** Gemini's OpenAI-compatible extension: `{ google: { thought_signature } }`, sent back to Gemini as `thoughtSignature`. */
      readonly extra_content?: { readonly google?: { readonly thought_signature?: string } };
    }
  | { /** `'custom'` (rejected). */ readonly type: 'custom' };

/** One message as accepted. */
export type ChatMessageInput =
  | { readonly role: 'system' | 'developer'; readonly content: ChatTextInput; readonly name?: string }
  | { readonly role: 'user'; readonly content: string | ReadonlyArray<Readonly<ChatTextPart> | ChatOtherPartInput>; readonly name?: string }
  | {
      readonly role: 'assistant';
      readonly content?: string | ReadonlyArray<Readonly<ChatTextPart> | ChatOtherPartInput> | null;
      readonly tool_calls?: ReadonlyArray<ChatToolCallInput>;
      readonly refusal?: string | null;
      readonly audio?: object | null;
      readonly function_call?: object | null;
      readonly name?: string;
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: ChatTextInput }
  | { /** `'function'` (the legacy role; rejected). */ readonly role: 'function' };

/** A tool as accepted: a function tool, or a custom tool (rejected). */
export type ChatToolInput =
  | {
      readonly type: 'function';
      readonly function: { readonly name: string; readonly description?: string; readonly parameters?: JsonSchema; readonly strict?: boolean | null };
    }
  | { /** `'custom'` (rejected). */ readonly type: 'custom' };

/** A tool choice as accepted (`allowed_tools` and custom choices are rejected). */
export type ChatToolChoiceInput =
  | 'auto'
  | 'none'
  | 'required'
  | { readonly type: 'function'; readonly function: { readonly name: string } }
  | { /** `'allowed_tools'` or `'custom'` (rejected). */ readonly type: 'allowed_tools' | 'custom' };

/**
 * A Chat Completions request as the translators accept it. Fields not listed here are rejected
 * at run time with `unsupported-request` unless `null`, neutral (`n: 1`, `logprobs: false`, …)
 * or named in the `ignore` option.
 */
export interface ChatRequestInput {
  /** The model. */
  readonly model: string;
  /** The conversation. */
  readonly messages: ReadonlyArray<ChatMessageInput>;
  /** The tools. */
  readonly tools?: ReadonlyArray<ChatToolInput>;
  /** How the model may use them. */
  readonly tool_choice?: ChatToolChoiceInput;
  /** `false`: at most one tool call per turn. */
  readonly parallel_tool_calls?: boolean | null;
  /** The most tokens to generate. */
  readonly max_completion_tokens?: number | null;
  /** The older name of `max_completion_tokens`. */
  readonly max_tokens?: number | null;
  /** Sampling temperature. */
  readonly temperature?: number | null;
  /** Nucleus sampling. */
  readonly top_p?: number | null;
  /** Stop sequences. */
  readonly stop?: string | ReadonlyArray<string> | null;
  /** Streaming. */
  readonly stream?: boolean | null;
  /** Streaming options. */
  readonly stream_options?: { readonly include_usage?: boolean; readonly include_obfuscation?: boolean } | null;
  /** An end-user id. */
  readonly user?: string;
  /** Whether OpenAI stores the completion (only `false` translates, except to Responses). */
  readonly store?: boolean | null;
  /** The number of choices (only `1` translates, except to Gemini's `candidateCount`). */
  readonly n?: number | null;
  /** Log probabilities (only `false` translates). */
  readonly logprobs?: boolean | null;
}
