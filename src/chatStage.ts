/**
 * The stage behind `chatState()`: the tracker's calls, each with an incremental JSON parser, plus
 * the text, reasoning, finish and usage of one choice, folded into one immutable view state.
 *
 * @module
 */
import type { Observer } from 'rxjs';
import { TrackingStage } from './accumulate/trackingStage';
import type { TrackedCall } from './accumulate/trackedCall';
import type { ChatState, ChatStateOptions, ChatStatus, ChatStateCall, ChatUsage } from './chatState';
import type { FinishReason, StreamEvent, UsageEvent } from './events';
import { parseArguments } from './parse/arguments';
import { PartialJsonParser, type JsonPath, type PartialJsonOptions } from './parse/partialJson';
import { resultOf, type ArgumentsParser } from './parse/results';
import { isPromiseLike, type ToolSchemas } from './parse/validate';
import { validateResult } from './parse/validateResults';
import type { ToolCallResult } from './result';

const EMPTY: Readonly<Record<string, never>> = Object.freeze({});

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
 * Folds events into a {@link ChatState} and emits one after each event that changed it. The input's
 * end (completion, failure, or this stage's own error such as `too-many-tool-calls`) becomes the
 * last state (`done` or `error`), after every pending validation settled; then the output completes.
 */
export class ChatStage extends TrackingStage<ChatState> {
  private readonly choice: number;
  private readonly repair: boolean;
  private readonly parserOptions: PartialJsonOptions;
  private readonly tools: ToolSchemas | undefined;
  private readonly states = new Map<number, CallState>();
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
   * @param options The choice, the tracker's limits, `allowPartialLiterals` and `tools`.
   */
  constructor(
    private readonly subscriber: Observer<ChatState>,
    options: ChatStateOptions & { readonly tools?: ToolSchemas },
  ) {
    // The stage's own output is this gate: its end (complete or error) is turned into the last state.
    const gate: Observer<ChatState> = {
      next: (state) => subscriber.next(state),
      error: (error: unknown) => end.stage?.ended(true, error),
      complete: () => end.stage?.ended(false, undefined),
    };
    const end: { stage?: ChatStage } = {};
    super(gate, options);
    end.stage = this;
    this.choice = options.choice ?? 0;
    this.repair = options.repairArguments !== false;
    this.parserOptions = { allowPartialLiterals: options.allowPartialLiterals === true };
    this.tools = options.tools;
  }

  protected override push(event: StreamEvent): void {
    super.push(event);
    this.flush();
  }

  protected override onEvent(event: StreamEvent): void {
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
      default:
        return;
    }
  }

  protected override fragment(call: TrackedCall, argumentsDelta: string, closed: boolean): void {
    if (closed) return this.closed(call);
    if (call.choice !== this.choice) return;
    const state = this.stateOf(call);
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

  protected closed(call: TrackedCall): void {
    if (call.choice !== this.choice) return;
    const state = this.stateOf(call);
    const result = resultOf(call, parseWith(state), this.repair);
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
  ended(failed: boolean, error: unknown): void {
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

  /** Emit the state when something changed since the last one. */
  private flush(): void {
    if (!this.changed) return;
    this.changed = false;
    this.callsShared = true;
    const state: ChatState = { status: this.status, text: this.text, reasoning: this.reasoning, calls: this.calls, finishReason: this.finishReason, usage: this.usage };
    this.out.next(this.status === 'error' ? { ...state, error: this.failure } : state);
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
