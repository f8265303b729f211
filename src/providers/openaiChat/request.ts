/**
 * The OpenAI Chat Completions request, as far as the request translators read and write it
 * (checked against the `openai` SDK's types in `spec/types/requests.test-d.ts`).
 *
 * {@link ChatRequest} is the precise shape the translators understand (and what
 * `fromAnthropicRequest()` writes); `ChatRequestInput` (in `requestInput.ts`) is what they accept.
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

/** A tool choice naming one function. */
export interface ChatNamedToolChoice {
  /** Always `'function'`. */
  type: 'function';
  /** The function the model must call. */
  function: {
    /** Its name. */
    name: string;
  };
}

/** How the model may use tools: `auto` (it decides), `none`, `required` (at least one), or one named function. */
export type ChatToolChoice = 'auto' | 'none' | 'required' | ChatNamedToolChoice;

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
  /** Streaming options. */
  stream_options?: {
    /** Ask for a final chunk with the usage. */
    include_usage?: boolean;
  };
  /** An end-user id for abuse monitoring. */
  user?: string;
}

/** The mark of a streaming request. */
export interface StreamingRequest {
  /** Always `true`. */
  stream: true;
}

/** `R`'s translation keeps a literal `stream: true`, so it fits the SDKs' `…Streaming` request types. */
export type WithStream<R, Out> = R extends StreamingRequest ? Out & StreamingRequest : Out;
