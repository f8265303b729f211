/**
 * The one event vocabulary every stage shares.
 *
 * Wire adapters (`openaiChat()`, `anthropicMessages()`, `openaiResponses()`, `gemini()`,
 * `cohereChat()`) turn provider-specific SSE events into these; everything downstream
 * (`accumulateToolCalls()`, `toolCalls()`, `partialToolCalls()`, the CLI) reads only these.
 * Part of the vocabulary: imports nothing.
 *
 * @module
 */
/** Provider-specific extras that do not fit the common shape (item ids, thought signatures, …). */
export type ProviderMetadata = Readonly<Record<string, unknown>>;

/**
 * The name of a wire format the library reads: what `provider` options, `metadata` events and
 * errors say. Each has one folder under `providers/` and one entry in `providers/list.ts`.
 */
export type ProviderName =
  'openai-chat' | 'openai-responses' | 'openai-realtime' | 'anthropic' | 'gemini' | 'gemini-interactions' | 'cohere' | 'bedrock-converse' | 'bedrock-invoke-model' | 'ollama' | 'ai-sdk-ui' | 'ag-ui';

/**
 * A normalised finish reason. The provider's own string is kept beside it in `rawReason`.
 *
 * - `stop`: the model ended its turn.
 * - `tool-calls`: the model stopped to have tools run.
 * - `length`: a token limit cut the output (tool arguments may be cut mid-JSON).
 * - `content-filter`: a safety system stopped the output.
 * - `error`: the provider reported a failure as the finish reason.
 * - `other`: anything else.
 */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'other';

/** Visible text from the model. */
export interface TextDeltaEvent {
  /** Discriminant: always `'text-delta'`. */
  readonly type: 'text-delta';
  /** The choice (`choices[].index`; 0 for formats with a single candidate). */
  readonly choice: number;
  /** The next piece of visible text, to append to what came before (e.g. `'The weather in'`); `''` only on a signature-only event. */
  readonly text: string;
  /**
   * Gemini `thoughtSignature` on a text part: opaque, sent back verbatim on that text (the message
   * builders end the text piece with it, so text after it is a new part).
   */
  readonly signature?: string;
}

/** Reasoning / thinking / tool-plan text. */
export interface ReasoningDeltaEvent {
  /** Discriminant: always `'reasoning-delta'`. */
  readonly type: 'reasoning-delta';
  /** The choice (`choices[].index`; 0 for formats with a single candidate). */
  readonly choice: number;
  /** The next piece of reasoning text, to append to what came before (may be `''` on a signature-only event). */
  readonly text: string;
  /** Anthropic `signature_delta`, Gemini `thoughtSignature`, …: opaque, to be sent back verbatim. */
  readonly signature?: string;
  /**
   * Where the wire carried the piece, when a builder must know: chat `{ field: 'reasoning' }` for
   * `delta.reasoning` (Groq, Cerebras, OpenRouter, Ollama), `{ field: 'thinking' }` for a Mistral
   * `thinking` content part; absent for `reasoning_content` and the other formats.
   */
  readonly metadata?: ProviderMetadata;
}

/**
 * One reasoning part, whole: what a tool loop sends back so that the provider accepts the next
 * request (Anthropic checks the thinking blocks' signatures, the Responses API pairs reasoning
 * items with the calls that follow them). Only the fields the wire gave are present.
 */
export interface ReasoningPart {
  /**
   * The reasoning text: Anthropic `thinking`, chat `reasoning_content`, Gemini thought text, a
   * Responses item's `reasoning_text` content (its summaries are in `summary`); `''` for a redacted or
   * encrypted-only part.
   */
  readonly text: string;
  /** Anthropic thinking-block `signature`, Gemini `thoughtSignature`: opaque, sent back verbatim. */
  readonly signature?: string;
  /** Anthropic `redacted_thinking` block: its encrypted `data`, sent back verbatim (the part has no text). */
  readonly redacted?: string;
  /** Responses reasoning item `id` (e.g. `'rs_68c9…'`): the `function_call` items after it need it sent back. */
  readonly itemId?: string;
  /** Responses `encrypted_content` (requested with `include: ['reasoning.encrypted_content']`, needed with `store: false`). */
  readonly encryptedContent?: string;
  /** Responses reasoning summary texts, one per `summary_text` part, in order. */
  readonly summary?: ReadonlyArray<string>;
  /** Where the wire carried the part, as its `reasoning-delta`s said (chat `field`). */
  readonly metadata?: ProviderMetadata;
}

/**
 * The wire closed one reasoning part (Anthropic `content_block_stop` of a `thinking` or
 * `redacted_thinking` block, Responses `output_item.done` of a `reasoning` item): the whole part, to
 * send back verbatim. Its text also came as `reasoning-delta`s before (a redacted or encrypted-only
 * part has none); formats without part boundaries (chat `reasoning_content`, Gemini thoughts) send no
 * `reasoning-end`.
 */
export interface ReasoningEndEvent extends ReasoningPart {
  /** Discriminant: always `'reasoning-end'`. */
  readonly type: 'reasoning-end';
  /** The choice (0 for formats with a single candidate). */
  readonly choice: number;
  /** The wire's position of the part (Anthropic content-block index, Responses `output_index`), in the same numbering as the calls' `index`. */
  readonly index?: number;
}

/**
 * A piece of one tool call, exactly as the wire identified it. Identity (which call this piece
 * belongs to) is resolved downstream, once, by the accumulator: adapters never guess.
 */
export interface ToolCallDeltaEvent {
  /** Discriminant: always `'tool-call-delta'`. */
  readonly type: 'tool-call-delta';
  /** The choice (`choices[].index`; 0 for formats with a single candidate). */
  readonly choice: number;
  /** The wire's position of the call (`tool_calls[].index`, content-block index, `output_index`); absent when the wire has none. */
  readonly index?: number;
  /** The wire's call id (absent or `''` when not sent on this delta). */
  readonly id?: string;
  /** The tool name (absent or `''` when not sent on this delta). */
  readonly name?: string;
  /** The next fragment of the JSON arguments text (may be `''`). */
  readonly argumentsDelta: string;
  /**
   * When `true`, `argumentsDelta` is the whole arguments text and replaces whatever was
   * accumulated (Responses `.done`, Gemini whole `functionCall` parts, Anthropic `input` in the block start).
   */
  readonly replace?: boolean;
  /** Provider extras to keep on the call (merged; first value of a key wins). */
  readonly metadata?: ProviderMetadata;
  /**
   * `'custom'`: the call is a custom (freeform) tool's (OpenAI chat `type: "custom"`, Responses
   * `custom_tool_call`): `argumentsDelta` is a piece of its input text, not of JSON. Absent for
   * function calls.
   */
  readonly kind?: 'custom';
}

/**
 * The wire marked one call as finished (Anthropic `content_block_stop`, Responses
 * `output_item.done`, Cohere `tool-call-end`, a whole Gemini part). The call's result is emitted
 * at once instead of waiting for the choice to finish.
 */
export interface ToolCallEndEvent {
  /** Discriminant: always `'tool-call-end'`. */
  readonly type: 'tool-call-end';
  /** The choice the call belongs to (0 for formats with a single candidate). */
  readonly choice: number;
  /** The wire's position of the call, as on its `tool-call-delta`s; absent when the wire identifies it by id only. */
  readonly index?: number;
  /**
   * The wire's call id, when the end event carries one. With neither `index` nor `id`, the end
   * applies to the choice's most recent call.
   */
  readonly id?: string;
  /** The call was closed without being completed (e.g. the token limit cut it): report it `incomplete`. */
  readonly incomplete?: boolean;
  /**
   * With `incomplete`: the finish that cut the call, when the wire said (`length`, `content-filter`,
   * `error`); the call's incomplete reason then names it instead of `not-closed`.
   */
  readonly finishReason?: FinishReason;
}

/**
 * A tool the provider ran itself (or, for shell calls, one the app runs on its own machine), never
 * a call for `runTools()`: Responses `web_search_call`, `file_search_call`, `code_interpreter_call`,
 * `mcp_call`, `image_generation_call`, `local_shell_call` / `shell_call`, `tool_search_call` /
 * `tool_search_output`, a programmatic tool call's `program` / `program_output`; Anthropic
 * `server_tool_use` / `mcp_tool_use` and their `*_tool_result` blocks (tool search's
 * `tool_search_tool_result` with its `tool_reference`s); Gemini `executableCode` /
 * `codeExecutionResult` parts; Gemini Interactions server tool steps (`google_search_call`, …).
 * Also the provider's server-side context compaction (Anthropic `compaction` blocks, Responses
 * `compaction` items: `tool: 'compaction'`), which a loop must send back as it came. Several events
 * may tell one run (same `id`): it started, its input grew (`inputDelta`), it ended with its
 * result. No `ToolCallResult` comes of it.
 */
export interface ProviderToolEvent {
  /** Discriminant: always `'provider-tool'`. */
  readonly type: 'provider-tool';
  /** The choice (0 for formats with a single candidate). */
  readonly choice: number;
  /** The format whose wire carried it (the shape of `raw`). */
  readonly provider: ProviderName;
  /** The wire's position (Responses `output_index`, Anthropic content-block index, Gemini part count). */
  readonly index?: number;
  /** The run's id on the wire (Responses item id, Anthropic block id / `tool_use_id`, Interactions step id / `call_id`; Gemini: generated per code part; an Anthropic compaction block: `compaction_<index>`). */
  readonly id: string;
  /**
   * What ran: `'web_search'`, `'file_search'`, `'code_interpreter'`, `'mcp'`, `'image_generation'`,
   * `'local_shell'`, `'shell'`, `'tool_search'`, `'program'`, Anthropic's server tool name
   * (`'web_search'`, `'code_execution'`, `'tool_search_tool_regex'`, …), Gemini `'code_execution'`,
   * Gemini Interactions `'google_search'`, `'url_context'`, …; `'compaction'` for a compaction.
   */
  readonly tool: string;
  /** `'running'` while it streams, then `'completed'` or `'failed'` (or `'incomplete'` when the wire says so). */
  readonly status: 'running' | 'completed' | 'failed' | 'incomplete';
  /** What it ran with, when this event carries it (a search action, code, MCP `{ server, name, arguments }`, shell commands). */
  readonly input?: unknown;
  /** The next piece of its input text while it streams (Responses `mcp_call_arguments.delta`, `code_interpreter_call_code.delta`; Anthropic `input_json_delta`). */
  readonly inputDelta?: string;
  /** Its result, when the wire carries one (search results, code outputs, an image, an MCP output). */
  readonly result?: unknown;
  /** The wire's own object, whole (Responses item, Anthropic block, Gemini part, Interactions step), to send back or re-encode verbatim. */
  readonly raw?: Readonly<Record<string, unknown>>;
}

/**
 * What a tool returned, when the stream carries it: UI streams do (the AI SDK UI message stream's
 * `tool-output-available` / `tool-output-error` / `tool-output-denied`, AG-UI `TOOL_CALL_RESULT`),
 * provider streams do not. It belongs to the call whose wire id is `id`; the call's own result (its
 * arguments, from `readToolCalls()`) is unchanged by it. `chatState()` shows it on that call as
 * `output`; the encoders of formats that carry results write it, the others leave it out.
 */
export interface ToolResultEvent {
  /** Discriminant: always `'tool-result'`. */
  readonly type: 'tool-result';
  /** The choice (0 for formats with a single candidate). */
  readonly choice: number;
  /** The wire id of the call it answers (the `toolCallId`). */
  readonly id: string;
  /** What the tool returned (any JSON value; AG-UI's `content` text or parts). Absent when it failed or was denied. */
  readonly output?: unknown;
  /** The tool failed: the error's text (AI SDK `errorText`). */
  readonly error?: string;
  /** The tool was not run: its approval was denied (AI SDK `tool-output-denied`). */
  readonly denied?: boolean;
  /** A progress value (AI SDK `preliminary: true`): a later result of the same call replaces it. */
  readonly preliminary?: boolean;
  /** The wire's extras (AI SDK `providerExecuted`, `dynamic`, `providerMetadata`; AG-UI `messageId`). */
  readonly metadata?: ProviderMetadata;
}

/**
 * The stream asks for the user's approval before a call is run (AI SDK `tool-approval-request`,
 * AG-UI `RUN_FINISHED` with an interrupt outcome naming the call). `chatState()` shows it on the
 * call as `approval`; the answer goes back in the next request.
 */
export interface ToolApprovalRequestEvent {
  /** Discriminant: always `'tool-approval-request'`. */
  readonly type: 'tool-approval-request';
  /** The choice (0 for formats with a single candidate). */
  readonly choice: number;
  /** The wire id of the call awaiting approval (the `toolCallId`). */
  readonly id: string;
  /** The approval's own id (AI SDK `approvalId`, AG-UI interrupt `id`): the answer names it. */
  readonly approvalId: string;
  /** The wire's extras (AG-UI interrupt `reason` and `message`). */
  readonly metadata?: ProviderMetadata;
}

/** A choice ended. All of its still-open tool calls are complete now. */
export interface FinishEvent {
  /** Discriminant: always `'finish'`. */
  readonly type: 'finish';
  /** The choice that ended (0 for formats with a single candidate). */
  readonly choice: number;
  /** Why it ended, normalised across providers (e.g. `'tool-calls'` for OpenAI `tool_calls` and Anthropic `tool_use`). */
  readonly reason: FinishReason;
  /** The provider's own string (`tool_calls`, `end_turn`, `STOP`, …). */
  readonly rawReason: string;
}

/**
 * Token counts with one meaning in every format. A count the provider did not report is absent.
 * `inputTokens` counts every input token (cache reads and writes included) and `outputTokens`
 * every generated token (reasoning included), so `totalTokens` is their sum (computed when the
 * provider omits it); `cachedInputTokens` and `cacheWriteInputTokens` are parts of `inputTokens`,
 * `reasoningTokens` a part of `outputTokens`.
 *
 * | provider | input | output |
 * |---|---|---|
 * | OpenAI chat / Responses | `prompt_tokens` / `input_tokens` (cached included) | `completion_tokens` / `output_tokens` (reasoning included; xAI leaves it out, which its total shows: added back) |
 * | Anthropic | `input_tokens` + `cache_read_input_tokens` + `cache_creation_input_tokens` | `output_tokens` (thinking included) |
 * | Gemini | `promptTokenCount` (cached included) + `toolUsePromptTokenCount` | `candidatesTokenCount` + `thoughtsTokenCount` |
 * | Cohere | `tokens.input_tokens` (or `billed_units`) | `tokens.output_tokens` (or `billed_units`) |
 */
export interface Usage {
  /** Every input token: uncached, read from the cache and written to it. */
  readonly inputTokens?: number;
  /** Every generated token, reasoning included. */
  readonly outputTokens?: number;
  /** `inputTokens + outputTokens` (the provider's own total when it sends one). */
  readonly totalTokens?: number;
  /** The part of `outputTokens` spent on reasoning / thinking. */
  readonly reasoningTokens?: number;
  /** The part of `inputTokens` read from the provider's prompt cache (priced at the cached price). */
  readonly cachedInputTokens?: number;
  /** The part of `inputTokens` written to the prompt cache (Anthropic's `cache_creation_input_tokens`). */
  readonly cacheWriteInputTokens?: number;
}

/**
 * Token usage, as far as the provider reports it, normalised (see {@link Usage}). A stream may carry
 * several usage events (Anthropic at `message_start` and again at `message_delta`, Gemini on every
 * chunk); the last one is the most complete.
 */
export interface UsageEvent extends Usage {
  /** Discriminant: always `'usage'`. */
  readonly type: 'usage';
  /** The provider's usage object, untouched. */
  readonly raw: unknown;
}

/** Response-level metadata (first sight of the response id / model). */
export interface MetadataEvent {
  /** Discriminant: always `'metadata'`. */
  readonly type: 'metadata';
  /** The provider's id of the response (e.g. `'chatcmpl-abc123'`, `'msg_01…'`, `'resp_…'`), when sent. */
  readonly responseId?: string;
  /** The model that answered, as the provider names it (e.g. `'gpt-4o-2024-08-06'`), when sent. */
  readonly model?: string;
  /** The wire format the stream was decoded as. */
  readonly provider: ProviderName;
}

/** The wire's terminator arrived (`[DONE]`, `message_stop`, `response.completed`, …). */
export interface DoneEvent {
  /** Discriminant: always `'done'`. */
  readonly type: 'done';
}

/**
 * `retryStream()` is about to make another attempt (show "reconnecting…"). Every other stage passes
 * it on or ignores it: `toolCalls()` reports nothing for it and the encoders write nothing.
 */
export interface RetryEvent {
  /** Discriminant: always `'retry'`. */
  readonly type: 'retry';
  /** The number of the attempt about to be made (2 for the first retry). */
  readonly attempt: number;
  /** What ended the previous attempt (a `provider-error` error, `connection-lost` error, `idle-timeout` error, …). */
  readonly error: unknown;
  /** How long `retryStream()` waits before making it, in milliseconds. */
  readonly delayMs: number;
}

/**
 * `retryStream()` with `restart: true` starts the response again from the beginning: drop the partial
 * state of the abandoned attempt (its text, its open calls). Results emitted before it stay emitted.
 * `toolCalls()` closes the calls the abandoned attempt left open as `incomplete` (the error's code as
 * reason) and reads the new attempt's calls afresh; the encoders write nothing.
 */
export interface RestartEvent {
  /** Discriminant: always `'restart'`. */
  readonly type: 'restart';
  /** The number of the attempt that starts over. */
  readonly attempt: number;
  /** What ended the abandoned attempt. */
  readonly error: unknown;
}

/** The union every stage shares, tagged by `type`. */
export type StreamEvent =
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ReasoningEndEvent
  | ToolCallDeltaEvent
  | ToolCallEndEvent
  | ProviderToolEvent
  | ToolResultEvent
  | ToolApprovalRequestEvent
  | FinishEvent
  | UsageEvent
  | MetadataEvent
  | DoneEvent
  | RetryEvent
  | RestartEvent;

/**
 * One record of a framing, what the wire formats read: a Server-Sent Event as `decodeSse()`
 * dispatches it (WHATWG field semantics), an AWS event-stream frame (`event` is its `:event-type`
 * or `:exception-type`, `data` its payload), an NDJSON line or a JSON-array element (`event`
 * `'message'`, `data` the line or element).
 */
export interface FramedRecord {
  /** The SSE `event:` field (`message` when absent), or the frame's event type; `message` for lines and elements. */
  readonly event: string;
  /** The SSE `data:` lines joined with `\n`; a frame's payload, a line, an element. */
  readonly data: string;
  /** SSE: the last event id seen so far in the stream (persists across events); `undefined` before any, and in the other framings. */
  readonly id: string | undefined;
  /** SSE: the `retry:` field of this event when it was all digits; else `undefined`. */
  readonly retry: number | undefined;
}
