/**
 * The message helpers' output fits the official SDKs' request types (checked by tsc, never run).
 */
import type { ContentBlockParam, MessageParam, RedactedThinkingBlockParam, ThinkingBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageCustomToolCall, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseCustomToolCall, ResponseCustomToolCallOutput, ResponseFunctionToolCall, ResponseInputItem, ResponseReasoningItem } from 'openai/resources/responses/responses';
import { type AnthropicWire, type OpenAIChatWire, type ResponsesWire, toolMessages, type ToolStep, type WireMessage } from 'rxjs-tool-calls/tools';

declare const step: ToolStep;

const chat: ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather?' }, ...toolMessages('openai-chat', step)];
const responses: ResponseInputItem[] = [{ role: 'user', content: 'weather?' }, ...toolMessages('openai-responses', step)];
const anthropic: MessageParam[] = [{ role: 'user', content: 'weather?' }, ...toolMessages('anthropic', step)];
void chat;
void responses;
void anthropic;

// Each format's message type is its own (not `never`, which any array would take).
type IsNever<T> = [T] extends [never] ? true : false;
const formats: [IsNever<WireMessage<'openai-chat'>>, IsNever<WireMessage<'openai-responses'>>, IsNever<WireMessage<'anthropic'>>, IsNever<WireMessage<'gemini'>>] = [false, false, false, false];
const anthropicTurn: AnthropicWire.AssistantMessage | AnthropicWire.UserMessage | undefined = toolMessages('anthropic', step)[0];
void [formats, anthropicTurn];

// @ts-expect-error a tool message is not an Anthropic message
const wrong: MessageParam = toolMessages('openai-chat', step)[1];
void wrong;

// The reasoning each format sends back, against the SDKs' own types for it.
declare const block: AnthropicWire.AssistantBlock;
const anyBlock: ContentBlockParam = block;
const thinking: ThinkingBlockParam = {} as Extract<AnthropicWire.AssistantBlock, { type: 'thinking' }>;
const redacted: RedactedThinkingBlockParam = {} as Extract<AnthropicWire.AssistantBlock, { type: 'redacted_thinking' }>;
declare const reasoningItem: ResponsesWire.ReasoningItem;
const sdkReasoning: ResponseReasoningItem = reasoningItem;
declare const functionCall: ResponsesWire.FunctionCallItem;
const sdkCall: ResponseFunctionToolCall = functionCall;
declare const assistant: OpenAIChatWire.AssistantMessage;
const sdkAssistant: ChatCompletionAssistantMessageParam = assistant;
void [anyBlock, thinking, redacted, sdkReasoning, sdkCall, sdkAssistant];

// @ts-expect-error a reasoning item is not a chat message
const notChat: ChatCompletionMessageParam = reasoningItem;
void notChat;

// Custom tools' calls, as the SDKs type them.
declare const customCall: ResponsesWire.CustomToolCallItem;
const sdkCustomCall: ResponseCustomToolCall = customCall;
declare const customOutput: ResponsesWire.CustomToolCallOutputItem;
const sdkCustomOutput: ResponseCustomToolCallOutput = customOutput;
declare const chatCustomCall: Extract<NonNullable<OpenAIChatWire.AssistantMessage['tool_calls']>[number], { type: 'custom' }>;
const sdkChatCustomCall: ChatCompletionMessageCustomToolCall = chatCustomCall;
void [sdkCustomCall, sdkCustomOutput, sdkChatCustomCall];

// A Realtime session's answer to a step: client events of the `openai` SDK's Realtime API (openai 7).
import type { RealtimeClientEvent, RealtimeFunctionTool } from 'openai7/resources/realtime/realtime';
import { toolSpecs, type RealtimeWire } from 'rxjs-tool-calls/tools';
const realtime: RealtimeClientEvent[] = toolMessages('openai-realtime', step);
const realtimeText: RealtimeClientEvent = toolMessages('openai-realtime', step)[0] ?? { type: 'response.create' };
declare const session: RealtimeWire.SessionUpdateEvent;
const sdkSession: RealtimeClientEvent = session;
const realtimeTools: RealtimeFunctionTool[] = toolSpecs({}, 'openai-realtime');
void [realtime, realtimeText, sdkSession, realtimeTools];
