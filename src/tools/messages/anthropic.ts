/**
 * Anthropic Messages messages for a tool loop.
 *
 * @module
 */
import { turnWithProviderTools, viewsOf, type ProviderToolPiece, type MessageBuilder, type ToolMessagesOptions, type ToolStep, type TurnSegment } from './shared';

// Checked against the official SDK types in spec/types/messages.test-d.ts; arrays are mutable so
// the messages can go straight into the SDKs' request types.

/** One content block of an Anthropic `assistant` message: a thinking or redacted thinking block, text, or a tool use. */
export type AnthropicAssistantBlock =
  | {
      /** A thinking block, sent back so the model can continue its reasoning. */
      readonly type: 'thinking';
      /** The thinking text. */
      readonly thinking: string;
      /** The block's signature, verbatim from the stream (blocks without one are not written). */
      readonly signature: string;
    }
  | {
      /** A thinking block the provider encrypted, sent back as it came. */
      readonly type: 'redacted_thinking';
      /** The block's `data`, verbatim. */
      readonly data: string;
    }
  | {
      /** Visible text. */
      readonly type: 'text';
      /** The step's visible text. */
      readonly text: string;
    }
  | {
      /** One tool call. */
      readonly type: 'tool_use';
      /** The call's id (e.g. `'toolu_01A…'`), repeated by its `tool_result`. */
      readonly id: string;
      /** The tool name. */
      readonly name: string;
      /** The parsed arguments; `{}` when they were not a JSON object. */
      readonly input: Readonly<Record<string, unknown>>;
    };
/** One `tool_result` block of an Anthropic `user` message: one call's result. */
export type AnthropicToolResultBlock = {
  /** Always `'tool_result'`. */
  readonly type: 'tool_result';
  /** The `id` of the `tool_use` block this answers. */
  readonly tool_use_id: string;
  /** The tool's output as text (see `stringify`), or the error message of a failed run. */
  readonly content: string;
  /** `true` for a failed run; absent on success. */
  readonly is_error?: boolean;
};
/** An Anthropic `assistant` message: its thinking, text and `tool_use` blocks, in the order they were streamed. */
export type AnthropicAssistantMessage = {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The blocks, in stream order. */
  readonly content: Array<AnthropicAssistantBlock>;
};
/** The Anthropic `user` message that carries the tool results. */
export type AnthropicToolResultMessage = {
  /** Always `'user'` (Anthropic sends tool results in a user turn). */
  readonly role: 'user';
  /** One `tool_result` block per call, in call order. */
  readonly content: Array<AnthropicToolResultBlock>;
};

/** One segment of the turn as blocks (`[]` for a reasoning part Anthropic cannot take: no signature, no redacted data). */
function blocksOf(segment: TurnSegment | ProviderToolPiece): AnthropicAssistantBlock[] {
  switch (segment.type) {
    case 'provider-tool':
      // A server tool's block (server_tool_use, web_search_tool_result, …), verbatim.
      return [segment.raw as unknown as AnthropicAssistantBlock];
    case 'text':
      return segment.text === '' ? [] : [{ type: 'text', text: segment.text }];
    case 'reasoning': {
      const part = segment.part;
      if (part.redacted !== undefined) return [{ type: 'redacted_thinking', data: part.redacted }];
      return part.signature === undefined ? [] : [{ type: 'thinking', thinking: part.text, signature: part.signature }];
    }
    case 'call':
      return [{ type: 'tool_use', id: segment.view.id, name: segment.view.name, input: segment.view.input }];
  }
}

/**
 * Anthropic Messages: the `assistant` message with the turn's blocks in stream order (`thinking`
 * blocks with their signatures and `redacted_thinking` blocks unmodified, text, one `tool_use` block
 * per call), then one `user` message of `tool_result` blocks; failed runs are `is_error: true` with
 * the error message as content.
 */
export function anthropicToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): [AnthropicAssistantMessage, AnthropicToolResultMessage] {
  const views = viewsOf(step, options);
  const results = views.map((v): AnthropicToolResultBlock => ({ type: 'tool_result', tool_use_id: v.id, content: v.text, ...(v.failed ? { is_error: true } : {}) }));
  return [
    { role: 'assistant', content: turnWithProviderTools(step, views, options, 'anthropic').flatMap(blocksOf) },
    { role: 'user', content: results },
  ];
}

/** The Anthropic message builders. */
export const anthropicMessageBuilder: MessageBuilder<AnthropicAssistantMessage | AnthropicToolResultMessage> = {
  toolMessages: anthropicToolMessages,
  assistantText: (text) => ({ role: 'assistant', content: [{ type: 'text', text }] }),
};
