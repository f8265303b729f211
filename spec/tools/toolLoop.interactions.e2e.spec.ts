/**
 * `toolLoop()` with Gemini's Interactions API, end to end: global `fetch` + `fromResponse` against
 * a scripted model on a real 127.0.0.1 server that streams the format (thought, text, function
 * calls in pieces, `requires_action`), and checks the `input` each next request carries: the
 * conversation's steps so far, the model's thought and function calls as it streamed them, then one
 * `function_result` step per call. The turns are our own streams (`spec/helpers/interactionsWire`).
 */
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { fromResponse } from 'rxjs-tool-calls';
import { tool, toolLoop, type GeminiInteractionsWire, type LoopMessage, type ToolLoopItem, type ToolLoopRequest } from 'rxjs-tool-calls/tools';
import { interactionsStream } from '../helpers/interactionsWire';
import { startScriptedModel, type ScriptedBody, type ScriptedModel } from '../helpers/scriptedModel';

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** The request body the loop's `request` sends: the Interactions create request. */
interface Body {
  readonly model: string;
  readonly input: ReadonlyArray<Record<string, unknown>>;
  readonly tools: ReadonlyArray<Record<string, unknown>>;
  readonly stream: boolean;
}
const bodyOf = (body: ScriptedBody): Body => body as unknown as Body;

function expectEqual(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`expected ${JSON.stringify(expected)}, received ${JSON.stringify(actual)}`);
}

const question: GeminiInteractionsWire.UserInputStep = { type: 'user_input', content: [{ type: 'text', text: 'Weather in Zürich and the time in Tokyo?' }] };
/** A stream cut in pieces the way a server writes it (one event per write). */
const pieces = (sse: string): string[] => sse.split(/(?<=\n\n)/);

function request(server: ScriptedModel): ToolLoopRequest {
  return (messages: ReadonlyArray<LoopMessage>, _step, { tools }) =>
    fromResponse(
      fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gemini-3-flash-preview', input: messages, tools, stream: true }) }),
    );
}

const usage = { total_input_tokens: 11, total_output_tokens: 7, total_thought_tokens: 3, total_tokens: 21 };
const tools = {
  get_weather: tool({ description: 'Weather in a city', schema: z.object({ city: z.string() }), execute: ({ city }) => ({ city, temperature: 21 }) }),
  get_time: tool({ description: 'Time in a zone', schema: z.object({ zone: z.string() }), execute: ({ zone }) => `12:00 ${zone}` }),
};

it('runs two steps: the second request carries the thought, the calls and their results as steps', async () => {
  model = await startScriptedModel([
    {
      check: (body) => {
        expectEqual(bodyOf(body).input, [question]);
        expectEqual(
          bodyOf(body).tools.map((t) => [t['type'], t['name']]),
          [
            ['function', 'get_weather'],
            ['function', 'get_time'],
          ],
        );
      },
      events: pieces(
        interactionsStream({
          id: 'v1_step0',
          thought: { summary: ['Two lookups.'], signature: 'c2lnLTA=' },
          text: ['Let me ', 'check.'],
          calls: [
            { id: 'fc_w', name: 'get_weather', pieces: ['{"city":', '"Zürich"}'] },
            { id: 'fc_t', name: 'get_time', pieces: ['{"zone":"Asia/', 'Tokyo"}'], signature: 'c2lnLTE=' },
          ],
          statusUpdate: true,
          eventIds: true,
          usage,
        }),
      ),
      delayMs: 2,
    },
    {
      check: (body) =>
        expectEqual(bodyOf(body).input, [
          question,
          { type: 'thought', signature: 'c2lnLTA=', summary: [{ type: 'text', text: 'Two lookups.' }] },
          { type: 'model_output', content: [{ type: 'text', text: 'Let me check.' }] },
          { type: 'function_call', id: 'fc_w', name: 'get_weather', arguments: { city: 'Zürich' } },
          { type: 'function_call', id: 'fc_t', name: 'get_time', arguments: { zone: 'Asia/Tokyo' }, signature: 'c2lnLTE=' },
          { type: 'function_result', call_id: 'fc_w', name: 'get_weather', result: '{"city":"Zürich","temperature":21}' },
          { type: 'function_result', call_id: 'fc_t', name: 'get_time', result: '12:00 Asia/Tokyo' },
        ]),
      events: pieces(interactionsStream({ id: 'v1_step1', text: ['Sunny, 21 °C; noon in Tokyo.'], usage })),
    },
  ]);
  const items = await lastValueFrom(toolLoop(request(model), tools, { format: 'gemini-interactions', messages: [question] }).pipe(toArray()));
  expect(model.rejections).toEqual([]);
  expect(model.requests).toHaveLength(2);
  // Each function_call step stops on its own: each call runs as soon as its step stopped.
  expect(items.filter((i) => i.type !== 'event').map((i) => `${i.step}:${i.type}`)).toEqual([
    '0:step-start',
    '0:tool-call',
    '0:tool-result',
    '0:tool-call',
    '0:tool-result',
    '0:step-end',
    '1:step-start',
    '1:step-end',
    '1:done',
  ]);
  const done = items.at(-1) as Extract<ToolLoopItem, { type: 'done' }>;
  expect(done.messages.at(-1)).toEqual({ type: 'model_output', content: [{ type: 'text', text: 'Sunny, 21 °C; noon in Tokyo.' }] });
  expect(done.messages).toHaveLength(1 + 6 + 1);
  expect(done.usage).toEqual({ inputTokens: 22, outputTokens: 20, totalTokens: 42, reasoningTokens: 6 });
});

it('a failing tool and an unknown tool: the model receives function_result steps with is_error', async () => {
  model = await startScriptedModel([
    {
      events: pieces(
        interactionsStream({
          calls: [
            { id: 'c1', name: 'flaky', pieces: ['{}'] },
            { id: 'c2', name: 'nope', pieces: ['{"x":1}'] },
          ],
        }),
      ),
    },
    {
      check: (body) =>
        expectEqual(
          bodyOf(body).input.filter((s) => s['type'] === 'function_result'),
          [
            { type: 'function_result', call_id: 'c1', name: 'flaky', result: 'Tool flaky (c1) failed: database down', is_error: true },
            { type: 'function_result', call_id: 'c2', name: 'nope', result: 'Unknown tool "nope" (c2); available: flaky', is_error: true },
          ],
        ),
      events: pieces(interactionsStream({ text: ['Sorry.'] })),
    },
  ]);
  const flaky = { flaky: tool({ execute: () => Promise.reject(new Error('database down')) }) };
  const items = await lastValueFrom(toolLoop(request(model), flaky, { format: 'gemini-interactions', messages: [question] }).pipe(toArray()));
  expect(model.rejections).toEqual([]);
  expect(items.at(-1)?.type).toBe('done');
});

it('the format is taken from read.provider, and the server tool steps of a step are sent back verbatim', async () => {
  const search =
    'event: step.start\ndata: {"index":0,"step":{"id":"gs1","type":"google_search_call","arguments":{"queries":["tokyo time"]}},"event_type":"step.start"}\n\nevent: step.stop\ndata: {"index":0,"event_type":"step.stop"}\n\nevent: step.start\ndata: {"index":1,"step":{"call_id":"gs1","type":"google_search_result","result":[{"url":"https://example.org"}]},"event_type":"step.start"}\n\nevent: step.stop\ndata: {"index":1,"event_type":"step.stop"}\n\n';
  const turn = pieces(interactionsStream({ calls: [{ id: 'c1', name: 'get_time', pieces: ['{"zone":"Asia/Tokyo"}'] }] }));
  // The server ran a search before the call: its steps come first (renumbered: the call is step 2).
  const withSearch = [...turn.slice(0, 2), search, ...turn.slice(2).map((p) => p.replaceAll('"index":0', '"index":2'))];
  model = await startScriptedModel([
    { events: withSearch },
    {
      check: (body) =>
        expectEqual(
          bodyOf(body)
            .input.slice(1)
            .map((s) => s['type']),
          ['google_search_call', 'google_search_result', 'function_call', 'function_result'],
        ),
      events: pieces(interactionsStream({ text: ['Noon.'] })),
    },
  ]);
  const items = await lastValueFrom(toolLoop(request(model), tools, { read: { provider: 'gemini-interactions' }, messages: [question] }).pipe(toArray()));
  expect(model.rejections).toEqual([]);
  expect(items.at(-1)).toMatchObject({ type: 'done', text: 'Noon.' });
});
