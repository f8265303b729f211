/**
 * `rxjs-tool-calls/advanced`: extension points for people building on the library — the SSE
 * parser, defining and decoding a wire format, the reducer of tool calls, the argument parsers and
 * validators, and reading HTTP failures.
 *
 * Everything here is what the main entry's operators are made of; nothing here is needed to use them.
 *
 * @packageDocumentation
 */

// ---- SSE framing -------------------------------------------------------------------------------
export { SseParser, DEFAULT_MAX_EVENT_SIZE, type SseEventHandler, type SseParserOptions } from './sse/parser';

// ---- Other framings: AWS event stream, NDJSON, streamed JSON array -----------------------------
export {
  DEFAULT_MAX_FRAME_SIZE,
  EventStreamParser,
  type EventStreamHeaderInput,
  type EventStreamHeaders,
  type EventStreamHeaderValue,
  type EventStreamMessage,
  type EventStreamMessageHandler,
  type EventStreamParserOptions,
} from './framing/eventStream';
export { DEFAULT_MAX_LINE_SIZE, NdjsonParser, type NdjsonParserOptions } from './framing/ndjson';
export { DEFAULT_MAX_ELEMENT_SIZE, JsonArrayParser, type JsonArrayParserOptions } from './framing/jsonArray';
export type { EventSink } from './framing/eventSink';

// ---- Wire formats: defining one, decoders, detection -------------------------------------------
export { wireFormat, type WireFormatDefinition } from './providers/format';
export { FRAMED_FORMATS, WIRE_FORMATS, type WireFormatName } from './providers/list';
export { decode } from './providers/decoder';
export { AutoDecoder, decoderFor, detectFormat, type RawStart } from './providers/auto';
export type { Emit, WireDecoder } from './providers/decoder';
export type { UsageCounts } from './providers/wire';
export { OpenAIChatDecoder } from './providers/openaiChat/decoder';
export { OpenAIResponsesDecoder } from './providers/openaiResponses/decoder';
export { AnthropicMessagesDecoder } from './providers/anthropic/decoder';
export { GeminiDecoder } from './providers/gemini/decoder';
export { CohereChatDecoder } from './providers/cohere/decoder';
export { BedrockConverseDecoder } from './providers/bedrockConverse/decoder';
export { BedrockInvokeModelDecoder } from './providers/bedrockInvokeModel/decoder';
export { OllamaChatDecoder } from './providers/ollama/decoder';

// ---- Arguments: the result step, complete and partial JSON, validation --------------------------
export { resultOf, type ArgumentsParser } from './parse/results';
export { parseArguments, type ParsedArguments } from './parse/arguments';
export { PartialJsonParser, type PartialJsonOptions } from './parse/partialJson';
export { customInputOf, isCustomTool, validateArguments, validateArgumentsAsync, validateCustomCall, validateToolCall, type MaybePromise, type ToolsByName } from './parse/validate';

// ---- HTTP errors and network failures ----------------------------------------------------------
export { httpProviderError } from './sources/response';
export { isConnectionLost } from './internal/networkError';
export { retryAfterMs } from './sources/retryAfter';
