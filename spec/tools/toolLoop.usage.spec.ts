/**
 * Usage in a tool loop: each `step-end` carries its step's usage (the last report of its stream),
 * `done` the sum over the steps, the same figures `totalUsage()` gives over the items by step.
 */
import { from, lastValueFrom, type Observable, of, takeLast, throwError, toArray } from 'rxjs';
import { totalUsage } from 'rxjs-tool-calls/gateway';
import { type LoopMessage, tool, toolLoop, type ToolLoopItem } from 'rxjs-tool-calls/tools';
import { anthropicEvent, geminiChunk, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const request =
  (answers: ReadonlyArray<readonly string[]>) =>
  (_messages: ReadonlyArray<LoopMessage>, step: number): Observable<string> => {
    const answer = answers[step];
    return answer === undefined ? throwError(() => new Error(`no answer for step ${step}`)) : from(answer);
  };

/** An Anthropic turn: usage at message_start (input, 1 output token) and the whole count at message_delta. */
function anthropicTurn(input: number, output: number, body: readonly string[], stop: string, cacheRead = 0): string[] {
  return [
    anthropicEvent('message_start', { message: { id: 'msg', model: 'claude-x', usage: { input_tokens: input, cache_read_input_tokens: cacheRead, output_tokens: 1 } } }),
    ...body,
    anthropicEvent('message_delta', { delta: { stop_reason: stop }, usage: { output_tokens: output } }),
    anthropicEvent('message_stop'),
  ];
}
const toolUse = [
  anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' } }),
  anthropicEvent('content_block_stop', { index: 0 }),
];
const answer = [
  anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Sunny.' } }),
  anthropicEvent('content_block_stop', { index: 0 }),
];
const tools = { get_weather: tool({ execute: () => 'sunny' }) };

const run = (answers: ReadonlyArray<readonly string[]>, options: Parameters<typeof toolLoop>[2] = {}): Promise<ToolLoopItem[]> =>
  lastValueFrom(toolLoop(request(answers), tools, { format: 'anthropic', ...options }).pipe(toArray()));
const usageOf = (items: ToolLoopItem[], type: 'step-end' | 'done') => items.filter((i) => i.type === type).map((i) => (i.type === type ? i.usage : undefined));

describe('toolLoop usage', () => {
  it('step-end carries its step’s last report; done carries the sum over the steps', async () => {
    const items = await run([anthropicTurn(100, 40, toolUse, 'tool_use', 60), anthropicTurn(150, 12, answer, 'end_turn')]);
    expect(usageOf(items, 'step-end')).toEqual([
      { inputTokens: 160, outputTokens: 40, totalTokens: 200, cachedInputTokens: 60 },
      { inputTokens: 150, outputTokens: 12, totalTokens: 162, cachedInputTokens: 0 },
    ]);
    expect(usageOf(items, 'done')).toEqual([{ inputTokens: 310, outputTokens: 52, totalTokens: 362, cachedInputTokens: 60 }]);
  });

  it('done.usage is what totalUsage() gives over the items by step', async () => {
    const items = await run([anthropicTurn(100, 40, toolUse, 'tool_use'), anthropicTurn(20, 3, toolUse, 'tool_use'), anthropicTurn(150, 12, answer, 'end_turn')]);
    const total = await lastValueFrom(
      from(items).pipe(totalUsage({ usageOf: (item: ToolLoopItem) => (item.type === 'event' && item.event.type === 'usage' ? item.event : undefined), streamOf: (item) => item.step }), takeLast(1)),
    );
    const done = items.at(-1);
    expect(done?.type === 'done' ? done.usage : 'no done item').toEqual(total);
    expect(total).toMatchObject({ inputTokens: 270, outputTokens: 55, totalTokens: 325 });
  });

  it('a step that reported nothing has no usage and adds nothing; a loop without usage has none on done', async () => {
    const chatCall = [openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()];
    const chatAnswer = [openaiChunk({ content: 'Cold.' }), openaiChunk({ finishReason: 'stop' }), openaiChunk({ usage: { prompt_tokens: 30, completion_tokens: 2, total_tokens: 32 } }), openaiDone()];
    const items = await lastValueFrom(toolLoop(request([chatCall, chatAnswer]), tools, { format: 'openai-chat' }).pipe(toArray()));
    expect(usageOf(items, 'step-end')).toEqual([undefined, { inputTokens: 30, outputTokens: 2, totalTokens: 32 }]);
    expect(usageOf(items, 'done')).toEqual([{ inputTokens: 30, outputTokens: 2, totalTokens: 32 }]);
    const step = items.find((i) => i.type === 'step-end');
    expect(step !== undefined && 'usage' in step).toBe(false);

    const bare = await lastValueFrom(toolLoop(request([[openaiChunk({ content: 'Hi' }), openaiChunk({ finishReason: 'stop' }), openaiDone()]]), tools).pipe(toArray()));
    expect(bare.some((i) => 'usage' in i)).toBe(false);
  });

  it('Gemini: the cumulative counts of the last chunk, not their sum', async () => {
    const call = [
      geminiChunk({ text: 'Checking', usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 1, totalTokenCount: 51 } }),
      geminiChunk({ functionCalls: [{ name: 'get_weather', args: { city: 'Rome' } }], finishReason: 'STOP', usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 9, totalTokenCount: 59 } }),
    ];
    const final = [geminiChunk({ text: 'Warm.', finishReason: 'STOP', usageMetadata: { promptTokenCount: 70, candidatesTokenCount: 2, totalTokenCount: 72 } })];
    const items = await lastValueFrom(toolLoop(request([call, final]), tools, { format: 'gemini' }).pipe(toArray()));
    expect(usageOf(items, 'done')).toEqual([{ inputTokens: 120, outputTokens: 11, totalTokens: 131 }]);
  });

  it('the steps before max-steps still carry their usage', async () => {
    const items: ToolLoopItem[] = [];
    const error = await new Promise((resolve) =>
      toolLoop(request([anthropicTurn(10, 5, toolUse, 'tool_use')]), tools, { format: 'anthropic', maxSteps: 1 }).subscribe({ next: (i) => items.push(i), error: resolve }),
    );
    expect(error).toMatchObject({ code: 'max-steps' });
    expect(usageOf(items, 'step-end')).toEqual([{ inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 0 }]);
  });

  it('keeps no usage between subscriptions', async () => {
    const loop = toolLoop(request([anthropicTurn(100, 40, toolUse, 'tool_use'), anthropicTurn(150, 12, answer, 'end_turn')]), tools, { format: 'anthropic' }).pipe(takeLast(1));
    const first = await lastValueFrom(loop);
    const second = await lastValueFrom(loop);
    expect(first).toEqual(second);
    expect(first.type === 'done' ? first.usage?.totalTokens : undefined).toBe(302);
  });

  it('passes events through untouched (the usage event keeps its raw report)', async () => {
    const items = await lastValueFrom(toolLoop(() => of(...anthropicTurn(7, 3, answer, 'end_turn')), tools, { format: 'anthropic' }).pipe(toArray()));
    const reports = items.flatMap((i) => (i.type === 'event' && i.event.type === 'usage' ? [i.event] : []));
    expect(reports).toHaveLength(2);
    expect(reports[1]).toMatchObject({ type: 'usage', outputTokens: 3, raw: { output_tokens: 3 } });
  });
});
