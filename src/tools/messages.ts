/**
 * Turn one step's tool calls and their run results into the messages of the next request, in the
 * wire format of the conversation. Each format writes its own (its folder's `messages.ts`); this
 * module picks the format's builder from the list of wire formats.
 *
 * @module
 */
import type { MessageBuilder, ToolMessagesOptions, ToolStep } from '../providers/messages';
import type { WireFormat } from '../providers/format';
import { anyFormatNamed, type FRAMED_FORMATS, type WIRE_FORMATS } from '../providers/list';

export type { ReasoningPart, ToolMessagesOptions, ToolStep, TurnPiece } from '../providers/messages';

/** The wire formats a tool loop can speak (those whose folder has message builders). */
export type MessageFormat = (typeof WIRE_FORMATS)[number] | (typeof FRAMED_FORMATS)[number] extends infer F
  ? F extends WireFormat<infer N, infer M>
    ? [M] extends [never]
      ? never
      : N
    : never
  : never;

/** A message in `format` (any format when not given). */
export type WireMessage<F extends MessageFormat = MessageFormat> =
  Extract<
    (typeof WIRE_FORMATS)[number] | (typeof FRAMED_FORMATS)[number],
    {
      /** The format, picked by its name. */
      readonly format: F;
    }
  > extends infer W
    ? W extends WireFormat<string, infer M>
      ? M
      : never
    : never;

function builder(format: MessageFormat): MessageBuilder<WireMessage> {
  const messages = anyFormatNamed(format)?.messages as MessageBuilder<WireMessage> | undefined;
  if (messages === undefined) throw new TypeError(`rxjs-tool-calls: the ${format} format has no message builders`);
  return messages;
}

/**
 * The next request's messages for one step, in `format`: the assistant turn that made the calls
 * (with its text and, where the format needs them, its reasoning), then the tool results.
 *
 * @param format The conversation's wire format.
 * @param step What the model produced in the step, and what running its calls gave.
 * @param options How outputs become text.
 */
export function toolMessages<F extends MessageFormat>(format: F, step: ToolStep, options: ToolMessagesOptions = {}): Array<WireMessage<F>> {
  return builder(format).toolMessages(step, options) as Array<WireMessage<F>>;
}

/**
 * The model's final answer (a step without tool calls) as one assistant message in `format`.
 *
 * @param format The conversation's wire format.
 * @param text The answer's text.
 */
export function assistantTextMessage<F extends MessageFormat>(format: F, text: string): WireMessage<F> {
  return builder(format).assistantText(text) as WireMessage<F>;
}

/** Whether `name` is a format a tool loop can speak. */
export function isMessageFormat(name: string): name is MessageFormat {
  return anyFormatNamed(name)?.messages !== undefined;
}
