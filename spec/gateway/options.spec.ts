/**
 * The gateway's functions check their options when they are made: the encoders, the request
 * translators, merging and racing streams, usage and cost. A key one does not take is an
 * `invalid-option` error naming it, the keys it takes and the closest one; a value it cannot use
 * is an `invalid-option` error saying what it must be; valid options work as before.
 */
import { from, lastValueFrom, NEVER, toArray } from 'rxjs';
import type { StreamEvent } from 'rxjs-tool-calls';
import {
  costOf,
  encodeAnthropicMessages,
  encodeBedrockConverse,
  encodeGemini,
  encodeGeminiInteractions,
  encodeOllamaChat,
  encodeOpenAIChat,
  encodeOpenAIResponses,
  fromAnthropicRequest,
  hedge,
  mergeStreams,
  tagSource,
  toAnthropicRequest,
  toConverseRequest,
  toGeminiInteractionsRequest,
  toGeminiRequest,
  toOllamaRequest,
  toResponsesRequest,
  totalUsage,
} from 'rxjs-tool-calls/gateway';
import { describeOptionChecks, invalidOption } from '../helpers/optionChecks';

const chat = { model: 'm', messages: [{ role: 'user' as const, content: 'Hi' }] };
const anthropic = { model: 'm', max_tokens: 16, messages: [{ role: 'user' as const, content: 'Hi' }] };

describeOptionChecks([
  ['encodeOpenAIChat', (o) => encodeOpenAIChat(o), 'reasoningField', 'reasoning'],
  ['encodeOpenAIResponses', (o) => encodeOpenAIResponses(o), 'reasoningAs', 'summary', { typo: 'reasonigAs' }],
  ['encodeAnthropicMessages', (o) => encodeAnthropicMessages(o), 'choice', 1],
  ['encodeGemini', (o) => encodeGemini(o), 'reasoning', 'drop'],
  ['encodeGeminiInteractions', (o) => encodeGeminiInteractions(o), 'choice', 0],
  ['encodeBedrockConverse', (o) => encodeBedrockConverse(o), 'maxToolCalls', 4],
  ['encodeOllamaChat', (o) => encodeOllamaChat(o), 'createdAt', '2025-01-01T00:00:00.000Z'],
  ['toAnthropicRequest', (o) => toAnthropicRequest({ ...chat, max_completion_tokens: 16 }, o), 'defaultMaxTokens', 1024],
  ['toResponsesRequest', (o) => toResponsesRequest(chat, o), 'instructions', true],
  ['toGeminiRequest', (o) => toGeminiRequest(chat, o), 'schemaField', 'parametersJsonSchema'],
  ['toGeminiInteractionsRequest', (o) => toGeminiInteractionsRequest(chat, o), 'thoughtSignature', 'sig'],
  ['toConverseRequest', (o) => toConverseRequest(chat, o), 'ignore', ['user']],
  ['toOllamaRequest', (o) => toOllamaRequest(chat, o), 'maxDepth', 64],
  ['fromAnthropicRequest', (o) => fromAnthropicRequest(anthropic, o), 'ignore', ['cache_control']],
  ['mergeStreams', (o) => mergeStreams({ a: NEVER }, o), 'failFast', true],
  ['tagSource', (o) => tagSource('a', o), 'events', false],
  ['hedge', (o) => hedge([() => NEVER], { afterMs: 100, ...o }), 'provider', 'openai-chat'],
  ['totalUsage', (o) => totalUsage({ usageOf: () => undefined, ...o }), 'streamOf', () => 0],
  ['costOf', (o) => costOf({ inputTokens: 1 }, { input: 1, output: 1 }, o), 'multiplier', 2],
]);

describe('values the gateway cannot use', () => {
  it.each([
    ['reasoningField: thinking', () => encodeOpenAIChat({ reasoningField: 'thinking' as never }), 'options.reasoningField'],
    ['created: -1', () => encodeOpenAIChat({ created: -1 }), 'options.created'],
    ['includeUsage: 1', () => encodeOpenAIChat({ includeUsage: 1 as never }), 'options.includeUsage'],
    ['reasoningAs: summaries', () => encodeOpenAIResponses({ reasoningAs: 'summaries' as never }), 'options.reasoningAs'],
    ['choice: 1.5', () => encodeAnthropicMessages({ choice: 1.5 }), 'options.choice'],
    ['reasoning: hide', () => encodeGemini({ reasoning: 'hide' as never }), 'options.reasoning'],
    ['model: 1', () => encodeGemini({ model: 1 as never }), 'options.model'],
    ['choice: -1', () => encodeGeminiInteractions({ choice: -1 }), 'options.choice'],
    ['maxToolCalls: -1', () => encodeBedrockConverse({ maxToolCalls: -1 }), 'options.maxToolCalls'],
    ['createdAt: 0', () => encodeOllamaChat({ createdAt: 0 as never }), 'options.createdAt'],
    ['apiVersion: 2024-01-01', () => toAnthropicRequest(chat, { apiVersion: '2024-01-01' as never }), 'options.apiVersion'],
    ['defaultMaxTokens: 0', () => toAnthropicRequest(chat, { defaultMaxTokens: 0 }), 'options.defaultMaxTokens'],
    ['instructions: yes', () => toResponsesRequest(chat, { instructions: 'yes' as never }), 'options.instructions'],
    ['schemaField: schema', () => toGeminiRequest(chat, { schemaField: 'schema' as never }), 'options.schemaField'],
    ['onSchemaDrop: a string', () => toGeminiRequest(chat, { onSchemaDrop: 'log' as never }), 'options.onSchemaDrop'],
    ['thoughtSignature: 1', () => toGeminiInteractionsRequest(chat, { thoughtSignature: 1 as never }), 'options.thoughtSignature'],
    ['ignore: a string', () => toConverseRequest(chat, { ignore: 'user' as never }), 'options.ignore'],
    ['ignore: a number among the names', () => toOllamaRequest(chat, { ignore: ['user', 1] as never }), 'options.ignore'],
    ['maxDepth: 2000', () => toOllamaRequest(chat, { maxDepth: 2000 }), 'options.maxDepth'],
    ['maxDepth: 0', () => fromAnthropicRequest(anthropic, { maxDepth: 0 }), 'options.maxDepth'],
    ['failFast: yes', () => mergeStreams({}, { failFast: 'yes' as never }), 'options.failFast'],
    ['events: 1', () => tagSource('a', { events: 1 as never }), 'options.events'],
    ['afterMs: -1', () => hedge([() => NEVER], { afterMs: -1 }), 'options.afterMs'],
    ['usageOf: a string', () => totalUsage({ usageOf: 'usage' as never }), 'options.usageOf'],
    ['streamOf without usageOf', () => totalUsage({ streamOf: () => 0 } as never), 'options.usageOf'],
    ['round: 2', () => costOf({}, { input: 1, output: 1 }, { round: 2 as never }), 'options.round'],
  ])('%s', (_what, make, option) => {
    expect(invalidOption(make).option).toBe(option);
  });

  it('names the values an enum option takes', () => {
    expect(invalidOption(() => toAnthropicRequest(chat, { apiVersion: '2024-01-01' as never })).expected).toBe("one of '2023-06-01', '2026-10-21'");
    expect(invalidOption(() => encodeOpenAIChat({ reasoningField: 'thinking' as never })).expected).toBe("one of 'reasoning_content', 'reasoning'");
  });

  it('an encoder takes only its own keys: created is the OpenAI encoders’, not Anthropic’s', () => {
    const error = invalidOption(() => encodeAnthropicMessages({ created: 1 } as never));
    expect(error.option).toBe('options.created');
    expect(error.expected).not.toContain('did you mean');
  });

  it("costOf's round keys: a typo names the closest", () => {
    const error = invalidOption(() => costOf({}, { input: 1, output: 1 }, { round: { places: 2, mod: 'up' } as never }));
    expect({ option: error.option, expected: error.expected }).toEqual({ option: 'options.round.mod', expected: "an option costOf() takes (did you mean 'mode'?): places, mode" });
  });
});

describe('valid options work as before', () => {
  const events: StreamEvent[] = [
    { type: 'reasoning-delta', choice: 0, text: 'hmm' },
    { type: 'text-delta', choice: 0, text: 'Hi' },
    { type: 'finish', choice: 0, reason: 'stop', rawReason: 'stop' },
    { type: 'usage', inputTokens: 3, outputTokens: 2, totalTokens: 5, raw: {} },
  ];
  const text = async (encoder: ReturnType<typeof encodeOpenAIChat>): Promise<string> => (await lastValueFrom(from(events).pipe(encoder, toArray()))).join('');

  it('encodeOpenAIChat: model, id, created, reasoningField, includeUsage', async () => {
    const sse = await text(encodeOpenAIChat({ model: 'gpt-x', id: 'c1', created: 7, reasoningField: 'reasoning', includeUsage: false, maxToolCalls: 2 }));
    expect(sse).toContain('"id":"c1"');
    expect(sse).toContain('"created":7');
    expect(sse).toContain('"model":"gpt-x"');
    expect(sse).toContain('"reasoning":"hmm"');
    expect(sse).not.toContain('"prompt_tokens"');
  });

  it('encodeOpenAIResponses: reasoningAs and choice; encodeGemini: reasoning drop', async () => {
    expect(await text(encodeOpenAIResponses({ id: 'resp_1', created: 7, choice: 0, reasoningAs: 'summary' }))).toContain('summary_text');
    expect(await text(encodeGemini({ reasoning: 'drop' }))).not.toContain('hmm');
  });

  it('the request translators: their own options', () => {
    expect(toAnthropicRequest({ model: 'm', messages: chat.messages }, { defaultMaxTokens: 99, apiVersion: '2023-06-01', midConversationSystem: true, maxDepth: 8 }).max_tokens).toBe(99);
    expect(toResponsesRequest({ model: 'm', messages: [{ role: 'system', content: 'Be brief' }, ...chat.messages] }, { instructions: true }).instructions).toBe('Be brief');
    expect(toGeminiRequest(chat, { callIds: true, thoughtSignature: 'sig', schemaField: 'parameters', onSchemaDrop: () => undefined }).body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Hi' }] },
    ]);
    expect(toConverseRequest({ ...chat, user: 'u1' }, { ignore: ['user'] }).modelId).toBe('m');
    expect(fromAnthropicRequest(anthropic, { ignore: [], maxDepth: 1024 }).model).toBe('m');
  });

  it('totalUsage and costOf', async () => {
    const items = [
      { n: 1, u: { inputTokens: 1 } },
      { n: 2, u: { inputTokens: 2 } },
    ];
    expect(await lastValueFrom(from(items).pipe(totalUsage({ usageOf: (i) => i.u, streamOf: (i) => i.n })))).toEqual({ inputTokens: 3 });
    expect(costOf({ inputTokens: 1_000_000 }, { input: 2, output: 1 }, { multiplier: '1.5', round: { places: 2, mode: 'up' } }).total).toBe('3.00');
  });
});
