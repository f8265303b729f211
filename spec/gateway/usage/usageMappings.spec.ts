/**
 * Every wire format's usage mapping gives token counts one meaning (see `Usage`): every input token
 * in `inputTokens`, every output token in `outputTokens`, the total computed when omitted.
 */
import { lastValueFrom, of, toArray } from 'rxjs';
import {
  agUi,
  aiSdkUi,
  anthropicMessages,
  bedrockConverse,
  bedrockInvokeModel,
  cohereChat,
  gemini,
  geminiInteractions,
  ollamaChat,
  openaiChat,
  openaiRealtime,
  openaiResponses,
  readStreamEvents,
  type ProviderName,
  type Usage,
  type UsageEvent,
} from 'rxjs-tool-calls';
import { usageEvent } from '../../../src/providers/wire';
import { loadFixtures } from '../../helpers/fixtures';

const FORMATS = {
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  anthropic: anthropicMessages,
  gemini,
  'gemini-interactions': geminiInteractions,
  cohere: cohereChat,
  'bedrock-converse': bedrockConverse,
  'bedrock-invoke-model': bedrockInvokeModel,
  ollama: ollamaChat,
  'ai-sdk-ui': aiSdkUi,
  'ag-ui': agUi,
  'openai-realtime': openaiRealtime,
} as const;

/** The usage event a format makes of a raw usage object (without `type` and `raw`). */
function normalized(provider: ProviderName, raw: Record<string, unknown>): Usage {
  const event = usageEvent(FORMATS[provider].usage(raw), raw);
  if (event === undefined) return {};
  const { type: _type, raw: _raw, ...usage } = event;
  return usage;
}

describe('usage mappings of the wire formats', () => {
  const cases: Array<[string, ProviderName, Record<string, unknown>, Usage]> = [
    [
      'OpenAI chat: as reported (cached in input, reasoning in output)',
      'openai-chat',
      { prompt_tokens: 171, completion_tokens: 14, total_tokens: 185, prompt_tokens_details: { cached_tokens: 128 }, completion_tokens_details: { reasoning_tokens: 0 } },
      { inputTokens: 171, outputTokens: 14, totalTokens: 185, cachedInputTokens: 128, reasoningTokens: 0 },
    ],
    [
      'OpenAI-compatible chat whose output leaves the reasoning out (xAI: the total shows it)',
      'openai-chat',
      { prompt_tokens: 291, completion_tokens: 26, total_tokens: 513, prompt_tokens_details: { cached_tokens: 290 }, completion_tokens_details: { reasoning_tokens: 196 } },
      { inputTokens: 291, outputTokens: 222, totalTokens: 513, cachedInputTokens: 290, reasoningTokens: 196 },
    ],
    ['OpenAI chat without a total', 'openai-chat', { prompt_tokens: 10, completion_tokens: 5 }, { inputTokens: 10, outputTokens: 5, totalTokens: 15 }],
    [
      'Realtime: cached in input (text and audio tokens together)',
      'openai-realtime',
      {
        total_tokens: 1372,
        input_tokens: 1211,
        output_tokens: 161,
        input_token_details: { text_tokens: 1145, audio_tokens: 66, cached_tokens: 1088 },
        output_token_details: { text_tokens: 35, audio_tokens: 126 },
      },
      { inputTokens: 1211, outputTokens: 161, totalTokens: 1372, cachedInputTokens: 1088 },
    ],
    [
      'Responses',
      'openai-responses',
      { input_tokens: 53, output_tokens: 469, total_tokens: 522, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 448 } },
      { inputTokens: 53, outputTokens: 469, totalTokens: 522, cachedInputTokens: 0, reasoningTokens: 448 },
    ],
    [
      'Anthropic: cache reads and writes join the input, total computed',
      'anthropic',
      { input_tokens: 10, cache_read_input_tokens: 1000, cache_creation_input_tokens: 50, output_tokens: 20, output_tokens_details: { thinking_tokens: 12 } },
      { inputTokens: 1060, outputTokens: 20, totalTokens: 1080, cachedInputTokens: 1000, cacheWriteInputTokens: 50, reasoningTokens: 12 },
    ],
    ['Anthropic message_delta with output only', 'anthropic', { output_tokens: 124 }, { outputTokens: 124 }],
    [
      'Gemini: thoughts join the output, tool-use prompt joins the input',
      'gemini',
      { promptTokenCount: 54, toolUsePromptTokenCount: 6, candidatesTokenCount: 74, thoughtsTokenCount: 121, cachedContentTokenCount: 20, totalTokenCount: 255 },
      { inputTokens: 60, outputTokens: 195, totalTokens: 255, reasoningTokens: 121, cachedInputTokens: 20 },
    ],
    ['Gemini thinking before any candidate', 'gemini', { promptTokenCount: 5, thoughtsTokenCount: 7 }, { inputTokens: 5, outputTokens: 7, totalTokens: 12, reasoningTokens: 7 }],
    [
      'Gemini Interactions: thoughts join the output, server tool results join the input (the recorded total is their sum)',
      'gemini-interactions',
      { total_tokens: 1983, total_input_tokens: 22, total_cached_tokens: 0, total_output_tokens: 590, total_tool_use_tokens: 198, total_thought_tokens: 1173 },
      { inputTokens: 220, outputTokens: 1763, totalTokens: 1983, reasoningTokens: 1173, cachedInputTokens: 0 },
    ],
    ['Gemini Interactions without a total', 'gemini-interactions', { total_input_tokens: 7, total_output_tokens: 26 }, { inputTokens: 7, outputTokens: 26, totalTokens: 33 }],
    ['Cohere: total computed', 'cohere', { tokens: { input_tokens: 30, output_tokens: 9 }, cached_tokens: 4 }, { inputTokens: 30, outputTokens: 9, totalTokens: 39, cachedInputTokens: 4 }],
    [
      'Bedrock Converse: cache reads and writes join the input (beside inputTokens), Bedrock’s total counts them',
      'bedrock-converse',
      { inputTokens: 4, outputTokens: 96, totalTokens: 1643, cacheReadInputTokens: 1543, cacheWriteInputTokens: 0 },
      { inputTokens: 1547, outputTokens: 96, totalTokens: 1643, cachedInputTokens: 1543, cacheWriteInputTokens: 0 },
    ],
    ['Bedrock Converse without cache', 'bedrock-converse', { inputTokens: 12, outputTokens: 30, totalTokens: 42 }, { inputTokens: 12, outputTokens: 30, totalTokens: 42 }],
    [
      'Bedrock InvokeModel (Claude): Anthropic’s usage',
      'bedrock-invoke-model',
      { input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 20 },
      { inputTokens: 15, outputTokens: 20, totalTokens: 35, cachedInputTokens: 5 },
    ],
    [
      'Ollama: prompt_eval_count and eval_count, total computed',
      'ollama',
      { prompt_eval_count: 26, eval_count: 298, eval_duration: 4_709_213_000 },
      { inputTokens: 26, outputTokens: 298, totalTokens: 324 },
    ],
    [
      'AI SDK UI: the message metadata’s LanguageModelUsage (cache reads and writes in the input details, reasoning in the output details)',
      'ai-sdk-ui',
      {
        inputTokens: 120,
        inputTokenDetails: { noCacheTokens: 20, cacheReadTokens: 90, cacheWriteTokens: 10 },
        outputTokens: 40,
        outputTokenDetails: { textTokens: 25, reasoningTokens: 15 },
        totalTokens: 160,
      },
      { inputTokens: 120, outputTokens: 40, totalTokens: 160, reasoningTokens: 15, cachedInputTokens: 90, cacheWriteInputTokens: 10 },
    ],
    [
      'AI SDK UI: the older flat fields, total computed',
      'ai-sdk-ui',
      { inputTokens: 10, outputTokens: 5, reasoningTokens: 2, cachedInputTokens: 4 },
      { inputTokens: 10, outputTokens: 5, totalTokens: 15, reasoningTokens: 2, cachedInputTokens: 4 },
    ],
    [
      'AG-UI: one TokenUsage entry (the same accounting)',
      'ag-ui',
      { provider: 'anthropic', model: 'claude', inputTokens: 30, outputTokens: 9, cachedInputTokens: 20 },
      { inputTokens: 30, outputTokens: 9, totalTokens: 39, cachedInputTokens: 20 },
    ],
    [
      'AG-UI: entries of several models, summed',
      'ag-ui',
      [
        { provider: 'openai', model: 'gpt-4o', inputTokens: 30, outputTokens: 9, reasoningTokens: 0 },
        { provider: 'anthropic', model: 'claude', inputTokens: 12, outputTokens: 3, reasoningTokens: 1, cacheWriteInputTokens: 5 },
      ] as unknown as Record<string, unknown>,
      { inputTokens: 42, outputTokens: 12, totalTokens: 54, reasoningTokens: 1, cacheWriteInputTokens: 5 },
    ],
    ['nothing reported', 'cohere', {}, {}],
  ];
  it.each(cases)('%s', (_name, provider, raw, expected) => {
    expect(normalized(provider, raw)).toEqual(expected);
  });

  describe('on every recorded stream in ../shared/fixtures', () => {
    const fixtures = loadFixtures();
    const withUsage: Array<[string, ProviderName, UsageEvent]> = [];
    beforeAll(async () => {
      for (const fixture of fixtures) {
        const events = await lastValueFrom(of(fixture.bytes).pipe(readStreamEvents(), toArray())).catch(() => []);
        const metadata = events.find((e) => e.type === 'metadata');
        const provider = metadata?.type === 'metadata' ? metadata.provider : undefined;
        const usage = events.filter((e) => e.type === 'usage').at(-1);
        if (provider !== undefined && usage !== undefined && usage.type === 'usage') withUsage.push([fixture.name, provider, usage]);
      }
    });

    it('finds usage in streams of every provider that reports it', () => {
      expect(new Set(withUsage.map(([, provider]) => provider))).toEqual(new Set(['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'cohere']));
    });

    it('the usage events say: total = input + output, cached ≤ input, reasoning ≤ output (the providers’ own totals agree)', () => {
      for (const [name, , usage] of withUsage) {
        const context = `${name}: ${JSON.stringify(usage.raw)} → ${JSON.stringify(usage)}`;
        if (usage.inputTokens !== undefined && usage.outputTokens !== undefined) expect([context, usage.totalTokens]).toEqual([context, usage.inputTokens + usage.outputTokens]);
        if (usage.cachedInputTokens !== undefined) expect([context, usage.cachedInputTokens <= (usage.inputTokens ?? 0)]).toEqual([context, true]);
        if (usage.reasoningTokens !== undefined) expect([context, usage.reasoningTokens <= (usage.outputTokens ?? 0)]).toEqual([context, true]);
      }
    });

    it('counts Gemini thoughts as output: the recorded totals are prompt + candidates + thoughts', () => {
      const geminiUsage = withUsage.filter(([, provider, usage]) => provider === 'gemini' && typeof (usage.raw as Record<string, unknown>)['thoughtsTokenCount'] === 'number');
      expect(geminiUsage.length).toBeGreaterThan(0);
      for (const [, , usage] of geminiUsage) {
        const raw = usage.raw as Record<string, number>;
        expect(usage.outputTokens).toBe((raw['candidatesTokenCount'] ?? 0) + (raw['thoughtsTokenCount'] ?? 0));
      }
    });
  });
});
