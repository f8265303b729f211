/**
 * The OpenAI chat format's finish-reason table and usage mapping (shared with the Responses API's
 * usage).
 *
 * @module
 */
import type { FinishReason } from '../../events';
import { asNumber } from '../decoder';
import { countAt, type UsageCounts } from '../wire';

/**
 * Map an OpenAI-style `finish_reason` to the normalised {@link FinishReason}. Case-insensitive;
 * gateways add their own: `error` (OpenRouter), `MALFORMED_FUNCTION_CALL` in any wording (Gemini's
 * compatibility endpoint: `function_call_filter: MALFORMED_FUNCTION_CALL`) → `error`; `sensitive`,
 * `safety`, `refusal` → `content-filter`; the other formats' reasons a gateway passes through
 * (`tool_use`, `max_tokens`, `model_context_window_exceeded`, Bedrock's `guardrail_intervened`,
 * `malformed_tool_use`) as in their own format.
 */
export function normalizeChatFinishReason(raw: string): FinishReason {
  const reason = raw.toLowerCase();
  switch (reason) {
    case 'stop':
    case 'end_turn':
    case 'eos':
    case 'stop_sequence':
      return 'stop';
    case 'tool_calls':
    case 'tool_call':
    case 'function_call':
    case 'tool_use':
      return 'tool-calls';
    case 'length':
    case 'max_tokens':
    case 'max_output_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'content_filter':
    case 'sensitive':
    case 'safety':
    case 'refusal':
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content-filter';
    case 'error':
      return 'error';
    default:
      return reason.includes('malformed') || reason.endsWith('_error') ? 'error' : 'other';
  }
}

/**
 * OpenAI chat `usage` → token counts: `prompt_tokens` already holds the cached tokens and
 * `completion_tokens` the reasoning ones, except on servers whose own total shows the reasoning was
 * left out (xAI: `total = prompt + completion + reasoning`): then it is added to the output. The
 * cached part is `prompt_tokens_details.cached_tokens`, else DeepSeek's `prompt_cache_hit_tokens`
 * (a part of its `prompt_tokens`, beside `prompt_cache_miss_tokens`), else Moonshot's `cached_tokens`.
 */
export function chatUsage(usage: Record<string, unknown>): UsageCounts {
  return openaiUsage(
    asNumber(usage['prompt_tokens']),
    asNumber(usage['completion_tokens']),
    asNumber(usage['total_tokens']),
    countAt(usage, 'completion_tokens_details', 'reasoning_tokens'),
    countAt(usage, 'prompt_tokens_details', 'cached_tokens') ?? asNumber(usage['prompt_cache_hit_tokens']) ?? asNumber(usage['cached_tokens']),
  );
}

/** OpenAI's counting (chat and Responses): reasoning inside the output, unless the total shows otherwise. */
export function openaiUsage(
  inputTokens: number | undefined,
  output: number | undefined,
  totalTokens: number | undefined,
  reasoningTokens: number | undefined,
  cachedInputTokens: number | undefined,
): UsageCounts {
  const apart =
    inputTokens !== undefined && output !== undefined && totalTokens !== undefined && reasoningTokens !== undefined && reasoningTokens > 0 && totalTokens === inputTokens + output + reasoningTokens;
  return { inputTokens, outputTokens: apart ? output + reasoningTokens : output, totalTokens, reasoningTokens, cachedInputTokens };
}
