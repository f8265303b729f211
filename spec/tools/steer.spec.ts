/**
 * Steering a `toolLoop()`: when a steer is taken (the step boundary), several at once, the steer's
 * completion and error, values that are neither a message nor text, and unsubscribing (the steer is
 * unsubscribed with the loop; 100 times over, nothing left subscribed, every call answered).
 */
import { EMPTY, from, lastValueFrom, NEVER, type Observable, of, Subject, tap, throwError, toArray } from 'rxjs';
import { z } from 'zod';
import { tool, toolLoop, type LoopMessage, type ToolLoopItem } from 'rxjs-tool-calls/tools';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { heapAfterGc } from '../helpers/heap';
import { checkConversation } from '../helpers/requestRules';

type Json = Record<string, unknown>;
const call = (id: string, city: string): string =>
  [openaiChunk({ toolCalls: [{ index: 0, id, name: 'get_weather', arguments: JSON.stringify({ city }) }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()].join('');
const answer = (text: string): string => [openaiChunk({ content: text }), openaiChunk({ finishReason: 'stop' }), openaiDone()].join('');
const question: LoopMessage = { role: 'user', content: 'Weather?' };
const options = { format: 'openai-chat', messages: [question] } as const;
const typesOf = (items: ReadonlyArray<ToolLoopItem>): string[] => items.filter((i) => i.type !== 'event').map((i) => `${i.step}:${i.type}`);
const endOf = (items: ReadonlyArray<ToolLoopItem>, step: number): Json[] => {
  const end = items.find((i) => i.type === 'step-end' && i.step === step);
  return (end?.type === 'step-end' ? end.messages : []) as Json[];
};

describe('steering: when a steer is taken', () => {
  it('at the end of the step it arrived in: a steer during step 1 goes after step 1, not step 0', async () => {
    const steer = new Subject<string>();
    const wires = [call('call_1', 'Paris'), call('call_2', 'Rome'), answer('Done.')];
    const tools = { get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => (city === 'Rome' && steer.next('Rome in Fahrenheit.'), `sunny in ${city}`) }) };
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const items = await lastValueFrom(toolLoop((m, step) => (sent.push(m), from([wires[step] ?? ''])), tools, { ...options, steer }).pipe(toArray()));
    expect(typesOf(items)).toEqual([
      '0:step-start',
      '0:tool-call',
      '0:tool-result',
      '0:step-end',
      '1:step-start',
      '1:tool-call',
      '1:tool-result',
      '1:steer',
      '1:step-end',
      '2:step-start',
      '2:step-end',
      '2:done',
    ]);
    expect(sent[1]?.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'sunny in Paris' });
    expect(sent[2]?.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_2', content: 'sunny in Rome' },
      { role: 'user', content: 'Rome in Fahrenheit.' },
    ]);
  });

  it('a steer that completes at once is taken at the end of step 0 (the first request is the messages given); one that completes empty changes nothing', async () => {
    const request = (_m: ReadonlyArray<LoopMessage>, step: number): Observable<string> => from([step === 0 ? answer('Sunny.') : answer('In Celsius: 21.')]);
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const steered = await lastValueFrom(toolLoop((m, s) => (sent.push(m), request(m, s)), {}, { ...options, steer: of('In Celsius.') }).pipe(toArray()));
    expect(sent[0]).toEqual([question]);
    expect(sent[1]).toEqual([question, { role: 'assistant', content: 'Sunny.' }, { role: 'user', content: 'In Celsius.' }]);
    expect(steered.at(-1)).toMatchObject({ type: 'done', step: 1 });
    const plain = await lastValueFrom(toolLoop(request, {}, options).pipe(toArray()));
    const empty = await lastValueFrom(toolLoop(request, {}, { ...options, steer: EMPTY }).pipe(toArray()));
    expect(empty).toEqual(plain);
  });

  it('a steer after done is not taken: the loop is over and has let go of the steer', async () => {
    const steer = new Subject<string>();
    const items = await lastValueFrom(toolLoop(() => from([answer('Sunny.')]), {}, { ...options, steer }).pipe(toArray()));
    expect(items.at(-1)?.type).toBe('done');
    expect(steer.observed).toBe(false);
  });
});

describe('steering beside approvals and retries', () => {
  const needsOk = { get_weather: tool({ schema: z.object({ city: z.string() }), needsApproval: true, execute: ({ city }) => `sunny in ${city}` }) };

  it('a steer sent while a decision is awaited waits with the step: the call is decided and run, then the steer follows its result', async () => {
    const steer = new Subject<string>();
    const decisions = new Subject<{ type: 'approve' }>();
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const run = lastValueFrom(
      toolLoop((m, step) => (sent.push(m), from([step === 0 ? call('call_1', 'Paris') : answer('ok')])), needsOk, { ...options, steer, approve: () => decisions }).pipe(toArray()),
    );
    await new Promise((r) => setTimeout(r, 5));
    steer.next('Paris, Texas.');
    decisions.next({ type: 'approve' });
    const items = await run;
    expect(typesOf(items)).toEqual(['0:step-start', '0:tool-call', '0:tool-approval', '0:tool-result', '0:steer', '0:step-end', '1:step-start', '1:step-end', '1:done']);
    expect(sent[1]?.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny in Paris' },
      { role: 'user', content: 'Paris, Texas.' },
    ]);
  });

  it("a steer that fails while the step pauses: the paused item (its checkpoint with the steers before the failure), then the steer's error", async () => {
    const failure = new Error('gone');
    const steer = new Subject<string>();
    const items: ToolLoopItem[] = [];
    const run = lastValueFrom(
      toolLoop(() => from([call('call_1', 'Paris')]).pipe(tap({ complete: () => (steer.next('Quick.'), steer.error(failure)) })), needsOk, { ...options, steer }).pipe(tap((i) => items.push(i))),
    );
    await expect(run).rejects.toBe(failure);
    const paused = items.at(-1);
    expect(paused?.type === 'paused' && paused.checkpoint.steer).toEqual([{ role: 'user', content: 'Quick.' }]);
  });

  it("onMissingToolCalls: 'retry': the steers go with the repeated request", async () => {
    const steer = new Subject<string>();
    const promised = [openaiChunk({ content: 'Let me look.' }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()].join('');
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const items = await lastValueFrom(
      toolLoop(
        (m, step) => (sent.push(m), from([step === 0 ? promised : answer('Sunny.')]).pipe(tap({ complete: () => step === 0 && steer.next('Just Paris.') }))),
        {},
        { ...options, steer, onMissingToolCalls: 'retry' },
      ).pipe(toArray()),
    );
    expect(items.at(-1)).toMatchObject({ type: 'done', step: 1 });
    expect(sent[1]).toEqual([question, { role: 'user', content: 'Just Paris.' }]);
  });
});

describe('steering: hostile and faulty', () => {
  it("the steer's error ends the loop after the running tool finished and the step ended (its result and the steers before the error written back), with that very error", async () => {
    const steer = new Subject<string>();
    const failure = new Error('steering channel closed');
    const ran: string[] = [];
    const tools = {
      get_weather: tool({
        schema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          steer.next('Also Rome.');
          steer.error(failure);
          await new Promise((r) => setTimeout(r, 10));
          ran.push(city);
          return `sunny in ${city}`;
        },
      }),
    };
    const items: ToolLoopItem[] = [];
    const steps: number[] = [];
    const run = lastValueFrom(toolLoop((_m, step) => (steps.push(step), from([call('call_1', 'Paris')])), tools, { ...options, steer }).pipe(tap((i) => items.push(i))));
    await expect(run).rejects.toBe(failure);
    expect(ran).toEqual(['Paris']);
    expect(steps).toEqual([0]);
    expect(typesOf(items)).toEqual(['0:step-start', '0:tool-call', '0:tool-result', '0:steer', '0:step-end']);
    // Nothing dangles and nothing is lost: the call is answered in the step's messages, then the steer that came before the error.
    const messages = endOf(items, 0);
    expect(() => checkConversation('openai-chat', messages)).not.toThrow();
    expect(messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny in Paris' },
      { role: 'user', content: 'Also Rome.' },
    ]);
  });

  it.each<[string, unknown]>([
    ['a number', 42],
    ['null', null],
    ['an array', [{ role: 'user', content: 'x' }]],
  ])('a steer value that is %s: an invalid-option error at the step boundary, after the step-end', async (_what, value) => {
    const steer = new Subject<unknown>();
    const items: ToolLoopItem[] = [];
    const run = lastValueFrom(
      toolLoop((_m, step) => (step === 0 ? from([answer('Sunny.')]).pipe(tap({ complete: () => steer.next(value) })) : NEVER), {}, { ...options, steer: steer as Subject<string> }).pipe(
        tap((i) => items.push(i)),
      ),
    );
    await expect(run).rejects.toMatchObject({ name: 'ToolStreamError', code: 'invalid-option', function: 'toolLoop', option: 'options.steer', value });
    expect(typesOf(items)).toEqual(['0:step-start', '0:step-end']);
    expect(steer.observed).toBe(false);
  });

  it('unsubscribing mid-step unsubscribes the steer and aborts the running tool, 100 times over; 100 steered runs leave nothing subscribed and nothing unanswered', async () => {
    const steer = new Subject<string>();
    let aborted = 0;
    const tools = {
      get_weather: tool({
        schema: z.object({ city: z.string() }),
        execute: (_args, { signal }) =>
          new Promise<string>((resolve) => {
            steer.next('Hurry.');
            signal.addEventListener('abort', () => (aborted++, resolve('aborted')));
          }),
      }),
    };
    for (let i = 0; i < 100; i++) {
      const items: ToolLoopItem[] = [];
      const subscription = toolLoop(() => from([call('call_1', 'Paris')]), tools, { ...options, steer }).subscribe((item) => items.push(item));
      await new Promise((r) => setTimeout(r, 0));
      expect(steer.observed).toBe(true);
      expect(typesOf(items)).toEqual(['0:step-start', '0:tool-call']);
      subscription.unsubscribe();
      expect(steer.observed).toBe(false);
    }
    expect(aborted).toBe(100);

    const quick = { get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => (steer.next(`and ${city}?`), `sunny in ${city}`) }) };
    const steeredRun = (i: number) => lastValueFrom(toolLoop((_m, step) => from([step === 0 ? call(`call_${i}`, 'Oslo') : answer('ok')]), quick, { ...options, steer }).pipe(toArray()));
    await steeredRun(-1); // once, warm
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = { heap: heapAfterGc(), timers: timers() };
    for (let i = 0; i < 100; i++) {
      const items = await steeredRun(i);
      expect(typesOf(items)).toEqual(['0:step-start', '0:tool-call', '0:tool-result', '0:steer', '0:step-end', '1:step-start', '1:step-end', '1:done']);
      expect(() => checkConversation('openai-chat', endOf(items, 0))).not.toThrow();
      expect(steer.observed).toBe(false);
    }
    expect(timers()).toBeLessThanOrEqual(before.timers);
    expect(heapAfterGc() - before.heap).toBeLessThan(4 * 1024 * 1024);
  });

  it('interrupting instead (unsubscribing mid-step): the last step-end holds no call of the cut step, so a new loop from it and the user message has nothing unanswered', async () => {
    const tools = {
      get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => (city === 'Rome' ? new Promise<string>(() => undefined) : `sunny in ${city}`) }),
    };
    const items: ToolLoopItem[] = [];
    const subscription = toolLoop((_m, step) => from([step === 0 ? call('call_1', 'Paris') : call('call_2', 'Rome')]), tools, options).subscribe((item) => items.push(item));
    await new Promise((r) => setTimeout(r, 5));
    expect(typesOf(items).slice(-2)).toEqual(['1:step-start', '1:tool-call']);
    subscription.unsubscribe();
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const restarted = [...endOf(items, 0), { role: 'user', content: 'Forget Rome.' }];
    await lastValueFrom(toolLoop((m) => (sent.push(m), from([answer('OK.')])), tools, { ...options, messages: restarted }));
    expect(() => checkConversation('openai-chat', sent[0] as Json[])).not.toThrow();
    expect(JSON.stringify(sent[0])).not.toContain('call_2');
  });

  it('a steer that errors at once: the first step still runs to its end, then the loop ends with the error', async () => {
    const failure = new Error('no steering today');
    const items: ToolLoopItem[] = [];
    await expect(lastValueFrom(toolLoop(() => from([answer('Sunny.')]), {}, { ...options, steer: throwError(() => failure) }).pipe(tap((i) => items.push(i))))).rejects.toBe(failure);
    expect(typesOf(items)).toEqual(['0:step-start', '0:step-end']);
  });
});
