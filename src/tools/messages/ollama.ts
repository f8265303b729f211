/**
 * Ollama `/api/chat` messages for a tool loop.
 *
 * @module
 */
import type { AssistantMessage, ToolMessage } from '../../providers/ollama/wire';
import { turnOf, viewsOf, type MessageBuilder, type ToolMessagesOptions, type ToolStep } from './shared';

/**
 * Ollama chat: the `assistant` message with the step's text, its thinking and one `tool_calls`
 * entry per call (arguments as objects), then one `tool` message per call, in call order, named by
 * `tool_name`. A failed run's content is its error message.
 */
export function ollamaToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): Array<AssistantMessage | ToolMessage> {
  const views = viewsOf(step, options);
  let text = '';
  let thinking = '';
  for (const segment of turnOf(step, views, options)) {
    if (segment.type === 'text') text += segment.text;
    else if (segment.type === 'reasoning') thinking += segment.part.text;
  }
  const assistant: AssistantMessage = {
    role: 'assistant',
    content: text,
    ...(thinking === '' ? {} : { thinking }),
    ...(views.length > 0 ? { tool_calls: views.map((v) => ({ function: { name: v.name, arguments: v.input } })) } : {}),
  };
  return [assistant, ...views.map((v): ToolMessage => ({ role: 'tool', content: v.text, tool_name: v.name }))];
}

/** The Ollama message builders. */
export const ollamaMessages: MessageBuilder<AssistantMessage | ToolMessage> = {
  toolMessages: ollamaToolMessages,
  assistantText: (text) => ({ role: 'assistant', content: text }),
};
