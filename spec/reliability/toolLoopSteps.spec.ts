/**
 * `toolLoop()` over 10,000 steps, with synchronous and asynchronous requests: it
 * completes with the right items, an error at step 5,000 ends it with that very error, and the
 * work per step does not grow with the step number (counted, not timed: the call-stack depth at
 * which each step's request is made and its items are delivered, and the one array of messages
 * each step is handed).
 *
 * Before the fix each step ran nested inside the previous one's `concat`: a synchronous loop
 * overflowed the stack after a few hundred steps, the `RangeError` was swallowed, and the loop
 * neither completed nor errored; every item of step k went through k nested subscribers.
 */
import { asapScheduler, concat, from, type Observable, observeOn, throwError } from 'rxjs';
import { openaiChunk, openaiDone } from '../../marbles';
import { type ToolStreamError } from '../../src/errors';
import { tool } from '../../src/tools/types';
import { toolLoop, type LoopMessage, type ToolLoopItem, type ToolLoopOptions, type ToolLoopRequest } from '../../src/tools/toolLoop';

const STEPS = 10_000;
/** Probed steps: the stack depth and the messages array are recorded there. */
const PROBES = new Set([10, 1010, 5010, 9010]);
const question: LoopMessage = { role: 'user', content: 'Count to 10,000, one tool call at a time.' };
const callChunks = [openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'next', arguments: '{}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()];
const answerChunks = [openaiChunk({ role: 'assistant', content: 'Done.' }), openaiChunk({ finishReason: 'stop' }), openaiDone()];
const tools = { next: tool({ execute: () => 'ok' }) };

type Timing = 'sync' | 'async';
const answer = (chunks: string[], timing: Timing): Observable<string> => (timing === 'sync' ? from(chunks) : from(chunks).pipe(observeOn(asapScheduler)));

/** What a run of the loop gave, without keeping its items (each carries the conversation so far). */
interface Outcome {
  readonly counts: Record<string, number>;
  readonly eventsPerStep: number[];
  readonly done: Extract<ToolLoopItem, { type: 'done' }> | undefined;
  readonly error: unknown;
  /** The loop ended (completed or errored) before `subscribe()` returned. */
  readonly endedSynchronously: boolean;
  /** The stack depth in the consumer at each probed step's `step-start`. */
  readonly depthAtStart: Map<number, number>;
  /** The `messages` of each probed step's `step-start`, and of the `step-end` before it. */
  readonly startMessages: Map<number, ReadonlyArray<LoopMessage>>;
  readonly endMessagesBefore: Map<number, ReadonlyArray<LoopMessage>>;
}

/** The number of frames on the call stack here. */
function stackDepth(): number {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Infinity;
  const depth = (new Error().stack ?? '').split('\n').length;
  Error.stackTraceLimit = limit;
  return depth;
}

/**
 * Run the loop to its end, or give up after 30 s (it takes a few seconds here): neither completing
 * nor erroring is a hang (and before the fix, 10,000 asynchronous steps took hours).
 */
function run(request: ToolLoopRequest, options: ToolLoopOptions, probeSteps: ReadonlySet<number> = new Set()): Promise<Outcome> {
  const counts: Record<string, number> = {};
  const eventsPerStep: number[] = [];
  const depthAtStart = new Map<number, number>();
  const startMessages = new Map<number, ReadonlyArray<LoopMessage>>();
  const endMessagesBefore = new Map<number, ReadonlyArray<LoopMessage>>();
  let done: Outcome['done'];
  return new Promise((resolve, reject) => {
    let subscribed = false;
    const watchdog = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error(`the loop neither completed nor errored in 30 s (${counts['step-start'] ?? 0} steps started)`));
    }, 30_000);
    const finish = (error: unknown): void => {
      clearTimeout(watchdog);
      resolve({ counts, eventsPerStep, done, error, endedSynchronously: !subscribed, depthAtStart, startMessages, endMessagesBefore });
    };
    const subscription = toolLoop(request, tools, options).subscribe({
      next: (item) => {
        counts[item.type] = (counts[item.type] ?? 0) + 1;
        if (item.type === 'event') eventsPerStep[item.step] = (eventsPerStep[item.step] ?? 0) + 1;
        if (item.type === 'step-start' && probeSteps.has(item.step)) {
          depthAtStart.set(item.step, stackDepth());
          startMessages.set(item.step, item.messages);
        }
        if (item.type === 'step-end' && probeSteps.has(item.step + 1)) endMessagesBefore.set(item.step + 1, item.messages);
        if (item.type === 'done') done = item;
      },
      error: finish,
      complete: () => finish(undefined),
    });
    subscribed = true;
  });
}

/** A model that calls the tool at every step before `last`, and answers at `last`; records the messages it is handed. */
function model(timing: Timing, last: number, fail?: { step: number; how: 'stream' | 'throw'; error: Error }) {
  const lengths: number[] = [];
  const depthAtRequest = new Map<number, number>();
  const messagesAt = new Map<number, ReadonlyArray<LoopMessage>>();
  const request: ToolLoopRequest = (messages, step) => {
    lengths.push(messages.length);
    if (PROBES.has(step)) {
      depthAtRequest.set(step, stackDepth());
      messagesAt.set(step, messages);
    }
    if (fail !== undefined && step === fail.step) {
      if (fail.how === 'throw') throw fail.error;
      return concat(
        answer(callChunks, timing),
        throwError(() => fail.error),
      );
    }
    return answer(step < last ? callChunks : answerChunks, timing);
  };
  return { request, lengths, depthAtRequest, messagesAt };
}

describe.each<Timing>(['sync', 'async'])('toolLoop over 10,000 steps, %s requests', (timing) => {
  const options: ToolLoopOptions = { format: 'openai-chat', messages: [question], maxSteps: STEPS };

  it('runs to completion with every item, at the same stack depth at step 10 as at step 9,010, one messages array per step', async () => {
    const { request, lengths, depthAtRequest, messagesAt } = model(timing, STEPS - 1);
    const outcome = await run(request, options, PROBES);
    expect(outcome.error).toBeUndefined();
    if (timing === 'sync') expect(outcome.endedSynchronously).toBe(true);
    expect(outcome.counts).toMatchObject({ 'step-start': STEPS, 'tool-call': STEPS - 1, 'tool-result': STEPS - 1, 'step-end': STEPS, done: 1 });
    // The same events every step (the final answer's are a text, a finish and the terminator too).
    expect(new Set(outcome.eventsPerStep).size).toBe(1);
    expect(outcome.counts['event']).toBe(STEPS * (outcome.eventsPerStep[0] as number));
    expect(outcome.done).toMatchObject({ step: STEPS - 1, text: 'Done.' });
    expect(outcome.done?.messages).toHaveLength(1 + 2 * (STEPS - 1) + 1);
    expect(outcome.done?.messages.at(-1)).toEqual({ role: 'assistant', content: 'Done.' });

    // The work per step does not grow: every step is requested and delivered at the same stack
    // depth (before the fix, each step nested inside the previous one's subscribers).
    expect([...depthAtRequest.keys()]).toEqual([...PROBES]);
    expect(new Set(depthAtRequest.values()).size).toBe(1);
    expect([...outcome.depthAtStart.keys()]).toEqual([...PROBES]);
    expect(new Set(outcome.depthAtStart.values()).size).toBe(1);

    // Each tool step appends the assistant turn and the tool's result: step k is handed 1 + 2k
    // messages. That array is the one its step-start carries and the one the step-end before it
    // built: one new array per step (a snapshot of the conversation, which grows by design).
    expect(lengths).toHaveLength(STEPS);
    expect(lengths.every((length, step) => length === 1 + 2 * step)).toBe(true);
    for (const step of PROBES) {
      expect(outcome.startMessages.get(step)).toBe(messagesAt.get(step));
      expect(outcome.endMessagesBefore.get(step)).toBe(messagesAt.get(step));
    }
  }, 120_000);

  it.each<['stream' | 'throw', string]>([
    ['stream', 'a stream error at step 5,000 ends the loop with that error, after its running tool finished'],
    ['throw', 'a request that throws at step 5,000 ends the loop with that error'],
  ])(
    '%s: %s',
    async (how) => {
      const failure = new Error('step 5000 failed');
      const { request } = model(timing, STEPS - 1, { step: 5000, how, error: failure });
      const outcome = await run(request, options);
      expect(outcome.error).toBe(failure);
      // A stream error comes after its step started and its tool ran; a request that throws starts no step.
      expect(outcome.counts).toMatchObject({ 'step-start': how === 'stream' ? 5001 : 5000, 'step-end': 5000, 'tool-result': how === 'stream' ? 5001 : 5000 });
      expect(outcome.done).toBeUndefined();
    },
    120_000,
  );

  it('still asking for tools at the last of 2,000 allowed steps ends with max-steps', async () => {
    const { request } = model(timing, Infinity);
    const outcome = await run(request, { ...options, maxSteps: 2000 });
    expect(outcome.error).toMatchObject({ name: 'ToolStreamError', code: 'max-steps' });
    expect((outcome.error as ToolStreamError<'max-steps'>).maxSteps).toBe(2000);
    expect(outcome.counts).toMatchObject({ 'step-start': 2000, 'step-end': 2000, 'tool-result': 2000 });
  }, 120_000);
});

describe.each<Timing>(['sync', 'async'])('toolLoop never drops an error, %s requests', (timing) => {
  it('building the next messages fails at step 3 (a `stringify` that throws): the loop ends with that error', async () => {
    const failure = new Error('cannot stringify');
    const { request } = model(timing, Infinity);
    let calls = 0;
    const stringify = (output: unknown): string => {
      if (++calls === 4) throw failure;
      return String(output);
    };
    const outcome = await run(request, { format: 'openai-chat', messages: [question], maxSteps: 100, reply: { stringify } });
    expect(outcome.error).toBe(failure);
    expect(outcome.counts).toMatchObject({ 'step-start': 4, 'tool-result': 4, 'step-end': 3 });
  });
});
