/**
 * `toolLoop()` end to end: global `fetch` + `fromResponse` against a scripted model on a real
 * 127.0.0.1 server, which checks the tool results it receives before answering the next step.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { fromResponse } from 'rxjs-tool-calls';
import { type LoopMessage, tool, toolLoop, type ToolLoopItem } from 'rxjs-tool-calls/tools';
import { startScriptedModel, within, type ScriptedModel, type ScriptedStep } from '../helpers/scriptedModel';
import { anthropicWire, openaiChatWire, type ScriptedWire } from '../helpers/scriptedWire';

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function serve(steps: ScriptedStep[]): Promise<ScriptedModel> {
  model = await startScriptedModel(steps);
  return model;
}

function requestTo(server: ScriptedModel) {
  return (messages: ReadonlyArray<LoopMessage>) =>
    fromResponse(fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages }) }), { provider: 'scripted' });
}

function expectEqual(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`expected ${JSON.stringify(expected)}, received ${JSON.stringify(actual)}`);
}

const question: LoopMessage = { role: 'user', content: 'Weather and time?' };

describe.each<[string, ScriptedWire]>([
  ['openai-chat', openaiChatWire],
  ['anthropic', anthropicWire],
])('toolLoop against a scripted %s model', (_name, wire) => {
  const options = { format: wire.format, messages: [question] };

  it('runs two steps with parallel calls; tools start before the stream ends; the model receives both results', async () => {
    const startedWhileStreaming: boolean[] = [];
    const server = await serve([
      {
        events: wire.calls(
          [
            { id: 'call_w', name: 'get_weather', args: { city: 'Paris' } },
            { id: 'call_t', name: 'get_time', args: { zone: 'Asia/Tokyo' } },
          ],
          'Let me check.',
        ),
        delayMs: 15,
      },
      {
        check: (body) => {
          expectEqual(wire.callIds(body), ['call_w', 'call_t']);
          expectEqual(wire.results(body), [
            { id: 'call_w', content: '{"city":"Paris","temperature":21}', isError: false },
            { id: 'call_t', content: '12:00 Asia/Tokyo', isError: false },
          ]);
        },
        events: wire.answer('Sunny, and noon in Tokyo.'),
      },
    ]);
    const tools = {
      get_weather: tool({
        schema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          startedWhileStreaming.push(server.requests[0]?.ended === false);
          return { city, temperature: 21 };
        },
      }),
      get_time: tool({ schema: z.object({ zone: z.string() }), execute: ({ zone }) => `12:00 ${zone}` }),
    };
    const items = await lastValueFrom(toolLoop(requestTo(server), tools, options).pipe(toArray()));

    expect(server.rejections).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(startedWhileStreaming).toEqual([true]);
    const types = items.map((i) => `${i.step}:${i.type}`);
    // Anthropic ends each tool_use block on its own, so each tool starts (and here finishes) before
    // the next call has arrived; chat calls complete together when the choice finishes.
    const step0 = wire.format === 'anthropic' ? ['0:tool-call', '0:tool-result', '0:tool-call', '0:tool-result'] : ['0:tool-call', '0:tool-call', '0:tool-result', '0:tool-result'];
    expect(types.filter((t) => !t.endsWith(':event'))).toEqual(['0:step-start', ...step0, '0:step-end', '1:step-start', '1:step-end', '1:done']);
    const text = items.flatMap((i) => (i.type === 'event' && i.event.type === 'text-delta' ? [`${i.step}:${i.event.text}`] : []));
    expect(text).toEqual(['0:Let me check.', '1:Sunny, and noon in Tokyo.']);
    const done = items.at(-1) as Extract<ToolLoopItem, { type: 'done' }>;
    expect(done).toMatchObject({ type: 'done', step: 1, text: 'Sunny, and noon in Tokyo.' });
    expect(done.messages).toHaveLength(1 + (wire.format === 'anthropic' ? 2 : 3) + 1);
    expect(done.messages[0]).toEqual(question);
    const runs = items.flatMap((i) => (i.type === 'tool-result' && i.result.success ? [i.result.data] : []));
    const weather = runs.find((r) => r.name === 'get_weather');
    expect(weather?.name === 'get_weather' && weather.output.temperature).toBe(21);
  });

  it('a failing tool and an unknown tool: the model receives their error outputs, the other tool still runs', async () => {
    const server = await serve([
      {
        events: wire.calls([
          { id: 'c1', name: 'flaky', args: {} },
          { id: 'c2', name: 'nope', args: { x: 1 } },
          { id: 'c3', name: 'fine', args: {} },
        ]),
      },
      {
        check: (body) =>
          expectEqual(wire.results(body), [
            { id: 'c1', content: 'Tool flaky (c1) failed: database down', isError: wire.format === 'anthropic' },
            { id: 'c2', content: 'Unknown tool "nope" (c2); available: flaky, fine', isError: wire.format === 'anthropic' },
            { id: 'c3', content: 'fine', isError: false },
          ]),
        events: wire.answer('Sorry, the database is down.'),
      },
    ]);
    const tools = { flaky: tool({ execute: () => Promise.reject(new Error('database down')) }), fine: tool({ execute: () => 'fine' }) };
    const items = await lastValueFrom(toolLoop(requestTo(server), tools, options).pipe(toArray()));
    expect(server.rejections).toEqual([]);
    const codes = items.flatMap((i) => (i.type === 'tool-result' ? [i.result.success ? 'ok' : i.result.error.code] : []));
    expect(codes.sort()).toEqual(['ok', 'tool-failed', 'unknown-tool']);
    expect(items.at(-1)?.type).toBe('done');
  });

  it('unsubscribing mid-tool aborts the tool and closes the socket', async () => {
    const server = await serve([{ events: wire.callsOpen([{ id: 'c1', name: 'slow', args: { n: 1 } }]), hold: true }]);
    let started!: () => void;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    let aborted!: () => void;
    const isAborted = new Promise<void>((resolve) => (aborted = resolve));
    const tools = {
      slow: tool({
        execute: (_args, { signal }) => {
          signal.addEventListener('abort', () => aborted());
          started();
          return new Promise<never>(() => undefined);
        },
      }),
    };
    const subscription = toolLoop(requestTo(server), tools, options).subscribe();
    await within(isStarted, 2000, 'the tool start');
    expect(server.requests[0]?.ended).toBe(false);
    subscription.unsubscribe();
    await within(isAborted, 1000, 'the abort event');
    await within(server.requests[0]?.closed ?? Promise.reject(new Error('no request')), 2000, 'the socket close');
    expect(server.requests[0]?.aborted).toBe(true);
  });

  it('maxSteps: ends with max-steps after that many model calls, the last tools having run', async () => {
    const again = (n: number): ScriptedStep => ({ events: wire.calls([{ id: `c${n}`, name: 'again', args: { n } }]) });
    const server = await serve([again(0), again(1), again(2)]);
    const items: ToolLoopItem[] = [];
    const error = await new Promise((resolve) =>
      toolLoop(requestTo(server), { again: tool({ execute: () => 'once more' }) }, { ...options, maxSteps: 2 }).subscribe({ next: (i) => items.push(i), error: resolve }),
    );
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'max-steps' });
    expect(error).toMatchObject({ code: 'max-steps', maxSteps: 2 });
    expect(server.requests).toHaveLength(2);
    expect(items.filter((i) => i.type === 'tool-result').map((i) => i.step)).toEqual([0, 1]);
    expect(items.at(-1)).toMatchObject({ type: 'step-end', step: 1 });
  });
});
