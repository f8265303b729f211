/**
 * OpenAI Chat Completions messages for a tool loop.
 *
 * @module
 */
import { turnOf, viewsOf, type MessageBuilder, type ToolMessagesOptions, type ToolStep } from './shared';

// Checked against the official SDK types in spec/types/messages.test-d.ts; arrays are mutable so
// the messages can go straight into the SDKs' request types.

/** An OpenAI Chat Completions `assistant` message that made tool calls. */
export type OpenAIChatAssistantMessage = {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The step's visible text, or `null` when the model only called tools. */
  readonly content: string | null;
  /**
   * The step's reasoning, all of it (DeepSeek's thinking mode, Kimi and others reject a request
   * whose assistant message with `tool_calls` lacks it); absent when the step had none.
   */
  readonly reasoning_content?: string;
  /** The same, in the field OpenRouter and Groq use (with `reasoningField: 'reasoning'`). */
  readonly reasoning?: string;
  /** Absent when there are no calls (the API rejects an empty array). */
  readonly tool_calls?: Array<
    | {
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
        /** The call's `extra_content` as streamed (Gemini's compatibility endpoint: `{ google: { thought_signature } }`, required back). */
        readonly extra_content?: Readonly<Record<string, unknown>>;
      }
    | {
        /** The call's id; the matching `tool` message repeats it as `tool_call_id`. */
        readonly id: string;
        /** Always `'custom'`: a custom (freeform) tool's call. */
        readonly type: 'custom';
        /** The custom tool the model called. */
        readonly custom: {
          /** The tool name (e.g. `'apply_patch'`). */
          readonly name: string;
          /** The input text, as the model streamed it. */
          readonly input: string;
        };
      }
  >;
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

/**
 * OpenAI Chat Completions: the `assistant` message with `tool_calls` (each with its
 * `extra_content`, and the step's reasoning in `reasoning_content`), then one `tool` message per
 * call (`tool_call_id`). A failed run's content is its error message. Reasoning a server streamed
 * in `reasoning` or in Mistral `thinking` parts goes back only when `reasoningField` is given.
 */
export function openaiChatToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): Array<OpenAIChatAssistantMessage | OpenAIChatToolMessage> {
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
  const assistant: OpenAIChatAssistantMessage = {
    role: 'assistant',
    content: text === '' ? null : text,
    ...(reasoning === '' ? {} : field === 'reasoning' ? { reasoning } : { reasoning_content: reasoning }),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return [assistant, ...views.map((v): OpenAIChatToolMessage => ({ role: 'tool', tool_call_id: v.id, content: v.text }))];
}

/** The openaiChat message builders. */
export const openaiChatMessages: MessageBuilder<OpenAIChatAssistantMessage | OpenAIChatToolMessage> = {
  toolMessages: openaiChatToolMessages,
  assistantText: (text) => ({ role: 'assistant', content: text }),
};
