/**
 * The request translators fit the official SDKs' request types (checked by tsc, never run): they
 * accept every SDK request value, and what they write is a valid SDK request.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ConverseCommandInput, ConverseStreamCommandInput } from '@aws-sdk/client-bedrock-runtime';
import type OpenAI from 'openai';
import {
  type AnthropicWire,
  type ConverseWire,
  fromAnthropicRequest,
  type GeminiInteractionsWire,
  fromResponsesRequest,
  type GeminiWire,
  type OpenAIChatWire,
  type ResponsesWire,
  toAnthropicRequest,
  toConverseRequest,
  toGeminiInteractionsRequest,
  toGeminiRequest,
  toResponsesRequest,
} from 'rxjs-tool-calls/gateway';

declare const chatStreaming: OpenAI.ChatCompletionCreateParamsStreaming;
declare const chatAny: OpenAI.ChatCompletionCreateParams;
declare const anthropicStreaming: Anthropic.MessageCreateParamsStreaming;
declare const anthropicAny: Anthropic.MessageCreateParams;

// Every SDK request value is accepted as input.
const chatInput: OpenAIChatWire.RequestInput = chatAny;
const anthropicInput: AnthropicWire.RequestInput = anthropicAny;
void chatInput;
void anthropicInput;

// A streaming request translates into the target SDK's streaming request type.
const anthropic: Anthropic.MessageCreateParamsStreaming = toAnthropicRequest(chatStreaming);
const responses: OpenAI.Responses.ResponseCreateParamsStreaming = toResponsesRequest(chatStreaming);
const chat: OpenAI.ChatCompletionCreateParamsStreaming = fromAnthropicRequest(anthropicStreaming);
declare const responsesStreaming: OpenAI.Responses.ResponseCreateParamsStreaming;
declare const responsesAny: OpenAI.Responses.ResponseCreateParams;
const fromResponses: OpenAI.ChatCompletionCreateParamsStreaming = fromResponsesRequest(responsesStreaming);
const fromResponsesAny: OpenAI.ChatCompletionCreateParams = fromResponsesRequest(responsesAny);
const responsesInput: ResponsesWire.RequestInput = responsesAny;
void [fromResponses, fromResponsesAny, responsesInput];
void anthropic;
void responses;
void chat;

// Any request translates into the target SDK's request type.
const anthropicParams: Anthropic.MessageCreateParams = toAnthropicRequest(chatAny);
const responsesParams: OpenAI.Responses.ResponseCreateParams = toResponsesRequest(chatAny);
const chatParams: OpenAI.ChatCompletionCreateParams = fromAnthropicRequest(anthropicAny);
void anthropicParams;
void responsesParams;
void chatParams;

// The translators' own output types are SDK request types (and the reverse input).
declare const ownAnthropic: AnthropicWire.Request;
declare const ownResponses: ResponsesWire.Request;
declare const ownChat: OpenAIChatWire.Request;
const a: Anthropic.MessageCreateParams = ownAnthropic;
const r: OpenAI.Responses.ResponseCreateParams = ownResponses;
const c: OpenAI.ChatCompletionCreateParams = ownChat;
const back: OpenAIChatWire.RequestInput = ownChat;
const backAnthropic: AnthropicWire.RequestInput = ownAnthropic;
void a;
void r;
void c;
void back;
void backAnthropic;

// A literal request keeps `stream: true`.
const literal: Anthropic.MessageCreateParamsStreaming = toAnthropicRequest({ model: 'm', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] });
void literal;

// Gemini has no SDK here: its request is the library's own type.
const gemini: GeminiWire.Request = toGeminiRequest(chatAny);
const interactions: GeminiInteractionsWire.Request = toGeminiInteractionsRequest(chatAny);
void interactions;
void gemini;

// @ts-expect-error a non-streaming request is not a streaming one
const notStreaming: Anthropic.MessageCreateParamsStreaming = toAnthropicRequest(chatAny);
void notStreaming;

// @ts-expect-error an Anthropic request is not a chat request
const wrong: OpenAIChatWire.RequestInput = anthropicStreaming;
void wrong;

// Bedrock Converse: the translated body, with its model id, is the AWS SDK's command input.
const converseRequest = toConverseRequest(chatAny);
const converseStream: ConverseStreamCommandInput = { modelId: converseRequest.modelId, ...converseRequest.body };
declare const ownConverse: ConverseWire.RequestBody;
const converseCommand: ConverseCommandInput = { modelId: 'm', ...ownConverse };
void converseStream;
void converseCommand;
