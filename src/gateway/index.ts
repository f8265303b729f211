/**
 * `rxjs-tool-calls/gateway`: what a gateway between LLM APIs needs beyond reading — re-encoding
 * events into another wire format, translating requests between formats, merging and racing
 * streams, and usage and cost.
 *
 * @packageDocumentation
 */

// ---- StreamEvents → wire formats (re-encoding for gateways) ------------------------------------
export { encodeOpenAIChat, type EncodeOpenAIChatOptions } from './encode/encodeOpenAIChat';
export { encodeOpenAIResponses, type EncodeOpenAIResponsesOptions } from './encode/encodeOpenAIResponses';
export { encodeAnthropicMessages, type EncodeAnthropicMessagesOptions } from './encode/encodeAnthropicMessages';
export { encodeGemini, type EncodeGeminiOptions } from './encode/encodeGemini';
export { encodeBedrockConverse, type EncodeBedrockConverseOptions } from './encode/encodeBedrockConverse';
export { encodeOllamaChat, type EncodeOllamaChatOptions } from './encode/encodeOllamaChat';
export type { EncodeOptions } from './encode/encodeWith';
export type { EncoderOptions } from '../providers/encoding';
export type { OpenAIChatEncoderOptions } from '../providers/openaiChat/encoder';
export type { OpenAIResponsesEncoderOptions } from '../providers/openaiResponses/encoder';
export type { AnthropicEncoderOptions } from '../providers/anthropic/encoder';
export type { GeminiEncoderOptions } from '../providers/gemini/encoder';
export type { BedrockConverseEncoderOptions } from '../providers/bedrockConverse/encoder';
export type { OllamaEncoderOptions } from '../providers/ollama/encoder';

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
} from '../providers/anthropic/request';
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
} from '../providers/anthropic/requestInput';
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
} from '../providers/openaiResponses/request';
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
} from '../providers/gemini/request';
export { type GeminiSchema, type GeminiSchemaDrop, type GeminiSchemaOptions, type GeminiType } from '../providers/gemini/schema';
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
} from '../providers/bedrockConverse/request';
export {
  toOllamaRequest,
  type OllamaChatMessage,
  type OllamaChatRequestBody,
  type OllamaRequest,
  type OllamaTool,
  type OllamaToolCallParam,
  type ToOllamaRequestOptions,
} from '../providers/ollama/request';
export { fromAnthropicRequest, type FromAnthropicRequestOptions } from '../providers/openaiChat/fromAnthropicRequest';
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
} from '../providers/openaiChat/request';
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
} from '../providers/openaiChat/requestInput';
export type { RequestTarget, TranslateRequestOptions } from '../providers/requestReader';

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
} from './mergeStreams';

// ---- Racing requests ---------------------------------------------------------------------------
export { hedge, type HedgeOptions } from './hedge';

// ---- Usage and cost -------------------------------------------------------------------------------
export { totalUsage, type TotalUsageOptions } from './usage/totalUsage';
export { costOf, type Cost, type CostOptions, type DecimalInput, type TokenPrice } from './usage/costOf';
export type { RoundingMode } from './usage/decimal';

// ---- Schemas and usage sums for gateways ---------------------------------------------------------
export { toGeminiSchema } from '../providers/gemini/schema';
export { addUsage } from './usage/totalUsage';
export { sourceCallId } from './mergeStreams';
