/**
 * `rxjs-tool-calls/advanced`: extension points for people building on the library — the parsers,
 * the call tracker, each wire format's decoder, defining a new wire format, the stage idiom the
 * operators are made of, and one class per error code.
 *
 * Everything here is used by the main entry's operators; nothing here is needed to use them.
 *
 * @packageDocumentation
 */

// ---- SSE framing -------------------------------------------------------------------------------
export { SseParser, DEFAULT_MAX_EVENT_SIZE, type SseEventHandler, type SseParserOptions } from './sse/parser';

// ---- Other framings: AWS event stream, NDJSON, streamed JSON array -----------------------------
export {
  DEFAULT_MAX_FRAME_SIZE,
  EventStreamParser,
  EventStreamWriter,
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

// ---- Wire formats: decoders, detection, defining one -------------------------------------------
export { wireFormat } from './providers/format';
export { FRAMED_FORMATS, WIRE_FORMATS, type WireFormatName } from './providers/list';
export { AutoDecoder, decoderFor, detectFormat, type RawStart } from './providers/auto';
export type { Emit, WireDecoder } from './providers/decoder';
export type { UsageCounts } from './providers/wire';
export type { CallView, MessageBuilder } from './providers/messages';
export { OpenAIChatDecoder } from './providers/openaiChat/decoder';
export { OpenAIResponsesDecoder } from './providers/openaiResponses/decoder';
export { AnthropicMessagesDecoder } from './providers/anthropic/decoder';
export { GeminiDecoder } from './providers/gemini/decoder';
export { CohereChatDecoder } from './providers/cohere/decoder';
export { BedrockConverseDecoder } from './providers/bedrockConverse/decoder';
export { BedrockInvokeModelDecoder } from './providers/bedrockInvokeModel/decoder';
export { OllamaChatDecoder } from './providers/ollama/decoder';

// ---- Tool-call identity ------------------------------------------------------------------------
export { ToolCallTracker, type CallEnding, type TrackedCall } from './accumulate/tracker';

// ---- Arguments: complete and partial JSON, validation ------------------------------------------
export { parseArguments, type ParsedArguments } from './parse/arguments';
export type { ArgumentsParser } from './parse/results';
export { PartialJsonParser, type PartialJsonOptions } from './parse/partialJson';
export { validateArguments, validateArgumentsAsync, validateToolCall } from './parse/validate';

// ---- Tool calls written as text ----------------------------------------------------------------
export { TextToolCallParser } from './text/textToolCallParser';
export { TEXT_TOOL_CALL_SYNTAXES } from './text/textToolCalls';

// ---- Tool loops: a step's turn in stream order, for the message builders ----------------------
export { TurnRecorder } from './tools/turnRecorder';

// ---- Gateways: schema cleaning, usage sums, merged-call ids -----------------------------------
export { toGeminiSchema } from './providers/gemini/schema';
export { toolJsonSchema } from './tools/toolSpecs';
export { allowsStrict } from './providers/toolSpec';
export { addUsage } from './usage/totalUsage';
export { sourceCallId } from './merge/mergeStreams';

// ---- The stage idiom every operator is made of -------------------------------------------------
export { Stage, stageOperator } from './internal/stage';

// ---- HTTP errors and network failures ----------------------------------------------------------
export { httpProviderError } from './sources/response';
export { isConnectionLost } from './sources/networkError';
export { retryAfterMs } from './sources/retryAfter';
