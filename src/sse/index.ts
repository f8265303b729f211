/**
 * Server-Sent Events: the `decodeSse()` operator and its RxJS-free parser core.
 *
 * @module
 */
export { decodeSse, type DecodeSseOptions } from './decodeSse';
export { DEFAULT_MAX_EVENT_SIZE, SseParser, type SseEventHandler, type SseParserOptions } from './parser';
