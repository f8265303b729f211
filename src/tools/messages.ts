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

// ---- The shapes written (checked against the official SDK types in spec/types/messages.test-d.ts).
// Arrays are mutable so the messages can go straight into the SDKs' request types.

/** An OpenAI Chat Completions `assistant` message that made tool calls. */
export type OpenAIChatAssistantMessage = {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The step's visible text, or `null` when the model only called tools. */
  readonly content: string | null;
  /** Absent when there are no calls (the API rejects an empty array). */
  readonly tool_calls?: Array<{
    /** The call's id (e.g. `'call_abc123'`); the matching `tool` message repeats it as `tool_call_id`. */
    readonly id: string;
    /** Always `'function'`. */
    readonly type: 'function';
    /** The function the model called. */
    readonly function: {
      /** The tool name (e.g. `'get_weather'`). */
      readonly name: string;
      /** The arguments text exactly as the model streamed it (`'{}'` when it sent none). */
      readonly arguments: string;
    };
  }>;
};
/** An OpenAI Chat Completions `tool` message: one call's result. */
export type OpenAIChatToolMessage = {
  /** Always `'tool'`. */
  readonly role: 'tool';
  /** The `id` of the call this answers. */
  readonly tool_call_id: string;
  /** The tool's output as text (see `stringify`), or the error message of a failed run. */
  readonly content: string;
};

/** An OpenAI Responses input message with the step's visible text. */
export type ResponsesAssistantMessage = {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The step's visible text. */
  readonly content: string;
};
/** An OpenAI Responses `function_call` input item: one call the model made. */
export type ResponsesFunctionCall = {
  /** Always `'function_call'`. */
  readonly type: 'function_call';
  /** The call's id (e.g. `'call_abc123'`), repeated by its `function_call_output`. */
  readonly call_id: string;
  /** The tool name. */
  readonly name: string;
  /** The arguments text exactly as the model streamed it (`'{}'` when it sent none). */
  readonly arguments: string;
};
/** An OpenAI Responses `function_call_output` input item: one call's result. */
export type ResponsesFunctionCallOutput = {
  /** Always `'function_call_output'`. */
  readonly type: 'function_call_output';
  /** The `call_id` of the call this answers. */
  readonly call_id: string;
  /** The tool's output as text (see `stringify`), or the error message of a failed run. */
  readonly output: string;
};
/** Any input item {@link openaiResponsesToolItems} writes. */
export type ResponsesItem = ResponsesAssistantMessage | ResponsesFunctionCall | ResponsesFunctionCallOutput;

/** One content block of an Anthropic `assistant` message: a thinking block, text, or a tool use. */
export type AnthropicAssistantBlock =
  | {
      /** A thinking block, sent back so the model can continue its reasoning. */
      readonly type: 'thinking';
      /** The thinking text. */
      readonly thinking: string;
      /** The block's signature, verbatim from the stream (blocks without one are not written). */
      readonly signature: string;
    }
  | {
      /** Visible text. */
      readonly type: 'text';
      /** The step's visible text. */
      readonly text: string;
    }
  | {
      /** One tool call. */
      readonly type: 'tool_use';
      /** The call's id (e.g. `'toolu_01A…'`), repeated by its `tool_result`. */
      readonly id: string;
      /** The tool name. */
      readonly name: string;
      /** The parsed arguments; `{}` when they were not a JSON object. */
      readonly input: Readonly<Record<string, unknown>>;
    };
/** One `tool_result` block of an Anthropic `user` message: one call's result. */
export type AnthropicToolResultBlock = {
  /** Always `'tool_result'`. */
  readonly type: 'tool_result';
  /** The `id` of the `tool_use` block this answers. */
  readonly tool_use_id: string;
  /** The tool's output as text (see `stringify`), or the error message of a failed run. */
  readonly content: string;
  /** `true` for a failed run; absent on success. */
  readonly is_error?: boolean;
};
/** An Anthropic `assistant` message: thinking blocks, then the text, then one `tool_use` block per call. */
export type AnthropicAssistantMessage = {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The blocks, in that order. */
  readonly content: Array<AnthropicAssistantBlock>;
};
/** The Anthropic `user` message that carries the tool results. */
export type AnthropicToolResultMessage = {
  /** Always `'user'` (Anthropic sends tool results in a user turn). */
  readonly role: 'user';
  /** One `tool_result` block per call, in call order. */
  readonly content: Array<AnthropicToolResultBlock>;
};

/** One part of a Gemini `model` content: text, or one function call. */
export type GeminiModelPart =
  | {
      /** The step's visible text. */
      readonly text: string;
    }
  | {
      /** One call the model made. */
      readonly functionCall: {
        /** The tool name. */
        readonly name: string;
        /** The parsed arguments; `{}` when they were not a JSON object. */
        readonly args: Readonly<Record<string, unknown>>;
        /** The wire's call id; absent when Gemini sent none (the library's generated ids are not sent). */
        readonly id?: string;
      };
      /** The part's thought signature, sent back verbatim; absent when the stream had none. */
      readonly thoughtSignature?: string;
    };
/** One `functionResponse` part of a Gemini `user` content: one call's result. */
export type GeminiResponsePart = {
  /** The result of one call. */
  readonly functionResponse: {
    /** The tool name of the call this answers. */
    readonly name: string;
    /** `{ output }` with the tool's raw output (`null` when it returned nothing) on success; `{ error }` with the message on failure. */
    readonly response: Readonly<Record<string, unknown>>;
    /** The call's wire id; absent when Gemini sent none. */
    readonly id?: string;
  };
};
/** A Gemini `model` content: the text, then one `functionCall` part per call. */
export type GeminiModelContent = {
  /** Always `'model'`. */
  readonly role: 'model';
  /** The parts, in that order. */
  readonly parts: Array<GeminiModelPart>;
};
/** The Gemini `user` content that carries the function responses. */
export type GeminiToolContent = {
  /** Always `'user'`. */
  readonly role: 'user';
  /** One `functionResponse` part per call, in call order. */
  readonly parts: Array<GeminiResponsePart>;
};

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
