/**
 * What the message builders of every format share: the step they are given (text, reasoning, the
 * tool runs) and one view of each call. Each format's builder is in its folder (`messages.ts`).
 *
 * @module
 */
import { stringifyJson } from '../internal/json';
import type { ToolRun, ToolRunResult } from '../tools/types';

/** A thinking block to send back (Anthropic requires them, with their signature, before tool results). */
export interface ReasoningPart {
  /** The thinking text, concatenated from the step's reasoning deltas. */
  readonly text: string;
  /** The block's signature, verbatim from the stream; a part without one is not sent back. */
  readonly signature?: string;
}

/** What the model produced in one step, and what running its calls gave. */
export interface ToolStep {
  /** The visible text of the step (choice 0). */
  readonly text?: string;
  /** Thinking blocks (Anthropic only; other formats ignore them). */
  readonly reasoning?: ReadonlyArray<ReasoningPart>;
  /** One result per call, in any order (they are put in call order). */
  readonly results: ReadonlyArray<ToolRunResult<ToolRun>>;
}

/** Options of the message helpers. */
export interface ToolMessagesOptions {
  /** Turns a tool's output into the text the model reads. Default: strings as they are, anything else as JSON. */
  readonly stringify?: (output: unknown) => string;
}

/** A format's message builders, as `toolLoop()` and `toolMessages()` use them. */
export interface MessageBuilder<M> {
  /** The next request's messages for one step: the assistant turn that made the calls, then the tool results. */
  readonly toolMessages: (step: ToolStep, options?: ToolMessagesOptions) => M[];
  /** The model's final answer (a step without tool calls) as one assistant message. */
  readonly assistantText: (text: string) => M;
}


/** One call as the message builders see it. */
export interface CallView {
  /** The call's id. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The call's index (the builders write calls in index order). */
  readonly index: number;
  /** The arguments as JSON text (`'{}'` when empty; a repaired call's value, not its broken resend). */
  readonly rawArguments: string;
  /** The model's arguments as a JSON object (`{}` when they were not one). */
  readonly input: Readonly<Record<string, unknown>>;
  /** The library generated the id (the wire sent none): formats that match calls by name send none back. */
  readonly idGenerated: boolean;
  /** Gemini's thought signature of the call, to send back on its part. */
  readonly thoughtSignature: string | undefined;
  /** Whether the call or its run failed. */
  readonly failed: boolean;
  /** The output text, or the error's message. */
  readonly text: string;
  /** The tool's raw output (`undefined` for a failure). */
  readonly output: unknown;
}

/** Strings as they are; `undefined` as `''`; anything else as JSON (or `String()` when it cannot be). */
export function defaultStringify(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

function asObject(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function viewOf(result: ToolRunResult<ToolRun>, stringify: (output: unknown) => string): CallView {
  const call = result.success ? result.data.call : result.call;
  const identity = call ?? result.error?.toolCall;
  if (identity === undefined) throw new TypeError('rxjs-tool-calls: a tool run result without a call');
  const metadata = call?.providerMetadata;
  const signature = metadata?.['thoughtSignature'];
  // The parsed arguments when the call parsed (a repaired call's text is the broken resend: write its value).
  const error = result.error;
  const parsed = call !== undefined ? call.arguments : error?.code === 'invalid-arguments' ? error.value : undefined;
  const raw = call?.repaired !== undefined ? stringifyJson(call.arguments) : identity.rawArguments;
  return {
    id: identity.id,
    name: identity.name,
    index: identity.index,
    rawArguments: raw.trim() === '' ? '{}' : raw,
    input: asObject(parsed),
    idGenerated: metadata?.['idGenerated'] === true,
    thoughtSignature: typeof signature === 'string' ? signature : undefined,
    failed: !result.success,
    text: result.success ? stringify(result.data.output) : (error?.message ?? ''),
    output: result.success ? result.data.output : undefined,
  };
}

/** The step's calls, in call order, as the builders see them. */
export function viewsOf(step: ToolStep, options: ToolMessagesOptions): CallView[] {
  const stringify = options.stringify ?? defaultStringify;
  return step.results.map((r) => viewOf(r, stringify)).sort((a, b) => a.index - b.index);
}
