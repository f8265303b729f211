/**
 * Gemini's finish-reason table and usage mapping (declared by the format in `index.ts`, used by
 * the decoder).
 *
 * @module
 */
import type { FinishReason } from '../../events';
import { asNumber } from '../decoder';
import { sumOf, type UsageCounts } from '../wire';

/** Map a Gemini `finishReason` to the normalised {@link FinishReason}. */
export function normalizeGeminiFinishReason(raw: string): FinishReason {
  switch (raw) {
    case 'STOP':
      return 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
    case 'MALFORMED_RESPONSE':
    case 'MISSING_THOUGHT_SIGNATURE':
      return 'error';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
    case 'MODEL_ARMOR':
      return 'content-filter';
    default:
      return 'other';
  }
}

/**
 * Gemini `usageMetadata` → token counts: `promptTokenCount` includes the cached content,
 * `toolUsePromptTokenCount` is input too; `candidatesTokenCount` excludes `thoughtsTokenCount`, so
 * the output is both (the recorded totals are prompt + candidates + thoughts).
 */
export function geminiUsage(usage: Record<string, unknown>): UsageCounts {
  const thoughts = asNumber(usage['thoughtsTokenCount']);
  return {
    inputTokens: sumOf(asNumber(usage['promptTokenCount']), asNumber(usage['toolUsePromptTokenCount'])),
    outputTokens: sumOf(asNumber(usage['candidatesTokenCount']), thoughts),
    totalTokens: asNumber(usage['totalTokenCount']),
    reasoningTokens: thoughts,
    cachedInputTokens: asNumber(usage['cachedContentTokenCount']),
  };
}
