/**
 * Input sources: turn the ways a streamed response arrives (fetch `Response`, `ReadableStream`,
 * async iterables, Node.js streams, Angular `HttpClient` events, official SDK streams) into
 * observables. Every source cancels what is behind it when unsubscribed.
 *
 * @module
 */
export { fromReadableStream, type ReadableStreamInput } from './readableStream';
export { fromAsyncIterable, type AsyncIterableInput } from './asyncIterable';
export { fromResponse, responseBody, httpProviderError, type ResponseLike, type FromResponseOptions, type ResponseInput } from './response';
export { fromNodeReadable, type NodeReadableLike } from './nodeReadable';
export { angularTextChunks, type AngularHttpEventLike, type AngularTextChunksOptions } from './angular';
export { isConnectionLost } from './networkError';
export { retryAfterMs, type HeadersLike } from './retryAfter';
