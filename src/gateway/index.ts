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
export { encodeGeminiInteractions, type EncodeGeminiInteractionsOptions } from './encode/encodeGeminiInteractions';
export { encodeBedrockConverse, type EncodeBedrockConverseOptions } from './encode/encodeBedrockConverse';
export { encodeOllamaChat, type EncodeOllamaChatOptions } from './encode/encodeOllamaChat';
export { encodeAiSdkUi, type EncodeAiSdkUiOptions } from './encode/encodeAiSdkUi';
export { encodeAgUi, type EncodeAgUiOptions } from './encode/encodeAgUi';
export type { EncodeOptions } from './encode/encodeWith';
export type { EncoderOptions } from './encode/encoding';
export { EventStreamWriter } from './encode/eventStreamWriter';

// ---- Requests between wire formats (gateways) -------------------------------------------------
export { toAnthropicRequest, type ToAnthropicRequestOptions } from './requests/toAnthropicRequest';
export { toResponsesRequest, type ToResponsesRequestOptions } from './requests/toResponsesRequest';
export { toGeminiRequest, type ToGeminiRequestOptions } from './requests/toGeminiRequest';
export { toGeminiInteractionsRequest, type ToGeminiInteractionsRequestOptions } from './requests/toGeminiInteractionsRequest';
export { toConverseRequest } from './requests/toConverseRequest';
export { toOllamaRequest } from './requests/toOllamaRequest';
export { fromAnthropicRequest } from './requests/fromAnthropicRequest';
export { fromAiSdkUiRequest } from './requests/fromAiSdkUiRequest';
export { fromAgUiRequest } from './requests/fromAgUiRequest';
export type { FromUiRequestOptions } from './requests/uiRequest';
export { fromResponsesRequest } from './requests/fromResponsesRequest';
export type { TranslateRequestOptions } from './requests/requestReader';

// ---- The wire types of each format (requests, messages, tools), shared with rxjs-tool-calls/tools --
export type * as OpenAIChatWire from '../providers/openaiChat/wire';
export type * as ResponsesWire from '../providers/openaiResponses/wire';
export type * as AnthropicWire from '../providers/anthropic/wire';
export type * as GeminiWire from '../providers/gemini/wire';
export type * as GeminiInteractionsWire from '../providers/geminiInteractions/wire';
export type * as ConverseWire from '../providers/bedrockConverse/wire';
export type * as OllamaWire from '../providers/ollama/wire';
export type * as AiSdkUiWire from '../providers/aiSdkUi/wire';
export type * as AgUiWire from '../providers/agUi/wire';
export type * as RealtimeWire from '../providers/openaiRealtime/wire';

// ---- Merging streams ---------------------------------------------------------------------------
export {
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

// ---- Usage sums -----------------------------------------------------------------------------------
export { addUsage } from './usage/totalUsage';
