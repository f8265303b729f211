/**
 * OpenAI Realtime client events that answer a response's function calls.
 *
 * @module
 */
import type { ClientEvent, ConversationItemCreateEvent } from '../../providers/openaiRealtime/wire';
import { viewsOf, type CallView, type MessageBuilder, type ToolMessagesOptions, type ToolStep } from './shared';

/** One call's result as the item that answers it: `conversation.item.create` with a `function_call_output`. */
export function realtimeOutputEvent(view: CallView): ConversationItemCreateEvent {
  return { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: view.id, output: view.text } };
}

/**
 * OpenAI Realtime: one `conversation.item.create` with a `function_call_output` item per call (by
 * `call_id`, in call order; a failed run's output is its error's message), then one
 * `response.create`, so that the model answers with every result of the step in its conversation.
 * The calls themselves, the text and the reasoning are not sent: the session's conversation already
 * holds the response that made them.
 */
export function openaiRealtimeEvents(step: ToolStep, options: ToolMessagesOptions = {}): ClientEvent[] {
  const views = viewsOf(step, options);
  if (views.length === 0) return [];
  return [...views.map(realtimeOutputEvent), { type: 'response.create' }];
}

/** The openaiRealtime message builders. */
export const openaiRealtimeMessages: MessageBuilder<ClientEvent> = {
  toolMessages: openaiRealtimeEvents,
  assistantText: (text) => ({ type: 'conversation.item.create', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } }),
};
