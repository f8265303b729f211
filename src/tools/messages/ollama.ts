/**
 * Ollama `/api/chat` messages for a tool loop.
 *
 * @module
 */
import { turnOf, viewsOf, type MessageBuilder, type ToolMessagesOptions, type ToolStep } from './shared';

/** An Ollama `assistant` message that made tool calls. */
export type OllamaAssistantMessage = {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The step's visible text (`''` when the model only called tools). */
  readonly content: string;
  /** The step's thinking text; absent when it had none (or with `sendReasoning: false`). */
  readonly thinking?: string;
  /** The calls; absent when there are none. */
  readonly tool_calls?: Array<{
    /** The function the model called. */
    readonly function: {
      /** The tool name. */
      readonly name: string;
      /** The parsed arguments, as an object; `{}` when they were not one. */
      readonly arguments: Readonly<Record<string, unknown>>;
    };
  }>;
};
/** An Ollama `tool` message: one call's result. */
export type OllamaToolMessage = {
  /** Always `'tool'`. */
  readonly role: 'tool';
  /** The tool's output as text (see `stringify`), or the error message of a failed run. */
  readonly content: string;
  /** The name of the tool that ran (Ollama matches results to calls by name and order). */
  readonly tool_name: string;
};

/**
 * Ollama chat: the `assistant` message with the step's text, its thinking and one `tool_calls`
 * entry per call (arguments as objects), then one `tool` message per call, in call order, named by
 * `tool_name`. A failed run's content is its error message.
 */
export function ollamaToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): Array<OllamaAssistantMessage | OllamaToolMessage> {
  const views = viewsOf(step, options);
  let text = '';
  let thinking = '';
  for (const segment of turnOf(step, views, options)) {
    if (segment.type === 'text') text += segment.text;
    else if (segment.type === 'reasoning') thinking += segment.part.text;
  }
  const assistant: OllamaAssistantMessage = {
    role: 'assistant',
    content: text,
    ...(thinking === '' ? {} : { thinking }),
    ...(views.length > 0 ? { tool_calls: views.map((v) => ({ function: { name: v.name, arguments: v.input } })) } : {}),
  };
  return [assistant, ...views.map((v): OllamaToolMessage => ({ role: 'tool', content: v.text, tool_name: v.name }))];
}

/** The Ollama message builders. */
export const ollamaMessages: MessageBuilder<OllamaAssistantMessage | OllamaToolMessage> = {
  toolMessages: ollamaToolMessages,
  assistantText: (text) => ({ role: 'assistant', content: text }),
};
