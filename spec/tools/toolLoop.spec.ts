import { concat, from, lastValueFrom, NEVER, type Observable, of, throwError, toArray } from 'rxjs';
import { ToolStreamError } from 'rxjs-tool-calls';
import { type LoopMessage, tool, toolLoop, type ToolLoopItem } from 'rxjs-tool-calls/tools';
import { geminiChunk, openaiChunk, openaiDone, responsesEvent } from 'rxjs-tool-calls/marbles';

/** A request stub answering step n with `answers[n]`, recording the messages it got. */
function stub(answers: ReadonlyArray<Observable<string>>) {
  const sent: Array<ReadonlyArray<LoopMessage>> = [];
  const request = (messages: ReadonlyArray<LoopMessage>, step: number): Observable<string> => {
    sent.push(messages);
    return answers[step] ?? throwError(() => new Error(`no answer for step ${step}`));
  };
  return { request, sent };
}

const weatherCall = [openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }), openaiChunk({ finishReason: 'tool_calls' })];

describe('toolLoop', () => {
  it('a first answer without tool calls ends the loop with the final messages', async () => {
    const { request, sent } = stub([from([openaiChunk({ role: 'assistant', content: 'Hi!' }), openaiChunk({ finishReason: 'stop' }), openaiDone()])]);
    const items = await lastValueFrom(toolLoop(request, {}, { messages: [{ role: 'user', content: 'Hello' }] }).pipe(toArray()));
    expect(sent).toEqual([[{ role: 'user', content: 'Hello' }]]);
    expect(items.map((i) => i.type)).toEqual(['step-start', 'event', 'event', 'event', 'event', 'step-end', 'done']);
    expect(items.at(-1)).toEqual({
      type: 'done',
      step: 0,
      text: 'Hi!',
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi!' },
      ],
    });
  });

  it('a stream error ends the loop after the running tool finished and was emitted', async () => {
    const failure = new ToolStreamError('provider-error', { provider: 'x', providerCode: undefined, type: undefined, message: 'gone', status: 500, retryable: true, payload: null });
    const { request } = stub([
      concat(
        from(weatherCall),
        throwError(() => failure),
      ),
    ]);
    let resolveTool!: (v: string) => void;
    const tools = { get_weather: tool({ execute: () => new Promise<string>((resolve) => (resolveTool = resolve)) }) };
    const items: ToolLoopItem[] = [];
    const done = new Promise((resolve) => toolLoop(request, tools).subscribe({ next: (i) => items.push(i), error: resolve }));
    await Promise.resolve();
    expect(items.map((i) => i.type)).not.toContain('tool-result');
    resolveTool('sunny');
    await expect(done).resolves.toBe(failure);
    expect(items.filter((i) => i.type === 'tool-result')).toHaveLength(1);
  });

  it('unsubscribing aborts a running tool', () => {
    // A chat call completes at [DONE] (a finish never closes it); the connection then stays open.
    const { request } = stub([concat(from([...weatherCall, openaiDone()]), NEVER)]);
    let signal: AbortSignal | undefined;
    const tools = { get_weather: tool({ execute: (_a, ctx) => ((signal = ctx.signal), NEVER) }) };
    const subscription = toolLoop(request, tools).subscribe();
    expect(signal?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(signal?.aborted).toBe(true);
  });

  it('gemini: sends functionCall parts back with their thoughtSignature', async () => {
    const { request, sent } = stub([
      of(geminiChunk({ functionCalls: [{ name: 'get_weather', args: { city: 'Paris' }, thoughtSignature: 'sig==' }], finishReason: 'STOP' })),
      of(geminiChunk({ text: 'Sunny.', finishReason: 'STOP' })),
    ]);
    const items = await lastValueFrom(toolLoop(request, { get_weather: tool({ execute: () => ({ sky: 'clear' }) }) }, { format: 'gemini' }).pipe(toArray()));
    expect(sent[1]).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig==' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: { sky: 'clear' } } } }] },
    ]);
    expect(items.at(-1)).toMatchObject({ type: 'done', step: 1, text: 'Sunny.' });
  });

  it('openai-responses: function_call and function_call_output items by call_id', async () => {
    const item = { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'get_weather', arguments: '' };
    const { request, sent } = stub([
      from([
        responsesEvent('response.created', { response: { id: 'resp_1', model: 'gpt-test' } }),
        responsesEvent('response.output_item.added', { output_index: 0, item }),
        responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: '{"city":"Oslo"}' }),
        responsesEvent('response.output_item.done', { output_index: 0, item: { ...item, arguments: '{"city":"Oslo"}' } }),
        responsesEvent('response.completed', { response: { id: 'resp_1', status: 'completed', output: [] } }),
      ]),
      from([responsesEvent('response.output_text.delta', { output_index: 0, delta: 'Cold.' }), responsesEvent('response.completed', { response: { id: 'resp_2', status: 'completed', output: [] } })]),
    ]);
    await lastValueFrom(toolLoop(request, { get_weather: tool({ execute: () => '-3°C' }) }, { format: 'openai-responses' }).pipe(toArray()));
    expect(sent[1]).toEqual([
      { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_9', output: '-3°C' },
    ]);
  });

  it('rejects maxSteps below 1', () => {
    expect(() => toolLoop(() => NEVER, {}, { maxSteps: 0 })).toThrow(expect.objectContaining({ code: 'invalid-option', function: 'toolLoop', option: 'options.maxSteps', value: 0 }));
  });
});

describe('toolLoop options, one group per stage', () => {
  const answered = (): Observable<string> => from([openaiChunk({ role: 'assistant', content: 'ok' }), openaiChunk({ finishReason: 'stop' }), openaiDone()]);

  it('read: the stream is read with its options (a named provider that does not match the bytes fails them)', async () => {
    const { request } = stub([answered()]);
    const error: unknown = await lastValueFrom(toolLoop(request, {}, { read: { provider: 'anthropic' } })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolStreamError);
    expect((error as ToolStreamError).code).toBe('invalid-event');
    const { request: again } = stub([answered()]);
    expect((await lastValueFrom(toolLoop(again, {}, { read: { provider: 'openai-chat' } }))).type).toBe('done');
  });

  it('read.provider names the messages format when format is not given', async () => {
    const { request, sent } = stub([from([geminiChunk({ text: 'ok', finishReason: 'STOP' })])]);
    const done = await lastValueFrom(toolLoop(request, {}, { read: { provider: 'gemini' }, messages: [{ role: 'user', parts: [{ text: 'hi' }] }] }));
    expect(sent).toHaveLength(1);
    expect(done).toMatchObject({
      type: 'done',
      messages: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'ok' }] },
      ],
    });
  });

  it('run and reply: runTools() and toolMessages() get their groups', async () => {
    const { request, sent } = stub([from(weatherCall.concat(openaiDone())), answered()]);
    const tools = { get_weather: tool({ execute: () => ({ sky: 'clear' }) }) };
    const items = await lastValueFrom(toolLoop(request, tools, { run: { concurrency: 1 }, reply: { stringify: (output) => `sky=${(output as { sky: string }).sky}` } }).pipe(toArray()));
    expect(items.at(-1)).toMatchObject({ type: 'done' });
    expect(sent[1]?.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'sky=clear' });
  });

  it.each([['provider'], ['concurrency'], ['stringify'], ['strict'], ['nonsense']])('a key outside the groups (%s, given flat) is an invalid-option error when the loop is made', (key) => {
    const { request } = stub([answered()]);
    const make = (): unknown => toolLoop(request, {}, { [key]: 1 } as never);
    expect(make).toThrow(ToolStreamError);
    try {
      make();
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid-option', function: 'toolLoop', option: `options.${key}`, value: 1 });
      expect((error as Error).message).toMatch(/read \(readStreamEvents\(\) and the calls\), run \(runTools\(\)\), reply \(toolMessages\(\)\), specs \(toolSpecs\(\)\)/);
    }
  });

  it.each([['fail'], ['Retry'], [true]])('an onMissingToolCalls that is neither error nor retry (%p) is an invalid-option error when the loop is made', (value) => {
    const { request } = stub([answered()]);
    const make = (): unknown => toolLoop(request, {}, { onMissingToolCalls: value } as never);
    expect(make).toThrow(expect.objectContaining({ code: 'invalid-option', function: 'toolLoop', option: 'options.onMissingToolCalls', value, expected: "'error' or 'retry'" }));
  });
});
