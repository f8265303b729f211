/**
 * The Anthropic Messages wire types: the request (what `toAnthropicRequest()` writes), its
 * messages and blocks (what `toolMessages('anthropic', …)` writes), its tools (what `toolSpecs(…,
 * 'anthropic')` writes), and the looser `…Input` shapes `fromAnthropicRequest()` accepts from a
 * client. Checked against `@anthropic-ai/sdk`'s types in `spec/types/requests.test-d.ts` and
 * `spec/types/messages.test-d.ts`; arrays are mutable so the values go straight into the SDK's
 * request types.
 *
 * @module
 */
import type { JsonSchema } from '../openaiChat/wire';

/** A text block. */
export interface TextBlock {
  /** Always `'text'`. */
  type: 'text';
  /** The text. */
  text: string;
}

/** A thinking block, sent back so the model can continue its reasoning. */
export interface ThinkingBlock {
  /** Always `'thinking'`. */
  type: 'thinking';
  /** The thinking text. */
  thinking: string;
  /** The block's signature, verbatim from the stream. */
  signature: string;
}

/** A thinking block the provider encrypted, sent back as it came. */
export interface RedactedThinkingBlock {
  /** Always `'redacted_thinking'`. */
  type: 'redacted_thinking';
  /** The block's `data`, verbatim. */
  data: string;
}

/** A `tool_use` block: one call the assistant made. */
export interface ToolUseBlock {
  /** Always `'tool_use'`. */
  type: 'tool_use';
  /** The call's id (e.g. `'toolu_01A…'`); the `tool_result` answering it repeats it. */
  id: string;
  /** The tool name. */
  name: string;
  /** The arguments, as a JSON object (`{}` when they were not one). */
  input: Record<string, unknown>;
  /**
   * Who made the call: the model (`{ type: 'direct' }`) or a server tool (`{ type:
   * 'code_execution_…', tool_id }`: programmatic tool calling); absent, the model.
   */
  caller?: Caller;
}

/** Who made a call: the model (`direct`), or code execution (a server tool, by its `tool_id`) in programmatic tool calling. */
export type Caller =
  | {
      /** The model made the call. */
      type: 'direct';
    }
  | {
      /** Code execution made the call (the server tool's version). */
      type: 'code_execution_20250825' | 'code_execution_20260120';
      /** The id of the `server_tool_use` block whose code made it. */
      tool_id: string;
    };

/** A `tool_result` block: one call's result, in a user message. */
export interface ToolResultBlock {
  /** Always `'tool_result'`. */
  type: 'tool_result';
  /** The `id` of the `tool_use` block this answers. */
  tool_use_id: string;
  /** The result (the tool's output as text, or the error message of a failed run), as a string or text blocks. */
  content: string | TextBlock[];
  /** `true` for a failed run; absent on success. */
  is_error?: boolean;
}

/** One content block of an assistant message: thinking (plain or redacted), text, or a tool use. */
export type AssistantBlock = ThinkingBlock | RedactedThinkingBlock | TextBlock | ToolUseBlock;

/** A `user` message (Anthropic sends tool results in a user turn). */
export interface UserMessage {
  /** Always `'user'`. */
  role: 'user';
  /** Text, or text and `tool_result` blocks (results first). */
  content: string | Array<TextBlock | ToolResultBlock>;
}

/** An `assistant` message: its blocks in the order they were streamed. */
export interface AssistantMessage {
  /** Always `'assistant'`. */
  role: 'assistant';
  /** Text, or blocks. */
  content: string | AssistantBlock[];
}

/** A mid-conversation system message (models that accept them; see `midConversationSystem`). */
export interface SystemMessage {
  /** Always `'system'`. */
  role: 'system';
  /** The instructions. */
  content: string | TextBlock[];
}

/** One message of a {@link Request}. */
export type Message = UserMessage | AssistantMessage | SystemMessage;

/** A client tool. */
export interface Tool {
  /** The tool name. */
  name: string;
  /** What the tool does. */
  description?: string;
  /** The input's JSON Schema (always an object schema). */
  input_schema: {
    /** Always `'object'`. */
    type: 'object';
    /** The other JSON Schema keywords. */
    [keyword: string]: unknown;
  };
  /** Strict tool use: the input always matches the schema. */
  strict?: boolean;
  /** Leave the tool out of the model's context until a tool search (`tool_search_tool_*`) loads it. */
  defer_loading?: boolean;
  /**
   * Fine-grained tool streaming: the input streams as Claude writes it, without Anthropic's buffering
   * and JSON validation of each parameter (so it may be invalid JSON, or cut at `max_tokens`).
   */
  eager_input_streaming?: boolean;
}

/** How Claude may use tools. */
export type ToolChoice =
  | {
      /** `'auto'`: Claude decides; `'any'`: it must call a tool. */
      type: 'auto' | 'any';
      /** At most one tool call per turn. */
      disable_parallel_tool_use?: boolean;
    }
  | {
      /** Always `'tool'`: it must call the named tool. */
      type: 'tool';
      /** The tool to call. */
      name: string;
      /** At most one tool call per turn. */
      disable_parallel_tool_use?: boolean;
    }
  | {
      /** Always `'none'`: no tool calls. */
      type: 'none';
    };

/** A Messages request, as `toAnthropicRequest()` writes it. */
export interface Request {
  /** The model. */
  model: string;
  /** The most tokens to generate (required by Anthropic). */
  max_tokens: number;
  /** The conversation. */
  messages: Message[];
  /** The system prompt: the chat request's leading system / developer messages. */
  system?: string | TextBlock[];
  /** The tools. */
  tools?: Tool[];
  /** How Claude may use them. */
  tool_choice?: ToolChoice;
  /** Sampling temperature (API version 2023-06-01 only; 0 to 1). */
  temperature?: number;
  /** Nucleus sampling (API version 2023-06-01 only). */
  top_p?: number;
  /** Sequences that end the generation. */
  stop_sequences?: string[];
  /** Whether to stream (present only when `true`). */
  stream?: boolean;
  /** `user_id`: the chat request's `user`. */
  metadata?: {
    /** The chat request's `user`. */
    user_id: string;
  };
}

// ---- What `fromAnthropicRequest()` accepts from a client ------------------------------------------
// Any `MessageCreateParams` value of `@anthropic-ai/sdk`. What it cannot translate (images,
// documents, thinking blocks, server tools, …) is typed loosely and rejected at run time with
// `unsupported-request`.

/** A text block as accepted (`cache_control` and `citations` are rejected unless ignored). */
export interface TextBlockInput {
  /** Always `'text'`. */
  readonly type: 'text';
  /** The text. */
  readonly text: string;
  /** Prompt-caching marker. */
  readonly cache_control?: unknown;
  /** Citations. */
  readonly citations?: unknown;
}

/** A `tool_use` block as accepted. */
export interface ToolUseBlockInput {
  /** Always `'tool_use'`. */
  readonly type: 'tool_use';
  /** The call's id. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The arguments object. */
  readonly input: unknown;
  /** Prompt-caching marker. */
  readonly cache_control?: unknown;
}

/** A `tool_result` block as accepted (`is_error: true` is rejected unless `is_error` is ignored). */
export interface ToolResultBlockInput {
  /** Always `'tool_result'`. */
  readonly type: 'tool_result';
  /** The `id` of the `tool_use` block answered. */
  readonly tool_use_id: string;
  /** The result: a string or text blocks. */
  readonly content?: string | ReadonlyArray<TextBlockInput | OtherBlockInput>;
  /** Whether the tool failed. */
  readonly is_error?: boolean;
  /** Prompt-caching marker. */
  readonly cache_control?: unknown;
}

/** Any other block (`image`, `document`, `thinking`, `server_tool_use`, …): rejected unless its type is ignored. */
export interface OtherBlockInput {
  /** The block type. */
  readonly type: string;
}

/** One block as accepted. */
export type BlockInput = TextBlockInput | ToolUseBlockInput | ToolResultBlockInput | OtherBlockInput;

/** One message as accepted (`system` messages are mid-conversation system messages). */
export interface MessageInput {
  /** `'user'`, `'assistant'` or `'system'`. */
  readonly role: 'user' | 'assistant' | 'system';
  /** A string or blocks. */
  readonly content: string | ReadonlyArray<BlockInput>;
}

/** A tool as accepted: a client tool (server tools such as `web_search_20250305` are rejected). */
export type ToolInput =
  | {
      /** The tool name. */
      readonly name: string;
      /** What it does. */
      readonly description?: string;
      /** The input's JSON Schema. */
      readonly input_schema: JsonSchema;
      /** Absent, `null` or `'custom'`. */
      readonly type?: 'custom' | null;
      /** Strict tool use. */
      readonly strict?: boolean;
      /** Prompt-caching marker. */
      readonly cache_control?: unknown;
    }
  | OtherBlockInput;

/**
 * A Messages request as `fromAnthropicRequest()` accepts it. Fields not listed are rejected at run
 * time unless named in the `ignore` option.
 */
export interface RequestInput {
  /** The model. */
  readonly model: string;
  /** The most tokens to generate. */
  readonly max_tokens: number;
  /** The conversation. */
  readonly messages: ReadonlyArray<MessageInput>;
  /** The system prompt. */
  readonly system?: string | ReadonlyArray<TextBlockInput>;
  /** The tools. */
  readonly tools?: ReadonlyArray<ToolInput>;
  /** How Claude may use them. */
  readonly tool_choice?: ToolChoice;
  /** Stop sequences. */
  readonly stop_sequences?: ReadonlyArray<string>;
  /** Streaming. */
  readonly stream?: boolean;
  /** `user_id` becomes the chat request's `user`. */
  readonly metadata?: {
    /** The end user's id. */
    readonly user_id?: string | null;
  };
  /** Sampling temperature (API version 2023-06-01). */
  readonly temperature?: number;
  /** Nucleus sampling (API version 2023-06-01). */
  readonly top_p?: number;
}
