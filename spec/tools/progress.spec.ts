/**
 * Tool progress: an `execute` that returns an Observable or an async iterable streams; every value
 * but the last is a progress result (`preliminary: true`) in `runTools()` and a `tool-progress`
 * item in `toolLoop()`; the last is the output, the only one written back to the model, in every
 * message format; unsubscribing aborts the tool. Through `loopEvents()` and `encodeAiSdkUi()` the
 * progress values are preliminary outputs that `useChat`'s reader shows and then replaces.
 */
import { concat, delay, from, interval, lastValueFrom, map, of, range, take, takeWhile, timer, toArray, Observable, type OperatorFunction } from 'rxjs';
import { z } from 'zod';
import { readStreamEvents, readToolCalls, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAiSdkUi, encodeAnthropicMessages, encodeBedrockConverse, encodeGemini, encodeOllamaChat, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { loopEvents, runTools, tool, toolLoop, type LoopMessage, type MessageFormat, type ToolRunResult } from 'rxjs-tool-calls/tools';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { readWithAiSdk, startBytesServer } from '../helpers/uiClients';

const CALL = [openaiChunk({ toolCalls: [{ index: 0, id: 'call_s', name: 'search', arguments: '{"q":"rxjs"}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()].join('');
const ANSWER = [openaiChunk({ content: 'Found.' }), openaiChunk({ finishReason: 'stop' }), openaiDone()].join('');
const shape = (r: ToolRunResult): unknown => (r.success ? [r.preliminary === true ? 'progress' : 'output', r.data.output] : r.error.code);

describe('runTools: progress of streaming tools', () => {
  it('an Observable: every value but the last a progress result as it comes, the last the output', async () => {
    const tools = {
      search: tool({
        schema: z.object({ q: z.string() }),
        execute: ({ q }) => concat(of({ status: 'searching' }), timer(5).pipe(map(() => ({ status: 'reading' }))), timer(5).pipe(map(() => ({ status: 'done', hits: [q] })))),
      }),
    };
    const results = await lastValueFrom(from([CALL]).pipe(readToolCalls(), runTools(tools), toArray()));
    expect(results.map(shape)).toEqual([
      ['progress', { status: 'searching' }],
      ['progress', { status: 'reading' }],
      ['output', { status: 'done', hits: ['rxjs'] }],
    ]);
  });

  it('an async generator: the same; a value is shown while the tool still works (before the next one comes)', async () => {
    const seen: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tools = {
      search: tool({
        schema: z.object({ q: z.string() }),
        async *execute({ q }) {
          yield `looking for ${q}`;
          await gate;
          yield `found ${q}`;
        },
      }),
    };
    const done = lastValueFrom(
      from([CALL]).pipe(
        readToolCalls(),
        runTools(tools),
        map((r) => {
          seen.push(String(shape(r)));
          if (r.preliminary === true) release();
          return r;
        }),
        toArray(),
      ),
    );
    const results = await done;
    expect(results.map(shape)).toEqual([
      ['progress', 'looking for rxjs'],
      ['output', 'found rxjs'],
    ]);
  });

  it('a one-value Observable (an HTTP call) and a Promise give no progress', async () => {
    const tools = { search: tool({ execute: () => of('one').pipe(delay(1)) }), other: tool({ execute: async () => 'two' }) };
    const two = [
      openaiChunk({
        toolCalls: [
          { index: 0, id: 'a', name: 'search', arguments: '{}' },
          { index: 1, id: 'b', name: 'other', arguments: '{}' },
        ],
      }),
      openaiChunk({ finishReason: 'tool_calls' }),
      openaiDone(),
    ].join('');
    const results = await lastValueFrom(from([two]).pipe(readToolCalls(), runTools(tools), toArray()));
    expect(results.map(shape).sort()).toEqual([
      ['output', 'one'],
      ['output', 'two'],
    ]);
  });

  it('unsubscribing aborts a streaming tool: its signal, and the generator is closed', async () => {
    let aborted = false;
    let closed = false;
    const tools = {
      search: tool({
        async *execute(_args, { signal }) {
          signal.addEventListener('abort', () => (aborted = true));
          try {
            for (let i = 0; ; i++) {
              yield i;
              await new Promise((r) => setTimeout(r, 2));
            }
          } finally {
            closed = true;
          }
        },
      }),
    };
    const values = await lastValueFrom(from([CALL]).pipe(readToolCalls(), runTools(tools), take(3), toArray()));
    expect(values.every((v) => v.preliminary === true)).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toBe(true);
    expect(closed).toBe(true);
  });

  it('a flood of progress (100 000 values at once): the loop ends with the last value written back; 100 runs unsubscribed midway leave nothing running', async () => {
    const tools = { search: tool({ execute: () => range(0, 100_000) }) };
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const request = (m: ReadonlyArray<LoopMessage>, step: number) => (sent.push(m), from([step === 0 ? CALL : ANSWER]));
    const items = await lastValueFrom(toolLoop(request, tools).pipe(toArray()));
    expect(items.filter((i) => i.type === 'tool-progress')).toHaveLength(99_999);
    expect(items.at(-1)?.type).toBe('done');
    expect(JSON.stringify(sent[1])).toContain('"content":"99999"');
    let running = 0;
    const slow = {
      search: tool({
        execute: () =>
          new Observable<number>((subscriber) => {
            running++;
            const inner = interval(1).subscribe(subscriber);
            return () => {
              running--;
              inner.unsubscribe();
            };
          }),
      }),
    };
    for (let i = 0; i < 100; i++) {
      await lastValueFrom(
        toolLoop(request, slow).pipe(
          takeWhile((item) => item.type !== 'tool-progress'),
          toArray(),
        ),
        { defaultValue: [] },
      );
    }
    expect(running).toBe(0);
  }, 30_000);
});

const eventsOf = (wire: string): Promise<StreamEvent[]> => lastValueFrom(from([wire]).pipe(readStreamEvents(), toArray()));
const FORMATS: ReadonlyArray<[MessageFormat, () => OperatorFunction<StreamEvent, string | Uint8Array>, MessageFormat]> = [
  ['openai-chat', () => encodeOpenAIChat({ id: 'c1', created: 1 }), 'openai-chat'],
  ['openai-responses', () => encodeOpenAIResponses({ id: 'r1', created: 1 }), 'openai-responses'],
  ['anthropic', () => encodeAnthropicMessages({ id: 'm1' }), 'anthropic'],
  ['bedrock-invoke-model', () => encodeAnthropicMessages({ id: 'm1' }), 'anthropic'],
  ['gemini', () => encodeGemini({ id: 'g1' }), 'gemini'],
  ['bedrock-converse', () => encodeBedrockConverse({ id: 'b1' }), 'bedrock-converse'],
  ['ollama', () => encodeOllamaChat({ id: 'o1' }), 'ollama'],
];

describe.each(FORMATS)('toolLoop: progress in %s', (format, encoder, provider) => {
  it('tool-progress items as the tool works; only the output is written back', async () => {
    const steps = [await lastValueFrom(from(await eventsOf(CALL)).pipe(encoder(), toArray())), await lastValueFrom(from(await eventsOf(ANSWER)).pipe(encoder(), toArray()))];
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const request = (m: ReadonlyArray<LoopMessage>, step: number): Observable<string | Uint8Array> => (sent.push(m), from(steps[step] ?? []));
    const tools = {
      search: tool({ schema: z.object({ q: z.string() }), execute: ({ q }) => concat(of('PROGRESS-ONE'), timer(2).pipe(map(() => 'PROGRESS-TWO')), timer(2).pipe(map(() => `FINAL ${q}`))) }),
    };
    const items = await lastValueFrom(toolLoop(request, tools, { format, read: { provider } }).pipe(toArray()));
    expect(items.filter((i) => i.type === 'tool-progress' || i.type === 'tool-result').map((i) => [i.type, i.result.success ? i.result.data.output : null])).toEqual([
      ['tool-progress', 'PROGRESS-ONE'],
      ['tool-progress', 'PROGRESS-TWO'],
      ['tool-result', 'FINAL rxjs'],
    ]);
    expect(items.at(-1)?.type).toBe('done');
    const written = JSON.stringify(sent[1]);
    expect(written).toContain('FINAL rxjs');
    expect(written).not.toContain('PROGRESS');
  });
});

describe('progress through the AI SDK UI encoder, read by useChat’s reader', () => {
  it('preliminary outputs, then the final output replaces them', async () => {
    const server = await startBytesServer();
    try {
      const tools = { search: tool({ schema: z.object({ q: z.string() }), execute: ({ q }) => concat(of({ status: 'searching' }), timer(2).pipe(map(() => ({ status: 'done', q })))) }) };
      const loop = toolLoop(() => from([CALL]), tools).pipe(takeWhile((item) => item.type !== 'step-end'));
      const sse = await lastValueFrom(loop.pipe(loopEvents(), encodeAiSdkUi({ id: 'm1' }), toArray()));
      const view = await readWithAiSdk(server.serve('/progress', sse));
      expect(view.errors).toEqual([]);
      const outputs = view.chunks.filter((c) => c.type === 'tool-output-available').map((c) => [c.preliminary === true, c.output]);
      expect(outputs).toEqual([
        [true, { status: 'searching' }],
        [false, { status: 'done', q: 'rxjs' }],
      ]);
      const part = view.message?.parts.find((p) => p.type === 'tool-search') as Record<string, unknown> | undefined;
      expect(part).toMatchObject({ state: 'output-available', output: { status: 'done', q: 'rxjs' } });
      expect(part?.['preliminary']).not.toBe(true);
    } finally {
      await server.close();
    }
  });
});
