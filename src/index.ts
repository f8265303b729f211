/**
 * rxjs-tool-calls: RxJS operators that turn streamed LLM tool calls into typed results.
 *
 * The main entry: pipelines, stage operators, sources, tools, merging, results and errors.
 * Extension points (parsers, the tracker, decoders, defining a wire format) are in
 * `rxjs-tool-calls/advanced`.
 *
 * @packageDocumentation
 */

// ---- Pipelines: bytes in, results or events out ------------------------------------------------
export { readToolCalls, type ReadToolCallsOptions } from './readToolCalls';
export { readStreamEvents, type ReadStreamEventsOptions } from './readStreamEvents';

// ---- Stage operators: SSE framing, wire formats ------------------------------------------------
export { decodeSse, type DecodeSseOptions } from './sse/decodeSse';
export { decodeAwsEventStream, type DecodeAwsEventStreamOptions } from './framing/decodeAwsEventStream';
export { decodeNdjson, type DecodeNdjsonOptions } from './framing/decodeNdjson';
export { decodeJsonArray, type DecodeJsonArrayOptions } from './framing/decodeJsonArray';
export { openaiChat } from './providers/openaiChat';
export { openaiResponses } from './providers/openaiResponses';
export { anthropicMessages } from './providers/anthropic';
export { gemini } from './providers/gemini';
export { cohereChat } from './providers/cohere';
export { bedrockConverse } from './providers/bedrockConverse';
export { bedrockInvokeModel } from './providers/bedrockInvokeModel';
export { ollamaChat } from './providers/ollama';
export { autoDetect, type ProviderOption } from './providers/auto';
export type { WireFormat, WireFormatDefinition } from './providers/format';
export { idleTimeout } from './reliability/idleTimeout';

// ---- Tool calls written as text (open models) ------------------------------------------------
export { textToolCalls, type TextToolCallsOptions, type TextToolCallSyntax } from './text/textToolCalls';

// ---- Stage operators: events → tool calls ------------------------------------------------------
export { toolCallUpdates, toolCalls, type ToolCallsOptions, type ToolCallUpdate, type TypedToolCallsOptions } from './parse/toolCalls';
export { groupToolCalls } from './parse/groupToolCalls';
export { accumulateToolCalls, type ToolCallSnapshot } from './parse/accumulateToolCalls';
export { isSettled, partialToolCalls, type PartialToolCall, type PartialToolCallsOptions, type TypedPartialToolCall, type TypedPartialToolCallsOptions } from './parse/partialToolCalls';
export { partialObject, type PartialObjectError, type PartialObjectOptions, type PartialObjectUpdate, type PartialObjectView } from './parse/partialObject';
export {
  chatState,
  initialChatState,
  type ChatState,
  type ChatStateOptions,
  type ChatStatus,
  type ChatStateCall,
  type ChatUsage,
  type TypedChatStateOptions,
  type TypedChatStateCall,
} from './chatState';
export type { DeepPartial } from './parse/deepPartial';
export { validateResults } from './parse/validateResults';
export { type InferToolCall, type MaybePromise, type StandardSchemaV1, type ToolSchemas, type TypedToolCallResult } from './parse/validate';
export type { TrackerOptions } from './accumulate/tracker';
export type { JsonPath } from './parse/partialJson';

// ---- Sources -----------------------------------------------------------------------------------
export {
  angularTextChunks,
  fromAsyncIterable,
  fromNodeReadable,
  fromReadableStream,
  fromResponse,
  responseBody,
  type AngularHttpEventLike,
  type AngularTextChunksOptions,
  type AsyncIterableInput,
  type FromResponseOptions,
  type NodeReadableLike,
  type ReadableStreamInput,
  type ResponseLike,
  type HeadersLike,
} from './sources';
export { fromAnthropicEvents, fromOpenAIChatChunks, fromOpenAIResponsesEvents, fromSdkEvents, type SdkEventName, type TypedSdkEvent } from './sdk';

// ---- Retry and fallback ----------------------------------------------------------------------
export { retryStream } from './retry/retryStream';
export { hedge, type HedgeOptions } from './retry/hedge';
export type { BackoffContext, RetryContext, RetryPolicyContext, RetryStreamOptions } from './retry/policy';

// ---- Merging streams ---------------------------------------------------------------------------
export {
  callKey,
  isMerged,
  mergeStreams,
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

// ---- Running tools -----------------------------------------------------------------------------
export {
  tool,
  type AnyTool,
  type ToolDeclaration,
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
export { toolLoop, type ToolLoopOptions, type ToolLoopRequest, type ToolLoopRequestContext } from './tools/toolLoop';
export { toolSpecs, type ToolDeclarations, type ToolSpecFormat, type ToolSpecs, type ToolSpecsByFormat, type ToolSpecsOptions } from './tools/toolSpecs';
export type { LoopMessage, ToolLoopDone, ToolLoopEvent, ToolLoopItem, ToolLoopStepEnd, ToolLoopStepStart, ToolLoopToolCall, ToolLoopToolResult } from './tools/loopItems';
export { assistantTextMessage, toolMessages, type MessageFormat, type ReasoningPart, type ToolMessagesOptions, type ToolStep, type TurnPiece, type WireMessage } from './tools/messages';
export type { OpenAIChatAssistantMessage, OpenAIChatToolMessage } from './providers/openaiChat/messages';
export type { ResponsesAssistantMessage, ResponsesFunctionCall, ResponsesFunctionCallOutput, ResponsesItem, ResponsesReasoningItem } from './providers/openaiResponses/messages';
export type { AnthropicAssistantBlock, AnthropicAssistantMessage, AnthropicToolResultBlock, AnthropicToolResultMessage } from './providers/anthropic/messages';
export type { GeminiModelContent, GeminiModelPart, GeminiResponsePart, GeminiToolContent } from './providers/gemini/messages';
export type { ConverseAssistantBlock, ConverseAssistantMessage, ConverseToolResultBlock, ConverseToolResultMessage } from './providers/bedrockConverse/messages';
export type { OllamaAssistantMessage, OllamaToolMessage } from './providers/ollama/messages';

// ---- StreamEvents → wire formats (re-encoding for gateways) ------------------------------------
export { encodeOpenAIChat, type EncodeOpenAIChatOptions } from './encode/encodeOpenAIChat';
export { encodeOpenAIResponses, type EncodeOpenAIResponsesOptions } from './encode/encodeOpenAIResponses';
export { encodeAnthropicMessages, type EncodeAnthropicMessagesOptions } from './encode/encodeAnthropicMessages';
export { encodeGemini, type EncodeGeminiOptions } from './encode/encodeGemini';
export { encodeBedrockConverse, type EncodeBedrockConverseOptions } from './encode/encodeBedrockConverse';
export { encodeOllamaChat, type EncodeOllamaChatOptions } from './encode/encodeOllamaChat';
export type { EncodeOptions } from './encode/encodeWith';
export type { EncoderOptions } from './providers/encoding';
export type { OpenAIChatEncoderOptions } from './providers/openaiChat/encoder';
export type { OpenAIResponsesEncoderOptions } from './providers/openaiResponses/encoder';
export type { AnthropicEncoderOptions } from './providers/anthropic/encoder';
export type { GeminiEncoderOptions } from './providers/gemini/encoder';
export type { BedrockConverseEncoderOptions } from './providers/bedrockConverse/encoder';
export type { OllamaEncoderOptions } from './providers/ollama/encoder';

// ---- Requests between wire formats (gateways) -------------------------------------------------
export {
  toAnthropicRequest,
  type AnthropicMessage,
  type AnthropicRequest,
  type AnthropicTextBlockParam,
  type AnthropicTool,
  type AnthropicToolChoice,
  type AnthropicToolResultBlockParam,
  type AnthropicToolUseBlockParam,
  type ToAnthropicRequestOptions,
} from './providers/anthropic/request';
export type {
  AnthropicBlockInput,
  AnthropicMessageInput,
  AnthropicOtherBlockInput,
  AnthropicRequestInput,
  AnthropicTextBlockInput,
  AnthropicToolChoiceInput,
  AnthropicToolInput,
  AnthropicToolResultBlockInput,
  AnthropicToolUseBlockInput,
} from './providers/anthropic/requestInput';
export {
  toResponsesRequest,
  type ResponsesFunctionCallItem,
  type ResponsesFunctionCallOutputItem,
  type ResponsesFunctionTool,
  type ResponsesInputItem,
  type ResponsesInputText,
  type ResponsesMessageItem,
  type ResponsesRequest,
  type ToResponsesRequestOptions,
} from './providers/openaiResponses/request';
export {
  toGeminiRequest,
  type GeminiContent,
  type GeminiFunctionCallingConfig,
  type GeminiFunctionCallPart,
  type GeminiFunctionDeclaration,
  type GeminiFunctionResponsePart,
  type GeminiGenerateContentRequest,
  type GeminiPart,
  type GeminiRequest,
  type GeminiTextPart,
  type ToGeminiRequestOptions,
} from './providers/gemini/request';
export { type GeminiSchema, type GeminiSchemaDrop, type GeminiSchemaOptions, type GeminiType } from './providers/gemini/schema';
export {
  toConverseRequest,
  type ConverseMessage,
  type ConverseRequest,
  type ConverseRequestBody,
  type ConverseTextBlock,
  type ConverseTool,
  type ConverseToolChoice,
  type ConverseToolResultBlockParam,
  type ConverseToolUseBlock,
  type ToConverseRequestOptions,
} from './providers/bedrockConverse/request';
export {
  toOllamaRequest,
  type OllamaChatMessage,
  type OllamaChatRequestBody,
  type OllamaRequest,
  type OllamaTool,
  type OllamaToolCallParam,
  type ToOllamaRequestOptions,
} from './providers/ollama/request';
export { fromAnthropicRequest, type FromAnthropicRequestOptions } from './providers/openaiChat/fromAnthropicRequest';
export type {
  ChatAssistantMessage,
  ChatDeveloperMessage,
  ChatFunctionTool,
  ChatMessage,
  ChatNamedToolChoice,
  ChatRequest,
  ChatSystemMessage,
  ChatTextPart,
  ChatToolCall,
  ChatToolChoice,
  ChatToolMessage,
  ChatUserMessage,
  JsonSchema,
  StreamingRequest,
  WithStream,
} from './providers/openaiChat/request';
export type {
  ChatAssistantMessageInput,
  ChatCustomInput,
  ChatFunctionCallInput,
  ChatFunctionMessageInput,
  ChatFunctionToolInput,
  ChatMessageInput,
  ChatOtherPartInput,
  ChatOtherToolChoiceInput,
  ChatRequestInput,
  ChatSystemMessageInput,
  ChatTextInput,
  ChatToolCallInput,
  ChatToolChoiceInput,
  ChatToolInput,
  ChatToolMessageInput,
  ChatUserMessageInput,
} from './providers/openaiChat/requestInput';
export type { RequestTarget, TranslateRequestOptions } from './providers/requestReader';

// ---- Usage and cost -------------------------------------------------------------------------------
export { totalUsage, type TotalUsageOptions } from './usage/totalUsage';
export { costOf, type Cost, type CostOptions, type DecimalInput, type TokenPrice } from './usage/costOf';
export type { RoundingMode } from './usage/decimal';

// ---- The shared vocabulary: events, results, errors -------------------------------------------
export type {
  DoneEvent,
  FinishEvent,
  FinishReason,
  MetadataEvent,
  ProviderMetadata,
  ProviderName,
  ReasoningDeltaEvent,
  ReasoningEndEvent,
  RestartEvent,
  RetryEvent,
  SseEvent,
  StreamEvent,
  TextDeltaEvent,
  ToolCallDeltaEvent,
  ToolCallEndEvent,
  Usage,
  UsageEvent,
} from './events';
export type { Result, ToolCall, ToolCallResult } from './result';
export {
  ERROR_CODES,
  isToolStreamError,
  ToolStreamError,
  type CallDetails,
  type CallIdentity,
  type CodeOfScope,
  type ErrorFields,
  type ErrorInit,
  type DeliveredOutput,
  type DeliveredToolCall,
  type ErrorDetails,
  type ErrorOptions,
  type ErrorScope,
  type FailedToolCall,
  type FramingName,
  type IncompleteReason,
  type ProviderErrorInfo,
  type StreamDetails,
  type StreamErrorCode,
  type ToolCallContext,
  type ToolCallError,
  type ToolRunError,
  type ToolStreamErrorCode,
  type ValidationIssue,
} from './errors';
