import { lastValueFrom, of, toArray } from 'rxjs';
import type { ProviderName } from '../../src/events';
import { readStreamEvents } from '../../src/readStreamEvents';
import { normalizeUsage, type ProviderUsageCounts, type Usage } from '../../src/usage/normalize';
import { loadFixtures } from '../helpers/fixtures';

describe('normalizeUsage', () => {
  const cases: Array<[string, ProviderUsageCounts, Usage]> = [
    [
      'OpenAI chat: as reported (cached in input, reasoning in output)',
      { provider: 'openai-chat', inputTokens: 171, outputTokens: 14, totalTokens: 185, cachedTokens: 128, reasoningTokens: 0 },
      { inputTokens: 171, outputTokens: 14, totalTokens: 185, cachedInputTokens: 128, reasoningTokens: 0 },
    ],
    [
      'OpenAI-compatible chat whose output leaves the reasoning out (xAI: the total shows it)',
      { provider: 'openai-chat', inputTokens: 291, outputTokens: 26, totalTokens: 513, cachedTokens: 290, reasoningTokens: 196 },
      { inputTokens: 291, outputTokens: 222, totalTokens: 513, cachedInputTokens: 290, reasoningTokens: 196 },
    ],
    ['OpenAI chat without a total', { provider: 'openai-chat', inputTokens: 10, outputTokens: 5 }, { inputTokens: 10, outputTokens: 5, totalTokens: 15 }],
    ['Responses', { provider: 'openai-responses', inputTokens: 53, outputTokens: 469, totalTokens: 522, cachedTokens: 0, reasoningTokens: 448 }, { inputTokens: 53, outputTokens: 469, totalTokens: 522, cachedInputTokens: 0, reasoningTokens: 448 }],
    [
      'Anthropic: cache reads and writes join the input, total computed',
      { provider: 'anthropic', inputTokens: 10, cacheReadInputTokens: 1000, cacheCreationInputTokens: 50, outputTokens: 20, thinkingTokens: 12 },
      { inputTokens: 1060, outputTokens: 20, totalTokens: 1080, cachedInputTokens: 1000, cacheWriteInputTokens: 50, reasoningTokens: 12 },
    ],
    ['Anthropic message_delta with output only', { provider: 'anthropic', outputTokens: 124 }, { outputTokens: 124 }],
    [
      'Gemini: thoughts join the output, tool-use prompt joins the input',
      { provider: 'gemini', promptTokenCount: 54, toolUsePromptTokenCount: 6, candidatesTokenCount: 74, thoughtsTokenCount: 121, cachedContentTokenCount: 20, totalTokenCount: 255 },
      { inputTokens: 60, outputTokens: 195, totalTokens: 255, reasoningTokens: 121, cachedInputTokens: 20 },
    ],
    ['Gemini thinking before any candidate', { provider: 'gemini', promptTokenCount: 5, thoughtsTokenCount: 7 }, { inputTokens: 5, outputTokens: 7, totalTokens: 12, reasoningTokens: 7 }],
    ['Cohere: total computed', { provider: 'cohere', inputTokens: 30, outputTokens: 9, cachedTokens: 4 }, { inputTokens: 30, outputTokens: 9, totalTokens: 39, cachedInputTokens: 4 }],
    ['nothing reported', { provider: 'cohere' }, {}],
  ];
  it.each(cases)('%s', (_name, counts, expected) => {
    expect(normalizeUsage(counts)).toEqual(expected);
  });

  describe('on every recorded stream in ../shared/fixtures', () => {
    /** The counts a decoder reads from a raw usage object (the call each decoder makes). */
    function countsOf(provider: ProviderName, raw: Record<string, unknown>): ProviderUsageCounts {
      const n = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
      const at = (...path: string[]): number | undefined => n(path.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined), raw));
      switch (provider) {
        case 'openai-chat':
          return { provider, inputTokens: at('prompt_tokens'), outputTokens: at('completion_tokens'), totalTokens: at('total_tokens'), cachedTokens: at('prompt_tokens_details', 'cached_tokens'), reasoningTokens: at('completion_tokens_details', 'reasoning_tokens') };
        case 'openai-responses':
          return { provider, inputTokens: at('input_tokens'), outputTokens: at('output_tokens'), totalTokens: at('total_tokens'), cachedTokens: at('input_tokens_details', 'cached_tokens'), reasoningTokens: at('output_tokens_details', 'reasoning_tokens') };
        case 'anthropic':
          return { provider, inputTokens: at('input_tokens'), cacheReadInputTokens: at('cache_read_input_tokens'), cacheCreationInputTokens: at('cache_creation_input_tokens'), outputTokens: at('output_tokens'), thinkingTokens: at('output_tokens_details', 'thinking_tokens') };
        case 'gemini':
          return {
            provider,
            promptTokenCount: at('promptTokenCount'),
            toolUsePromptTokenCount: at('toolUsePromptTokenCount'),
            cachedContentTokenCount: at('cachedContentTokenCount'),
            candidatesTokenCount: at('candidatesTokenCount'),
            thoughtsTokenCount: at('thoughtsTokenCount'),
            totalTokenCount: at('totalTokenCount'),
          };
        case 'cohere':
          return { provider, inputTokens: at('tokens', 'input_tokens') ?? at('billed_units', 'input_tokens'), outputTokens: at('tokens', 'output_tokens') ?? at('billed_units', 'output_tokens'), cachedTokens: at('cached_tokens') };
      }
    }

    const fixtures = loadFixtures();
    const withUsage: Array<[string, ProviderName, Record<string, unknown>]> = [];
    beforeAll(async () => {
      for (const fixture of fixtures) {
        const events = await lastValueFrom(of(fixture.bytes).pipe(readStreamEvents(), toArray())).catch(() => []);
        const metadata = events.find((e) => e.type === 'metadata');
        const provider = metadata?.type === 'metadata' ? metadata.provider : undefined;
        const usage = events.filter((e) => e.type === 'usage').at(-1);
        if (provider !== undefined && usage !== undefined && usage.type === 'usage') withUsage.push([fixture.name, provider, usage.raw as Record<string, unknown>]);
      }
    });

    it('finds usage in streams of every provider that reports it', () => {
      expect(new Set(withUsage.map(([, provider]) => provider))).toEqual(new Set(['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'cohere']));
    });

    it('total = input + output, cached ≤ input, reasoning ≤ output (the providers’ own totals agree)', () => {
      for (const [name, provider, raw] of withUsage) {
        const usage = normalizeUsage(countsOf(provider, raw));
        const context = `${name}: ${JSON.stringify(raw)} → ${JSON.stringify(usage)}`;
        if (usage.inputTokens !== undefined && usage.outputTokens !== undefined) expect([context, usage.totalTokens]).toEqual([context, usage.inputTokens + usage.outputTokens]);
        if (usage.cachedInputTokens !== undefined) expect([context, usage.cachedInputTokens <= (usage.inputTokens ?? 0)]).toEqual([context, true]);
        if (usage.reasoningTokens !== undefined) expect([context, usage.reasoningTokens <= (usage.outputTokens ?? 0)]).toEqual([context, true]);
      }
    });

    it('counts Gemini thoughts as output: the recorded totals are prompt + candidates + thoughts', () => {
      const gemini = withUsage.filter(([, provider, raw]) => provider === 'gemini' && typeof raw['thoughtsTokenCount'] === 'number');
      expect(gemini.length).toBeGreaterThan(0);
      for (const [, , raw] of gemini) expect(normalizeUsage(countsOf('gemini', raw)).outputTokens).toBe((raw['candidatesTokenCount'] as number) + (raw['thoughtsTokenCount'] as number));
    });
  });
});
