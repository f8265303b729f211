/**
 * OpenAI Responses input items for a tool loop.
 *
 * @module
 */
import type { Caller, CustomToolCallOutputItem, FunctionCallOutputItem, InputItem, ReasoningItem } from '../../providers/openaiResponses/wire';
import { callerFor, turnWithProviderTools, viewsOf, type CallView, type MessageBuilder, type ReasoningPart, type ToolMessagesOptions, type ToolStep } from './shared';

/** A reasoning part as an input item; `undefined` for a part without an item id (not from a Responses stream). */
function reasoningItem(part: ReasoningPart): ReasoningItem | undefined {
  if (part.itemId === undefined) return undefined;
  return {
    type: 'reasoning',
    id: part.itemId,
    summary: (part.summary ?? []).map((text) => ({ type: 'summary_text' as const, text })),
    ...(part.text === '' ? {} : { content: [{ type: 'reasoning_text' as const, text: part.text }] }),
    ...(part.encryptedContent === undefined ? {} : { encrypted_content: part.encryptedContent }),
  };
}

/** A call's `caller`, as its items carry it (a programmatic call's program: the call and its output name it). */
const callerOf = (v: CallView): { caller?: Caller } => {
  const caller = callerFor('openai-responses', v.caller) as Caller | undefined;
  return caller === undefined ? {} : { caller };
};

/**
 * OpenAI Responses: the step's output items in the order they were streamed (its `reasoning` items
 * with their `encrypted_content`, its text as an `assistant` message, one `function_call` item per
 * call, `custom_tool_call` for a custom tool's), then one `function_call_output` item per call
 * (`custom_tool_call_output` for a custom tool's, by `call_id`). When reasoning items are sent,
 * each `function_call` carries its item `id` (`fc_…`), by which the API pairs it with its reasoning.
 * A call a programmatic tool call's program made carries its `caller`, and so does its output; the
 * provider's own items (server tools, `program`, `tool_search_call`, `compaction`) go back verbatim.
 */
export function openaiResponsesToolItems(step: ToolStep, options: ToolMessagesOptions = {}): InputItem[] {
  const views = viewsOf(step, options);
  const turn = turnWithProviderTools(step, views, options, 'openai-responses');
  const withReasoning = turn.some((s) => s.type === 'reasoning' && s.part.itemId !== undefined);
  const items = turn.flatMap((segment): InputItem[] => {
    if (segment.type === 'text') return segment.text === '' ? [] : [{ role: 'assistant', content: segment.text }];
    // A provider-executed tool's item (web_search_call, mcp_call, …), verbatim.
    if (segment.type === 'provider-tool') return [segment.raw as unknown as InputItem];
    if (segment.type === 'reasoning') {
      const item = reasoningItem(segment.part);
      return item === undefined ? [] : [item];
    }
    const v = segment.view;
    const id = withReasoning && v.itemId !== undefined ? { id: v.itemId } : {};
    if (v.custom !== undefined) return [{ type: 'custom_tool_call', ...id, call_id: v.id, name: v.name, input: v.custom, ...callerOf(v) }];
    return [{ type: 'function_call', ...id, call_id: v.id, name: v.name, arguments: v.rawArguments, ...callerOf(v) }];
  });
  return [
    ...items,
    ...views.map((v): FunctionCallOutputItem | CustomToolCallOutputItem =>
      v.custom !== undefined ? { type: 'custom_tool_call_output', call_id: v.id, output: v.text, ...callerOf(v) } : { type: 'function_call_output', call_id: v.id, output: v.text, ...callerOf(v) },
    ),
  ];
}

/** The openaiResponses message builders. */
export const openaiResponsesMessages: MessageBuilder<InputItem> = {
  toolMessages: openaiResponsesToolItems,
  assistantText: (text) => ({ role: 'assistant', content: text }),
};
