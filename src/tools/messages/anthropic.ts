/**
 * Anthropic Messages messages for a tool loop.
 *
 * @module
 */
import type { AssistantBlock, Caller as AnthropicCaller, AssistantMessage, ToolResultBlock, UserMessage } from '../../providers/anthropic/wire';
import { callerFor, turnWithProviderTools, viewsOf, type CallView, type ProviderToolPiece, type MessageBuilder, type ToolMessagesOptions, type ToolStep, type TurnSegment } from './shared';

/**
 * A call's `input` as written back: its arguments, or, when they were not JSON (fine-grained tool
 * streaming may send invalid JSON), the text wrapped as Anthropic's docs ask, `{ "INVALID_JSON": text }`,
 * so the model sees its mistake (its `tool_result` is the error).
 */
export function inputOf(view: CallView): Readonly<Record<string, unknown>> {
  return view.invalidJson === undefined ? view.input : { INVALID_JSON: view.invalidJson };
}

/** One segment of the turn as blocks (`[]` for a reasoning part Anthropic cannot take: no signature, no redacted data). */
function blocksOf(segment: TurnSegment | ProviderToolPiece): AssistantBlock[] {
  switch (segment.type) {
    case 'provider-tool':
      // A server tool's block (server_tool_use, web_search_tool_result, …), verbatim.
      return [segment.raw as unknown as AssistantBlock];
    case 'text':
      return segment.text === '' ? [] : [{ type: 'text', text: segment.text }];
    case 'reasoning': {
      const part = segment.part;
      if (part.redacted !== undefined) return [{ type: 'redacted_thinking', data: part.redacted }];
      return part.signature === undefined ? [] : [{ type: 'thinking', thinking: part.text, signature: part.signature }];
    }
    case 'call': {
      // A call made from code execution keeps its `caller` (Anthropic pairs it with the server tool that made it).
      const caller = callerFor('anthropic', segment.view.caller) as AnthropicCaller | undefined;
      return [{ type: 'tool_use', id: segment.view.id, name: segment.view.name, input: inputOf(segment.view), ...(caller === undefined ? {} : { caller }) }];
    }
  }
}

/**
 * Anthropic Messages: the `assistant` message with the turn's blocks in stream order (`thinking`
 * blocks with their signatures and `redacted_thinking` blocks unmodified, text, one `tool_use` block
 * per call with its `caller` when code execution made it, server tool and `compaction` blocks
 * verbatim), then one `user` message of `tool_result` blocks; failed runs are `is_error: true` with
 * the error message as content. A call whose arguments were not JSON is written back with `input:
 * { "INVALID_JSON": text }` (Anthropic's fine-grained tool streaming guide).
 */
export function anthropicToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): [AssistantMessage, UserMessage] {
  const views = viewsOf(step, options);
  const results = views.map((v): ToolResultBlock => ({ type: 'tool_result', tool_use_id: v.id, content: v.text, ...(v.failed ? { is_error: true } : {}) }));
  return [
    { role: 'assistant', content: turnWithProviderTools(step, views, options, 'anthropic').flatMap(blocksOf) },
    { role: 'user', content: results },
  ];
}

/** The Anthropic message builders. */
export const anthropicMessageBuilder: MessageBuilder<AssistantMessage | UserMessage> = {
  toolMessages: anthropicToolMessages,
  assistantText: (text) => ({ role: 'assistant', content: [{ type: 'text', text }] }),
};
