/**
 * `rxjs-tool-calls/angular`: Angular `HttpClient` streaming and a chat turn as a signal. Needs
 * `@angular/core` and `@angular/common` (≥ 19, optional peers of the package); the main entry
 * never loads Angular.
 *
 * @packageDocumentation
 */
export { angularTextChunks, type AngularHttpEventLike, type AngularTextChunksOptions } from './angularTextChunks';
export { streamFrom, type StreamFromOptions, type StreamRequestOptions } from './streamFrom';
export { injectChatStream, type ChatStream, type ChatStreamOptions, type TypedChatStreamOptions } from './injectChatStream';
export { injectChat, type Chat, type ChatApproval, type ChatCall, type ChatMessage, type ChatOptions } from './injectChat';
