/**
 * The OpenAI Chat Completions wire types: the request (what `fromAnthropicRequest()` writes), its
 * messages (what `toolMessages('openai-chat', …)` writes), its tools (what `toolSpecs(…,
 * 'openai-chat')` writes), and the looser `…Input` shapes the request translators accept from a
 * client. Checked against the `openai` SDK's types in `spec/types/requests.test-d.ts` and
 * `spec/types/messages.test-d.ts`; arrays are mutable so the values go straight into the SDK's
 * request types.
 *
 * @module
 */

/** A JSON Schema object (a tool's `parameters`). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A text content part. */
export interface TextPart {
  /** Always `'text'`. */
  type: 'text';
  /** The text. */
  text: string;
}

/** A `system` message: instructions for the model. */
export interface SystemMessage {
  /** Always `'system'`. */
  role: 'system';
  /** The instructions, as one string or text parts. */
  content: string | TextPart[];
}

/** A `developer` message (the newer name of `system` for reasoning models). */
export interface DeveloperMessage {
  /** Always `'developer'`. */
  role: 'developer';
  /** The instructions, as one string or text parts. */
  content: string | TextPart[];
}

/** A `user` message. */
export interface UserMessage {
  /** Always `'user'`. */
  role: 'user';
  /** The user's text, as one string or text parts. */
  content: string | TextPart[];
}

/** One call of a function tool that an assistant message made. */
export interface FunctionToolCall {
  /** The call's id (e.g. `'call_abc123'`); the `tool` message answering it repeats it as `tool_call_id`. */
  id: string;
  /** Always `'function'`. */
  type: 'function';
  /** The function called. */
  function: {
    /** The tool name (e.g. `'get_weather'`). */
    name: string;
    /** The arguments as JSON text (e.g. `'{"city":"Paris"}'`), exactly as the model streamed it (`'{}'` when it sent none). */
    arguments: string;
  };
  /**
   * The call's `extra_content` as streamed (Gemini's compatibility endpoint: `{ google: {
   * thought_signature } }`, required back; the request translators send it to Gemini as the part's
   * `thoughtSignature`).
   */
  extra_content?: Readonly<Record<string, unknown>>;
}

/** One call of a custom (freeform) tool that an assistant message made. */
export interface CustomToolCall {
  /** The call's id; the `tool` message answering it repeats it as `tool_call_id`. */
  id: string;
  /** Always `'custom'`. */
  type: 'custom';
  /** The custom tool called. */
  custom: {
    /** The tool name (e.g. `'apply_patch'`). */
    name: string;
    /** The input text, as the model streamed it. */
    input: string;
  };
}

/** An `assistant` message: the model's earlier turn. */
export interface AssistantMessage {
  /** Always `'assistant'`. */
  role: 'assistant';
  /** The visible text, as one string or text parts; `null` when the turn only called tools. */
  content: string | TextPart[] | null;
  /**
   * The turn's reasoning, all of it (DeepSeek's thinking mode, Kimi and others reject a request
   * whose assistant message with `tool_calls` lacks it); absent when the turn had none.
   */
  reasoning_content?: string;
  /** The same, in the field OpenRouter and Groq use (with `reasoningField: 'reasoning'`). */
  reasoning?: string;
  /** The calls the turn made; absent when there are none (the API rejects an empty array). */
  tool_calls?: Array<FunctionToolCall | CustomToolCall>;
}

/** A `tool` message: one call's result. */
export interface ToolMessage {
  /** Always `'tool'`. */
  role: 'tool';
  /** The `id` of the call this answers. */
  tool_call_id: string;
  /** The result (the tool's output as text, or the error message of a failed run), as one string or text parts. */
  content: string | TextPart[];
}

/** One message of a {@link Request}. */
export type Message = SystemMessage | DeveloperMessage | UserMessage | AssistantMessage | ToolMessage;

/** A function tool the model may call. */
export interface FunctionTool {
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

/** A custom (freeform) tool: its input is text, not JSON. */
export interface CustomTool {
  /** Always `'custom'`. */
  type: 'custom';
  /** The tool. */
  custom: {
    /** The tool name. */
    name: string;
    /** What the tool does, for the model. */
    description?: string;
    /** What its input text must be (chat nests a grammar under `grammar`). */
    format?:
      | {
          /** Free text. */
          type: 'text';
        }
      | {
          /** Text in a grammar. */
          type: 'grammar';
          /** The grammar. */
          grammar: {
            /** How `definition` is written. */
            syntax: 'lark' | 'regex';
            /** The grammar itself. */
            definition: string;
          };
        };
  };
}

/** A tool choice naming one function. */
export interface NamedToolChoice {
  /** Always `'function'`. */
  type: 'function';
  /** The function the model must call. */
  function: {
    /** Its name. */
    name: string;
  };
}

/** How the model may use tools: `auto` (it decides), `none`, `required` (at least one), or one named function. */
export type ToolChoice = 'auto' | 'none' | 'required' | NamedToolChoice;

/** A Chat Completions request, as the request translators write it. */
export interface Request {
  /** The model (e.g. `'gpt-4o'`). */
  model: string;
  /** The conversation. */
  messages: Message[];
  /** The tools the model may call. */
  tools?: FunctionTool[];
  /** How the model may use them. */
  tool_choice?: ToolChoice;
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

// ---- What the request translators accept from a client -------------------------------------------
// Any `ChatCompletionCreateParams` value of the `openai` SDK (arrays may be readonly). Members that
// cannot be translated (image parts, custom tools, …) are typed loosely and rejected at run time
// with `unsupported-request`.

/** A content part the translators do not read (rejected at run time unless its type is ignored). */
export interface OtherPartInput {
  /** `'image_url'`, `'input_audio'`, `'file'`, `'refusal'`. */
  readonly type: 'image_url' | 'input_audio' | 'file' | 'refusal';
}

/** Text as a string or parts. */
export type TextInput = string | ReadonlyArray<TextPart>;

/** A custom tool, tool call or tool choice (rejected at run time). */
export interface CustomInput {
  /** Always `'custom'`. */
  readonly type: 'custom';
}

/** A tool call as accepted: a function call, or a custom call (rejected). */
export type ToolCallInput = FunctionToolCall | CustomInput;

/** A system or developer message as accepted. */
export interface SystemMessageInput {
  /** `'system'` or `'developer'`. */
  readonly role: 'system' | 'developer';
  /** The instructions. */
  readonly content: TextInput;
  /** A participant name (rejected unless ignored). */
  readonly name?: string;
}

/** A user message as accepted. */
export interface UserMessageInput {
  /** Always `'user'`. */
  readonly role: 'user';
  /** The text, or parts (only text parts translate). */
  readonly content: string | ReadonlyArray<TextPart | OtherPartInput>;
  /** A participant name (rejected unless ignored). */
  readonly name?: string;
}

/** An assistant message as accepted. */
export interface AssistantMessageInput {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The text, or parts (refusal parts are rejected), or `null` beside tool calls. */
  readonly content?: string | ReadonlyArray<TextPart | OtherPartInput> | null;
  /** The calls the turn made. */
  readonly tool_calls?: ReadonlyArray<ToolCallInput>;
  /** A refusal (rejected). */
  readonly refusal?: string | null;
  /** Audio (rejected). */
  readonly audio?: object | null;
  /** The legacy function call (rejected). */
  readonly function_call?: object | null;
  /** A participant name (rejected unless ignored). */
  readonly name?: string;
}

/** A tool message as accepted. */
export interface ToolMessageInput {
  /** Always `'tool'`. */
  readonly role: 'tool';
  /** The id of the call answered. */
  readonly tool_call_id: string;
  /** The result. */
  readonly content: TextInput;
}

/** A legacy `function` message (rejected). */
export interface FunctionMessageInput {
  /** Always `'function'`. */
  readonly role: 'function';
}

/** One message as accepted. */
export type MessageInput = SystemMessageInput | UserMessageInput | AssistantMessageInput | ToolMessageInput | FunctionMessageInput;

/** A function tool as accepted. */
export interface FunctionToolInput {
  /** Always `'function'`. */
  readonly type: 'function';
  /** The function. */
  readonly function: {
    /** The tool name. */
    readonly name: string;
    /** What it does. */
    readonly description?: string;
    /** The arguments' JSON Schema. */
    readonly parameters?: JsonSchema;
    /** Strict schema adherence. */
    readonly strict?: boolean | null;
  };
}

/** A tool as accepted: a function tool, or a custom tool (rejected). */
export type ToolInput = FunctionToolInput | CustomInput;

/** An `allowed_tools` or custom tool choice (rejected). */
export interface OtherToolChoiceInput {
  /** `'allowed_tools'` or `'custom'`. */
  readonly type: 'allowed_tools' | 'custom';
}

/** A tool choice as accepted. */
export type ToolChoiceInput = 'auto' | 'none' | 'required' | NamedToolChoice | OtherToolChoiceInput;

/**
 * A Chat Completions request as the translators accept it. Fields not listed here are rejected
 * at run time with `unsupported-request` unless `null`, neutral (`n: 1`, `logprobs: false`, …)
 * or named in the `ignore` option.
 */
export interface RequestInput {
  /** The model. */
  readonly model: string;
  /** The conversation. */
  readonly messages: ReadonlyArray<MessageInput>;
  /** The tools. */
  readonly tools?: ReadonlyArray<ToolInput>;
  /** How the model may use them. */
  readonly tool_choice?: ToolChoiceInput;
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
  readonly stream_options?: {
    /** Ask for the usage chunk (every target reports usage anyway). */
    readonly include_usage?: boolean;
    /** Obfuscation padding (Responses only). */
    readonly include_obfuscation?: boolean;
  } | null;
  /** An end-user id. */
  readonly user?: string;
  /** Whether OpenAI stores the completion (only `false` translates, except to Responses). */
  readonly store?: boolean | null;
  /** The number of choices (only `1` translates, except to Gemini's `candidateCount`). */
  readonly n?: number | null;
  /** Log probabilities (only `false` translates). */
  readonly logprobs?: boolean | null;
}
