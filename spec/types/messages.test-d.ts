/**
 * The message helpers' output fits the official SDKs' request types (checked by tsc, never run).
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { anthropicToolMessages, openaiChatToolMessages, openaiResponsesToolItems, type ToolStep } from '../../src/tools/messages';

declare const step: ToolStep;

const chat: ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather?' }, ...openaiChatToolMessages(step)];
const responses: ResponseInputItem[] = [{ role: 'user', content: 'weather?' }, ...openaiResponsesToolItems(step)];
const anthropic: MessageParam[] = [{ role: 'user', content: 'weather?' }, ...anthropicToolMessages(step)];
void chat;
void responses;
void anthropic;

// @ts-expect-error a tool message is not an Anthropic message
const wrong: MessageParam = openaiChatToolMessages(step)[1];
void wrong;
