/**
 * Bedrock Converse messages for a tool loop.
 *
 * @module
 */
import type { AssistantBlock, AssistantMessage, JsonObject, ToolResultBlock, UserMessage } from '../../providers/bedrockConverse/wire';
import { inputOf } from './anthropic';
import { turnOf, viewsOf, type MessageBuilder, type ToolMessagesOptions, type ToolStep, type TurnSegment } from './shared';

/** One segment of the turn as blocks (`[]` for a reasoning part Converse cannot take: no signature, no redacted content). */
function blocksOf(segment: TurnSegment): AssistantBlock[] {
  switch (segment.type) {
    case 'text':
      return segment.text === '' ? [] : [{ text: segment.text }];
    case 'reasoning': {
      const part = segment.part;
      if (part.redacted !== undefined) return [{ reasoningContent: { redactedContent: part.redacted } }];
      return part.signature === undefined ? [] : [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
    }
    case 'call':
      // The arguments as the message's JSON carries them (text that was not JSON wrapped, as for Anthropic).
      return [{ toolUse: { toolUseId: segment.view.id, name: segment.view.name, input: inputOf(segment.view) as JsonObject } }];
  }
}

/**
 * Bedrock Converse: the `assistant` message with the turn's blocks in stream order (signed
 * `reasoningContent` blocks and redacted ones unmodified, text, one `toolUse` block per call), then
 * one `user` message of `toolResult` blocks; a failed run is `status: 'error'` with the error
 * message as its text. A call whose arguments were not JSON is written back with `input:
 * { "INVALID_JSON": text }`, as for Anthropic.
 */
export function converseToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): [AssistantMessage, UserMessage] {
  const views = viewsOf(step, options);
  const results = views.map((v): ToolResultBlock => ({ toolResult: { toolUseId: v.id, content: [{ text: v.text }], ...(v.failed ? { status: 'error' as const } : {}) } }));
  return [
    { role: 'assistant', content: turnOf(step, views, options).flatMap(blocksOf) },
    { role: 'user', content: results },
  ];
}

/** The Bedrock Converse message builders. */
export const converseMessages: MessageBuilder<AssistantMessage | UserMessage> = {
  toolMessages: converseToolMessages,
  assistantText: (text) => ({ role: 'assistant', content: [{ text }] }),
};
