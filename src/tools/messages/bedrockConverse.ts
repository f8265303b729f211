/**
 * Bedrock Converse messages for a tool loop.
 *
 * @module
 */
import { turnOf, viewsOf, type MessageBuilder, type ToolMessagesOptions, type ToolStep, type TurnSegment } from './shared';

/**
 * One content block of a Converse `assistant` message: text, a reasoning block, or a tool use. The
 * shapes are the JSON of Bedrock's HTTP API (`redactedContent` as base64 text; the AWS SDK takes
 * its bytes).
 */
export type ConverseAssistantBlock =
  | {
      /** Visible text. */
      readonly text: string;
    }
  | {
      /** A reasoning block, sent back so the model can continue its reasoning. */
      readonly reasoningContent:
        | {
            /** The reasoning text and its signature, verbatim from the stream (blocks without a signature are not written). */
            readonly reasoningText: {
              /** The reasoning text. */
              readonly text: string;
              /** The block's signature. */
              readonly signature: string;
            };
          }
        | {
            /** A reasoning block the provider encrypted (base64), sent back as it came. */
            readonly redactedContent: string;
          };
    }
  | {
      /** One tool call. */
      readonly toolUse: {
        /** The call's id (e.g. `'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q'`), repeated by its `toolResult`. */
        readonly toolUseId: string;
        /** The tool name. */
        readonly name: string;
        /** The parsed arguments; `{}` when they were not a JSON object. */
        readonly input: Readonly<Record<string, unknown>>;
      };
    };
/** One `toolResult` block of a Converse `user` message: one call's result. */
export type ConverseToolResultBlock = {
  /** The result. */
  readonly toolResult: {
    /** The `toolUseId` of the call this answers. */
    readonly toolUseId: string;
    /** The tool's output as one text block (see `stringify`), or the error message of a failed run. */
    readonly content: Array<{
      /** The text. */
      readonly text: string;
    }>;
    /** `'error'` for a failed run; absent on success. */
    readonly status?: 'error';
  };
};
/** A Converse `assistant` message: its reasoning, text and `toolUse` blocks, in the order they were streamed. */
export type ConverseAssistantMessage = {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The blocks, in stream order. */
  readonly content: Array<ConverseAssistantBlock>;
};
/** The Converse `user` message that carries the tool results. */
export type ConverseToolResultMessage = {
  /** Always `'user'` (Converse sends tool results in a user turn). */
  readonly role: 'user';
  /** One `toolResult` block per call, in call order. */
  readonly content: Array<ConverseToolResultBlock>;
};

/** One segment of the turn as blocks (`[]` for a reasoning part Converse cannot take: no signature, no redacted content). */
function blocksOf(segment: TurnSegment): ConverseAssistantBlock[] {
  switch (segment.type) {
    case 'text':
      return segment.text === '' ? [] : [{ text: segment.text }];
    case 'reasoning': {
      const part = segment.part;
      if (part.redacted !== undefined) return [{ reasoningContent: { redactedContent: part.redacted } }];
      return part.signature === undefined ? [] : [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
    }
    case 'call':
      return [{ toolUse: { toolUseId: segment.view.id, name: segment.view.name, input: segment.view.input } }];
  }
}

/**
 * Bedrock Converse: the `assistant` message with the turn's blocks in stream order (signed
 * `reasoningContent` blocks and redacted ones unmodified, text, one `toolUse` block per call), then
 * one `user` message of `toolResult` blocks; a failed run is `status: 'error'` with the error
 * message as its text.
 */
export function converseToolMessages(step: ToolStep, options: ToolMessagesOptions = {}): [ConverseAssistantMessage, ConverseToolResultMessage] {
  const views = viewsOf(step, options);
  const results = views.map((v): ConverseToolResultBlock => ({ toolResult: { toolUseId: v.id, content: [{ text: v.text }], ...(v.failed ? { status: 'error' as const } : {}) } }));
  return [
    { role: 'assistant', content: turnOf(step, views, options).flatMap(blocksOf) },
    { role: 'user', content: results },
  ];
}

/** The Bedrock Converse message builders. */
export const converseMessages: MessageBuilder<ConverseAssistantMessage | ConverseToolResultMessage> = {
  toolMessages: converseToolMessages,
  assistantText: (text) => ({ role: 'assistant', content: [{ text }] }),
};
