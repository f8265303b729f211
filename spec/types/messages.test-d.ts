/**
 * The message helpers' output fits the official SDKs' request types (checked by tsc, never run).
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { toolMessages, type ToolStep } from 'rxjs-tool-calls';

declare const step: ToolStep;

const chat: ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather?' }, ...toolMessages('openai-chat', step)];
const responses: ResponseInputItem[] = [{ role: 'user', content: 'weather?' }, ...toolMessages('openai-responses', step)];
const anthropic: MessageParam[] = [{ role: 'user', content: 'weather?' }, ...toolMessages('anthropic', step)];
void chat;
void responses;
void anthropic;

// @ts-expect-error a tool message is not an Anthropic message
const wrong: MessageParam = toolMessages('openai-chat', step)[1];
void wrong;
