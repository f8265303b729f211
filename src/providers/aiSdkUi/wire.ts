/**
 * The AI SDK UI message stream's wire types: the chunks of the stream (what `aiSdkUi()` reads and
 * `encodeAiSdkUi()` writes; the `ai` package's `UIMessageChunk`), and the UI messages a `useChat`
 * client posts (what `fromAiSdkUiRequest()` reads; the `ai` package's `UIMessage`). Written from the
 * protocol's schemas (`ai` 6, `ui-message-chunks.ts` and `ui-messages.ts`); checked against the
 * package's own types in `spec/types/uiProtocols.test-d.ts`.
 *
 * @module
 */

/** Provider-specific extras the AI SDK passes through, keyed by provider (`{ anthropic: { signature } }`). */
export type ProviderMetadata = { readonly [provider: string]: { readonly [key: string]: unknown } };

/** The normalised finish reasons of the AI SDK (the same names as the vocabulary's `FinishReason`). */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** The message starts: its id (the client keeps its own when absent) and metadata. */
export interface StartChunk {
  /** The discriminant. */
  type: 'start';
  /** The message's id (the client keeps its own when absent). */
  messageId?: string;
  /** The message's metadata (merged into what it had): the app's own, and by convention `usage` / `totalUsage` (the AI SDK's `LanguageModelUsage`). */
  messageMetadata?: unknown;
}

/** A step (one model call of a multi-step turn) starts. */
export interface StartStepChunk {
  /** The discriminant. */
  type: 'start-step';
}

/** A step ends. */
export interface FinishStepChunk {
  /** The discriminant. */
  type: 'finish-step';
}

/** A text part opens: its `id` names it in the deltas and its end. */
export interface TextStartChunk {
  /** The discriminant. */
  type: 'text-start';
  /** The part's id: its deltas and its end name it. */
  id: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A piece of a text part. */
export interface TextDeltaChunk {
  /** The discriminant. */
  type: 'text-delta';
  /** The part's id: its deltas and its end name it. */
  id: string;
  /** The text to append. */
  delta: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A text part closes. */
export interface TextEndChunk {
  /** The discriminant. */
  type: 'text-end';
  /** The part's id: its deltas and its end name it. */
  id: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A reasoning part opens. */
export interface ReasoningStartChunk {
  /** The discriminant. */
  type: 'reasoning-start';
  /** The part's id: its deltas and its end name it. */
  id: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A piece of a reasoning part. */
export interface ReasoningDeltaChunk {
  /** The discriminant. */
  type: 'reasoning-delta';
  /** The part's id: its deltas and its end name it. */
  id: string;
  /** The text to append. */
  delta: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A reasoning part closes. */
export interface ReasoningEndChunk {
  /** The discriminant. */
  type: 'reasoning-end';
  /** The part's id: its deltas and its end name it. */
  id: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** The fields a tool call's chunks share. */
export interface ToolFields {
  /** The call's id: every chunk of the call names it. */
  toolCallId: string;
  /** The tool ran on the provider's side (a web search, code execution): not for the client to run. */
  providerExecuted?: boolean;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
  /** Metadata of the tool definition, passed through. */
  toolMetadata?: { readonly [key: string]: unknown };
  /** A tool the server did not declare statically (a `dynamic-tool` part). */
  dynamic?: boolean;
}

/** A tool call opens: its input streams next (`tool-input-delta`). */
export interface ToolInputStartChunk extends ToolFields {
  /** The discriminant. */
  type: 'tool-input-start';
  /** The tool's name. */
  toolName: string;
  /** `'text'`: the input is free text (a custom tool's), not JSON. Default `'json'`. */
  inputEncoding?: 'json' | 'text';
  /** A title for the call, shown by UIs. */
  title?: string;
}

/** A piece of a tool call's input text (JSON, or text with `inputEncoding: 'text'`). */
export interface ToolInputDeltaChunk {
  /** The discriminant. */
  type: 'tool-input-delta';
  /** The call's id: every chunk of the call names it. */
  toolCallId: string;
  /** The next piece of the input text. */
  inputTextDelta: string;
}

/** A tool call's whole input, parsed: the call is complete (the input a client acts on). */
export interface ToolInputAvailableChunk extends ToolFields {
  /** The discriminant. */
  type: 'tool-input-available';
  /** The tool's name. */
  toolName: string;
  /** The input. */
  input: unknown;
  /** A title for the call, shown by UIs. */
  title?: string;
}

/** A tool call whose input could not be used (not JSON, not valid for the tool): the raw input and why. */
export interface ToolInputErrorChunk extends ToolFields {
  /** The discriminant. */
  type: 'tool-input-error';
  /** The tool's name. */
  toolName: string;
  /** The input. */
  input: unknown;
  /** What went wrong, as text to show. */
  errorText: string;
  /** A title for the call, shown by UIs. */
  title?: string;
}

/** The call waits for the user's approval; the answer names `approvalId`. */
export interface ToolApprovalRequestChunk {
  /** The discriminant. */
  type: 'tool-approval-request';
  /** The approval's id: the answer names it. */
  approvalId: string;
  /** The call's id: every chunk of the call names it. */
  toolCallId: string;
  /** What the approval is about, for the UI. */
  approvalDescriptor?: unknown;
  /** The input as the tool's schema saw it, when it differs. */
  inputSchemaInput?: unknown;
  /** A signature of the request, sent back with the answer. */
  signature?: string;
}

/** What the tool returned (`preliminary`: a progress value, replaced by a later one). */
export interface ToolOutputAvailableChunk extends ToolFields {
  /** The discriminant. */
  type: 'tool-output-available';
  /** What the tool returned. */
  output: unknown;
  /** A progress value: a later output of the same call replaces it. */
  preliminary?: boolean;
}

/** The tool failed. */
export interface ToolOutputErrorChunk extends ToolFields {
  /** The discriminant. */
  type: 'tool-output-error';
  /** What went wrong, as text to show. */
  errorText: string;
}

/** The tool was not run: its approval was denied. */
export interface ToolOutputDeniedChunk {
  /** The discriminant. */
  type: 'tool-output-denied';
  /** The call's id: every chunk of the call names it. */
  toolCallId: string;
}

/** A source the answer cites (a URL). */
export interface SourceUrlChunk {
  /** The discriminant. */
  type: 'source-url';
  /** The source's id. */
  sourceId: string;
  /** The URL (a data URL for inline bytes). */
  url: string;
  /** A title for the call, shown by UIs. */
  title?: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A source the answer cites (a document). */
export interface SourceDocumentChunk {
  /** The discriminant. */
  type: 'source-document';
  /** The source's id. */
  sourceId: string;
  /** The IANA media type (`image/png`, …). */
  mediaType: string;
  /** A title for the call, shown by UIs. */
  title: string;
  /** The file name, when known. */
  filename?: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A file the model generated (an image, as a data URL or a URL). */
export interface FileChunk {
  /** The discriminant. */
  type: 'file';
  /** The URL (a data URL for inline bytes). */
  url: string;
  /** The IANA media type (`image/png`, …). */
  mediaType: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** The app's own data (`data-weather`, …): `transient` ones are not kept in the message. */
export interface DataChunk {
  /** The discriminant. */
  type: `data-${string}`;
  /** The part's id (a later part with the same id replaces it). */
  id?: string;
  /** The app's value. */
  data: unknown;
  /** Not kept in the message (only handed to `onData`). */
  transient?: boolean;
}

/** The stream failed: the message the server chose to show (the AI SDK masks errors by default). */
export interface ErrorChunk {
  /** The discriminant. */
  type: 'error';
  /** What went wrong, as text to show. */
  errorText: string;
}

/** The server aborted the answer (its request was cancelled). */
export interface AbortChunk {
  /** The discriminant. */
  type: 'abort';
  /** Why. */
  reason?: string;
}

/** The message ends: why, and its metadata. */
export interface FinishChunk {
  /** The discriminant. */
  type: 'finish';
  /** Why the message ended. */
  finishReason?: FinishReason;
  /** The message's metadata (merged into what it had): the app's own, and by convention `usage` / `totalUsage` (the AI SDK's `LanguageModelUsage`). */
  messageMetadata?: unknown;
}

/** Metadata of the message, merged into what it had. */
export interface MessageMetadataChunk {
  /** The discriminant. */
  type: 'message-metadata';
  /** The message's metadata (merged into what it had): the app's own, and by convention `usage` / `totalUsage` (the AI SDK's `LanguageModelUsage`). */
  messageMetadata: unknown;
}

/** One chunk of the UI message stream (one SSE event's data; the stream ends with `data: [DONE]`). */
export type Chunk =
  | StartChunk
  | StartStepChunk
  | FinishStepChunk
  | TextStartChunk
  | TextDeltaChunk
  | TextEndChunk
  | ReasoningStartChunk
  | ReasoningDeltaChunk
  | ReasoningEndChunk
  | ToolInputStartChunk
  | ToolInputDeltaChunk
  | ToolInputAvailableChunk
  | ToolInputErrorChunk
  | ToolApprovalRequestChunk
  | ToolOutputAvailableChunk
  | ToolOutputErrorChunk
  | ToolOutputDeniedChunk
  | SourceUrlChunk
  | SourceDocumentChunk
  | FileChunk
  | DataChunk
  | ErrorChunk
  | AbortChunk
  | FinishChunk
  | MessageMetadataChunk;

// ---- UI messages: what a useChat client posts -----------------------------------------------

/** A text part of a UI message. */
export interface TextPart {
  /** The discriminant. */
  type: 'text';
  /** The text. */
  text: string;
  /** Whether the part was still streaming. */
  state?: 'streaming' | 'done';
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A reasoning part of an assistant message. */
export interface ReasoningPart {
  /** The discriminant. */
  type: 'reasoning';
  /** The text. */
  text: string;
  /** Whether the part is still streaming. */
  state?: 'streaming' | 'done';
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A file part (a user's upload, or a generated file). */
export interface FilePart {
  /** The discriminant. */
  type: 'file';
  /** The IANA media type (`image/png`, …). */
  mediaType: string;
  /** The URL (a data URL for inline bytes). */
  url: string;
  /** The file name, when known. */
  filename?: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A cited URL. */
export interface SourceUrlPart {
  /** The discriminant. */
  type: 'source-url';
  /** The source's id. */
  sourceId: string;
  /** The URL (a data URL for inline bytes). */
  url: string;
  /** A title for the call, shown by UIs. */
  title?: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** A cited document. */
export interface SourceDocumentPart {
  /** The discriminant. */
  type: 'source-document';
  /** The source's id. */
  sourceId: string;
  /** The IANA media type (`image/png`, …). */
  mediaType: string;
  /** A title for the call, shown by UIs. */
  title: string;
  /** The file name, when known. */
  filename?: string;
  /** Provider-specific extras, passed through. */
  providerMetadata?: ProviderMetadata;
}

/** Where a step (one model call) of a multi-step answer starts. */
export interface StepStartPart {
  /** The discriminant. */
  type: 'step-start';
}

/** The app's own data. */
export interface DataPart {
  /** The discriminant. */
  type: `data-${string}`;
  /** The part's id (a later part with the same id replaces it). */
  id?: string;
  /** The app's value. */
  data: unknown;
}

/** Where a tool call is: its input streaming, complete, waiting for approval, or answered. */
export type ToolState = 'input-streaming' | 'input-available' | 'approval-requested' | 'approval-responded' | 'output-available' | 'output-error' | 'output-denied';

/** An approval asked for (and, once answered, the answer). */
export interface ToolApproval {
  /** The approval's id. */
  id: string;
  /** The answer: approved or not. */
  approved?: boolean;
  /** Why. */
  reason?: string;
}

/** The fields of a tool part, static (`tool-NAME`) or dynamic. */
export interface ToolPartFields {
  /** The call's id (the tool message answering it names it). */
  toolCallId: string;
  /** Where the call is. */
  state: ToolState;
  /** The input (partial while streaming). */
  input?: unknown;
  /** The raw input of a call whose input failed (`output-error` from `tool-input-error`). */
  rawInput?: unknown;
  /** With `output-available`. */
  output?: unknown;
  /** With `output-error`. */
  errorText?: string;
  /** The tool ran on the provider's side (a web search, code execution): not for the client to run. */
  providerExecuted?: boolean;
  /** A progress value: a later output of the same call replaces it. */
  preliminary?: boolean;
  /** The approval asked for, and its answer once given. */
  approval?: ToolApproval;
  /** A title for the call, shown by UIs. */
  title?: string;
  /** Provider extras of the call. */
  callProviderMetadata?: ProviderMetadata;
}

/** A call of a tool the server declared: its type is `tool-` and the tool's name. */
export interface ToolPart extends ToolPartFields {
  /** The discriminant. */
  type: `tool-${string}`;
}

/** A call of a tool not declared statically. */
export interface DynamicToolPart extends ToolPartFields {
  /** The discriminant. */
  type: 'dynamic-tool';
  /** The tool's name. */
  toolName: string;
}

/** One part of a UI message. */
export type MessagePart = TextPart | ReasoningPart | FilePart | SourceUrlPart | SourceDocumentPart | StepStartPart | DataPart | ToolPart | DynamicToolPart;

/** One message of a `useChat` conversation. */
export interface UIMessage {
  /** The message's id. */
  id: string;
  /** Who wrote it. */
  role: 'system' | 'user' | 'assistant';
  /** The message's metadata. */
  metadata?: unknown;
  /** Its parts, in order. */
  parts: MessagePart[];
}

/**
 * The body `useChat`'s transport (`DefaultChatTransport`) posts: the chat's id, its messages, what
 * triggered the request, and whatever the app added with its `body` option (a `model`, …).
 */
export interface ChatRequest {
  /** The chat's id. */
  id?: string;
  /** The conversation so far, the new user message last. */
  messages: UIMessage[];
  /** What the client asked for: a new answer, or the last one again. */
  trigger?: 'submit-message' | 'regenerate-message';
  /** With `regenerate-message`: the assistant message to answer again. */
  messageId?: string;
  /** Whatever the app added with its transport's `body` option (a `model`, …). */
  [key: string]: unknown;
}
