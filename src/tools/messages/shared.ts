/**
 * What the message builders of every format share: the step they are given (text, reasoning, the
 * tool runs) and one view of each call. Each format's builder is a file of this folder.
 *
 * @module
 */
import type { ProviderName, ReasoningPart } from '../../events';
import { safeStringify, stringifyJson } from '../../internal/json';
import type { ToolRun, ToolRunResult } from '../types';

export type { ReasoningPart };

/** One piece of an assistant turn, in the order it was streamed. */
export type TurnPiece =
  | {
      /** Visible text. */
      readonly type: 'text';
      /** The text (consecutive pieces joined). */
      readonly text: string;
      /** Gemini `thoughtSignature` of this text part, sent back on it. */
      readonly signature?: string;
    }
  | {
      /** A reasoning part. */
      readonly type: 'reasoning';
      /** The part, whole. */
      readonly part: ReasoningPart;
    }
  | {
      /** Where a call began. */
      readonly type: 'call';
      /** The call's `index` (the wire's position of the call, as in its result). */
      readonly index: number;
    }
  | ProviderToolPiece;

/**
 * A provider-executed tool's wire object (a Responses item, an Anthropic block, a Gemini part), kept
 * to send back verbatim in the same format (the other formats leave it out).
 */
export interface ProviderToolPiece {
  /** A provider-executed tool's run (or its result). */
  readonly type: 'provider-tool';
  /** The format the object is in. */
  readonly provider: ProviderName;
  /** The object, whole. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** What the model produced in one step, and what running its calls gave. */
export interface ToolStep {
  /** The visible text of the step (choice 0). */
  readonly text?: string;
  /** The reasoning parts of the step, in order (each format sends back what it needs of them). */
  readonly reasoning?: ReadonlyArray<ReasoningPart>;
  /** One result per call, in any order (they are put in call order). */
  readonly results: ReadonlyArray<ToolRunResult<ToolRun>>;
  /**
   * The turn in stream order: text pieces, reasoning parts and where each call began. When given,
   * the builders write the assistant turn in this order (and ignore `text` and `reasoning`); calls
   * it does not place go last, in call order. Without it: reasoning, then text, then the calls.
   * `toolLoop()` records it from the step's events.
   */
  readonly content?: ReadonlyArray<TurnPiece>;
}

/** Options of the message helpers. */
export interface ToolMessagesOptions {
  /** Turns a tool's output into the text the model reads. Default: strings as they are, anything else as JSON. */
  readonly stringify?: (output: unknown) => string;
  /**
   * Send the step's reasoning back (default `true`): Anthropic thinking blocks, Responses reasoning
   * items, chat `reasoning_content`, Gemini thought parts. `false` leaves it out, for a server that
   * rejects it (a Responses request with `store: false` and no `encrypted_content`, a chat server
   * that refuses the field). Gemini call signatures are always sent, and so are the signatures of
   * Interactions `thought` steps (a step with its signature alone).
   */
  readonly sendReasoning?: boolean;
  /**
   * OpenAI chat only: the assistant message's field for the reasoning, and that all of it goes
   * back. By default, reasoning streamed in `reasoning_content` (DeepSeek, Kimi, Qwen, vLLM, xAI)
   * goes back in `reasoning_content`, and reasoning streamed in `reasoning` or Mistral `thinking`
   * parts not at all (Groq and Cerebras reject either field, Mistral unknown ones); `'reasoning'`
   * sends it all in `reasoning` (OpenRouter), `'reasoning_content'` all in `reasoning_content`.
   */
  readonly reasoningField?: 'reasoning_content' | 'reasoning';
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
  /**
   * The argument text as it came, when it is not JSON (a `malformed-arguments` or `incomplete` call:
   * Anthropic's fine-grained tool streaming may send invalid JSON); `undefined` otherwise. Formats
   * whose calls carry an object write it back as `{ "INVALID_JSON": text }`, as Anthropic asks.
   */
  readonly invalidJson: string | undefined;
  /** The library generated the id (the wire sent none): formats that match calls by name send none back. */
  readonly idGenerated: boolean;
  /** Gemini's thought signature of the call, to send back on its part. */
  readonly thoughtSignature: string | undefined;
  /** Responses `function_call` item id (`fc_…`), when the wire sent one. */
  readonly itemId: string | undefined;
  /** Chat `extra_content` of the call (Gemini's compatibility endpoint keeps the thought signature there). */
  readonly extraContent: Readonly<Record<string, unknown>> | undefined;
  /**
   * Who made the call, as the wire said (`providerMetadata.caller`): OpenAI Responses `{ type:
   * 'program', caller_id }` for a call a programmatic tool call's program made, Anthropic `{ type:
   * 'code_execution_…', tool_id }` for one made from code execution; written back by the format it
   * came from (see {@link callerFor}).
   */
  readonly caller: Readonly<Record<string, unknown>> | undefined;
  /** Whether the call or its run failed. */
  readonly failed: boolean;
  /** The output text, or the error's message. */
  readonly text: string;
  /** The tool's raw output (`undefined` for a failure). */
  readonly output: unknown;
  /**
   * A custom (freeform) tool's call: its input text (OpenAI chat and Responses send it back as a
   * custom call; the other formats as the function `toolSpecs()` declares for it, `input` and
   * `rawArguments` being `{ "input": text }`). `undefined` for a JSON tool's call.
   */
  readonly custom: string | undefined;
}

/** Strings as they are; `undefined` as `''`; anything else as JSON (or `String()` when it cannot be). */
export function defaultStringify(output: unknown): string {
  if (typeof output === 'string') return output;
  return output === undefined ? '' : safeStringify(output);
}

function asObject(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `text` when it is not empty and not JSON, else `undefined`. */
function notJson(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    return text;
  }
}

/** `text` parsed, when it is JSON (an `incomplete` call whose text happens to be whole). */
function parsedObject(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function viewOf(result: ToolRunResult<ToolRun>, stringify: (output: unknown) => string): CallView {
  const call = result.success ? result.data.call : result.call;
  const identity = call ?? result.error?.toolCall;
  if (identity === undefined) throw new TypeError('rxjs-tool-calls: a tool run result without a call');
  const metadata = call?.providerMetadata;
  const signature = metadata?.['thoughtSignature'];
  const itemId = metadata?.['itemId'];
  const extra = metadata?.['extraContent'];
  const caller = metadata?.['caller'];
  // The parsed arguments when the call parsed (a repaired call's text is the broken resend: write its value).
  const error = result.error;
  const custom = call?.kind === 'custom' ? (call.input ?? identity.rawArguments) : undefined;
  const parsed = custom !== undefined ? { input: custom } : call !== undefined ? call.arguments : error?.code === 'invalid-arguments' ? error.value : undefined;
  const raw = custom !== undefined ? stringifyJson({ input: custom }) : call?.repaired !== undefined ? stringifyJson(call.arguments) : identity.rawArguments;
  const unparsed = error !== undefined && (error.code === 'malformed-arguments' || error.code === 'incomplete') ? notJson(identity.rawArguments) : undefined;
  return {
    id: identity.id,
    name: identity.name,
    index: identity.index,
    rawArguments: raw.trim() === '' ? '{}' : raw,
    input: asObject(parsed ?? (unparsed === undefined && error !== undefined ? parsedObject(identity.rawArguments) : undefined)),
    invalidJson: unparsed,
    idGenerated: metadata?.['idGenerated'] === true,
    thoughtSignature: typeof signature === 'string' ? signature : undefined,
    itemId: typeof itemId === 'string' && itemId !== '' ? itemId : undefined,
    extraContent: typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? (extra as Record<string, unknown>) : undefined,
    caller: typeof caller === 'object' && caller !== null && !Array.isArray(caller) ? (caller as Record<string, unknown>) : undefined,
    failed: !result.success,
    text: result.success ? stringify(result.data.output) : (error?.message ?? ''),
    output: result.success ? result.data.output : undefined,
    custom,
  };
}

/**
 * A call's `caller` as `format` writes it back, or `undefined` when it is not that format's (a
 * caller is the wire's own: OpenAI Responses' is `{ type: 'direct' }` or `{ type: 'program',
 * caller_id }`; Anthropic's `{ type: 'direct' }` or a server tool's `{ type: 'code_execution_…',
 * tool_id }`; no other format has one).
 */
export function callerFor(format: 'openai-responses' | 'anthropic', caller: Readonly<Record<string, unknown>> | undefined): Readonly<Record<string, unknown>> | undefined {
  const type = caller?.['type'];
  if (typeof type !== 'string') return undefined;
  if (type === 'direct') return caller;
  if (format === 'openai-responses') return type === 'program' && typeof caller?.['caller_id'] === 'string' ? caller : undefined;
  return type !== 'program' && typeof caller?.['tool_id'] === 'string' ? caller : undefined;
}

/** The step's calls, in call order, as the builders see them. */
export function viewsOf(step: ToolStep, options: ToolMessagesOptions): CallView[] {
  const stringify = options.stringify ?? defaultStringify;
  return step.results.map((r) => viewOf(r, stringify)).sort((a, b) => a.index - b.index);
}

/** One piece of the assistant turn as the builders write it: text, a reasoning part, or a call. */
export type TurnSegment = Exclude<TurnPiece, { readonly type: 'call' } | ProviderToolPiece> | { readonly type: 'call'; readonly view: CallView };

/**
 * The assistant turn in the order to write it: the step's `content` when given (calls matched by
 * index; unplaced calls last, in call order), else its reasoning, its text, then its calls. Without
 * `sendReasoning`, reasoning parts are left out.
 */
export function turnOf(step: ToolStep, views: ReadonlyArray<CallView>, options: ToolMessagesOptions): TurnSegment[] {
  return turnWithProviderTools(step, views, options, undefined).filter((s): s is TurnSegment => s.type !== 'provider-tool');
}

/**
 * {@link turnOf}, with the provider-executed tools' objects of `provider`'s format in their place
 * (those of other formats are left out: no other format can take them).
 */
export function turnWithProviderTools(step: ToolStep, views: ReadonlyArray<CallView>, options: ToolMessagesOptions, provider: ProviderName | undefined): Array<TurnSegment | ProviderToolPiece> {
  const send = options.sendReasoning !== false;
  const out: Array<TurnSegment | ProviderToolPiece> = [];
  if (step.content === undefined) {
    if (send) for (const part of step.reasoning ?? []) out.push({ type: 'reasoning', part });
    if (step.text) out.push({ type: 'text', text: step.text });
    for (const view of views) out.push({ type: 'call', view });
    return out;
  }
  // Calls by index, in call order (two calls may share one: a new id at an index in use).
  const byIndex = new Map<number, CallView[]>();
  for (const view of views) byIndex.set(view.index, [...(byIndex.get(view.index) ?? []), view]);
  const placed = new Set<CallView>();
  for (const piece of step.content) {
    if (piece.type === 'call') {
      const view = byIndex.get(piece.index)?.shift();
      if (view === undefined) continue;
      placed.add(view);
      out.push({ type: 'call', view });
    } else if (piece.type === 'text') {
      if (piece.text !== '' || piece.signature !== undefined) out.push(piece);
    } else if (piece.type === 'provider-tool') {
      if (piece.provider === provider) out.push(piece);
    } else if (send) {
      out.push(piece);
    }
  }
  for (const view of views) if (!placed.has(view)) out.push({ type: 'call', view });
  return out;
}
