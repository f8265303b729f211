/**
 * `rxjs-tool-calls/marbles`: helpers for marble-testing code that reads LLM tool-call streams.
 *
 * - wire builders that write the SSE text a provider sends (`openaiChunk`, `anthropicEvent`, …);
 * - byte helpers (`encodeChunks`, `wireChunks`) and splitters that cut bytes the way networks do
 *   (`splitEveryByte`, `splitRandom`, `splitInsideMultibyte`);
 * - `toolStreamErrorMatcher` / `normalizeErrors` to compare typed errors by code and fields.
 *
 * Nothing here depends on a test framework.
 *
 * @example
 * ```ts
 * import { expect } from '@jest/globals';
 * import { map } from 'rxjs';
 * import { TestScheduler } from 'rxjs/testing';
 * import { readToolCalls } from 'rxjs-tool-calls';
 * import { openaiChunk, openaiDone, wireChunks, toolStreamErrorMatcher } from 'rxjs-tool-calls/marbles';
 *
 * const scheduler = new TestScheduler(toolStreamErrorMatcher((actual, expected) => expect(actual).toEqual(expected)));
 * scheduler.run(({ cold, expectObservable }) => {
 *   const { marbles, values } = wireChunks('-a-b|', { a: openaiChunk({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }), b: openaiDone() });
 *   const names$ = cold(marbles, values).pipe(readToolCalls(), map((result) => (result.success ? result.data.name : result.error.code)));
 *   expectObservable(names$).toBe('---n|', { n: 'get_weather' });
 * });
 * ```
 *
 * @module
 */
export {
  sseEvent,
  openaiChunk,
  openaiChunkObject,
  openaiDone,
  anthropicEvent,
  responsesEvent,
  cohereEvent,
  geminiChunk,
  geminiInteractionsEvent,
  type SseEventFields,
  type OpenAIChunkOptions,
  type OpenAIToolCallDelta,
  type GeminiChunkOptions,
  type GeminiFunctionCall,
} from './wire';
export { toBytes, encodeChunks, wireChunks, marbleKeys, splitEveryByte, splitRandom, splitInsideMultibyte, seededRandom, type WireValue, type WireChunks, type WireChunksOptions } from './chunks';
export { normalizeErrors, toolStreamErrorMatcher, compareWithoutStacks, type NormalizedError, type DeepEqualAssertion } from './errors';
