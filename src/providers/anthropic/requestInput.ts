/**
 * The Anthropic Messages request as `fromAnthropicRequest()` accepts it: any
 * `MessageCreateParams` value of `@anthropic-ai/sdk` (checked in `spec/types/requests.test-d.ts`).
 * What it cannot translate (images, documents, thinking blocks, server tools, …) is typed
 * loosely and rejected at run time with `unsupported-request`.
 *
 * @module
 */
import type { JsonSchema } from '../openaiChat/request';

/** A text block as accepted (`cache_control` and `citations` are rejected unless ignored). */
export interface AnthropicTextBlockInput {
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
export interface AnthropicToolUseBlockInput {
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
export interface AnthropicToolResultBlockInput {
  /** Always `'tool_result'`. */
  readonly type: 'tool_result';
  /** The `id` of the `tool_use` block answered. */
  readonly tool_use_id: string;
  /** The result: a string or text blocks. */
  readonly content?: string | ReadonlyArray<AnthropicTextBlockInput | AnthropicOtherBlockInput>;
  /** Whether the tool failed. */
  readonly is_error?: boolean;
  /** Prompt-caching marker. */
  readonly cache_control?: unknown;
}

/** Any other block (`image`, `document`, `thinking`, `server_tool_use`, …): rejected unless its type is ignored. */
export interface AnthropicOtherBlockInput {
  /** The block type. */
  readonly type: string;
}

/** One block as accepted. */
export type AnthropicBlockInput = AnthropicTextBlockInput | AnthropicToolUseBlockInput | AnthropicToolResultBlockInput | AnthropicOtherBlockInput;

/** One message as accepted (`system` messages are mid-conversation system messages). */
export interface AnthropicMessageInput {
  /** `'user'`, `'assistant'` or `'system'`. */
  readonly role: 'user' | 'assistant' | 'system';
  /** A string or blocks. */
  readonly content: string | ReadonlyArray<AnthropicBlockInput>;
}

/** A tool as accepted: a client tool (server tools such as `web_search_20250305` are rejected). */
export type AnthropicToolInput =
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
  | AnthropicOtherBlockInput;

/** A tool choice as accepted. */
export type AnthropicToolChoiceInput =
  | {
      /** `'auto'` or `'any'`. */
      readonly type: 'auto' | 'any';
      /** At most one tool call per turn. */
      readonly disable_parallel_tool_use?: boolean;
    }
  | {
      /** Always `'tool'`. */
      readonly type: 'tool';
      /** The tool to call. */
      readonly name: string;
      /** At most one tool call per turn. */
      readonly disable_parallel_tool_use?: boolean;
    }
  | {
      /** Always `'none'`. */
      readonly type: 'none';
    };

/**
 * An Anthropic Messages request as `fromAnthropicRequest()` accepts it. Fields not listed are
 * rejected at run time unless named in the `ignore` option.
 */
export interface AnthropicRequestInput {
  /** The model. */
  readonly model: string;
  /** The most tokens to generate. */
  readonly max_tokens: number;
  /** The conversation. */
  readonly messages: ReadonlyArray<AnthropicMessageInput>;
  /** The system prompt. */
  readonly system?: string | ReadonlyArray<AnthropicTextBlockInput>;
  /** The tools. */
  readonly tools?: ReadonlyArray<AnthropicToolInput>;
  /** How Claude may use them. */
  readonly tool_choice?: AnthropicToolChoiceInput;
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
