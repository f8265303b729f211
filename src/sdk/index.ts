/**
 * `rxjs-tool-calls/sdk`: the streams of the official SDKs (`openai`, `@anthropic-ai/sdk`,
 * `@google/genai`'s Interactions) as the library's events — for code that already calls the SDK
 * and wants the library's tool calls, partial values or re-encoding on top.
 *
 * @packageDocumentation
 */
import type { Observable } from 'rxjs';
import type { StreamEvent } from '../events';
import { anthropicMessages } from '../providers/anthropic';
import { decoderFor, type ProviderOption } from '../providers/auto';
import { decode, type WireDecoder } from '../providers/decoder';
import { openaiChat } from '../providers/openaiChat';
import { openaiResponses } from '../providers/openaiResponses';
import { iterate, type AsyncIterableInput } from '../sources/asyncIterable';

/** The SSE event name a payload stands for: a fixed name, or one read from the payload. */
export type SdkEventName<T> = string | ((payload: T) => string);

/**
 * Decode the payloads an official SDK's stream yields with a wire format's decoder.
 *
 * <span class="informal">Each payload goes to `decoder.payload(eventName, payload, emit)`, exactly
 * as if it had arrived as an SSE event of that name whose data parsed to it; completion goes to
 * `decoder.end(emit)`.</span>
 *
 * ```text
 * iterable:  --a---------b---------c----|       a, b, c: parsed payloads
 *   fromSdkEvents(anthropicMessages, iterable, (e) => e.type)
 *            --t---------x---------(fu)-|       the decoder's StreamEvents
 *
 * iterable:  --a---------b--…                   (unsubscribed after b)
 *            --t---------x-!                    iterator.return(), stream.controller.abort()
 * ```
 *
 * 1. One decoder per subscription; errors the decoder throws (`provider-error`, `invalid-event`,
 *    `truncated` at the end) end the observable, as do errors the SDK's iterator throws (its own
 *    `APIError`s pass through unchanged). When the connection is cut mid-stream, the SDKs throw
 *    the runtime's error (undici's `TypeError: terminated`), bare or wrapped (`AnthropicError`,
 *    `APIConnectionError`, with it as `cause`): that becomes a `connection-lost` error (code
 *    `connection-lost`, `retryable: true`, `byteOffset` undefined) with the SDK's error as `cause`.
 * 2. Unsubscribing calls the iterator's `return()` and aborts the SDK stream's `controller` when it
 *    has one, which closes the HTTP connection.
 * 3. The SDK stream can be iterated once: subscribe once, or pass a factory.
 * 4. `format` is a wire format (`openaiChat`, `anthropicMessages`, `geminiInteractions` for
 *    `@google/genai`'s `interactions.create({ stream: true })`, …), its name, `'auto'`, or a
 *    factory of a decoder of your own (`rxjs-tool-calls/advanced`'s `WireDecoder`);
 *    {@link fromOpenAIChatChunks}, {@link fromOpenAIResponsesEvents} and {@link fromAnthropicEvents}
 *    wire the common ones up.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { anthropicMessages } from 'rxjs-tool-calls';
 * import { fromSdkEvents } from 'rxjs-tool-calls/sdk';
 *
 * declare const request: Anthropic.MessageCreateParamsNonStreaming;
 *
 * const stream = await new Anthropic().messages.create({ ...request, stream: true });
 * fromSdkEvents(anthropicMessages, stream, (event) => event.type).subscribe(console.log);
 * ```
 *
 * @param format The wire format of the payloads, or a decoder factory (one decoder per subscription).
 * @param iterable The SDK's stream (or any async iterable of parsed payloads), or a factory.
 * @param eventName The SSE event name each payload stands for. Default `'message'`.
 * @return An observable of the decoded events.
 */
export function fromSdkEvents<T>(format: ProviderOption | (() => WireDecoder), iterable: AsyncIterableInput<T>, eventName: SdkEventName<T> = 'message'): Observable<StreamEvent> {
  const factory = typeof format === 'function' && !('decoder' in format) ? format : decoderFor(format);
  return sdkEvents(factory, iterable, eventName, 'fromSdkEvents');
}

/** {@link fromSdkEvents}'s implementation; `source` names the public function on a `connection-lost` error. */
function sdkEvents<T>(decoderFactory: () => WireDecoder, iterable: AsyncIterableInput<T>, eventName: SdkEventName<T>, source: string): Observable<StreamEvent> {
  const nameOf = typeof eventName === 'function' ? eventName : () => eventName;
  return iterate(iterable, source).pipe(decode<T>(decoderFactory, (decoder, payload, emit) => decoder.payload(nameOf(payload), payload, emit)));
}

/**
 * Decode the official `openai` package's Chat Completions stream
 * (`client.chat.completions.create({ ...request, stream: true })`) into {@link StreamEvent}s.
 *
 * <span class="informal">The SDK has already parsed the SSE and dropped `[DONE]`; each
 * `ChatCompletionChunk` goes straight to the OpenAI chat decoder.</span>
 *
 * ```text
 * stream:  --a---------b---------c----|      a,b,c: ChatCompletionChunk
 *   fromOpenAIChatChunks(stream)
 *          --t---------x---------(fu)-|      t: text-delta, x: tool-call-delta, f: finish, u: usage
 * ```
 *
 * 1. Emits what `openaiChat()` emits, except `done`: the SDK does not yield `[DONE]`, so the
 *    stream's completion is its end; a stream that ends before every choice has a `finish_reason`
 *    errors with `truncated`.
 * 2. Unsubscribing aborts the SDK's request (its `controller`) and calls the iterator's `return()`.
 * 3. The SDK's own errors (`APIError`, for an HTTP error or an error event) pass through unchanged;
 *    a connection cut mid-stream ends it with `connection-lost` error (`source: 'fromOpenAIChatChunks'`).
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { toolCalls } from 'rxjs-tool-calls';
 * import { fromOpenAIChatChunks } from 'rxjs-tool-calls/sdk';
 *
 * declare const request: OpenAI.ChatCompletionCreateParamsNonStreaming;
 *
 * const stream = await new OpenAI().chat.completions.create({ ...request, stream: true });
 * fromOpenAIChatChunks(stream).pipe(toolCalls()).subscribe(console.log);
 * ```
 *
 * @param stream The SDK's stream (any async iterable of chunk objects), or a factory.
 * @return An observable of the decoded events.
 */
export function fromOpenAIChatChunks(stream: AsyncIterableInput<unknown>): Observable<StreamEvent> {
  return sdkEvents(openaiChat.decoder, stream, 'message', 'fromOpenAIChatChunks');
}

/** A parsed SDK event that names its own type (`ResponseStreamEvent`, `RawMessageStreamEvent`, …). */
export interface TypedSdkEvent {
  /** The event type (`response.output_item.added`, `content_block_delta`, …): the SSE event name. */
  readonly type: string;
}

/** The payload's own `type`: the SSE event name it was sent under. */
const typeOf = (event: TypedSdkEvent): string => event.type;

/**
 * Decode the official `openai` package's Responses stream
 * (`client.responses.create({ ...request, stream: true })`) into {@link StreamEvent}s.
 *
 * <span class="informal">Each parsed `ResponseStreamEvent` goes to the Responses decoder under its
 * own `type`, as if it had arrived as the SSE event of that name.</span>
 *
 * ```text
 * stream:  --c----a----x----o----C--|        c: response.created, a: output_item.added (function_call),
 *                                            x: function_call_arguments.delta, o: output_item.done, C: response.completed
 *   fromOpenAIResponsesEvents(stream)
 *          --m----x----x----e----(ufd)--|    m: metadata, x: tool-call-delta, e: tool-call-end, u: usage, f: finish, d: done
 * ```
 *
 * 1. Emits what `openaiResponses()` emits; a stream that ends without `response.completed`,
 *    `response.incomplete` or `response.failed` errors with `truncated`.
 * 2. `error` events and `response.failed` end the stream with a `provider-error`; the SDK's own
 *    `APIError`s (an HTTP error status) pass through unchanged; a connection cut mid-stream ends it
 *    with `connection-lost` error (`source: 'fromOpenAIResponsesEvents'`).
 * 3. Unsubscribing aborts the SDK's request (its `controller`), closing the connection.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { toolCalls } from 'rxjs-tool-calls';
 * import { fromOpenAIResponsesEvents } from 'rxjs-tool-calls/sdk';
 *
 * declare const input: OpenAI.Responses.ResponseInput;
 * declare const tools: OpenAI.Responses.Tool[];
 *
 * const stream = await new OpenAI().responses.create({ model: 'gpt-4.1', input, tools, stream: true });
 * fromOpenAIResponsesEvents(stream).pipe(toolCalls()).subscribe(console.log);
 * ```
 *
 * @param stream The SDK's stream (any async iterable of `{ type, … }` events), or a factory.
 * @return An observable of the decoded events.
 */
export function fromOpenAIResponsesEvents(stream: AsyncIterableInput<TypedSdkEvent>): Observable<StreamEvent> {
  return sdkEvents(openaiResponses.decoder, stream, typeOf, 'fromOpenAIResponsesEvents');
}

/**
 * Decode the official `@anthropic-ai/sdk` raw event stream
 * (`client.messages.create({ ...request, stream: true })`) into {@link StreamEvent}s.
 *
 * <span class="informal">Each `RawMessageStreamEvent` goes to the Anthropic Messages decoder under
 * its own `type`. (For `client.messages.stream(…)`, a `MessageStream`, iterate the same events.)</span>
 *
 * ```text
 * stream:  --s----b----j----j----e----D----S--|      s: message_start, b: content_block_start (tool_use),
 *                                                    j: input_json_delta, e: content_block_stop, D: message_delta, S: message_stop
 *   fromAnthropicEvents(stream)
 *          --(mu)-x----x----x----e----(fu)-d--|      m: metadata, u: usage, x: tool-call-delta, e: tool-call-end, f: finish, d: done
 * ```
 *
 * 1. Emits what `anthropicMessages()` emits; a stream that ends without `message_stop` errors with
 *    `truncated`.
 * 2. The SDK drops `ping` events and throws its own `APIError` for `event: error` (overloaded, rate
 *    limited, …): that error passes through unchanged. A connection cut mid-stream ends it with
 *    `connection-lost` error (`source: 'fromAnthropicEvents'`).
 * 3. Unsubscribing aborts the SDK's request (its `controller`), closing the connection.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { toolCalls } from 'rxjs-tool-calls';
 * import { fromAnthropicEvents } from 'rxjs-tool-calls/sdk';
 *
 * declare const model: Anthropic.Model;
 * declare const messages: Anthropic.MessageParam[];
 * declare const tools: Anthropic.Tool[];
 *
 * const stream = await new Anthropic().messages.create({ model, max_tokens: 1024, messages, tools, stream: true });
 * fromAnthropicEvents(stream).pipe(toolCalls()).subscribe(console.log);
 * ```
 *
 * @param stream The SDK's stream (any async iterable of `{ type, … }` events), or a factory.
 * @return An observable of the decoded events.
 */
export function fromAnthropicEvents(stream: AsyncIterableInput<TypedSdkEvent>): Observable<StreamEvent> {
  return sdkEvents(anthropicMessages.decoder, stream, typeOf, 'fromAnthropicEvents');
}
