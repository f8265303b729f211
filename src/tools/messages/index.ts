/**
 * Turn one step's tool calls and their run results into the messages of the next request, in the
 * wire format of the conversation. Each format writes its own (a file of this folder); this module
 * picks the format's builder by the format's name.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import { aBoolean, aFunction, checkOptions, oneOf, type OptionCheck, type OptionChecks } from '../../internal/options';
import type * as AnthropicWire from '../../providers/anthropic/wire';
import type * as ConverseWire from '../../providers/bedrockConverse/wire';
import type * as GeminiWire from '../../providers/gemini/wire';
import type * as GeminiInteractionsWire from '../../providers/geminiInteractions/wire';
import type * as OllamaWire from '../../providers/ollama/wire';
import type * as OpenAIChatWire from '../../providers/openaiChat/wire';
import type * as RealtimeWire from '../../providers/openaiRealtime/wire';
import type * as ResponsesWire from '../../providers/openaiResponses/wire';
import { anthropicMessageBuilder } from './anthropic';
import { converseMessages } from './bedrockConverse';
import { geminiMessages } from './gemini';
import { geminiInteractionsMessages } from './geminiInteractions';
import { ollamaMessages } from './ollama';
import { openaiChatMessages } from './openaiChat';
import { openaiRealtimeMessages } from './openaiRealtime';
import { openaiResponsesMessages } from './openaiResponses';
import type { MessageBuilder, ToolMessagesOptions, ToolStep } from './shared';

export type { ReasoningPart, ToolMessagesOptions, ToolStep, TurnPiece } from './shared';

/** The messages of each wire format a tool loop can speak, by format name. */
interface MessagesByFormat {
  'openai-chat': OpenAIChatWire.AssistantMessage | OpenAIChatWire.ToolMessage;
  'openai-responses': ResponsesWire.InputItem;
  anthropic: AnthropicWire.AssistantMessage | AnthropicWire.UserMessage;
  gemini: GeminiWire.Content;
  /** The steps of the next request's `input`. */
  'gemini-interactions': GeminiInteractionsWire.Step | GeminiInteractionsWire.ServerToolStep;
  'bedrock-converse': ConverseWire.AssistantMessage | ConverseWire.UserMessage;
  /** InvokeModel's body is Anthropic's Messages request. */
  'bedrock-invoke-model': AnthropicWire.AssistantMessage | AnthropicWire.UserMessage;
  ollama: OllamaWire.AssistantMessage | OllamaWire.ToolMessage;
  /** A Realtime session's client events: the results as items, then `response.create`. */
  'openai-realtime': RealtimeWire.ClientEvent;
}

/** Each format's message builders, by format name. */
const BUILDERS: { readonly [F in MessageFormat]: MessageBuilder<MessagesByFormat[F]> } = {
  'openai-chat': openaiChatMessages,
  'openai-responses': openaiResponsesMessages,
  anthropic: anthropicMessageBuilder,
  gemini: geminiMessages,
  'gemini-interactions': geminiInteractionsMessages,
  'bedrock-converse': converseMessages,
  'bedrock-invoke-model': anthropicMessageBuilder,
  ollama: ollamaMessages,
  'openai-realtime': openaiRealtimeMessages,
};

/** The wire formats the tools wing writes: a tool loop's conversation, its messages and its tool specs. */
export type MessageFormat = keyof MessagesByFormat;

/** The check of a `format` the tools wing writes (the formats' names, listed when it fails). */
export const aMessageFormat: OptionCheck = /* @__PURE__ */ oneOf(Object.keys(BUILDERS));

/** A message in `format` (any format when not given). */
export type WireMessage<F extends MessageFormat = MessageFormat> = MessagesByFormat[F];

/** The checks of {@link ToolMessagesOptions}' keys. */
export const REPLY_OPTION_CHECKS: OptionChecks = { stringify: aFunction, sendReasoning: aBoolean, reasoningField: /* @__PURE__ */ oneOf(['reasoning_content', 'reasoning']) };

/** The format's builders; `invalid-option` of `fn` for a format the tools wing does not write. */
function builder(format: MessageFormat, fn: string): MessageBuilder<WireMessage> {
  const expected = aMessageFormat(format);
  if (expected !== undefined) throw new ToolStreamError('invalid-option', { function: fn, option: 'format', value: format, expected });
  return BUILDERS[format] as MessageBuilder<WireMessage>;
}

/**
 * The next request's messages for one step, in `format`: the assistant turn that made the calls
 * (with its text and, where the format needs them, its reasoning), then the tool results.
 *
 * @param format The conversation's wire format.
 * @param step What the model produced in the step, and what running its calls gave.
 * @param options How outputs become text, whether reasoning goes back, and where (OpenAI chat).
 * @throws {ToolStreamError} `invalid-option` for a format the tools wing does not write, an option it does not take or a value it cannot use.
 */
export function toolMessages<F extends MessageFormat>(format: F, step: ToolStep, options: ToolMessagesOptions = {}): Array<WireMessage<F>> {
  const build = builder(format, 'toolMessages');
  checkOptions('toolMessages', options, REPLY_OPTION_CHECKS);
  return build.toolMessages(step, options) as Array<WireMessage<F>>;
}

/**
 * The model's final answer (a step without tool calls) as one assistant message in `format`.
 *
 * @param format The conversation's wire format.
 * @param text The answer's text.
 * @throws {ToolStreamError} `invalid-option` for a format the tools wing does not write.
 */
export function assistantTextMessage<F extends MessageFormat>(format: F, text: string): WireMessage<F> {
  return builder(format, 'assistantTextMessage').assistantText(text) as WireMessage<F>;
}

/** Whether `name` is a format a tool loop can speak. */
export function isMessageFormat(name: string): name is MessageFormat {
  return Object.prototype.hasOwnProperty.call(BUILDERS, name);
}
