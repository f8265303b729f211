/**
 * Bedrock's stop-reason table, usage mapping and exceptions (`ConverseStream` and
 * `InvokeModelWithResponseStream` share the exceptions).
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason, ProviderName } from '../../events';
import { asNumber, asRecord, asString } from '../../internal/json';
import { normalizeChatFinishReason } from '../openaiChat/mapping';
import { isRetryable } from '../providerError';
import { sumOf, type UsageCounts } from '../wire';

/**
 * Map a Converse `stopReason` to the normalised {@link FinishReason}: `malformed_tool_use` and
 * `malformed_model_output` (the model wrote a call or an output Bedrock could not read) are `error`;
 * a reason not in Bedrock's list is read as chat reads it.
 */
export function normalizeConverseStopReason(raw: string): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content-filter';
    case 'malformed_tool_use':
    case 'malformed_model_output':
      return 'error';
    default:
      return normalizeChatFinishReason(raw);
  }
}

/**
 * Converse `usage` → token counts: `inputTokens` leaves the cache reads and writes out (they are
 * beside it), so the input is all three; Bedrock's `totalTokens` already counts them.
 */
export function converseUsage(usage: Record<string, unknown>): UsageCounts {
  const cacheRead = asNumber(usage['cacheReadInputTokens']);
  const cacheWrite = asNumber(usage['cacheWriteInputTokens']);
  return {
    inputTokens: sumOf(asNumber(usage['inputTokens']), cacheRead, cacheWrite),
    outputTokens: asNumber(usage['outputTokens']),
    totalTokens: asNumber(usage['totalTokens']),
    cachedInputTokens: cacheRead,
    cacheWriteInputTokens: cacheWrite,
  };
}

/**
 * Bedrock's stream exceptions: the HTTP status AWS documents for each, and whether sending the same
 * request again may succeed (throttling, service unavailable, internal error, a model stream error
 * or time-out: yes; a validation error, access denied, a quota: no).
 */
export const BEDROCK_EXCEPTIONS: Readonly<Record<string, readonly [status: number, retryable: boolean]>> = {
  throttlingException: [429, true],
  serviceUnavailableException: [503, true],
  internalServerException: [500, true],
  modelStreamErrorException: [424, true],
  modelTimeoutException: [408, true],
  modelNotReadyException: [429, true],
  validationException: [400, false],
  accessDeniedException: [403, false],
  resourceNotFoundException: [404, false],
  serviceQuotaExceededException: [400, false],
  modelErrorException: [424, false],
};

/** Whether an event name is a Bedrock exception (`:exception-type`: `throttlingException`, …). */
export function isBedrockException(name: string): boolean {
  return name.endsWith('Exception');
}

/**
 * The `provider-error` of a Bedrock exception frame: its type (`throttlingException`) as `type`,
 * the status and `retryable` from {@link BEDROCK_EXCEPTIONS} (an exception not in the table is
 * judged by its name), the payload's `message`.
 */
export function bedrockException(provider: ProviderName, exceptionType: string, payload: unknown): ToolStreamError<'provider-error'> {
  let body = payload;
  if (typeof payload === 'string') {
    try {
      body = JSON.parse(payload);
    } catch {
      // a plain-text message
    }
  }
  const record = asRecord(body);
  const message = asString(record?.['message']) ?? asString(record?.['Message']) ?? (typeof body === 'string' && body !== '' ? body : exceptionType);
  const known = Object.prototype.hasOwnProperty.call(BEDROCK_EXCEPTIONS, exceptionType) ? BEDROCK_EXCEPTIONS[exceptionType] : undefined;
  return new ToolStreamError('provider-error', {
    provider,
    type: exceptionType,
    message,
    status: known?.[0],
    retryable: known?.[1] ?? isRetryable(undefined, undefined, exceptionType),
    payload: body,
  });
}
