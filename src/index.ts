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
  ERROR_CODES,
  EventTooLargeError,
  IdleTimeoutError,
  IncompleteToolCallError,
  InvalidArgumentsError,
  InvalidEventError,
  isToolStreamError,
  MalformedArgumentsError,
  ProviderError,
  TooManyToolCallsError,
  ToolStreamError,
  TruncatedStreamError,
  UnknownFormatError,
  UnknownToolError,
  type AnyToolStreamError,
  type IncompleteReason,
  type ProviderErrorInfo,
  type ToolCallContext,
  type ToolCallError,
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
export { ToolCallTracker, type TrackedCall, type TrackerOptions } from './accumulate/tracker';
export { accumulateToolCalls, type ToolCallSnapshot } from './accumulate/accumulateToolCalls';
export { groupToolCalls, toolCallUpdates, toolCalls, type ToolCallsOptions, type ToolCallUpdate } from './accumulate/toolCalls';
export { parseArguments, type ParsedArguments } from './parse/arguments';

// ---- Input sources ---------------------------------------------------------------------------
export {
  angularTextChunks,
  fromAsyncIterable,
  fromNodeReadable,
  fromOpenAIChatChunks,
  fromReadableStream,
  fromResponse,
  fromSdkEvents,
  httpProviderError,
  responseBody,
  type AngularHttpEventLike,
  type AngularTextChunksOptions,
  type AsyncIterableInput,
  type FromResponseOptions,
  type NodeReadableLike,
  type ReadableStreamInput,
  type ResponseLike,
  type SdkEventName,
} from './sources';

// ---- Reliability ------------------------------------------------------------------------------
export { idleTimeout } from './reliability/idleTimeout';

// ---- Compositions -----------------------------------------------------------------------------
export { readStreamEvents, type ReadStreamEventsOptions } from './readStreamEvents';
export { readToolCalls, type ReadToolCallsOptions } from './readToolCalls';
