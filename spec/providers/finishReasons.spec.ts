/**
 * Finish reasons each format's table reads, and the ones outside it (rule `cut-finish`): Bedrock's
 * `malformed_*` reasons are `error`; Ollama emulators' and Anthropic-compatible servers' OpenAI-style
 * reasons are read as chat reads them; the other formats' reasons that gateways pass through chat
 * keep their meaning. Only what no table knows is `other`.
 */
import type { FinishReason } from 'rxjs-tool-calls';
import { normalizeAnthropicStopReason } from '../../src/providers/anthropic/decoder';
import { normalizeConverseStopReason } from '../../src/providers/bedrockConverse/mapping';
import { normalizeGeminiFinishReason } from '../../src/providers/gemini/mapping';
import { normalizeOllamaDoneReason } from '../../src/providers/ollama/decoder';
import { normalizeChatFinishReason } from '../../src/providers/openaiChat/mapping';

const table = (fn: (raw: string) => FinishReason, cases: Array<[string, FinishReason]>): void => {
  it.each(cases)('%s → %s', (raw, reason) => {
    expect(fn(raw)).toBe(reason);
  });
};

describe('Bedrock Converse stopReason', () => {
  table(normalizeConverseStopReason, [
    ['end_turn', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['malformed_tool_use', 'error'],
    ['malformed_model_output', 'error'],
    ['tool_calls', 'tool-calls'],
    ['something_new', 'other'],
  ]);
});

describe('Ollama done_reason (and servers emulating its API)', () => {
  table(normalizeOllamaDoneReason, [
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool-calls'],
    ['load', 'other'],
    ['unload', 'other'],
  ]);
});

describe('Anthropic stop_reason (and Anthropic-compatible servers)', () => {
  table(normalizeAnthropicStopReason, [
    ['end_turn', 'stop'],
    ['pause_turn', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['refusal', 'content-filter'],
    ['tool_calls', 'tool-calls'],
    ['length', 'length'],
    ['error', 'error'],
    ['something_new', 'other'],
  ]);
});

describe('chat finish_reason: the other formats’ reasons a gateway passes through', () => {
  table(normalizeChatFinishReason, [
    ['tool_call', 'tool-calls'],
    ['model_context_window_exceeded', 'length'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['malformed_tool_use', 'error'],
    ['load', 'other'],
  ]);
});

describe('Gemini finishReason', () => {
  table(normalizeGeminiFinishReason, [
    ['MODEL_ARMOR', 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['LANGUAGE', 'other'],
  ]);
});
