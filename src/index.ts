/**
 * rxjs-tool-calls: RxJS operators that read streamed LLM tool calls into typed results.
 *
 * The main entry is for reading streams: sources, SSE framing, the wire formats, the reducer's
 * operators (`accumulateToolCalls`, `groupToolCalls`, `toolCalls`), the fused readers, partial
 * values, view state, retry, and the errors. Each other product is a wing with its own entry
 * (`/gateway`, `/tools`, `/text`, `/sdk`, `/angular`, `/async`, `/marbles`); extension points are in
 * `/advanced`.
 *
 * @packageDocumentation
 */

// ---- Sources: a response's bytes as an observable ---------------------------------------------
export { fromResponse, responseBody, type FromResponseOptions, type ResponseInput, type ResponseLike } from './sources/response';
export { fromReadableStream, type ReadableStreamInput } from './sources/readableStream';
export { fromAsyncIterable, type AsyncIterableInput } from './sources/asyncIterable';
export type { HeadersLike } from './sources/retryAfter';

// ---- Reading: bytes → results or events, in one operator ----------------------------------------
export { readToolCalls, type ReadToolCallsOptions } from './read/readToolCalls';
export { readStreamEvents, type ReadStreamEventsOptions } from './read/readStreamEvents';
export { idleTimeout } from './read/idleTimeout';

// ---- The stages: SSE framing, wire formats ------------------------------------------------------
export { decodeSse, type DecodeSseOptions } from './sse/decodeSse';
export { decodeAwsEventStream, type DecodeAwsEventStreamOptions } from './framing/decodeAwsEventStream';
export { decodeNdjson, type DecodeNdjsonOptions } from './framing/decodeNdjson';
export { decodeJsonArray, type DecodeJsonArrayOptions } from './framing/decodeJsonArray';
export { openaiChat } from './providers/openaiChat';
export { openaiResponses } from './providers/openaiResponses';
export { openaiRealtime } from './providers/openaiRealtime';
export { anthropicMessages } from './providers/anthropic';
export { gemini } from './providers/gemini';
export { geminiInteractions } from './providers/geminiInteractions';
export { cohereChat } from './providers/cohere';
export { bedrockConverse } from './providers/bedrockConverse';
export { bedrockInvokeModel } from './providers/bedrockInvokeModel';
export { ollamaChat } from './providers/ollama';
export { aiSdkUi } from './providers/aiSdkUi';
export { agUi } from './providers/agUi';
export { autoDetect, type ProviderOption } from './providers/auto';
export type { WireFormat } from './providers/format';

// ---- The card: the reducer as scan, each call its group, each group its result ------------------
export { accumulateToolCalls, type ToolCallSnapshot } from './operators/accumulateToolCalls';
export { groupToolCalls, type ToolCallUpdate } from './operators/groupToolCalls';
export { toolCalls } from './operators/toolCalls';
export { validateResults } from './operators/validateResults';
export type { ToolCallsOptions } from './calls/call';
export type { InferToolCall, StandardSchemaV1, ToolArguments, ToolName, ToolSchemas, ToolsInput, TypedToolCallResult } from './parse/validate';

// ---- Views: partial arguments, structured output, one chat turn ---------------------------------
export { isSettled, partialToolCalls, type PartialToolCall, type PartialToolCallsOptions, type TypedPartialToolCall } from './operators/partialToolCalls';
export { partialObject, type PartialObjectError, type PartialObjectOptions, type PartialObjectUpdate, type PartialObjectView } from './operators/partialObject';
export { chatState, type ChatState, type ChatStateCall, type ChatStateOptions, type ChatStatus, type ChatUsage, type TypedChatStateCall } from './operators/chatState';
export type { DeepPartial } from './parse/deepPartial';
export type { JsonPath } from './parse/partialJson';

// ---- Retry ---------------------------------------------------------------------------------------
export { retryStream } from './retry/retryStream';
export type { BackoffContext, RetryContext, RetryPolicyContext, RetryStreamOptions } from './retry/policy';

// ---- The vocabulary: events, results, errors ----------------------------------------------------
export type {
  DoneEvent,
  FinishEvent,
  FinishReason,
  MetadataEvent,
  ProviderMetadata,
  ProviderName,
  ProviderToolEvent,
  ReasoningDeltaEvent,
  ReasoningEndEvent,
  ReasoningPart,
  RestartEvent,
  RetryEvent,
  FramedRecord,
  StreamEvent,
  TextDeltaEvent,
  ToolCallDeltaEvent,
  ToolCallEndEvent,
  ToolResultEvent,
  ToolApprovalRequestEvent,
  Usage,
  UsageEvent,
} from './events';
export type { CustomToolCall, Result, ToolCall, ToolCallResult } from './result';
export {
  ERROR_CODES,
  isToolStreamError,
  ToolStreamError,
  type CallIdentity,
  type DeliveredOutput,
  type DeliveredToolCall,
  type FailedToolCall,
  type FramingName,
  type IncompleteReason,
  type ProviderErrorInfo,
  type ToolCallContext,
  type ToolCallError,
  type ToolRunError,
  type ToolStreamErrorCode,
  type ValidationIssue,
} from './errors';
