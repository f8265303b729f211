/**
 * rxjs-tool-calls: RxJS operators that turn streamed LLM tool calls into typed results.
 *
 * @packageDocumentation
 */

// ---- Shared vocabulary ------------------------------------------------------------------------
export type {
  DoneEvent,
  FinishEvent,
  FinishReason,
  MetadataEvent,
  ProviderMetadata,
  ProviderName,
  ReasoningDeltaEvent,
  SseEvent,
  StreamEvent,
  TextDeltaEvent,
  ToolCallDeltaEvent,
  ToolCallEndEvent,
  UsageEvent,
} from './events';

// ---- Results and errors -----------------------------------------------------------------------
export { fail, ok, type Result, type ToolCall, type ToolCallResult } from './result';
export {
  ArgumentsTooLargeError,
  ConnectionLostError,
  ERROR_CODES,
  EventTooLargeError,
  IdleTimeoutError,
  IncompleteToolCallError,
  InvalidArgumentsError,
  InvalidEventError,
  isToolStreamError,
  MalformedArgumentsError,
  MissingNameError,
  MaxStepsError,
  ProviderError,
  TooManyToolCallsError,
  ToolFailedError,
  ToolStreamError,
  ToolTimeoutError,
  TruncatedStreamError,
  UnknownFormatError,
  UnknownToolError,
  type AnyToolStreamError,
  type FailedToolCall,
  type IncompleteReason,
  type ProviderErrorInfo,
  type ToolCallContext,
  type ToolCallError,
  type ToolRunError,
  type ToolStreamErrorCode,
  type ValidationIssue,
} from './errors';

// ---- Bytes → SSE events -----------------------------------------------------------------------
export { decodeSse, DEFAULT_MAX_EVENT_SIZE, SseParser, type DecodeSseOptions, type SseEventHandler, type SseParserOptions } from './sse';

// ---- SSE events → StreamEvents (wire formats) -------------------------------------------------
export { openaiChat, OpenAIChatDecoder, normalizeChatFinishReason } from './providers/openaiChat';
export { openaiResponses, OpenAIResponsesDecoder } from './providers/openaiResponses';
export { anthropicMessages, AnthropicMessagesDecoder, normalizeAnthropicStopReason } from './providers/anthropicMessages';
export { gemini, GeminiDecoder, normalizeGeminiFinishReason } from './providers/gemini';
export { cohereChat, CohereChatDecoder, normalizeCohereFinishReason } from './providers/cohereChat';
export { autoDetect, AutoDecoder, DECODERS, decoderFor, type ProviderOption } from './providers/registry';
export { detectFormat } from './providers/detect';
export type { Emit, WireDecoder } from './providers/decoder';

// ---- StreamEvents → tool calls ----------------------------------------------------------------
export { ToolCallTracker, type CallEnding, type TrackedCall, type TrackerOptions } from './accumulate/tracker';
export { accumulateToolCalls, type ToolCallSnapshot } from './parse/accumulateToolCalls';
export type { ArgumentsParser } from './parse/results';
export { groupToolCalls, toolCallUpdates, toolCalls, type ToolCallsOptions, type ToolCallUpdate, type TypedToolCallsOptions } from './parse/toolCalls';
export { validateResults } from './parse/validateResults';

// ---- Parsing and validating arguments ---------------------------------------------------------
export { parseArguments, type ParsedArguments } from './parse/arguments';
export { PartialJsonError, PartialJsonParser, type JsonPath, type PartialJsonOptions } from './parse/partialJson';
export { isSettled, partialToolCalls, type PartialToolCall, type PartialToolCallsOptions } from './parse/partialToolCalls';
export {
  contextOf,
  isPromiseLike,
  toValidationIssues,
  validateArguments,
  validateArgumentsAsync,
  validateToolCall,
  type InferToolCall,
  type MaybePromise,
  type StandardSchemaV1,
  type ToolSchemas,
  type TypedToolCallResult,
} from './parse/validate';

// ---- Input sources ---------------------------------------------------------------------------
export {
  angularTextChunks,
  fromAnthropicEvents,
  fromAsyncIterable,
  fromNodeReadable,
  fromOpenAIChatChunks,
  fromOpenAIResponsesEvents,
  fromReadableStream,
  fromResponse,
  fromSdkEvents,
  httpProviderError,
  isConnectionLost,
  responseBody,
  type AngularHttpEventLike,
  type AngularTextChunksOptions,
  type AsyncIterableInput,
  type FromResponseOptions,
  type NodeReadableLike,
  type ReadableStreamInput,
  type ResponseLike,
  type SdkEventName,
  type TypedSdkEvent,
} from './sources';

// ---- Reliability ------------------------------------------------------------------------------
export { idleTimeout } from './reliability/idleTimeout';

// ---- Compositions -----------------------------------------------------------------------------
export { readStreamEvents, type ReadStreamEventsOptions } from './readStreamEvents';
export { readToolCalls, type ReadToolCallsOptions } from './readToolCalls';

// ---- Merging ----------------------------------------------------------------------------------
export {
  callKey,
  isMerged,
  mergeStreams,
  sourceCallId,
  tagSource,
  type MergedComplete,
  type MergedError,
  type MergedEvent,
  type MergedItem,
  type MergedResult,
  type MergeSource,
  type MergeSourceOptions,
  type MergeStreamsOptions,
  type TagSourceOptions,
} from './merge/mergeStreams';

// ---- Running tools ---------------------------------------------------------------------------
export {
  tool,
  type AnyTool,
  type InferToolRun,
  type ToolArgs,
  type ToolArgsOf,
  type ToolContext,
  type ToolDefinition,
  type ToolOutputOf,
  type ToolReturn,
  type ToolRun,
  type ToolRunResult,
  type ToolSet,
} from './tools/types';
export { runTools, type RunToolsOptions } from './tools/runTools';
export {
  anthropicToolMessages,
  assistantTextMessage,
  defaultStringify,
  geminiToolContents,
  openaiChatToolMessages,
  openaiResponsesToolItems,
  toolMessages,
  type AnthropicAssistantBlock,
  type AnthropicAssistantMessage,
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  type GeminiModelContent,
  type GeminiModelPart,
  type GeminiResponsePart,
  type GeminiToolContent,
  type MessageFormat,
  type OpenAIChatAssistantMessage,
  type OpenAIChatToolMessage,
  type ReasoningPart,
  type ResponsesAssistantMessage,
  type ResponsesFunctionCall,
  type ResponsesFunctionCallOutput,
  type ResponsesItem,
  type ToolMessagesOptions,
  type ToolStep,
  type WireMessage,
} from './tools/messages';
export { toolLoop, type LoopMessage, type ToolLoopItem, type ToolLoopOptions, type ToolLoopRequest } from './tools/toolLoop';
