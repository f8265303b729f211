/**
 * OpenAI Responses input items for a tool loop.
 *
 * @module
 */
import { turnWithProviderTools, viewsOf, type MessageBuilder, type ReasoningPart, type ToolMessagesOptions, type ToolStep } from './shared';

// Checked against the official SDK types in spec/types/messages.test-d.ts; arrays are mutable so
// the messages can go straight into the SDKs' request types.

/** An OpenAI Responses input message with the step's visible text. */
export type ResponsesAssistantMessage = {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The step's visible text. */
  readonly content: string;
};
/** An OpenAI Responses `reasoning` input item: one reasoning item of the step, sent back before the items that followed it. */
export type ResponsesReasoningItem = {
  /** Always `'reasoning'`. */
  readonly type: 'reasoning';
  /** The item's id (`rs_…`), as streamed. */
  readonly id: string;
  /** The item's summary parts, as streamed (`[]` when it had none). */
  readonly summary: Array<{
    /** Always `'summary_text'`. */
    readonly type: 'summary_text';
    /** One summary's text. */
    readonly text: string;
  }>;
  /** The item's `reasoning_text` content (open-weight models' servers); absent when it had none. */
  readonly content?: Array<{
    /** Always `'reasoning_text'`. */
    readonly type: 'reasoning_text';
    /** The reasoning text. */
    readonly text: string;
  }>;
  /** The item's `encrypted_content`, verbatim (present when the request had `include: ['reasoning.encrypted_content']`). */
  readonly encrypted_content?: string;
};
/** An OpenAI Responses `function_call` input item: one call the model made. */
export type ResponsesFunctionCall = {
  /** Always `'function_call'`. */
  readonly type: 'function_call';
  /** The item's id (`fc_…`), sent when the step's reasoning items are (the API pairs them by id). */
  readonly id?: string;
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
/** An OpenAI Responses `custom_tool_call` input item: one call of a custom (freeform) tool. */
export type ResponsesCustomToolCall = {
  /** Always `'custom_tool_call'`. */
  readonly type: 'custom_tool_call';
  /** The item's id (`ctc_…`), sent when the step's reasoning items are. */
  readonly id?: string;
  /** The call's id, repeated by its `custom_tool_call_output`. */
  readonly call_id: string;
  /** The tool name. */
  readonly name: string;
  /** The input text, as the model streamed it. */
  readonly input: string;
};
/** An OpenAI Responses `custom_tool_call_output` input item: one custom tool call's result. */
export type ResponsesCustomToolCallOutput = {
  /** Always `'custom_tool_call_output'`. */
  readonly type: 'custom_tool_call_output';
  /** The `call_id` of the call this answers. */
  readonly call_id: string;
  /** The tool's output as text (see `stringify`), or the error message of a failed run. */
  readonly output: string;
};
/** Any input item the Responses message builder writes. */
export type ResponsesItem = ResponsesAssistantMessage | ResponsesReasoningItem | ResponsesFunctionCall | ResponsesFunctionCallOutput | ResponsesCustomToolCall | ResponsesCustomToolCallOutput;

/** A reasoning part as an input item; `undefined` for a part without an item id (not from a Responses stream). */
function reasoningItem(part: ReasoningPart): ResponsesReasoningItem | undefined {
  if (part.itemId === undefined) return undefined;
  return {
    type: 'reasoning',
    id: part.itemId,
    summary: (part.summary ?? []).map((text) => ({ type: 'summary_text' as const, text })),
    ...(part.text === '' ? {} : { content: [{ type: 'reasoning_text' as const, text: part.text }] }),
    ...(part.encryptedContent === undefined ? {} : { encrypted_content: part.encryptedContent }),
  };
}

/**
 * OpenAI Responses: the step's output items in the order they were streamed (its `reasoning` items
 * with their `encrypted_content`, its text as an `assistant` message, one `function_call` item per
 * call, `custom_tool_call` for a custom tool's), then one `function_call_output` item per call
 * (`custom_tool_call_output` for a custom tool's, by `call_id`). When reasoning items are sent,
 * each `function_call` carries its item `id` (`fc_…`), by which the API pairs it with its reasoning.
 */
export function openaiResponsesToolItems(step: ToolStep, options: ToolMessagesOptions = {}): ResponsesItem[] {
  const views = viewsOf(step, options);
  const turn = turnWithProviderTools(step, views, options, 'openai-responses');
  const withReasoning = turn.some((s) => s.type === 'reasoning' && s.part.itemId !== undefined);
  const items = turn.flatMap((segment): ResponsesItem[] => {
    if (segment.type === 'text') return segment.text === '' ? [] : [{ role: 'assistant', content: segment.text }];
    // A provider-executed tool's item (web_search_call, mcp_call, …), verbatim.
    if (segment.type === 'provider-tool') return [segment.raw as unknown as ResponsesItem];
    if (segment.type === 'reasoning') {
      const item = reasoningItem(segment.part);
      return item === undefined ? [] : [item];
    }
    const v = segment.view;
    const id = withReasoning && v.itemId !== undefined ? { id: v.itemId } : {};
    if (v.custom !== undefined) return [{ type: 'custom_tool_call', ...id, call_id: v.id, name: v.name, input: v.custom }];
    return [{ type: 'function_call', ...id, call_id: v.id, name: v.name, arguments: v.rawArguments }];
  });
  return [
    ...items,
    ...views.map((v): ResponsesFunctionCallOutput | ResponsesCustomToolCallOutput =>
      v.custom !== undefined ? { type: 'custom_tool_call_output', call_id: v.id, output: v.text } : { type: 'function_call_output', call_id: v.id, output: v.text },
    ),
  ];
}

/** The openaiResponses message builders. */
export const openaiResponsesMessages: MessageBuilder<ResponsesItem> = {
  toolMessages: openaiResponsesToolItems,
  assistantText: (text) => ({ role: 'assistant', content: text }),
};
