/**
 * `injectChatStream()`: a streaming chat turn as an Angular signal.
 *
 * @module
 */
import { HttpClient } from '@angular/common/http';
import { assertInInjectionContext, DestroyRef, inject, Injector, signal, type Signal } from '@angular/core';
import { Subject, takeUntil, type Subscription } from 'rxjs';
// Values from the main entry point (the build keeps the import as `rxjs-tool-calls`); types from
// their modules, so that the declaration bundle has no import cycle through the entry.
import { chatState, readStreamEvents, type ToolsInput } from '../index';
import type { ChatState, ChatStateCall, ChatStateOptions, TypedChatStateCall } from '../operators/chatState';
import type { ReadStreamEventsOptions } from '../read/readStreamEvents';
// The checks of the options: plain tables (a copy in this entry's bundle is harmless).
import { CALLS_OPTION_CHECKS } from '../calls/driver';
import { anObject, aString, checkOptions, pickOptions, type OptionChecks } from '../internal/options';
import { CHAT_OPTION_CHECKS } from '../operators/chatState';
import { TOOLS_OPTION } from '../operators/validateResults';
import { READ_OPTION_CHECKS } from '../read/readStreamEvents';
import { STREAM_REQUEST_OPTION_CHECKS, streamFrom, type StreamFromOptions, type StreamRequestOptions } from './streamFrom';

/** The keys only `injectChatStream()` takes (the endpoint and the injector; the request's are `streamFrom()`'s). */
const CHAT_STREAM_OPTION_CHECKS: OptionChecks = { url: aString, injector: anObject };

/** The state before anything arrived: `streaming`, no text, no calls. */
const INITIAL: ChatState<never> = Object.freeze({ status: 'streaming', text: '', reasoning: '', calls: Object.freeze([]), finishReason: undefined, usage: undefined });

/** Options of {@link injectChatStream}. */
export interface ChatStreamOptions extends ChatStateOptions, ReadStreamEventsOptions, StreamRequestOptions {
  /** The endpoint each turn is sent to (your server, which calls the model with `stream: true`). */
  readonly url: string;
  /** The injector to use when called outside an injection context (a constructor or field initializer). */
  readonly injector?: Injector;
}

/** Options of {@link injectChatStream} with typed tools. */
export interface TypedChatStreamOptions<T extends ToolsInput> extends ChatStreamOptions {
  /** The tools (schemas or `tool()` records by name, or an array of named `tool()` records): calls are typed by name and validated when they close (see `chatState()`). */
  readonly tools: T;
}

/** A streaming chat turn, as signals. */
export interface ChatStream<Call extends ChatStateCall<string, unknown> = ChatStateCall> {
  /**
   * The state of the current (or last) turn: text, calls with their partial arguments and results,
   * `status` (see `chatState()`). `undefined` before the first {@link start}.
   */
  readonly state: Signal<ChatState<Call> | undefined>;
  /**
   * Send `body` to the endpoint and stream the answer into {@link state}, which starts over from
   * the empty state at once. A turn still streaming is cancelled first (silently: its state is
   * replaced).
   */
  start(body: unknown): void;
  /**
   * Abort the turn still streaming: the request is cancelled, and {@link state} ends with `status:
   * 'error'`, an `AbortError` `DOMException` as `error`, and its open calls `incomplete`. Nothing
   * happens when no turn is streaming.
   */
  cancel(): void;
}

/**
 * A chat turn streamed from your endpoint into a signal: `start(body)` posts with `HttpClient`, the
 * answer is read as it arrives (`readStreamEvents()`, any wire format) and folded by `chatState()`.
 *
 * <span class="informal">For components: call it in a field initializer, render `state()`, call
 * `start()` from an event handler. The request is cancelled when the component is destroyed.</span>
 *
 * 1. Needs an injection context (or the `injector` option) and `provideHttpClient(withFetch())`.
 * 2. `state()` is `undefined` until the first `start()`, then one immutable {@link ChatState} per
 *    change (unchanged calls keep their identity, so `@for (…; track call.id)` redraws only what
 *    changed).
 * 3. Never throws and never leaves the state streaming: an HTTP error status (a `provider-error`
 *    with `status` and `retryAfterMs`), a cut connection or a truncated stream end the turn with
 *    `status: 'error'` and the error, keeping the text and partial arguments that arrived.
 * 4. One turn at a time: `start()` cancels the previous one; `cancel()` aborts it (see {@link ChatStream.cancel}).
 *
 * @example
 * ```ts
 * import { Component } from '@angular/core';
 * import { JsonPipe } from '@angular/common';
 * import { injectChatStream } from 'rxjs-tool-calls/angular';
 *
 * @Component({
 *   selector: 'app-chat',
 *   imports: [JsonPipe],
 *   template: `
 *     <button (click)="chat.start({ prompt: 'Weather in Zürich?' })">Ask</button>
 *     <p>{{ chat.state()?.text }}</p>
 *     @for (call of chat.state()?.calls; track call.id) {
 *       <pre>{{ call.name }} {{ call.partialArguments | json }}</pre>
 *     }
 *   `,
 * })
 * export class ChatComponent {
 *   readonly chat = injectChatStream({ url: '/api/chat' });
 * }
 * ```
 *
 * @param options The endpoint, the request options (`headers`, …), the wire format (`provider`,
 *   default `auto`), `idleTimeoutMs`, and `chatState()`'s options (`tools`, `choice`, …).
 * @return The state signal with `start()` and `cancel()`.
 */
export function injectChatStream(options: ChatStreamOptions): ChatStream;
export function injectChatStream<T extends ToolsInput>(options: TypedChatStreamOptions<T>): ChatStream<TypedChatStateCall<T>>;
export function injectChatStream(options: ChatStreamOptions & { readonly tools?: ToolsInput }): ChatStream {
  checkOptions('injectChatStream', options, READ_OPTION_CHECKS, CALLS_OPTION_CHECKS, CHAT_OPTION_CHECKS, TOOLS_OPTION, CHAT_STREAM_OPTION_CHECKS, STREAM_REQUEST_OPTION_CHECKS);
  if (options.injector === undefined) assertInInjectionContext(injectChatStream);
  const injector = options.injector ?? inject(Injector);
  const http = injector.get(HttpClient);
  const { url, method, headers, params, context, withCredentials } = options;
  // The wire format, when one is named, is also the name on the provider-error of an HTTP failure.
  const format = options.provider;
  const provider = format === undefined || format === 'auto' ? undefined : typeof format === 'string' ? format : format.name;
  const request: StreamFromOptions = { method, headers, params, context, withCredentials, provider };
  const chat = pickOptions(options, CALLS_OPTION_CHECKS, CHAT_OPTION_CHECKS, TOOLS_OPTION);
  const toState = options.tools === undefined ? chatState(chat) : chatState({ ...chat, tools: options.tools });
  const read = pickOptions(options, READ_OPTION_CHECKS);
  const state = signal<ChatState | undefined>(undefined);
  let turn: { readonly subscription: Subscription; readonly abort: Subject<never> } | undefined;

  const stop = (): void => {
    turn?.subscription.unsubscribe();
    turn = undefined;
  };
  injector.get(DestroyRef).onDestroy(stop);

  return {
    state: state.asReadonly(),
    start(body: unknown): void {
      stop();
      state.set(INITIAL);
      // `abort` only ever fails (cancel()): takeUntil passes its error on and unsubscribes the request.
      const abort = new Subject<never>();
      const subscription = streamFrom(http, url, body, request)
        .pipe(takeUntil(abort), readStreamEvents(read), toState)
        .subscribe((next) => state.set(next));
      if (!subscription.closed) turn = { subscription, abort };
    },
    cancel(): void {
      const current = turn;
      if (current === undefined || current.subscription.closed) return;
      current.abort.error(new DOMException('The chat turn was cancelled', 'AbortError'));
    },
  };
}
