/**
 * OpenAI Responses input items for a tool loop.
 *
 * @module
 */
import { viewsOf, type MessageBuilder, type ToolMessagesOptions, type ToolStep } from '../messages';

// Checked against the official SDK types in spec/types/messages.test-d.ts; arrays are mutable so
// the messages can go straight into the SDKs' request types.

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
/** Any input item the Responses message builder writes. */
export type ResponsesItem = ResponsesAssistantMessage | ResponsesFunctionCall | ResponsesFunctionCallOutput;

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

/** The openaiResponses message builders. */
export const openaiResponsesMessages: MessageBuilder<ResponsesItem> = {
  toolMessages: openaiResponsesToolItems,
  assistantText: (text) => ({ role: 'assistant', content: text }),
};
