/**
 * Recognise the wire format from the first meaningful SSE event.
 *
 * @module
 */
import type { ProviderName, SseEvent } from '../events';
import { asRecord, asString } from './decoder';

const ANTHROPIC = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping']);
const COHERE = new Set(['message-start', 'content-start', 'content-delta', 'content-end', 'tool-plan-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'citation-start', 'citation-end', 'message-end', 'debug']);

function byType(type: string | undefined): ProviderName | undefined {
  if (type === undefined) return undefined;
  if (type.startsWith('response.')) return 'openai-responses';
  if (ANTHROPIC.has(type)) return 'anthropic';
  if (COHERE.has(type)) return 'cohere';
  return undefined;
}

/**
 * The format of a stream, judged from one event: its name, then its payload's `type` and shape.
 * Returns `undefined` when the event says nothing (keep looking) and `null` when it is not any
 * known format.
 */
export function detectFormat(event: SseEvent): ProviderName | undefined | null {
  const byName = byType(event.event);
  if (byName !== undefined) return byName;
  const data = event.data;
  if (data === '[DONE]') return 'openai-chat';
  if (data.trim() === '') return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  const record = asRecord(payload);
  if (record === undefined) return null;
  const type = asString(record['type']);
  const byPayloadType = byType(type);
  if (byPayloadType !== undefined) return byPayloadType;
  if (type === 'error') {
    // Anthropic nests a typed error object; the Responses API puts code and message at the top.
    return asRecord(record['error']) !== undefined ? 'anthropic' : 'openai-responses';
  }
  if ('choices' in record || record['object'] === 'chat.completion.chunk') return 'openai-chat';
  if ('candidates' in record || 'usageMetadata' in record || 'promptFeedback' in record) return 'gemini';
  if ('error' in record) return 'openai-chat'; // an error envelope: every chat-like server reports it the same way
  return null;
}
