/**
 * The items `toolLoop()` emits: a union discriminated by `type`, each tagged with its `step`.
 *
 * @module
 */
import type { StreamEvent, Usage } from '../events';
import type { ToolCallResult } from '../result';
import type { ToolCall } from '../result';
import type { MessageFormat } from './messages/index';
import type { TurnPiece } from './messages/shared';
import type { ToolRun, ToolRunResult } from './types';

/** One message of the conversation, in the loop's wire format (the loop only appends to the list). */
export type LoopMessage = object;

/** What `approve` is asked: one call of a tool that needs approval. */
export interface ToolApprovalRequest {
  /** The step the call was made in, from 0. */
  readonly step: number;
  /** The call, with its arguments as the model sent them (parsed, before the schema's transform). */
  readonly call: ToolCall;
}

/**
 * The answer to a {@link ToolApprovalRequest}: `{ type: 'approve' }` runs the call,
 * `{ type: 'approve', arguments }` runs it with edited arguments (validated by the tool's schema
 * again: an `invalid-arguments` result when they fail), `{ type: 'deny', reason }` does not run it
 * (a `tool-denied` result the model reads). Anything else denies.
 */
export type ToolApprovalDecision =
  | {
      /** Run the call. */
      readonly type: 'approve';
      /** Run it with these arguments instead of the model's (they are what is written back). */
      readonly arguments?: unknown;
    }
  | {
      /** Do not run the call. */
      readonly type: 'deny';
      /** Why (the model reads it in the denial). */
      readonly reason?: string;
    };

/**
 * Where a loop stopped at approvals nobody decided yet (the `paused` item): plain JSON, to save and
 * hand to `toolLoop(request, tools, { resume })` later, in this process or another. The outputs of
 * the calls that already ran are in it, so they must be JSON too.
 */
export interface ToolLoopCheckpoint {
  /** The message format of the loop. */
  readonly format: MessageFormat;
  /** The step that stopped, from 0. */
  readonly step: number;
  /** The messages that step's request was made with. */
  readonly messages: ReadonlyArray<LoopMessage>;
  /** The step's assistant turn: its text and its pieces in stream order. */
  readonly turn: {
    /** The step's visible text. */
    readonly text: string;
    /** Text, reasoning and call places, in stream order. */
    readonly content: ReadonlyArray<TurnPiece>;
  };
  /** The results of the step's calls that were settled (run, failed or denied), as JSON. */
  readonly results: ReadonlyArray<Readonly<Record<string, unknown>>>;
  /** The calls still waiting for a decision. */
  readonly pending: ReadonlyArray<ToolCall>;
  /** The steers that came before the step stopped, in `format` (taken at the resumed step's end); absent when none did. */
  readonly steer?: ReadonlyArray<LoopMessage>;
}

/** A step begins: its model call is about to be made with {@link ToolLoopStepStart.messages}. */
export interface ToolLoopStepStart {
  /** Discriminant: `'step-start'`. */
  readonly type: 'step-start';
  /** The step number, from 0. */
  readonly step: number;
  /** The messages the step's request is made with. */
  readonly messages: ReadonlyArray<LoopMessage>;
}

/**
 * One normalised event of the step's stream (text, reasoning, tool-call fragments, usage, …):
 * `if (item.type === 'event' && item.event.type === 'text-delta') write(item.event.text)`.
 */
export interface ToolLoopEvent {
  /** Discriminant: `'event'`. */
  readonly type: 'event';
  /** The step number, from 0. */
  readonly step: number;
  /** The event, as `readStreamEvents()` emits it. */
  readonly event: StreamEvent;
}

/**
 * One tool call arrived whole (or failed to: malformed arguments, cut stream, …), before it is run.
 * Its arguments are as parsed, not yet validated (the schema runs in `runTools()`, whose outcome is
 * the {@link ToolLoopToolResult} that follows): `item.result.success ? item.result.data.name : item.result.error.code`.
 */
export interface ToolLoopToolCall {
  /** Discriminant: `'tool-call'`. */
  readonly type: 'tool-call';
  /** The step number, from 0. */
  readonly step: number;
  /** The call's result, as `toolCalls()` emits it: `data` is the call (`id`, `name`, `arguments`). */
  readonly result: ToolCallResult;
}

/**
 * One tool run finished (succeeded, failed or timed out). On success `item.result.data` is the
 * {@link ToolRun}: `name` narrows `call.arguments` and `output` together
 * (`if (item.result.success && item.result.data.name === 'get_weather') item.result.data.output`);
 * on failure `item.result.error` says why and `item.result.call` is the call when it arrived whole.
 */
export interface ToolLoopToolResult<Run = ToolRun> {
  /** Discriminant: `'tool-result'`. */
  readonly type: 'tool-result';
  /** The step number, from 0. */
  readonly step: number;
  /** The run's result, as `runTools()` emits it. */
  readonly result: ToolRunResult<Run>;
}

/**
 * A progress value of a running tool (its `execute` returned an Observable or an async iterable):
 * `item.result.data.output` is the value; `item.result.preliminary` is `true`. The call's
 * `tool-result` follows; progress is not sent back to the model.
 */
export interface ToolLoopToolProgress<Run = ToolRun> {
  /** Discriminant: `'tool-progress'`. */
  readonly type: 'tool-progress';
  /** The step number, from 0. */
  readonly step: number;
  /** The progress result, as `runTools()` emits it (`success: true`, `preliminary: true`). */
  readonly result: ToolRunResult<Run>;
}

/** The step's stream ended and all its tools finished; `messages` is the conversation to send next. */
export interface ToolLoopStepEnd<Run = ToolRun> {
  /** Discriminant: `'step-end'`. */
  readonly type: 'step-end';
  /** The step number, from 0. */
  readonly step: number;
  /** The step's visible text (choice 0), `''` when there was none. */
  readonly text: string;
  /** Every tool run of the step, in the order they finished; `[]` on the final step. */
  readonly results: ReadonlyArray<ToolRunResult<Run>>;
  /** The conversation after this step: the messages sent, plus this step's assistant turn and tool results. */
  readonly messages: ReadonlyArray<LoopMessage>;
  /** The step's usage: the last `usage` event of its stream (counts only); absent when it reported none. */
  readonly usage?: Usage;
}

/**
 * A call of a tool with `needsApproval` waits for a decision (the `approve` option's): show
 * `item.request.call` to the user. Its `tool-result` follows (a `tool-denied` failure when denied),
 * or, when no decision came, the step's `paused` item.
 */
export interface ToolLoopApproval {
  /** Discriminant: `'tool-approval'`. */
  readonly type: 'tool-approval';
  /** The step number, from 0. */
  readonly step: number;
  /** What is to be decided: the step and the call. */
  readonly request: ToolApprovalRequest;
}

/**
 * The step's other calls finished but some wait for a decision nobody gave (no `approve`, or it
 * completed without one): the loop stops here (the output completes next). Save `checkpoint` (JSON)
 * and resume with `toolLoop(request, tools, { resume: checkpoint, approve })`.
 */
export interface ToolLoopPaused {
  /** Discriminant: `'paused'`. */
  readonly type: 'paused';
  /** The step that stopped, from 0. */
  readonly step: number;
  /** Everything needed to go on: the messages, the step's turn, its settled results, the pending calls. */
  readonly checkpoint: ToolLoopCheckpoint;
}

/**
 * A steer (the `steer` option's) taken at the end of step `step`: `message`, in the loop's format,
 * ends the `messages` of the `step-end` that follows (inside its last `user` turn in Anthropic and
 * Bedrock), so step `step + 1`'s request carries it.
 */
export interface ToolLoopSteer {
  /** Discriminant: `'steer'`. */
  readonly type: 'steer';
  /** The step at whose end it was taken, from 0. */
  readonly step: number;
  /** The user message, in the loop's format (text given as a string made the format's user message). */
  readonly message: LoopMessage;
}

/** The model answered without tool calls: the loop is over (the output completes next). */
export interface ToolLoopDone {
  /** Discriminant: `'done'`. */
  readonly type: 'done';
  /** The number of the last step, from 0. */
  readonly step: number;
  /** The final answer's visible text (choice 0). */
  readonly text: string;
  /** The whole conversation, ending with the final answer as an assistant message (when it had text). */
  readonly messages: ReadonlyArray<LoopMessage>;
  /** The loop's usage: the sum of every step's `usage` (see `addUsage()`); absent when no step reported any. */
  readonly usage?: Usage;
}

/**
 * What `toolLoop()` emits, in order, each tagged with its `step`: a union discriminated by `type`
 * (`switch (item.type)` narrows it). `Run` is the union of the tools' runs ({@link InferToolRun}
 * of the tool set), so a `tool-result`'s `data.name` narrows its arguments and output.
 *
 * Per step: `step-start`, then `event`s, `tool-call`s and `tool-result`s as they happen, then
 * `step-end`; after the last step, `done`. A call that needs approval adds a `tool-approval` before
 * its `tool-result`; a streaming tool gives `tool-progress` items before it; a step left with
 * undecided calls ends with `paused` instead of `step-end`; steers taken at a step's end are
 * `steer` items just before its `step-end`.
 */
export type ToolLoopItem<Run = ToolRun> =
  ToolLoopStepStart | ToolLoopEvent | ToolLoopToolCall | ToolLoopApproval | ToolLoopToolProgress<Run> | ToolLoopToolResult<Run> | ToolLoopSteer | ToolLoopStepEnd<Run> | ToolLoopPaused | ToolLoopDone;
