/**
 * The Chat Completions request as the request translators accept it: any
 * `ChatCompletionCreateParams` value of the `openai` SDK (arrays may be readonly; checked in
 * `spec/types/requests.test-d.ts`). Members that cannot be translated (image parts, custom tools,
 * …) are typed loosely and rejected at run time with `unsupported-request`.
 *
 * @module
 */
import type { ChatNamedToolChoice, ChatTextPart, JsonSchema } from './request';

/** A content part the translators do not read (rejected at run time unless its type is ignored). */
export interface ChatOtherPartInput {
  /** `'image_url'`, `'input_audio'`, `'file'`, `'refusal'`. */
  readonly type: 'image_url' | 'input_audio' | 'file' | 'refusal';
}

/** Text as a string or parts. */
export type ChatTextInput = string | ReadonlyArray<Readonly<ChatTextPart>>;

/** A custom tool, tool call or tool choice (rejected at run time). */
export interface ChatCustomInput {
  /** Always `'custom'`. */
  readonly type: 'custom';
}

/** A function call as accepted. */
export interface ChatFunctionCallInput {
  /** The call's id. */
  readonly id: string;
  /** Always `'function'`. */
  readonly type: 'function';
  /** The function called. */
  readonly function: {
    /** The tool name. */
    readonly name: string;
    /** The arguments as JSON text. */
    readonly arguments: string;
  };
  /** Gemini's OpenAI-compatible extension, sent back to Gemini as the part's `thoughtSignature`. */
  readonly extra_content?: {
    /** Google's extras. */
    readonly google?: {
      /** The call's thought signature. */
      readonly thought_signature?: string;
    };
  };
}

/** A tool call as accepted: a function call, or a custom call (rejected). */
export type ChatToolCallInput = ChatFunctionCallInput | ChatCustomInput;

/** A system or developer message as accepted. */
export interface ChatSystemMessageInput {
  /** `'system'` or `'developer'`. */
  readonly role: 'system' | 'developer';
  /** The instructions. */
  readonly content: ChatTextInput;
  /** A participant name (rejected unless ignored). */
  readonly name?: string;
}

/** A user message as accepted. */
export interface ChatUserMessageInput {
  /** Always `'user'`. */
  readonly role: 'user';
  /** The text, or parts (only text parts translate). */
  readonly content: string | ReadonlyArray<Readonly<ChatTextPart> | ChatOtherPartInput>;
  /** A participant name (rejected unless ignored). */
  readonly name?: string;
}

/** An assistant message as accepted. */
export interface ChatAssistantMessageInput {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The text, or parts (refusal parts are rejected), or `null` beside tool calls. */
  readonly content?: string | ReadonlyArray<Readonly<ChatTextPart> | ChatOtherPartInput> | null;
  /** The calls the turn made. */
  readonly tool_calls?: ReadonlyArray<ChatToolCallInput>;
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
export interface ChatToolMessageInput {
  /** Always `'tool'`. */
  readonly role: 'tool';
  /** The id of the call answered. */
  readonly tool_call_id: string;
  /** The result. */
  readonly content: ChatTextInput;
}

/** A legacy `function` message (rejected). */
export interface ChatFunctionMessageInput {
  /** Always `'function'`. */
  readonly role: 'function';
}

/** One message as accepted. */
export type ChatMessageInput = ChatSystemMessageInput | ChatUserMessageInput | ChatAssistantMessageInput | ChatToolMessageInput | ChatFunctionMessageInput;

/** A function tool as accepted. */
export interface ChatFunctionToolInput {
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
export type ChatToolInput = ChatFunctionToolInput | ChatCustomInput;

/** An `allowed_tools` or custom tool choice (rejected). */
export interface ChatOtherToolChoiceInput {
  /** `'allowed_tools'` or `'custom'`. */
  readonly type: 'allowed_tools' | 'custom';
}

/** A tool choice as accepted. */
export type ChatToolChoiceInput = 'auto' | 'none' | 'required' | Readonly<ChatNamedToolChoice> | ChatOtherToolChoiceInput;

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
