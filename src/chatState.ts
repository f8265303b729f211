/**
 * `chatState()`: one immutable view state of a streaming turn (text, reasoning, tool calls with
 * their growing arguments, finish, usage, status), for UIs and signals.
 *
 * @module
 */
import type { CallIdentity } from './errors';
import type { OperatorFunction } from 'rxjs';
import { selfEndingStageOperator } from './internal/stage';
import type { TrackerOptions } from './accumulate/trackedCall';
import { ChatStage } from './chatStage';
import type { FinishReason, StreamEvent, UsageEvent } from './events';
import type { DeepPartial } from './parse/deepPartial';
import type { JsonPath } from './parse/partialJson';
import type { StandardSchemaV1, ToolSchemas } from './parse/validate';
import type { ToolCall, ToolCallResult } from './result';

/** Where a turn is: receiving, ended normally, or ended by an error (kept in {@link ChatState.error}). */
export type ChatStatus = 'streaming' | 'done' | 'error';

/** The token counts of the turn so far: a later usage event's counts win, counts it omits are kept. */
export type ChatUsage = Omit<UsageEvent, 'type'>;

/** One tool call as a view shows it. */
export interface ChatStateCall<Name extends string = string, Args = unknown, Call extends ToolCall<string, unknown> = ToolCall> extends CallIdentity {
  /** The tool name (narrowed by tool when tools are typed). */
  readonly name: Name;
  /**
   * The arguments received so far, parsed (an immutable snapshot, as `partialToolCalls()` shows
   * them): `{}` until the first member is readable. Once the call succeeded, exactly
   * `result.data.arguments` (with `tools`: the schema's output).
   */
  readonly partialArguments: Args;
  /**
   * The path of the value still being received (`[]` while the root is open between members);
   * absent once the arguments are complete. Test a field with `isSettled({ arguments:
   * call.partialArguments, openPath: call.openPath }, path)`.
   */
  readonly openPath?: JsonPath;
  /** Once the call is closed: its result (parsed, with `tools` validated, arguments or a typed error). */
  readonly result?: ToolCallResult<Call>;
}

/**
 * With `tools`: a union by tool name, whose `partialArguments` are a {@link DeepPartial} of that
 * tool's schema output. The name is `''` until the wire sends it and may be one `tools` lacks (its
 * result is then `unknown-tool`): the type lists the declared tools only.
 */
export type TypedChatStateCall<T extends ToolSchemas> = {
  [Name in keyof T & string]: ChatStateCall<Name, DeepPartial<StandardSchemaV1.InferOutput<T[Name]>>, ToolCall<Name, StandardSchemaV1.InferOutput<T[Name]>>>;
}[keyof T & string];

/** The state of one streaming turn. */
export interface ChatState<Call extends ChatStateCall<string, unknown, ToolCall<string, unknown>> = ChatStateCall> {
  /** `streaming` until the input ends; then `done`, or `error` with {@link error}. */
  readonly status: ChatStatus;
  /** The visible text so far. */
  readonly text: string;
  /** The reasoning (thinking) text so far. */
  readonly reasoning: string;
  /** Every tool call so far, in order of first sight; the same array until a call changes. */
  readonly calls: ReadonlyArray<Call>;
  /** The choice's finish reason, once it finished. */
  readonly finishReason: FinishReason | undefined;
  /** Token usage, once the provider reported some. */
  readonly usage: ChatUsage | undefined;
  /** With `status: 'error'`: what ended the input (a `ToolStreamError` such as `truncated`, or the source's own error). */
  readonly error?: unknown;
}

/** Options of {@link chatState}. */
export interface ChatStateOptions extends TrackerOptions {
  /** The choice to show (0 unless the request asked for several); the others' text, calls and finish are ignored. Default 0. */
  readonly choice?: number;
  /** Show numbers and literals before they are complete (`12` of `123`, `tr` as `true`). Default `false`. */
  readonly allowPartialLiterals?: boolean;
}

/** Options of {@link chatState} with typed tools. */
export interface TypedChatStateOptions<T extends ToolSchemas> extends ChatStateOptions {
  /** Tool names mapped to their argument schemas (zod 4 or any Standard Schema): each call is validated once, when it closes. */
  readonly tools: T;
}

/**
 * The state before anything arrived: `streaming`, no text, no calls. A starting value for a view
 * (`toSignal(state$, { initialValue: initialChatState })`); `chatState()` itself emits only changes.
 */
export const initialChatState: ChatState<never> = Object.freeze({ status: 'streaming', text: '', reasoning: '', calls: Object.freeze([]), finishReason: undefined, usage: undefined });

/**
 * The whole turn as one immutable value, after each event that changed it: the text, the tool
 * calls with their arguments as they grow, then how it ended.
 *
 * <span class="informal">A `scan` for views: it drops into `toSignal()` or `rxResource()`, and
 * it never errors, so a failed stream still shows what arrived.</span>
 *
 * ```text
 * --t--o--a--b--F--d--|        t: text 'Hi'; o, a, b: call A opens, then '{"city": "Pa', 'ris"}'; F: finish; d: done
 *   chatState()
 * --1--2--3--4--5-----(6|)     1: text 'Hi'  2: calls [A {}]  3: A { city: 'Pa' }  4: A { city: 'Paris' }
 *                              5: A's result, finishReason 'tool-calls'  6: status 'done'
 *
 * --t--o--a--#                 #: truncated
 *   chatState()
 * --1--2--3--(4|)              4: status 'error' with the error; A keeps { city: 'Pa' } and gets an incomplete result
 * ```
 *
 * 1. Emits after each event that changed what the state shows (text, reasoning, a call's name,
 *    visible arguments, `openPath` or result, the finish reason, usage); nothing for events that
 *    change nothing (metadata, whitespace, half a number). Nothing at subscription: start a view
 *    with {@link initialChatState}.
 * 2. Each value is immutable; unchanged parts keep their identity (`calls` is the same array until
 *    a call changes, and an unchanged call is the same object), so `computed()` and `OnPush` views
 *    redo only what changed.
 * 3. Calls are identified as in `toolCalls()`; `partialArguments` grow as in `partialToolCalls()`
 *    (`allowPartialLiterals` shows numbers and literals early); a closed call gets `result`, and a
 *    success shows exactly its result's arguments. A malformed call's arguments stop growing and its
 *    result is the typed error; its siblings go on.
 * 4. Only the `choice` option's choice is shown (default 0); usage is the stream's.
 * 5. **Never errors.** When the input fails (`truncated`, `provider-error`, `connection-lost`, …)
 *    or the tracker does (`too-many-tool-calls`), open calls get their `incomplete` result, the last
 *    value has `status: 'error'` and `error`, with the text and calls that arrived, and the output
 *    completes. When the input completes, the last value has `status: 'done'`.
 * 6. With `tools`, each call is validated once, when it closes (`unknown-tool`, `invalid-arguments`),
 *    and `calls` is a union by tool name with deep-partial arguments; an asynchronous validator's
 *    result shows when it settles, and the last value waits for it.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { chatState, fromResponse, readStreamEvents } from 'rxjs-tool-calls';
 *
 * const tools = { get_weather: z.object({ city: z.string() }) };
 * fromResponse(fetch(url, init))
 *   .pipe(readStreamEvents(), chatState({ tools }))
 *   .subscribe((state) => {
 *     for (const call of state.calls) {
 *       if (call.name === 'get_weather') console.log(state.status, call.partialArguments.city); // typed: string | undefined
 *     }
 *   });
 * // displays: streaming undefined, …, streaming Zür, …, streaming Zürich, …, done Zürich
 * ```
 *
 * @param options The choice, `tools`, `allowPartialLiterals`, and the tool-call limits.
 * @return An operator from {@link StreamEvent}s to {@link ChatState}s.
 */
export function chatState(options?: ChatStateOptions): OperatorFunction<StreamEvent, ChatState>;
export function chatState<T extends ToolSchemas>(options: TypedChatStateOptions<T>): OperatorFunction<StreamEvent, ChatState<TypedChatStateCall<T>>>;
export function chatState(options: ChatStateOptions & { readonly tools?: ToolSchemas } = {}): OperatorFunction<StreamEvent, ChatState> {
  // One stage per subscription, which ends the output itself: the source's end only reaches the
  // stage, which completes the subscriber after the last state (later, when an asynchronous
  // validation is pending).
  return selfEndingStageOperator<StreamEvent, ChatState>((subscriber) => new ChatStage(subscriber, options));
}
