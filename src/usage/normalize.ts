/**
 * One meaning for token counts, whatever the provider: `normalizeUsage()` turns each wire
 * format's own counts into {@link Usage}.
 *
 * The providers count differently (from their API references):
 *
 * | provider | input | cached input | output | reasoning | total |
 * |---|---|---|---|---|---|
 * | OpenAI Chat / Responses | `prompt_tokens` / `input_tokens`, cached included | `cached_tokens` | `completion_tokens` / `output_tokens`, reasoning included (xAI: excluded) | `reasoning_tokens` | sent |
 * | Anthropic | `input_tokens` **excludes** `cache_read_input_tokens` and `cache_creation_input_tokens` | `cache_read_input_tokens` | `output_tokens`, thinking included | `output_tokens_details.thinking_tokens` | not sent |
 * | Gemini | `promptTokenCount` (cached included) + `toolUsePromptTokenCount` | `cachedContentTokenCount` | `candidatesTokenCount` **excludes** `thoughtsTokenCount` | `thoughtsTokenCount` | `totalTokenCount` |
 * | Cohere | `tokens.input_tokens` (or `billed_units`) | `cached_tokens` | `output_tokens` | — | not sent |
 *
 * @module
 */

/**
 * Token counts with one meaning in every format. A count the provider did not report is absent.
 *
 * `inputTokens` counts every input token (cache reads and writes included) and `outputTokens`
 * every generated token (reasoning included), so `inputTokens + outputTokens` is what was billed
 * and `totalTokens` is that sum; `cachedInputTokens` and `cacheWriteInputTokens` are parts of
 * `inputTokens`, `reasoningTokens` a part of `outputTokens`.
 */
export interface Usage {
  /** Every input token: uncached, read from the cache and written to it. */
  readonly inputTokens?: number;
  /** Every generated token, reasoning included. */
  readonly outputTokens?: number;
  /** `inputTokens + outputTokens` (the provider's own total when it sends one). */
  readonly totalTokens?: number;
  /** The part of `outputTokens` spent on reasoning / thinking. */
  readonly reasoningTokens?: number;
  /** The part of `inputTokens` read from the provider's prompt cache (priced at the cached price). */
  readonly cachedInputTokens?: number;
  /** The part of `inputTokens` written to the prompt cache (Anthropic's `cache_creation_input_tokens`). */
  readonly cacheWriteInputTokens?: number;
}

/** OpenAI Chat Completions (`usage`) or Responses (`response.usage`) counts. */
export interface OpenAIUsageCounts {
  /** Which API. */
  readonly provider: 'openai-chat' | 'openai-responses';
  /** `prompt_tokens` / `input_tokens` (cached tokens included). */
  readonly inputTokens?: number | undefined;
  /** `completion_tokens` / `output_tokens` (reasoning included). */
  readonly outputTokens?: number | undefined;
  /** `total_tokens`. */
  readonly totalTokens?: number | undefined;
  /** `prompt_tokens_details.cached_tokens` / `input_tokens_details.cached_tokens`. */
  readonly cachedTokens?: number | undefined;
  /** `completion_tokens_details.reasoning_tokens` / `output_tokens_details.reasoning_tokens`. */
  readonly reasoningTokens?: number | undefined;
}

/** Anthropic Messages `usage` counts. */
export interface AnthropicUsageCounts {
  /** Always `'anthropic'`. */
  readonly provider: 'anthropic';
  /** `input_tokens`: the uncached input only. */
  readonly inputTokens?: number | undefined;
  /** `cache_read_input_tokens`. */
  readonly cacheReadInputTokens?: number | undefined;
  /** `cache_creation_input_tokens`. */
  readonly cacheCreationInputTokens?: number | undefined;
  /** `output_tokens` (thinking included). */
  readonly outputTokens?: number | undefined;
  /** `output_tokens_details.thinking_tokens`. */
  readonly thinkingTokens?: number | undefined;
}

/** Gemini `usageMetadata` counts. */
export interface GeminiUsageCounts {
  /** Always `'gemini'`. */
  readonly provider: 'gemini';
  /** `promptTokenCount` (cached content included). */
  readonly promptTokenCount?: number | undefined;
  /** `toolUsePromptTokenCount`: input from tool use (billed as input). */
  readonly toolUsePromptTokenCount?: number | undefined;
  /** `cachedContentTokenCount`. */
  readonly cachedContentTokenCount?: number | undefined;
  /** `candidatesTokenCount` (thoughts excluded). */
  readonly candidatesTokenCount?: number | undefined;
  /** `thoughtsTokenCount`. */
  readonly thoughtsTokenCount?: number | undefined;
  /** `totalTokenCount`. */
  readonly totalTokenCount?: number | undefined;
}

/** Cohere Chat v2 `usage` counts. */
export interface CohereUsageCounts {
  /** Always `'cohere'`. */
  readonly provider: 'cohere';
  /** `tokens.input_tokens` (or `billed_units.input_tokens`). */
  readonly inputTokens?: number | undefined;
  /** `tokens.output_tokens` (or `billed_units.output_tokens`). */
  readonly outputTokens?: number | undefined;
  /** `cached_tokens` (taken as part of the input, as OpenAI counts them). */
  readonly cachedTokens?: number | undefined;
}

/** One provider's counts, in its own terms, tagged by `provider`. */
export type ProviderUsageCounts = OpenAIUsageCounts | AnthropicUsageCounts | GeminiUsageCounts | CohereUsageCounts;

/** The sum of the counts that are present; `undefined` when none is. */
function sumOf(...counts: ReadonlyArray<number | undefined>): number | undefined {
  let sum: number | undefined;
  for (const count of counts) if (count !== undefined) sum = (sum ?? 0) + count;
  return sum;
}

/** `usage` without its absent counts, with `totalTokens` computed when absent and both sides are known. */
function build(usage: { [K in keyof Usage]: number | undefined }): Usage {
  const total = usage.totalTokens ?? (usage.inputTokens !== undefined && usage.outputTokens !== undefined ? usage.inputTokens + usage.outputTokens : undefined);
  const out: { -readonly [K in keyof Usage]?: number } = {};
  for (const [key, value] of Object.entries({ ...usage, totalTokens: total }) as Array<[keyof Usage, number | undefined]>) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Turn one provider's token counts into {@link Usage}: every input token in `inputTokens`, every
 * output token in `outputTokens`, `totalTokens` computed when the provider omits it.
 *
 * - OpenAI Chat / Responses: as reported (their input already holds the cached tokens, their
 *   output the reasoning tokens), except when the server's own total shows that its output left
 *   the reasoning out (`total = prompt + completion + reasoning`, as xAI reports): then the
 *   reasoning is added to the output.
 * - Anthropic: `inputTokens` = `input_tokens + cache_read_input_tokens +
 *   cache_creation_input_tokens`; `cachedInputTokens` = the cache reads, `cacheWriteInputTokens`
 *   the cache writes; total = input + output.
 * - Gemini: `inputTokens` = `promptTokenCount + toolUsePromptTokenCount`; `outputTokens` =
 *   `candidatesTokenCount + thoughtsTokenCount`; `reasoningTokens` = the thoughts.
 * - Cohere: as reported, total = input + output.
 *
 * A count absent from the provider's report stays absent (a sum of parts is present when one part is).
 *
 * @example
 * ```ts
 * import { normalizeUsage } from 'rxjs-tool-calls';
 *
 * console.log(normalizeUsage({ provider: 'anthropic', inputTokens: 10, cacheReadInputTokens: 1000, cacheCreationInputTokens: 50, outputTokens: 20 }));
 * // displays: { inputTokens: 1060, outputTokens: 20, totalTokens: 1080, cachedInputTokens: 1000, cacheWriteInputTokens: 50 }
 * ```
 *
 * @param counts The provider's counts, tagged with its wire format.
 * @return The normalized counts.
 */
export function normalizeUsage(counts: ProviderUsageCounts): Usage {
  switch (counts.provider) {
    case 'openai-chat':
    case 'openai-responses': {
      const { inputTokens, totalTokens, reasoningTokens } = counts;
      // OpenAI counts reasoning inside the output; some compatible servers (xAI) leave it out, which their own total shows.
      const apart = inputTokens !== undefined && counts.outputTokens !== undefined && totalTokens !== undefined && reasoningTokens !== undefined && reasoningTokens > 0 && totalTokens === inputTokens + counts.outputTokens + reasoningTokens;
      const outputTokens = apart ? sumOf(counts.outputTokens, reasoningTokens) : counts.outputTokens;
      return build({ inputTokens, outputTokens, totalTokens, reasoningTokens, cachedInputTokens: counts.cachedTokens, cacheWriteInputTokens: undefined });
    }
    case 'anthropic':
      return build({
        inputTokens: sumOf(counts.inputTokens, counts.cacheReadInputTokens, counts.cacheCreationInputTokens),
        outputTokens: counts.outputTokens,
        totalTokens: undefined,
        reasoningTokens: counts.thinkingTokens,
        cachedInputTokens: counts.cacheReadInputTokens,
        cacheWriteInputTokens: counts.cacheCreationInputTokens,
      });
    case 'gemini':
      return build({
        inputTokens: sumOf(counts.promptTokenCount, counts.toolUsePromptTokenCount),
        outputTokens: sumOf(counts.candidatesTokenCount, counts.thoughtsTokenCount),
        totalTokens: counts.totalTokenCount,
        reasoningTokens: counts.thoughtsTokenCount,
        cachedInputTokens: counts.cachedContentTokenCount,
        cacheWriteInputTokens: undefined,
      });
    case 'cohere':
      return build({ inputTokens: counts.inputTokens, outputTokens: counts.outputTokens, totalTokens: undefined, reasoningTokens: undefined, cachedInputTokens: counts.cachedTokens, cacheWriteInputTokens: undefined });
  }
}
