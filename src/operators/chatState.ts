/**
 * `chatState()`: one immutable view state of a streaming turn (text, reasoning, tool calls with
 * their growing arguments, finish, usage, status), for UIs and signals.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import type { ToolCallsOptions, TrackedCall } from '../calls/call';
import { CALLS_OPTION_CHECKS, CallDriver, callsConfig, type CallSink, type CallsConfig } from '../calls/driver';
import type { CallIdentity } from '../errors';
import type { FinishReason, StreamEvent, ToolApprovalRequestEvent, ToolResultEvent, UsageEvent } from '../events';
import { operate, type InputHandler } from '../internal/operate';
import { aBoolean, aCount, checkOptions } from '../internal/options';
import { parseArguments } from '../parse/arguments';
import type { DeepPartial } from '../parse/deepPartial';
import { PartialJsonParser, type JsonPath, type PartialJsonOptions } from '../parse/partialJson';
import { resultOf, type ArgumentsParser } from '../parse/results';
import { checkTools, isPromiseLike, type ToolArguments, type ToolName, type ToolsByName, type ToolsInput } from '../parse/validate';
import type { ToolCall, ToolCallResult } from '../result';
import { TOOLS_OPTION, validateResult } from './validateResults';

/** The keys only `chatState()` takes. */
export const CHAT_OPTION_CHECKS = { choice: /* @__PURE__ */ aCount(0, false), allowPartialLiterals: aBoolean };

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
   * them): `{}` until the first member is readable; a custom (freeform) tool's call: its input text
   * so far. Once the call succeeded, exactly `result.data.arguments` (with `tools`: the schema's output).
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
  /**
   * What the tool returned, when the stream carries it (UI streams: the AI SDK's tool outputs, AG-UI
   * `TOOL_CALL_RESULT`): the call's last `tool-result` event, `preliminary` while it is a progress
   * value. Absent until one arrives.
   */
  readonly output?: Omit<ToolResultEvent, 'type' | 'choice' | 'id'>;
  /** The stream asked for the user's approval before the call runs (a `tool-approval-request`): the approval's id, which the answer names. */
  readonly approval?: {
    /** The approval's id (AI SDK `approvalId`, AG-UI interrupt `id`). */
    readonly id: string;
  };
}

/**
 * With `tools`: a union by tool name, whose `partialArguments` are a {@link DeepPartial} of that
 * tool's schema output. The name is `''` until the wire sends it and may be one `tools` lacks (its
 * result is then `unknown-tool`): the type lists the declared tools only.
 */
export type TypedChatStateCall<T extends ToolsInput> = {
  [Name in ToolName<T>]: ChatStateCall<Name, DeepPartial<ToolArguments<ToolsByName<T>[Name]>>, ToolCall<Name, ToolArguments<ToolsByName<T>[Name]>>>;
}[ToolName<T>];

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
export interface ChatStateOptions extends ToolCallsOptions {
  /** The choice to show (0 unless the request asked for several); the others' text, calls and finish are ignored. Default 0. */
  readonly choice?: number;
  /** Show numbers and literals before they are complete (`12` of `123`, `tr` as `true`). Default `false`. */
  readonly allowPartialLiterals?: boolean;
}

/** Options of {@link chatState} with typed tools. */
export interface TypedChatStateOptions<T extends ToolsInput> extends ChatStateOptions {
  /**
   * The tools: names mapped to their argument schemas (zod 4 or any Standard Schema) or to `tool()`
   * records, or an array of named `tool()` records. Each call is validated once, when it closes.
   */
  readonly tools: T;
}

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
 *    with `{ status: 'streaming', text: '', reasoning: '', calls: [], finishReason: undefined, usage: undefined }`.
 * 2. Each value is immutable; unchanged parts keep their identity (`calls` is the same array until
 *    a call changes, and an unchanged call is the same object), so `computed()` and `OnPush` views
 *    redo only what changed.
 * 3. Calls are identified as in `toolCalls()`; `partialArguments` grow as in `partialToolCalls()`
 *    (`allowPartialLiterals` shows numbers and literals early); a closed call gets `result`, and a
 *    success shows exactly its result's arguments. A malformed call's arguments stop growing and its
 *    result is the typed error; its siblings go on.
 * 4. Only the `choice` option's choice is shown (default 0); usage is the stream's.
 * 5. **Never errors.** When the input fails (`truncated`, `provider-error`, `connection-lost`, …)
 *    or the reducer does (`too-many-tool-calls`), open calls get their `incomplete` result, the last
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
 * declare const url: string;
 * declare const init: RequestInit;
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
export function chatState<T extends ToolsInput>(options: TypedChatStateOptions<T>): OperatorFunction<StreamEvent, ChatState<TypedChatStateCall<T>>>;
export function chatState(options: ChatStateOptions & { readonly tools?: ToolsInput } = {}): OperatorFunction<StreamEvent, ChatState> {
  checkOptions('chatState', options, CALLS_OPTION_CHECKS, CHAT_OPTION_CHECKS, TOOLS_OPTION);
  const config: ChatConfig = {
    calls: callsConfig(options),
    choice: options.choice ?? 0,
    parser: { allowPartialLiterals: options.allowPartialLiterals === true },
    tools: options.tools === undefined ? undefined : checkTools(options.tools, 'chatState'),
  };
  // The handler ends the output itself: after the last state, later when a validation is pending.
  return operate<StreamEvent, ChatState>((subscriber) => new ChatView(subscriber, config));
}

/** The options of `chatState()`, resolved once. */
interface ChatConfig {
  readonly calls: CallsConfig;
  readonly choice: number;
  readonly parser: PartialJsonOptions;
  readonly tools: ToolsInput | undefined;
}

const EMPTY: Readonly<Record<string, never>> = Object.freeze({});

/** Where a custom call's text is open while it streams: at the root (shared, never changed). */
const CUSTOM_OPEN: JsonPath = Object.freeze([]) as unknown as JsonPath;

/** One call of the chosen choice: where it sits in `calls`, and its parser. */
interface CallState {
  readonly position: number;
  parser: PartialJsonParser | undefined;
  /** How much of the call's argument text the parser has read. */
  consumed: number;
  /** The parser's `changeCount` when its value was last shown. */
  shown: number;
}

function samePath(a: JsonPath | undefined, b: JsonPath | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A call entry with `changes` applied; `openPath: undefined` removes the key. */
function withChanges(call: ChatStateCall, changes: Partial<Record<keyof ChatStateCall, unknown>>): ChatStateCall {
  const next: Record<string, unknown> = { ...call, ...changes };
  if (next['openPath'] === undefined) delete next['openPath'];
  return next as unknown as ChatStateCall;
}

/**
 * One subscription of `chatState()`: folds events into a {@link ChatState} and emits one after each
 * event that changed it. The input's end (completion, failure, or the reducer's own error such as
 * `too-many-tool-calls`) becomes the last state (`done` or `error`), after every pending
 * validation settled; then the output completes.
 */
class ChatView implements InputHandler<StreamEvent>, CallSink {
  readonly endsItself = true;
  private readonly choice: number;
  private readonly parserOptions: PartialJsonOptions;
  private readonly tools: ToolsInput | undefined;
  private readonly driver: CallDriver;
  private readonly states = new Map<number, CallState>();
  /** The position in `calls` of the latest call with each wire id (what tool results and approvals name). */
  private readonly byWireId = new Map<string, number>();
  private status: ChatStatus = 'streaming';
  private text = '';
  private reasoning = '';
  private calls: ChatStateCall[] = [];
  /** Whether `calls` went out in a state (then it is copied before it changes). */
  private callsShared = false;
  private finishReason: FinishReason | undefined;
  private usage: ChatUsage | undefined;
  private failure: unknown;
  private changed = false;
  /** Validations still running (asynchronous validators). */
  private pending = 0;
  /** How the input ended, once it did: the status of the last state. */
  private ending: ChatStatus | undefined;

  /**
   * @param subscriber Where the states go; it completes after the last one and never errors.
   * @param config The choice, the reducer's limits, the parsers' options and `tools`.
   */
  constructor(
    private readonly subscriber: Subscriber<ChatState>,
    config: ChatConfig,
  ) {
    this.choice = config.choice;
    this.parserOptions = config.parser;
    this.tools = config.tools;
    this.driver = new CallDriver(config.calls, this);
  }

  next(event: StreamEvent): void {
    if (this.driver.done) return;
    this.onEvent(event);
    try {
      this.driver.event(event);
    } catch (error) {
      this.ended(true, error);
      return;
    }
    this.flush();
  }

  complete(): void {
    if (this.driver.done) return;
    this.driver.complete();
    this.ended(false, undefined);
  }

  error(error: unknown): void {
    if (this.driver.done) return;
    this.driver.error(error);
    this.ended(true, error);
  }

  private onEvent(event: StreamEvent): void {
    switch (event.type) {
      case 'text-delta':
        if (event.choice === this.choice && event.text !== '') {
          this.text += event.text;
          this.changed = true;
        }
        return;
      case 'reasoning-delta':
        if (event.choice === this.choice && event.text !== '') {
          this.reasoning += event.text;
          this.changed = true;
        }
        return;
      case 'finish':
        if (event.choice === this.choice && event.reason !== this.finishReason) {
          this.finishReason = event.reason;
          this.changed = true;
        }
        return;
      case 'usage':
        this.usage = mergeUsage(this.usage, event);
        this.changed = true;
        return;
      case 'tool-result':
      case 'tool-approval-request':
        if (event.choice === this.choice) this.answer(event);
        return;
      default:
        return;
    }
  }

  /** A tool result or an approval request goes on the call it names (the latest with that wire id); one for no call is left out. */
  private answer(event: ToolResultEvent | ToolApprovalRequestEvent): void {
    const position = this.byWireId.get(event.id) ?? this.calls.findIndex((call) => call.id === event.id);
    const entry = position < 0 ? undefined : this.calls[position];
    if (entry === undefined) return;
    if (event.type === 'tool-approval-request') {
      this.replace(position, { ...entry, approval: { id: event.approvalId } });
      return;
    }
    const { type: _type, choice: _choice, id: _id, ...output } = event;
    this.replace(position, { ...entry, output });
  }

  /** A fragment of the chosen choice grows its call (a call the fragment closed gets its result from {@link callClosed}). */
  callFragment(call: TrackedCall, argumentsDelta: string): void {
    if (call.choice !== this.choice || call.ending !== undefined) return;
    const state = this.stateOf(call);
    if (call.kind === 'custom') {
      // A custom tool's input is text: shown as it grows, as partialToolCalls() shows it.
      const entry = this.calls[state.position] as ChatStateCall;
      if (entry.partialArguments !== call.rawArguments || entry.id !== call.id || entry.name !== call.name || entry.openPath === undefined)
        this.replace(state.position, withChanges(entry, { id: call.id, name: call.name, partialArguments: call.rawArguments, openPath: CUSTOM_OPEN }));
      return;
    }
    let parser = state.parser;
    if (parser === undefined || state.consumed + argumentsDelta.length !== call.rawArguments.length) {
      // the first fragment, or a replace delta (the wire re-sent the whole text): start over
      parser = state.parser = new PartialJsonParser(this.parserOptions);
      state.shown = -1;
      parser.push(call.rawArguments);
    } else {
      parser.push(argumentsDelta);
    }
    state.consumed = call.rawArguments.length;
    const entry = this.calls[state.position] as ChatStateCall;
    const changes: Partial<Record<keyof ChatStateCall, unknown>> = {};
    let changed = entry.id !== call.id || entry.name !== call.name;
    if (changed) Object.assign(changes, { id: call.id, name: call.name });
    if (entry.id !== call.id && call.wireId !== undefined) this.byWireId.set(call.wireId, state.position); // a wire id after the first fragment
    if (parser.error === undefined) {
      // malformed JSON: partial values stop where they were
      if (parser.changeCount !== state.shown) {
        state.shown = parser.changeCount;
        const value = parser.value ?? EMPTY;
        if (value !== entry.partialArguments) {
          changes.partialArguments = value;
          changed = true;
        }
      }
      const path = parser.openPath;
      if (!samePath(path, entry.openPath)) {
        changes.openPath = path;
        changed = true;
      }
    }
    if (changed) this.replace(state.position, withChanges(entry, changes));
  }

  /** A closed call of the chosen choice gets its result. */
  callClosed(call: TrackedCall): void {
    if (call.choice !== this.choice) return;
    const state = this.stateOf(call);
    const result = resultOf(call, parseWith(state), this.driver.config.repair);
    const entry = this.calls[state.position] as ChatStateCall;
    const last = { id: call.id, name: call.name, partialArguments: result.success ? result.data.arguments : entry.partialArguments };
    const openPath = result.success ? undefined : entry.openPath;
    const tools = this.tools;
    const validated = tools === undefined ? result : validateResult(tools, result);
    if (!isPromiseLike(validated)) {
      this.replace(state.position, this.settled(entry, last, openPath, validated));
      return;
    }
    this.replace(state.position, withChanges(entry, { ...last, openPath }));
    this.pending++;
    validated.then((typed) => {
      this.pending--;
      this.replace(state.position, this.settled(this.calls[state.position] as ChatStateCall, last, openPath, typed));
      if (this.pending === 0 && this.ending !== undefined) this.emitLast(this.ending);
      else this.flush();
    });
  }

  /** The entry of a closed call with its result (a validated success shows the schema's output). */
  private settled(entry: ChatStateCall, last: Partial<ChatStateCall>, openPath: JsonPath | undefined, result: ToolCallResult): ChatStateCall {
    const partialArguments = result.success ? result.data.arguments : last.partialArguments;
    return withChanges(entry, { ...last, partialArguments, openPath, result });
  }

  /** The input ended (`failed`: with `error`): the last state goes out once no validation is pending. */
  private ended(failed: boolean, error: unknown): void {
    this.ending = failed ? 'error' : 'done';
    this.failure = error;
    if (this.pending === 0) this.emitLast(this.ending);
  }

  private emitLast(status: ChatStatus): void {
    this.status = status;
    this.changed = true;
    this.flush();
    this.subscriber.complete();
  }

  private stateOf(call: TrackedCall): CallState {
    let state = this.states.get(call.seq);
    if (state === undefined) {
      state = { position: this.calls.length, parser: undefined, consumed: 0, shown: -1 };
      this.states.set(call.seq, state);
      if (call.wireId !== undefined) this.byWireId.set(call.wireId, state.position);
      const entry: ChatStateCall = { id: call.id, name: call.name, index: call.index, choice: call.choice, partialArguments: EMPTY, openPath: [] };
      this.writableCalls().push(entry);
      this.changed = true;
    }
    return state;
  }

  private replace(position: number, entry: ChatStateCall): void {
    this.writableCalls()[position] = entry;
    this.changed = true;
  }

  private writableCalls(): ChatStateCall[] {
    if (this.callsShared) {
      this.calls = this.calls.slice();
      this.callsShared = false;
    }
    return this.calls;
  }

  /** EventSink the state when something changed since the last one. */
  private flush(): void {
    if (!this.changed) return;
    this.changed = false;
    this.callsShared = true;
    const state: ChatState = { status: this.status, text: this.text, reasoning: this.reasoning, calls: this.calls, finishReason: this.finishReason, usage: this.usage };
    this.subscriber.next(this.status === 'error' ? { ...state, error: this.failure } : state);
  }
}

/** Later counts win; counts a later event omits are kept. */
function mergeUsage(usage: ChatUsage | undefined, event: UsageEvent): ChatUsage {
  const next: Record<string, unknown> = { ...usage, raw: event.raw };
  for (const key of ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'] as const) {
    if (event[key] !== undefined) next[key] = event[key];
  }
  return next as unknown as ChatUsage;
}

/** The parse of a closed call: the value the incremental parser built when it read the whole text without error, else `parseArguments`. */
function parseWith(state: CallState): ArgumentsParser {
  return (call) => {
    const parser = state.parser;
    if (parser !== undefined && state.consumed === call.rawArguments.length && parser.error === undefined && parser.done) return { ok: true, value: parser.value };
    return parseArguments(call.rawArguments);
  };
}
