/**
 * `rxjs-tool-calls/advanced`: extension points, for people who write a wire format or an operator
 * of their own — the framings' parsers (usable without RxJS), defining a wire format, the argument
 * parsers and validators, and reading HTTP failures. Nothing here is needed to use the main entry.
 *
 * @packageDocumentation
 */

// ---- Framings: bytes → records, without RxJS ---------------------------------------------------
export { SseParser } from './sse/parser';
export type { RecordSink } from './sse/recordSink';
export { EventStreamParser, type EventStreamMessage } from './framing/eventStream';
export { NdjsonParser } from './framing/ndjson';
export { JsonArrayParser } from './framing/jsonArray';

// ---- Wire formats: defining one, the built-in ones, detection ----------------------------------
export { wireFormat, type WireFormatDefinition } from './providers/format';
export type { EventSink, WireDecoder } from './providers/decoder';
export type { UsageCounts } from './providers/wire';
export { FRAMED_FORMATS, WIRE_FORMATS } from './providers/list';
export { detectFormat } from './providers/auto';

// ---- Arguments: complete and partial JSON, validation -------------------------------------------
export { parseArguments, type ParsedArguments } from './parse/arguments';
export { PartialJsonParser, type PartialJsonOptions } from './parse/partialJson';
export { validateArguments, validateToolCall } from './parse/validate';

// ---- HTTP errors and network failures ----------------------------------------------------------
export { httpProviderError } from './sources/response';
export { isConnectionLost } from './internal/networkError';
export { retryAfterMs } from './sources/retryAfter';
