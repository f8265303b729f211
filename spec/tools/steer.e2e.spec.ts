/**
 * Steering a `toolLoop()` (`steer`), end to end in every message format: global `fetch` +
 * `fromResponse` against a scripted model on a real 127.0.0.1 server that streams the format (our own
 * streams, written by this library's encoders) and refuses a next request the API would refuse
 * (spec/helpers/requestRules.ts: every call answered, turns alternating where the API wants it).
 *
 * Real-world cases:
 * - an interrupt or a steer that leaves calls without results breaks the next request
 *   (kernl-sdk/kernl#60 "no tool output for function call", tidyverse/ellmer#459): every call made
 *   gets its result before the steer;
 * - a steer folded into a tool result's content is ignored by the model (NousResearch/hermes-agent#60543):
 *   here it is a user message, never inside a result;
 * - a steer arriving while the model gives its final answer is dropped (NousResearch/hermes-agent#97371,
 *   esengine/DeepSeek-Reasonix#6352): here the loop goes on with one more step carrying it;
 * - a steer at the `max_turns` boundary never reaches the model (dp-archive/archive#176): here it is
 *   in the last `step-end`'s messages, then `max-steps`;
 * - two `user` turns in a row (Portkey-AI/gateway#748, langchain-ai/langchain-aws#130): joined in
 *   Anthropic and Bedrock; Gemini 3 refuses text beside function responses
 *   (vellum-ai/vellum-assistant#39495, agentgateway/agentgateway#2811): there the steer is the next
 *   user content (dust-tt/dust#32270).
 */
import { from, lastValueFrom, type Observable, Subject, tap, toArray, type OperatorFunction } from 'rxjs';
import { z } from 'zod';
import { fromResponse, readStreamEvents, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeBedrockConverse, encodeGemini, encodeGeminiInteractions, encodeOllamaChat, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { tool, toolLoop, type LoopMessage, type MessageFormat, type ToolLoopCheckpoint, type ToolLoopItem } from 'rxjs-tool-calls/tools';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { checkConversation, resultTexts, userTexts } from '../helpers/requestRules';
import { startScriptedModel, type ScriptedBody, type ScriptedModel } from '../helpers/scriptedModel';

type Json = Record<string, unknown>;
type Provider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'gemini-interactions' | 'bedrock-converse' | 'ollama';

/** Each format a loop writes over HTTP, the encoder of the model's stream, and the provider that reads it. */
const FORMATS: ReadonlyArray<[MessageFormat, () => OperatorFunction<StreamEvent, string | Uint8Array>, Provider]> = [
  ['openai-chat', () => encodeOpenAIChat({ id: 'c1', created: 1 }), 'openai-chat'],
  ['openai-responses', () => encodeOpenAIResponses({ id: 'r1', created: 1 }), 'openai-responses'],
  ['anthropic', () => encodeAnthropicMessages({ id: 'm1' }), 'anthropic'],
  ['bedrock-invoke-model', () => encodeAnthropicMessages({ id: 'm1' }), 'anthropic'],
  ['gemini', () => encodeGemini({ id: 'g1' }), 'gemini'],
  ['gemini-interactions', () => encodeGeminiInteractions({ id: 'v1_s', model: 'm' }), 'gemini-interactions'],
  ['bedrock-converse', () => encodeBedrockConverse({ id: 'b1' }), 'bedrock-converse'],
  ['ollama', () => encodeOllamaChat({ id: 'o1' }), 'ollama'],
];

const QUESTION = 'Weather in Paris and the time in Tokyo?';
/** A user message in `format`, written here as a user of the loop writes one (Anthropic's as a string). */
function userMessage(format: MessageFormat, text: string): LoopMessage {
  switch (format) {
    case 'gemini':
      return { role: 'user', parts: [{ text }] };
    case 'gemini-interactions':
      return { type: 'user_input', content: [{ type: 'text', text }] };
    case 'bedrock-converse':
      return { role: 'user', content: [{ text }] };
    default:
      return { role: 'user', content: text };
  }
}

const CALLS = [
  openaiChunk({ content: 'Let me check.' }),
  openaiChunk({ toolCalls: [{ index: 0, id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' }] }),
  openaiChunk({ toolCalls: [{ index: 1, id: 'call_t', name: 'get_time', arguments: '{"zone":"Asia/Tokyo"}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiDone(),
].join('');
const answer = (...pieces: string[]): string => [...pieces.map((content) => openaiChunk({ content })), openaiChunk({ finishReason: 'stop' }), openaiDone()].join('');

/** Our own stream, as `encoder` writes it: one piece per write. */
const encoded = async (wire: string, encoder: () => OperatorFunction<StreamEvent, string | Uint8Array>): Promise<Array<string | Uint8Array>> =>
  lastValueFrom(from(await lastValueFrom(from([wire]).pipe(readStreamEvents(), toArray()))).pipe(encoder(), toArray()));

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const messagesOf = (body: ScriptedBody): Json[] => body.messages as Json[];
const allUserTexts = (format: MessageFormat, messages: ReadonlyArray<Json>): string[] => messages.flatMap((m) => userTexts(format, m));

describe.each(FORMATS)('steering a toolLoop in %s, against a scripted model on 127.0.0.1', (format, encoder, provider) => {
  const request = (server: ScriptedModel) => (messages: ReadonlyArray<LoopMessage>) =>
    fromResponse(fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages }) }), { provider });
  const options = { format, read: { provider }, messages: [userMessage(format, QUESTION)] } as const;
  const valid = (body: ScriptedBody): void => checkConversation(format, messagesOf(body));

  it('steers sent while the tools run: every call answered first, then the steers, in order, in one valid next request; the step is not cut', async () => {
    const steer = new Subject<LoopMessage | string>();
    const server = (model = await startScriptedModel([
      { events: await encoded(CALLS, encoder) },
      {
        check: (body) => {
          valid(body);
          expect(allUserTexts(format, messagesOf(body))).toEqual([QUESTION, 'Use Celsius.', 'And be brief.']);
          // The results are the tools' outputs, nothing else (the steer is not folded into one).
          expect(resultTexts(format, messagesOf(body)).map((t) => t.replace(/\s/g, ''))).toEqual(['{"city":"Paris","temperature":21}', '12:00Asia/Tokyo']);
        },
        events: await encoded(answer('Sunny, 21 °C; noon in Tokyo.'), encoder),
      },
    ]));
    const tools = {
      get_weather: tool({
        schema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          steer.next('Use Celsius.');
          steer.next(userMessage(format, 'And be brief.'));
          await new Promise((r) => setTimeout(r, 10));
          return { city, temperature: 21 };
        },
      }),
      get_time: tool({ schema: z.object({ zone: z.string() }), execute: ({ zone }) => `12:00 ${zone}` }),
    };
    const items = await lastValueFrom(toolLoop(request(server), tools, { ...options, steer }).pipe(toArray()));

    expect(server.rejections).toEqual([]);
    expect(server.requests.map((r) => [r.ended, r.aborted])).toEqual([
      [true, false],
      [true, false],
    ]);
    const step0 = items.filter((i) => i.step === 0).map((i) => i.type);
    // The steers come after both results, just before the step's end.
    expect(step0.slice(-3)).toEqual(['steer', 'steer', 'step-end']);
    expect(step0.filter((t) => t === 'tool-result')).toHaveLength(2);
    const steers = items.filter((i): i is Extract<ToolLoopItem, { type: 'steer' }> => i.type === 'steer');
    expect(steers.map((s) => userTexts(format, s.message as Json))).toEqual([['Use Celsius.'], ['And be brief.']]);
    const end0 = items.find((i) => i.type === 'step-end' && i.step === 0);
    expect(end0?.type === 'step-end' && end0.messages).toEqual(server.requests[1]?.body.messages);
    expect(items.at(-1)).toMatchObject({ type: 'done', step: 1, text: 'Sunny, 21 °C; noon in Tokyo.' });
    expect(steer.observed).toBe(false);
  });

  it('a steer during the last step (the model answered without calls): the loop goes on with one more step carrying it', async () => {
    const steer = new Subject<string>();
    const server = (model = await startScriptedModel([
      { events: await encoded(answer('It is ', 'sunny ', 'in Paris.'), encoder), delayMs: 10 },
      {
        check: (body) => {
          valid(body);
          expect(allUserTexts(format, messagesOf(body))).toEqual([QUESTION, 'Give it in Kelvin too.']);
        },
        events: await encoded(answer('294 K.'), encoder),
      },
    ]));
    let sent = false;
    const items = await lastValueFrom(
      toolLoop(request(server), {}, { ...options, steer }).pipe(
        tap((item) => {
          if (!sent && item.type === 'event' && item.event.type === 'text-delta') {
            sent = true;
            steer.next('Give it in Kelvin too.');
          }
        }),
        toArray(),
      ),
    );
    expect(server.rejections).toEqual([]);
    expect(items.map((i) => `${i.step}:${i.type}`).filter((t) => !t.endsWith(':event'))).toEqual(['0:step-start', '0:steer', '0:step-end', '1:step-start', '1:step-end', '1:done']);
    expect(items.at(-1)).toMatchObject({ type: 'done', text: '294 K.' });
    // The first answer stays in the conversation, before the steer.
    const end0 = items.find((i) => i.type === 'step-end' && i.step === 0);
    expect(JSON.stringify(end0?.type === 'step-end' ? end0.messages : [])).toContain('sunny in Paris.');
  });

  it("a steer during the last allowed step is not lost: it ends that step-end's messages, then max-steps", async () => {
    const steer = new Subject<string>();
    const server = (model = await startScriptedModel([{ events: await encoded(answer('It is ', 'sunny.'), encoder), delayMs: 10 }]));
    const items: ToolLoopItem[] = [];
    let sent = false;
    const run = lastValueFrom(
      toolLoop(request(server), {}, { ...options, steer, maxSteps: 1 }).pipe(
        tap((item) => {
          items.push(item);
          if (!sent && item.type === 'event') {
            sent = true;
            steer.next('In Kelvin.');
          }
        }),
      ),
    );
    await expect(run).rejects.toMatchObject({ name: 'ToolStreamError', code: 'max-steps' });
    const end = items.find((i) => i.type === 'step-end');
    const messages = (end?.type === 'step-end' ? end.messages : []) as Json[];
    expect(() => checkConversation(format, messages)).not.toThrow();
    expect(allUserTexts(format, messages)).toEqual([QUESTION, 'In Kelvin.']);
    expect(items.filter((i) => i.type === 'steer')).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
    expect(steer.observed).toBe(false);
  });

  it('a steer pending when the loop pauses at an approval is kept in the checkpoint, and taken when the resumed step ends', async () => {
    const steer = new Subject<string>();
    const server = (model = await startScriptedModel([
      { events: await encoded(CALLS, encoder) },
      {
        check: (body) => {
          valid(body);
          expect(allUserTexts(format, messagesOf(body))).toEqual([QUESTION, 'Only Paris matters.']);
          expect(resultTexts(format, messagesOf(body))).toHaveLength(2);
        },
        events: await encoded(answer('Sunny in Paris.'), encoder),
      },
    ]));
    const tools = {
      get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => (steer.next('Only Paris matters.'), `sunny in ${city}`) }),
      get_time: tool({ schema: z.object({ zone: z.string() }), needsApproval: true, execute: ({ zone }) => `12:00 ${zone}` }),
    };
    const first = await lastValueFrom(toolLoop(request(server), tools, { ...options, steer }).pipe(toArray()));
    const paused = first.at(-1);
    expect(paused?.type).toBe('paused');
    expect(first.some((i) => i.type === 'steer')).toBe(false);
    const checkpoint = JSON.parse(JSON.stringify(paused?.type === 'paused' ? paused.checkpoint : null)) as ToolLoopCheckpoint;
    expect(checkpoint.steer?.map((m) => userTexts(format, m as Json))).toEqual([['Only Paris matters.']]);
    expect(steer.observed).toBe(false);

    const resumed = await lastValueFrom(toolLoop(request(server), tools, { resume: checkpoint, read: { provider }, approve: () => [{ type: 'approve' as const }] }).pipe(toArray()));
    expect(server.rejections).toEqual([]);
    expect(resumed.filter((i) => i.type !== 'event').map((i) => `${i.step}:${i.type}`)).toEqual(['0:tool-approval', '0:tool-result', '0:steer', '0:step-end', '1:step-start', '1:step-end', '1:done']);
  });
});

describe('steering: its wire in every format', () => {
  const chatCalls = [openaiChunk({ toolCalls: [{ index: 0, id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()].join('');
  const tools = { get_weather: tool({ schema: z.object({ city: z.string() }), execute: () => 'sunny' }) };
  const stepEnd = async (format: MessageFormat, messages: LoopMessage[]): Promise<Json[]> => {
    const steer = new Subject<LoopMessage | string>();
    const request = (_m: ReadonlyArray<LoopMessage>, step: number): Observable<string> =>
      step === 0 ? from([chatCalls]).pipe(tap({ complete: () => (steer.next('Use Celsius.'), steer.next('  ')) })) : from([answer('ok')]);
    const items = await lastValueFrom(toolLoop(request, tools, { format, read: { provider: 'openai-chat' }, messages, steer }).pipe(toArray()));
    const end = items.find((i) => i.type === 'step-end' && i.step === 0);
    return (end?.type === 'step-end' ? end.messages : []) as Json[];
  };

  it.each<[MessageFormat, LoopMessage, Json]>([
    [
      'anthropic',
      { role: 'user', content: 'Go' },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_w', content: 'sunny' },
          { type: 'text', text: 'Use Celsius.' },
        ],
      },
    ],
    [
      'bedrock-invoke-model',
      { role: 'user', content: 'Go' },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_w', content: 'sunny' },
          { type: 'text', text: 'Use Celsius.' },
        ],
      },
    ],
    ['bedrock-converse', { role: 'user', content: [{ text: 'Go' }] }, { role: 'user', content: [{ toolResult: { toolUseId: 'call_w', content: [{ text: 'sunny' }] } }, { text: 'Use Celsius.' }] }],
  ])('%s: the steer is a text block after the results, in the same user turn (a blank steer is ignored)', async (format, question, last) => {
    const messages = await stepEnd(format, [question]);
    expect(messages).toHaveLength(3);
    expect(messages[2]).toEqual(last);
  });

  it.each<[MessageFormat, LoopMessage, Json]>([
    ['openai-chat', { role: 'user', content: 'Go' }, { role: 'user', content: 'Use Celsius.' }],
    ['openai-responses', { role: 'user', content: 'Go' }, { role: 'user', content: 'Use Celsius.' }],
    ['ollama', { role: 'user', content: 'Go' }, { role: 'user', content: 'Use Celsius.' }],
    ['gemini-interactions', { type: 'user_input', content: [{ type: 'text', text: 'Go' }] }, { type: 'user_input', content: [{ type: 'text', text: 'Use Celsius.' }] }],
    // Gemini's function-response content holds its responses alone (vellum-ai/vellum-assistant#39495, dust-tt/dust#32270).
    ['gemini', { role: 'user', parts: [{ text: 'Go' }] }, { role: 'user', parts: [{ text: 'Use Celsius.' }] }],
  ])('%s: the steer is a user message of its own after the results', async (format, question, steerMessage) => {
    const messages = await stepEnd(format, [question]);
    expect(messages.at(-1)).toEqual(steerMessage);
    expect(JSON.stringify(messages.at(-2))).not.toContain('Use Celsius.');
    expect(() => checkConversation(format, messages)).not.toThrow();
  });

  it('openai-realtime: the steer is a user item created before the response.create that answers the results', async () => {
    const messages = await stepEnd('openai-realtime', []);
    expect(messages).toEqual([
      { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'call_w', output: 'sunny' } },
      { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Use Celsius.' }] } },
      { type: 'response.create' },
    ]);
  });
});
