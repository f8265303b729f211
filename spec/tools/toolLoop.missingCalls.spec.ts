/**
 * A finish that promised calls that never came (rule `missing-calls`), in `toolLoop()`: the step is no
 * answer. By default the loop ends with the `missing-tool-calls` error after the step's `step-end`;
 * `onMissingToolCalls: 'retry'` makes the same request again as the next step (within `maxSteps`).
 */
import { from, lastValueFrom, type Observable, of, tap, throwError, toArray } from 'rxjs';
import { isToolStreamError } from 'rxjs-tool-calls';
import { type LoopMessage, tool, toolLoop, type ToolLoopItem } from 'rxjs-tool-calls/tools';
import { anthropicEvent, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

function stub(answers: ReadonlyArray<Observable<string>>) {
  const sent: Array<ReadonlyArray<LoopMessage>> = [];
  const request = (messages: ReadonlyArray<LoopMessage>, step: number): Observable<string> => {
    sent.push(messages);
    return answers[step] ?? throwError(() => new Error(`no answer for step ${step}`));
  };
  return { request, sent };
}

/** Items until the end, and the error the loop ended with. */
async function run(items$: Observable<ToolLoopItem>): Promise<{ items: ToolLoopItem[]; error: unknown }> {
  const items: ToolLoopItem[] = [];
  try {
    await lastValueFrom(
      items$.pipe(
        tap((item) => items.push(item)),
        toArray(),
      ),
    );
    return { items, error: undefined };
  } catch (error) {
    return { items, error };
  }
}

const promised = (): Observable<string> => from([openaiChunk({ role: 'assistant', content: 'Let me look.' }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()]);
const answer = (): Observable<string> => from([openaiChunk({ role: 'assistant', content: 'Sunny.' }), openaiChunk({ finishReason: 'stop' }), openaiDone()]);
const weather = { get_weather: tool({ execute: () => 'sunny' }) };
const user: LoopMessage = { role: 'user', content: 'Weather?' };

describe('toolLoop: a tool-calls finish without calls', () => {
  it('ends the loop with missing-tool-calls after the step-end, never with done', async () => {
    const { request } = stub([promised()]);
    const { items: seen, error } = await run(toolLoop(request, weather, { messages: [user] }));
    expect(isToolStreamError(error, 'missing-tool-calls')).toBe(true);
    expect(isToolStreamError(error, 'missing-tool-calls') && error.rawReason).toBe('tool_calls');
    expect(seen.some((i) => i.type === 'done')).toBe(false);
    const end = seen.find((i) => i.type === 'step-end');
    expect(end).toMatchObject({ type: 'step-end', step: 0, text: 'Let me look.', messages: [user] });
  });

  it("onMissingToolCalls: 'retry' sends the same messages again as the next step", async () => {
    const { request, sent } = stub([promised(), answer()]);
    const { items, error } = await run(toolLoop(request, weather, { messages: [user], onMissingToolCalls: 'retry' }));
    expect(error).toBeUndefined();
    expect(sent).toEqual([[user], [user]]);
    expect(items.at(-1)).toMatchObject({ type: 'done', step: 1, text: 'Sunny.' });
  });

  it("'retry' within maxSteps: a model that keeps promising ends with max-steps", async () => {
    const { request, sent } = stub([promised(), promised()]);
    const { error } = await run(toolLoop(request, weather, { messages: [user], onMissingToolCalls: 'retry', maxSteps: 2 }));
    expect(isToolStreamError(error, 'max-steps')).toBe(true);
    expect(sent).toHaveLength(2);
  });

  it('Anthropic stop_reason "tool_use" with no tool_use block: the same error', async () => {
    const wire = [
      anthropicEvent('message_start', { message: { id: 'msg_1', model: 'claude-test', usage: { input_tokens: 3, output_tokens: 1 } } }),
      anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 1 } }),
      anthropicEvent('message_stop'),
    ];
    const { request } = stub([of(wire.join(''))]);
    const { error } = await run(toolLoop(request, weather, { format: 'anthropic', messages: [user] }));
    expect(isToolStreamError(error, 'missing-tool-calls')).toBe(true);
  });

  it('a step whose calls came is not affected: its tools run and the loop goes on', async () => {
    const calls = from([openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()]);
    const { request, sent } = stub([calls, answer()]);
    const { items, error } = await run(toolLoop(request, weather, { messages: [user] }));
    expect(error).toBeUndefined();
    expect(sent).toHaveLength(2);
    expect(items.at(-1)).toMatchObject({ type: 'done', text: 'Sunny.' });
  });
});
