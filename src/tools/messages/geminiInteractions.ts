/**
 * Gemini Interactions API steps for a tool loop (the `input` of the next request).
 *
 * @module
 */
import type { FunctionResultStep, ServerToolStep, Step } from '../../providers/geminiInteractions/wire';
import { turnWithProviderTools, viewsOf, type MessageBuilder, type ProviderToolPiece, type ToolMessagesOptions, type ToolStep, type TurnSegment } from './shared';

/**
 * One segment of the turn as steps (`[]` for a reasoning part with neither text nor signature, e.g.
 * another format's redacted block). `summaries: false` writes a thought step's signature alone.
 */
function stepsOf(segment: TurnSegment | ProviderToolPiece, summaries: boolean): Array<Step | ServerToolStep> {
  switch (segment.type) {
    case 'provider-tool':
      // A server tool's step (google_search_call, code_execution_result, …), verbatim.
      return [segment.raw as ServerToolStep];
    case 'text':
      return segment.text === '' ? [] : [{ type: 'model_output', content: [{ type: 'text', text: segment.text }] }];
    case 'reasoning': {
      const { signature } = segment.part;
      const text = summaries ? segment.part.text : '';
      if (text === '' && signature === undefined) return [];
      return [{ type: 'thought', ...(signature === undefined ? {} : { signature }), ...(text === '' ? {} : { summary: [{ type: 'text', text }] }) }];
    }
    case 'call': {
      const v = segment.view;
      return [{ type: 'function_call', id: v.id, name: v.name, arguments: v.input, ...(v.thoughtSignature === undefined ? {} : { signature: v.thoughtSignature }) }];
    }
  }
}

/**
 * Gemini Interactions: the model's steps in stream order (`thought` steps with their signatures,
 * `model_output` text, one `function_call` step per call with its signature, a server tool's steps
 * verbatim), then one `function_result` step per call (`call_id`, `name`, the output as text;
 * `is_error: true` with the message for a failed run), as the next request's `input` goes on.
 * The API streams a call's thought signature on the `thought` step before it (a
 * `thought_signature` delta), not on the call: with `sendReasoning: false` a thought step still
 * goes back with its signature alone, without its summary (allenhutchison/obsidian-gemini#1269).
 */
export function geminiInteractionsToolSteps(step: ToolStep, options: ToolMessagesOptions = {}): Array<Step | ServerToolStep> {
  const views = viewsOf(step, options);
  const results = views.map((v): FunctionResultStep => ({ type: 'function_result', call_id: v.id, name: v.name, result: v.text, ...(v.failed ? { is_error: true } : {}) }));
  const summaries = options.sendReasoning !== false;
  const turn = turnWithProviderTools(step, views, { ...options, sendReasoning: true }, 'gemini-interactions');
  return [...turn.flatMap((segment) => stepsOf(segment, summaries)), ...results];
}

/** The Gemini Interactions message builders. */
export const geminiInteractionsMessages: MessageBuilder<Step | ServerToolStep> = {
  toolMessages: geminiInteractionsToolSteps,
  assistantText: (text) => ({ type: 'model_output', content: [{ type: 'text', text }] }),
};
