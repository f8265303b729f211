/**
 * Turn one step's tool calls and their run results into the messages of the next request, in each
 * wire format: the assistant turn that made the calls, then the tool results.
 *
 * @module
 */
import { parseArguments } from '../parse/arguments';
import type { ToolRun, ToolRunResult } from './types';

/** The wire formats the message helpers write. */
export type MessageFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** A thinking block to send back (Anthropic requires them, with their signature, before tool results). */
export interface ReasoningPart {
  readonly text: string;
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

// ---- The shapes written (checked against the official SDK types in spec/types/messages.test-d.ts).
// Arrays are mutable so the messages can go straight into the SDKs' request types.

export type OpenAIChatAssistantMessage = {
  readonly role: 'assistant';
  readonly content: string | null;
  /** Absent when there are no calls (the API rejects an empty array). */
  readonly tool_calls?: Array<{ readonly id: string; readonly type: 'function'; readonly function: { readonly name: string; readonly arguments: string } }>;
};
export type OpenAIChatToolMessage = { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

export type ResponsesAssistantMessage = { readonly role: 'assistant'; readonly content: string };
export type ResponsesFunctionCall = { readonly type: 'function_call'; readonly call_id: string; readonly name: string; readonly arguments: string };
export type ResponsesFunctionCallOutput = { readonly type: 'function_call_output'; readonly call_id: string; readonly output: string };
export type ResponsesItem = ResponsesAssistantMessage | ResponsesFunctionCall | ResponsesFunctionCallOutput;

export type AnthropicAssistantBlock =
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> };
export type AnthropicToolResultBlock = { readonly type: 'tool_result'; readonly tool_use_id: string; readonly content: string; readonly is_error?: boolean };
export type AnthropicAssistantMessage = { readonly role: 'assistant'; readonly content: Array<AnthropicAssistantBlock> };
export type AnthropicToolResultMessage = { readonly role: 'user'; readonly content: Array<AnthropicToolResultBlock> };

export type GeminiModelPart =
  | { readonly text: string }
  | { readonly functionCall: { readonly name: string; readonly args: Readonly<Record<string, unknown>>; readonly id?: string }; readonly thoughtSignature?: string };
export type GeminiResponsePart = { readonly functionResponse: { readonly name: string; readonly response: Readonly<Record<string, unknown>>; readonly id?: string } };
export type GeminiModelContent = { readonly role: 'model'; readonly parts: Array<GeminiModelPart> };
export type GeminiToolContent = { readonly role: 'user'; readonly parts: Array<GeminiResponsePart> };

/** Any message the helpers write. */
export type WireMessage = OpenAIChatAssistantMessage | OpenAIChatToolMessage | ResponsesItem | AnthropicAssistantMessage | AnthropicToolResultMessage | GeminiModelContent | GeminiToolContent;

// ---- One call as the helpers see it

interface CallView {
  readonly id: string;
  readonly name: string;
  readonly index: number;
  readonly rawArguments: string;
  /** The model's arguments as a JSON object (`{}` when they were not one). */
  readonly input: Readonly<Record<string, unknown>>;
  readonly idGenerated: boolean;
  readonly thoughtSignature: string | undefined;
  readonly failed: boolean;
  /** The output text, or the error's message. */
  readonly text: string;
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
  const parsed = parseArguments(identity.rawArguments);
  const metadata = call?.providerMetadata;
  const signature = metadata?.['thoughtSignature'];
  return {
    id: identity.id,
    name: identity.name,
    index: identity.index,
    rawArguments: identity.rawArguments.trim() === '' ? '{}' : identity.rawArguments,
    input: parsed.ok ? asObject(parsed.value) : {},
    idGenerated: metadata?.['idGenerated'] === true,
    thoughtSignature: typeof signature === 'string' ? signature : undefined,
    failed: !result.success,
    text: result.success ? stringify(result.data.output) : (result.error?.message ?? ''),
    output: result.success ? result.data.output : undefined,
  };
}

function viewsOf(step: ToolStep, options: ToolMessagesOptions): CallView[] {
  const stringify = options.stringify ?? defaultStringify;
  return step.results.map((r) => viewOf(r, stringify)).sort((a, b) => a.index - b.index);
}

// ---- One function per format

/**
 * OpenAI Chat Completions: the `assistant` message with `tool_calls`, then one `tool` message per
 * call (`tool_call_id`). A failed run's content is its error message.
 */
export function openaiChatToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): Array<OpenAIChatAssistantMessage | OpenAIChatToolMessage> {
  const views = viewsOf(step, options);
  const toolCalls = views.map((v) => ({ id: v.id, type: 'function' as const, function: { name: v.name, arguments: v.rawArguments } }));
  const assistant: OpenAIChatAssistantMessage = { role: 'assistant', content: step.text ? step.text : null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
  return [assistant, ...views.map((v): OpenAIChatToolMessage => ({ role: 'tool', tool_call_id: v.id, content: v.text }))];
}

/**
 * OpenAI Responses: the step's text as an `assistant` message (when there was text), one
 * `function_call` item per call, then one `function_call_output` item per call (`call_id`).
 */
export function openaiResponsesToolItems(step: ToolStep, options: ToolMessagesOptions = {}): ResponsesItem[] {
  const views = viewsOf(step, options);
  const text: ResponsesItem[] = step.text ? [{ role: 'assistant', content: step.text }] : [];
  return [
    ...text,
    ...views.map((v): ResponsesFunctionCall => ({ type: 'function_call', call_id: v.id, name: v.name, arguments: v.rawArguments })),
    ...views.map((v): ResponsesFunctionCallOutput => ({ type: 'function_call_output', call_id: v.id, output: v.text })),
  ];
}

/**
 * Anthropic Messages: the `assistant` message (thinking blocks with their signatures, the text,
 * one `tool_use` block per call), then one `user` message of `tool_result` blocks; failed runs are
 * `is_error: true` with the error message as content.
 */
export function anthropicToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): [AnthropicAssistantMessage, AnthropicToolResultMessage] {
  const views = viewsOf(step, options);
  const thinking = (step.reasoning ?? []).flatMap((r): AnthropicAssistantBlock[] => (r.signature === undefined ? [] : [{ type: 'thinking', thinking: r.text, signature: r.signature }]));
  const text: AnthropicAssistantBlock[] = step.text ? [{ type: 'text', text: step.text }] : [];
  const uses = views.map((v): AnthropicAssistantBlock => ({ type: 'tool_use', id: v.id, name: v.name, input: v.input }));
  const results = views.map((v): AnthropicToolResultBlock => ({ type: 'tool_result', tool_use_id: v.id, content: v.text, ...(v.failed ? { is_error: true } : {}) }));
  return [
    { role: 'assistant', content: [...thinking, ...text, ...uses] },
    { role: 'user', content: results },
  ];
}

/**
 * Gemini: the `model` content (text, one `functionCall` part per call, keeping its
 * `thoughtSignature`), then a `user` content of `functionResponse` parts: `{ output }` for a
 * success (the raw value), `{ error }` (the message) for a failure. Ids are sent only when the
 * wire had them.
 */
export function geminiToolContents(step: ToolStep, options: ToolMessagesOptions = {}): [GeminiModelContent, GeminiToolContent] {
  const views = viewsOf(step, options);
  const id = (v: CallView): { id?: string } => (v.idGenerated ? {} : { id: v.id });
  const text: GeminiModelPart[] = step.text ? [{ text: step.text }] : [];
  const calls = views.map((v): GeminiModelPart => ({ functionCall: { name: v.name, args: v.input, ...id(v) }, ...(v.thoughtSignature === undefined ? {} : { thoughtSignature: v.thoughtSignature }) }));
  const responses = views.map((v): GeminiResponsePart => ({ functionResponse: { name: v.name, response: v.failed ? { error: v.text } : { output: v.output ?? null }, ...id(v) } }));
  return [
    { role: 'model', parts: [...text, ...calls] },
    { role: 'user', parts: responses },
  ];
}

/** The next request's messages for one step, in `format`. */
export function toolMessages(format: MessageFormat, step: ToolStep, options: ToolMessagesOptions = {}): WireMessage[] {
  switch (format) {
    case 'openai-chat':
      return openaiChatToolMessages(step, options);
    case 'openai-responses':
      return openaiResponsesToolItems(step, options);
    case 'anthropic':
      return anthropicToolMessages(step, options);
    case 'gemini':
      return geminiToolContents(step, options);
  }
}

/** The model's final answer (a step without tool calls) as one assistant message in `format`. */
export function assistantTextMessage(format: MessageFormat, text: string): WireMessage {
  switch (format) {
    case 'openai-chat':
      return { role: 'assistant', content: text };
    case 'openai-responses':
      return { role: 'assistant', content: text };
    case 'anthropic':
      return { role: 'assistant', content: [{ type: 'text', text }] };
    case 'gemini':
      return { role: 'model', parts: [{ text }] };
  }
}
