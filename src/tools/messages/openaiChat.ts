/**
 * OpenAI Chat Completions messages for a tool loop.
 *
 * @module
 */
import type { AssistantMessage, ToolMessage } from '../../providers/openaiChat/wire';
import { turnOf, viewsOf, type MessageBuilder, type ToolMessagesOptions, type ToolStep } from './shared';

/**
 * OpenAI Chat Completions: the `assistant` message with `tool_calls` (each with its
 * `extra_content`, and the step's reasoning in `reasoning_content`), then one `tool` message per
 * call (`tool_call_id`). A failed run's content is its error message. Reasoning a server streamed
 * in `reasoning` or in Mistral `thinking` parts goes back only when `reasoningField` is given.
 */
export function openaiChatToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): Array<AssistantMessage | ToolMessage> {
  const views = viewsOf(step, options);
  const field = options.reasoningField;
  let text = '';
  let reasoning = '';
  for (const segment of turnOf(step, views, options)) {
    if (segment.type === 'text') text += segment.text;
    // By default only reasoning the server streamed as `reasoning_content` (or not from a chat stream)
    // goes back: Groq and Cerebras reject assistant messages with either field.
    else if (segment.type === 'reasoning' && (field !== undefined || segment.part.metadata?.['field'] === undefined)) reasoning += segment.part.text;
  }
  const toolCalls = views.map((v) =>
    v.custom !== undefined
      ? { id: v.id, type: 'custom' as const, custom: { name: v.name, input: v.custom } }
      : {
          id: v.id,
          type: 'function' as const,
          function: { name: v.name, arguments: v.rawArguments },
          ...(v.extraContent === undefined ? {} : { extra_content: v.extraContent }),
        },
  );
  const assistant: AssistantMessage = {
    role: 'assistant',
    content: text === '' ? null : text,
    ...(reasoning === '' ? {} : field === 'reasoning' ? { reasoning } : { reasoning_content: reasoning }),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return [assistant, ...views.map((v): ToolMessage => ({ role: 'tool', tool_call_id: v.id, content: v.text }))];
}

/** The openaiChat message builders. */
export const openaiChatMessages: MessageBuilder<AssistantMessage | ToolMessage> = {
  toolMessages: openaiChatToolMessages,
  assistantText: (text) => ({ role: 'assistant', content: text }),
};
