/**
 * `toolLoop()`: call the model, run the tools it asks for, send the results back, repeat.
 *
 * @module
 */
import { catchError, connect, EMPTY, filter, from, isObservable, map, merge, mergeMap, Observable, type ObservableInput, type Subscription, tap, throwError } from 'rxjs';
import { eventsAndResults, type EventOrResult } from '../operators/eventsAndResults';
import type { ToolCallsOptions } from '../calls/call';
import { CALLS_OPTION_CHECKS } from '../calls/driver';
import { aCount, aFunction, anObject, checkOptions, checkOptionsAt, closest, pickOptions, type OptionCheck, type OptionChecks } from '../internal/options';
import { checkTools } from '../parse/validate';
import { ToolStreamError } from '../errors';
import type { FramedRecord, StreamEvent } from '../events';
import { READ_OPTION_CHECKS, readStreamEvents, type ReadStreamEventsOptions } from '../read/readStreamEvents';
import { aMessageFormat, assistantTextMessage, isMessageFormat, REPLY_OPTION_CHECKS, toolMessages, type MessageFormat, type ToolMessagesOptions } from './messages/index';
import { withLoopUsage } from './loopUsage';
import { appendSteers, userTextMessage } from './messages/steer';
import { RUN_OPTION_CHECKS, runTools, toolsByName, type RunToolsOptions } from './runTools';
import { gate, restoredResult, restoredTurn, savedResult, type Gated } from './approvals';
import type { ToolStep } from './messages/shared';
import type { ToolCallResult } from '../result';
import { TurnRecorder } from './turnRecorder';
import { SPECS_OPTION_CHECKS, toolSpecs, type ToolSpecs, type ToolSpecsOptions } from './toolSpecs';
import type { InferToolRun, ToolList, ToolRun, ToolRunResult, ToolSet } from './types';
import type { LoopMessage, ToolApprovalDecision, ToolApprovalRequest, ToolLoopCheckpoint, ToolLoopItem } from './loopItems';

export type { LoopMessage, ToolLoopItem } from './loopItems';

/** What `request` is given besides the messages: the loop's format and the tool definitions to send. */
export interface ToolLoopRequestContext {
  /** The wire format of the conversation (the loop's `format`). */
  readonly format: MessageFormat;
  /**
   * `toolSpecs(tools, format)`: the loop's tools as the request's `tools` field in `format`
   * (computed on first read, once per loop; an `unsupported-request` error when a tool's schema
   * cannot give a JSON Schema, thrown from `request` so that the loop ends with it).
   */
  readonly tools: ToolSpecs<MessageFormat>;
  /**
   * Aborted when the loop's subscription ends (its output completed or failed, or it was
   * unsubscribed): a request that keeps a connection across the loop's steps
   * (`responsesWebSocket()` of `rxjs-tool-calls/websocket`) closes it then. One per subscription.
   */
  readonly signal: AbortSignal;
}

/**
 * Starts one model call with `messages` and returns its streamed body (byte or text chunks), or
 * the records of a stream framed already (a WebSocket's messages). `step` is 0 for the first call;
 * `context.tools` is the request's `tools` field, built from the loop's tools.
 */
export type ToolLoopRequest = (messages: ReadonlyArray<LoopMessage>, step: number, context: ToolLoopRequestContext) => Observable<Uint8Array | string | FramedRecord>;

/**
 * Options of {@link toolLoop}: the loop's own, then one group per stage it drives, each the options
 * of that stage's own function (`read` → `readStreamEvents()` and the calls, `run` → `runTools()`,
 * `reply` → `toolMessages()`, `specs` → `toolSpecs()`).
 */
export interface ToolLoopOptions {
  /**
   * The wire format of the messages the loop appends. Default: `read.provider` when it is a format
   * messages can be written in, else `'openai-chat'`.
   */
  readonly format?: MessageFormat;
  /** The conversation so far (system / user messages …), in `format`. Default `[]`. */
  readonly messages?: ReadonlyArray<LoopMessage>;
  /** The most model calls the loop makes. Default 10. */
  readonly maxSteps?: number;
  /**
   * What to do with a step whose model finished with `tool-calls` but sent no call (a
   * `missing-tool-calls` result: the calls were lost on the way): `'error'` (the default) ends the
   * loop with that error after the step's `step-end`; `'retry'` makes the same request again as the
   * next step (counted by `maxSteps`). Never taken as the model's answer.
   */
  readonly onMissingToolCalls?: 'error' | 'retry';
  /**
   * Reading each step's stream: `readStreamEvents()`'s options (`provider`, default `format`;
   * `idleTimeoutMs`, the SSE limits, …) and the calls' (`repairArguments`, `maxToolCalls`,
   * `maxArgumentsSize`, …).
   */
  readonly read?: ReadStreamEventsOptions & ToolCallsOptions;
  /** Running the tools: `runTools()`'s options (`concurrency`, `timeoutMs`, `failFast`). */
  readonly run?: RunToolsOptions;
  /** Writing the turn and the results back: `toolMessages()`'s options (`stringify`, `sendReasoning`, …). */
  readonly reply?: ToolMessagesOptions;
  /** Declaring the tools to the model (`context.tools`): `toolSpecs()`'s options (`strict`, `onSchemaDrop`, `eagerInputStreaming`, `maxDepth`). */
  readonly specs?: ToolSpecsOptions;
  /**
   * Decides the calls of tools with `needsApproval`: given each request, returns an
   * `ObservableInput` whose first value is the {@link ToolApprovalDecision} (approve, approve with
   * edited arguments, deny with a reason). The step's other calls run meanwhile. One that completes
   * without a value, or no `approve` at all, leaves the call pending: the step ends with a `paused`
   * item holding a {@link ToolLoopCheckpoint} to resume from. An error ends the loop (after the
   * tools already running finished).
   */
  readonly approve?: (request: ToolApprovalRequest) => ObservableInput<ToolApprovalDecision>;
  /**
   * A `paused` item's checkpoint (saved as JSON, in this process or another): the loop starts at
   * that step's pending calls (asking `approve` again), writes the step back with every result and
   * goes on. `messages` and `format` come from the checkpoint.
   */
  readonly resume?: ToolLoopCheckpoint;
  /**
   * Steering: messages of the user's while the loop runs, each a user message in `format` or its
   * text (made the format's user message; blank text is ignored). Subscribed when the loop is, and
   * unsubscribed when it ends. Each is taken at the next step boundary, when the step's stream ended
   * and its tools finished (the step is never cut: every call made gets its result first), all the
   * ones waiting, in the order they came; a `steer` item per message, then `step-end`, whose
   * `messages` (the next request's) end with them, joined to the tool results' `user` turn where
   * the format needs it. A steer taken after a step that answered without calls makes the loop go
   * on with one more step instead of `done` (still bound by `maxSteps`). A step that pauses keeps
   * them in its checkpoint (`steer`), for the resumed loop's first boundary. Its completion changes
   * nothing; its error (or a value that is neither a message nor text) ends the loop at the next
   * boundary, after that step's `step-end`.
   */
  readonly steer?: Observable<LoopMessage | string>;
}

/** The check of `onMissingToolCalls` (a misspelt value would otherwise behave as the default, `'error'`, without a word). */
const aMissingCallsPolicy: OptionCheck = (value) => (value === 'error' || value === 'retry' ? undefined : "'error' or 'retry'");

/** The checks of the loop's own keys (each group's keys are checked by {@link GROUPS}). */
const LOOP_OPTION_CHECKS: OptionChecks = {
  format: aMessageFormat,
  messages: (value) => (Array.isArray(value) ? undefined : 'an array of messages'),
  maxSteps: /* @__PURE__ */ aCount(1),
  onMissingToolCalls: aMissingCallsPolicy,
  read: anObject,
  run: anObject,
  reply: anObject,
  specs: anObject,
  approve: aFunction,
  steer: (value) => (isObservable(value) ? undefined : 'an Observable of messages'),
  resume: (value) => {
    const cp = value as Partial<ToolLoopCheckpoint> | null;
    return typeof cp === 'object' &&
      cp !== null &&
      Array.isArray(cp.messages) &&
      Array.isArray(cp.pending) &&
      Array.isArray(cp.results) &&
      typeof cp.step === 'number' &&
      (cp.steer === undefined || Array.isArray(cp.steer)) &&
      aMessageFormat(cp.format) === undefined
      ? undefined
      : "a paused item's checkpoint";
  },
};

/** The groups of {@link ToolLoopOptions}: each stage's options, with the function they go to and their checks. */
const GROUPS: ReadonlyArray<{ readonly key: 'read' | 'run' | 'reply' | 'specs'; readonly stage: string; readonly checks: ReadonlyArray<OptionChecks> }> = [
  { key: 'read', stage: 'readStreamEvents() and the calls', checks: [READ_OPTION_CHECKS, CALLS_OPTION_CHECKS] },
  { key: 'run', stage: 'runTools()', checks: [RUN_OPTION_CHECKS] },
  { key: 'reply', stage: 'toolMessages()', checks: [REPLY_OPTION_CHECKS] },
  { key: 'specs', stage: 'toolSpecs()', checks: [SPECS_OPTION_CHECKS] },
];

/**
 * The loop's options, checked when it is made: a key it does not take is an `invalid-option` error
 * (a stage's option given flat, `provider`, `concurrency`, `stringify`, …, is named with the group
 * it belongs in; a typo with the closest key); so is a value it cannot use, in its own keys and in
 * each group's.
 */
function checkLoopOptions(options: ToolLoopOptions): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new ToolStreamError('invalid-option', { function: 'toolLoop', option: 'options', value: options, expected: 'an object of options' });
  const own = Object.keys(LOOP_OPTION_CHECKS);
  for (const key of Object.keys(options)) {
    if (own.includes(key)) continue;
    const group = GROUPS.find(({ checks }) => checks.some((table) => Object.prototype.hasOwnProperty.call(table, key)));
    const near = group === undefined ? closest(key, own) : undefined;
    const hint = group !== undefined ? ` ('${key}' is an option of ${group.key}: options.${group.key}.${key})` : near !== undefined ? ` (did you mean '${near}'?)` : '';
    const groups = GROUPS.map(({ key: name, stage }) => `${name} (${stage})`).join(', ');
    const expected = `an option toolLoop() takes${hint}: ${own.join(', ')}; an option of a stage goes in its group: ${groups}`;
    throw new ToolStreamError('invalid-option', { function: 'toolLoop', option: `options.${key}`, value: (options as Record<string, unknown>)[key], expected });
  }
  checkOptions('toolLoop', options, LOOP_OPTION_CHECKS);
  for (const { key, checks } of GROUPS) checkOptionsAt('toolLoop', `options.${key}`, options[key], checks);
}

/** The steers waiting for the next step boundary, in the order they came, and the steer's failure once it failed. */
interface Steers {
  readonly waiting: LoopMessage[];
  failed?: { readonly error: unknown };
}

interface StepState<Run> {
  text: string;
  /** The turn in stream order (text, reasoning parts, calls), for the messages sent back. */
  readonly turn: { step(results: ReadonlyArray<ToolRunResult<ToolRun>>): ToolStep };
  readonly results: Array<ToolRunResult<Run>>;
  /** The calls waiting for a decision nobody gave yet. */
  readonly pending: ToolCallResult[];
}

function collect(state: StepState<unknown>, event: StreamEvent): void {
  if (event.type === 'text-delta' && event.choice === 0) state.text += event.text;
  if (state.turn instanceof TurnRecorder) state.turn.push(event);
}

/**
 * Run a whole tool conversation: call the model, run the tools it asks for as their calls arrive,
 * append the assistant turn and the tool results, call again, until it answers without tool calls.
 *
 * <span class="informal">`request` → `readStreamEvents()` → `toolCalls()` → `runTools()`, then the
 * message helpers, step after step; every event, call and result is emitted as it happens.</span>
 *
 * ```text
 * request(m0, 0):  --t--A--B--|                   t: text, A, B: tool calls
 * request(m1, 1):                --t--t--|        the final answer
 *   toolLoop(request, tools)
 * s-e--(ca)(cb)-a--b-E-s--e--e--(ED|)             s: step-start, e: event, c: tool-call, a, b: tool-result,
 *                                                 E: step-end (messages so far), D: done (final messages)
 * ```
 *
 * 1. Each step calls `request(messages, step, { format, tools, signal })` (`tools`: `toolSpecs(tools, format)`;
 *    `signal`: aborted when the loop's subscription ends) and reads its bytes, or its records
 *    (`provider`, auto-detected by default). Tools start the moment their call completes, while the
 *    stream still runs.
 * 2. When the stream ended and every tool finished, the assistant turn and the results (failed runs
 *    as error outputs the model can read) are appended in `format` (see `toolMessages()`), and the
 *    next step starts with them.
 * 3. A step without tool calls ends the loop: its text is appended as the assistant's message and
 *    a `done` item carries the final `messages`; then the output completes.
 * 4. Usage: each `step-end` carries its step's `usage` (the last report of its stream) and `done`
 *    the sum over the steps (as `totalUsage()` counts them); absent where nothing was reported.
 * 5. When step `maxSteps - 1` (the last allowed) still has tool calls, its tools run and its
 *    `step-end` is emitted, then the output ends with `max-steps` (`max-steps` error).
 * 5a. A step whose model finished with `tool-calls` but sent no call (a `missing-tool-calls`
 *    result) is not an answer: after its `step-end` (the messages unchanged) the loop ends with that
 *    error, or with `onMissingToolCalls: 'retry'` makes the same request again as the next step.
 *    Provider-executed tools (web search, code interpreter, …) are never run: they are kept in the
 *    turn sent back.
 * 6. A stream error (HTTP, provider, …) ends the loop with that error, after the tools already
 *    running finished (as `runTools()` does). `failFast` ends it at a tool's failure.
 * 7. Unsubscribing cancels the current request (closing the connection when `request` uses
 *    `fromResponse`) and aborts every running tool through its signal.
 * 8. Steps run one after another, not nested in each other: any number of steps (synchronous or
 *    not) takes constant stack and constant work per step, except the one new `messages` array
 *    each step is handed (a snapshot of the conversation, so O(history) per step, as is sending
 *    it; items that keep those arrays keep O(steps²) messages in all). Errors are never dropped.
 * 9. Approvals: a call of a tool with `needsApproval` is emitted as a `tool-approval` item and runs
 *    only when `approve` approves it (with edited arguments, validated again, if given); a denial is
 *    a `tool-denied` result written back as the format's failed tool result. The step's other calls
 *    run meanwhile. A call nobody decided (no `approve`, or it gave no value) ends the step with a
 *    `paused` item whose JSON `checkpoint` the option `resume` goes on from.
 * 10. Tool progress: a tool whose `execute` returns an Observable or an async iterable gives a
 *    `tool-progress` item per value as it arrives (`result.preliminary: true`); its `tool-result`
 *    (the last value) follows. Progress is never written back to the model.
 * 11. Steering (`steer`): each message the user sends while the loop runs is taken at the next step
 *    boundary (the step's stream ended, its tools finished: the step is never cut, every call gets
 *    its result first), all waiting ones in order: a `steer` item each, then the `step-end` whose
 *    messages end with them, the next request's. A step that answered without calls but has a steer
 *    waiting is not the end: the loop goes on with one more step carrying it.
 *
 * ```text
 * request(m0, 0):  --t--A--|                      A: a tool call (its tool ends at a)
 * steer:           ----x------y------             x, y: the user's messages
 * request(m1, 1):                 --t--|          m1: m0, the turn, A's result, then x and y
 *   toolLoop(request, tools, { steer })
 * s-e--c-----------a(xyE)s--e--(ED|)              x, y: steer items, E: step-end (ends with x, y)
 * ```
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { fromResponse } from 'rxjs-tool-calls';
 * import { tool, toolLoop, type ToolLoopRequest } from 'rxjs-tool-calls/tools';
 *
 * declare const url: string;
 * declare const headers: Record<string, string>;
 * declare const model: string;
 * declare function lookup(city: string): Promise<{ readonly temperature: number }>;
 *
 * const tools = { get_weather: tool({ description: 'Weather in a city', schema: z.object({ city: z.string() }), execute: ({ city }) => lookup(city) }) };
 * const request: ToolLoopRequest = (messages, _step, { tools: specs }) =>
 *   fromResponse(fetch(url, { method: 'POST', headers, body: JSON.stringify({ model, stream: true, tools: specs, messages }) }));
 * toolLoop(request, tools, { format: 'openai-chat', messages: [{ role: 'user', content: 'Weather in Paris?' }] })
 *   .subscribe((item) => {
 *     if (item.type === 'event' && item.event.type === 'text-delta') process.stdout.write(item.event.text);
 *     if (item.type === 'done') console.log(item.messages.length, item.usage?.totalTokens);
 *   });
 * ```
 *
 * @param request Starts one model call; its third argument carries the tools as the request's
 *   `tools` field in `format` (`toolSpecs(tools, format)`).
 * @param tools The tools by name, or an array of named tools (see `runTools()`).
 * @param options `format`, initial `messages`, `maxSteps`, `onMissingToolCalls`, and one group per
 *   stage: `read` (`readStreamEvents()` and the calls), `run` (`runTools()`), `reply`
 *   (`toolMessages()`), `specs` (`toolSpecs()`).
 * @return The items of every step ({@link ToolLoopItem}, a union by `type`), ending with `done`.
 * @throws {ToolStreamError} `invalid-option`, at once, for an option it does not take (a stage's
 *   option outside its group) or a value it cannot use, in its own options or a group's.
 */
export function toolLoop<T extends ToolSet | ToolList>(request: ToolLoopRequest, tools: T, options: ToolLoopOptions = {}): Observable<ToolLoopItem<InferToolRun<T>>> {
  type Run = InferToolRun<T>;
  type Item = ToolLoopItem<Run>;
  checkLoopOptions(options);
  const read = options.read ?? {};
  const provider = read.provider;
  const providerName = provider === undefined ? undefined : typeof provider === 'string' ? provider : provider.format;
  const resume = options.resume;
  const format: MessageFormat = resume?.format ?? options.format ?? (providerName !== undefined && isMessageFormat(providerName) ? providerName : 'openai-chat');
  const readOptions: ReadStreamEventsOptions = { ...read, provider: provider ?? options.format ?? 'auto' };
  const runOptions = options.run ?? {};
  const replyOptions = options.reply ?? {};
  const maxSteps = options.maxSteps ?? 10;
  checkTools(tools, 'toolLoop');
  const byName = toolsByName(tools, 'toolLoop');
  const approve = options.approve;
  let specs: ToolSpecs<MessageFormat> | undefined;
  /** The request's context for one subscription of the loop (its `signal` is aborted when the subscription ends). */
  const contextOf = (signal: AbortSignal): ToolLoopRequestContext => ({
    format,
    get tools() {
      return (specs ??= toolSpecs(tools, format, options.specs));
    },
    signal,
  });

  /** The items of one step's stream and tools; its end is decided by `finish` once they completed. */
  const stepItems = (step: number, messages: ReadonlyArray<LoopMessage>, state: StepState<Run>, context: ToolLoopRequestContext): Observable<Item> => {
    // The stream's error reaches the output through the tools branch, after the running tools
    // finished: the other branch drops that one error, and only that one.
    let streamError: { readonly error: unknown } | undefined;
    const dropStreamError = catchError<Item, Observable<never>>((error: unknown) => (streamError !== undefined && error === streamError.error ? EMPTY : throwError(() => error)));
    return request(messages, step, context).pipe(
      readStreamEvents(pickOptions(readOptions, READ_OPTION_CHECKS)),
      eventsAndResults(read),
      tap({ error: (error: unknown) => (streamError = { error }) }),
      connect((items) =>
        merge(
          items.pipe(
            map((item): Item => {
              if (item.type === 'result') return { type: 'tool-call', step, result: item.result };
              collect(state, item.event);
              return { type: 'event', step, event: item.event };
            }),
            dropStreamError,
          ),
          toolItems(
            step,
            items.pipe(
              filter((item): item is Extract<EventOrResult, { type: 'result' }> => item.type === 'result'),
              map((item) => item.result),
            ),
            state,
          ),
        ),
      ),
    );
  };

  /**
   * The tool items of a step's calls: each through the approval gate (a `tool-approval` item, then
   * its decision), the approved and ungated ones through `runTools()`, denials as their results.
   * The calls' source error reaches the output through `runTools()` (after the running tools).
   */
  const toolItems = (step: number, calls: Observable<ToolCallResult>, state: StepState<Run>, resumed = false): Observable<Item> =>
    calls.pipe(
      mergeMap((result) => gate(step, result, byName, approve, resumed)),
      connect((gated) =>
        merge(
          gated.pipe(
            filter((g): g is Exclude<Gated, { type: 'run' }> => g.type !== 'run'),
            mergeMap((g): Observable<Item> => {
              if (g.type === 'approval') return from([{ type: 'tool-approval', step, request: g.request } satisfies Item]);
              if (g.type === 'pending') {
                state.pending.push({ success: true, data: g.call });
                return EMPTY;
              }
              state.results.push(g.result as ToolRunResult<Run>);
              return from([{ type: 'tool-result', step, result: g.result as ToolRunResult<Run> } satisfies Item]);
            }),
            catchError(() => EMPTY),
          ),
          gated.pipe(
            filter((g): g is Extract<Gated, { type: 'run' }> => g.type === 'run'),
            map((g) => g.result),
            runTools(tools, runOptions),
            map((result): Item => {
              // A progress value is shown, never written back: only the final result of each call is.
              if (result.success && result.preliminary === true) return { type: 'tool-progress', step, result };
              state.results.push(result);
              return { type: 'tool-result', step, result };
            }),
          ),
        ),
      ),
    );

  /**
   * After a step's items: its `step-end`, then `done`, `max-steps`, `missing-tool-calls`, or the
   * messages of the next step. The steers waiting are taken here (a `steer` item each, before the
   * `step-end` whose messages end with them), when the loop goes on or pauses; a steer's error ends
   * the loop after the `step-end` (or the `paused` item).
   */
  const finish = (step: number, messages: ReadonlyArray<LoopMessage>, state: StepState<Run>, steers: Steers): { items: Item[]; next?: ReadonlyArray<LoopMessage>; error?: unknown } => {
    const { text } = state;
    const failed = steers.failed;
    if (state.pending.length > 0) {
      const { content } = state.turn.step([]);
      const steer = steers.waiting.splice(0);
      const checkpoint: ToolLoopCheckpoint = {
        format,
        step,
        messages,
        turn: { text, content: content ?? [] },
        results: state.results.map((r) => savedResult(r as ToolRunResult<ToolRun>)),
        pending: state.pending.flatMap((r) => (r.success ? [r.data] : [])),
        ...(steer.length === 0 ? {} : { steer }),
      };
      return { items: [{ type: 'paused', step, checkpoint }], ...(failed === undefined ? {} : { error: failed.error }) };
    }
    // A `tool-calls` finish without calls is no call to answer and no answer either (rule `missing-calls`).
    const missing = state.results.find((r): r is Extract<ToolRunResult<Run>, { success: false }> => !r.success && r.error.code === 'missing-tool-calls' && r.error.toolCall.choice === 0);
    const results = state.results.filter((r) => r.success || r.error.code !== 'missing-tool-calls');
    const missed = missing !== undefined && results.length === 0;
    const retry = options.onMissingToolCalls === 'retry';
    // The same request again (with the steers waiting), unless the steer failed or no step is left.
    const again = missed && retry && failed === undefined && step + 1 < maxSteps;
    if (missed && !again) {
      const error = failed !== undefined ? failed.error : retry && step + 1 >= maxSteps ? new ToolStreamError('max-steps', { maxSteps }) : missing.error;
      return { items: [{ type: 'step-end', step, text, results: state.results, messages }], error };
    }
    // One new array per step (a copy of the history: `request` and the items hand out snapshots).
    // A step that answered without calls but has steers waiting goes on: its answer, then the steers.
    const taken = steers.waiting.splice(0);
    const appended = again
      ? messages
      : results.length > 0
        ? messages.concat(toolMessages(format, state.turn.step(results), replyOptions))
        : text === ''
          ? messages
          : messages.concat([assistantTextMessage(format, text)]);
    const next = taken.length === 0 ? appended : appendSteers(format, appended, taken);
    const items: Item[] = [...taken.map((message): Item => ({ type: 'steer', step, message })), { type: 'step-end', step, text, results: again ? state.results : results, messages: next }];
    if (failed !== undefined) return { items, error: failed.error };
    if (!again && results.length === 0 && taken.length === 0) return { items: [...items, { type: 'done', step, text, messages: next }] };
    return step + 1 >= maxSteps ? { items, error: new ToolStreamError('max-steps', { maxSteps }) } : { items, next };
  };

  // The steps run one after another in a loop, not nested in each other: a step that completes
  // synchronously hands over to the `while` below instead of subscribing to the next from inside
  // its own `complete` (no stack growth, and every item goes through the same few subscribers).
  return new Observable<Item>((subscriber) => {
    const ended = new AbortController();
    const context = contextOf(ended.signal);
    let step = resume?.step ?? 0;
    let messages: ReadonlyArray<LoopMessage> = resume?.messages ?? options.messages ?? [];
    let resuming = resume !== undefined;
    // The steers waiting for the next boundary (a paused step's first), and the steer's failure.
    const steers: Steers = { waiting: [...(resume?.steer ?? [])] };
    const steering = options.steer?.subscribe({
      next: (value: unknown) => {
        if (steers.failed !== undefined) return;
        if (typeof value === 'string') {
          if (value.trim() !== '') steers.waiting.push(userTextMessage(format, value));
        } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) steers.waiting.push(value);
        else steers.failed = { error: new ToolStreamError('invalid-option', { function: 'toolLoop', option: 'options.steer', value, expected: 'a message or its text' }) };
      },
      error: (error: unknown) => (steers.failed ??= { error }),
    });
    let current: Subscription | undefined;
    let looping = false;
    let due = true;
    const loop = (): void => {
      if (looping) return;
      looping = true;
      while (due && !subscriber.closed) {
        due = false;
        const at = step;
        const sent = messages;
        let state: StepState<Run> = { text: '', turn: new TurnRecorder(), results: [], pending: [] };
        let items: Observable<Item>;
        if (resuming && resume !== undefined) {
          // The paused step: its turn and settled results from the checkpoint, its pending calls gated again.
          resuming = false;
          try {
            state = { text: resume.turn.text, turn: restoredTurn(resume.turn), results: resume.results.map((r) => restoredResult(r) as ToolRunResult<Run>), pending: [] };
          } catch (error) {
            subscriber.error(new ToolStreamError('invalid-option', { function: 'toolLoop', option: 'options.resume', value: resume, expected: "a paused item's checkpoint" }, { cause: error }));
            break;
          }
          items = toolItems(at, from(resume.pending.map((call): ToolCallResult => ({ success: true, data: call }))), state, true);
        } else {
          try {
            items = stepItems(at, sent, state, context);
          } catch (error) {
            subscriber.error(error);
            break;
          }
          subscriber.next({ type: 'step-start', step: at, messages: sent });
          if (subscriber.closed) break;
        }
        const stepState = state;
        const subscription = items.subscribe({
          next: (item) => subscriber.next(item),
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            let end: ReturnType<typeof finish>;
            try {
              end = finish(at, sent, stepState, steers);
            } catch (error) {
              subscriber.error(error); // building the messages failed (a tool output JSON.stringify rejects, …)
              return;
            }
            for (const item of end.items) subscriber.next(item);
            if ('error' in end) subscriber.error(end.error);
            else if (end.next === undefined) subscriber.complete();
            else {
              step = at + 1;
              messages = end.next;
              due = true;
              loop();
            }
          },
        });
        current = subscription;
        if (subscriber.closed) subscription.unsubscribe();
      }
      looping = false;
    };
    loop();
    return () => {
      current?.unsubscribe();
      steering?.unsubscribe();
      ended.abort();
    };
  }).pipe(withLoopUsage());
}
