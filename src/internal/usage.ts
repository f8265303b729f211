/**
 * Token counts added up: what the gateway's usage totals and a tool loop's per-step usage share.
 *
 * @module
 */
import type { Usage } from '../events';

const FIELDS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens', 'cacheWriteInputTokens'] as const;

/** The counts of `usage` and nothing else (a `usage` event loses its `type` and `raw`). */
export function usageCounts(usage: Usage): Usage {
  const out: { -readonly [K in keyof Usage]?: number } = {};
  for (const field of FIELDS) if (usage[field] !== undefined) out[field] = usage[field];
  return out;
}

/**
 * The sum of two usages, count by count. A count present on one side only is kept as it is (an
 * absent count adds nothing); a count absent on both sides stays absent.
 *
 * @example
 * ```ts
 * import { addUsage } from 'rxjs-tool-calls/gateway';
 *
 * console.log(addUsage({ inputTokens: 10, outputTokens: 5, totalTokens: 15 }, { inputTokens: 20, outputTokens: 1, totalTokens: 21, reasoningTokens: 1 }));
 * // displays: { inputTokens: 30, outputTokens: 6, totalTokens: 36, reasoningTokens: 1 }
 * ```
 *
 * @param a One usage (a `usage` event works: only its counts are read).
 * @param b The other.
 * @return A new usage holding the sums.
 */
export function addUsage(a: Usage, b: Usage): Usage {
  const out: { -readonly [K in keyof Usage]?: number } = {};
  for (const field of FIELDS) {
    const x = a[field];
    const y = b[field];
    if (x !== undefined || y !== undefined) out[field] = (x ?? 0) + (y ?? 0);
  }
  return out;
}
