/**
 * The tools wing in Gemini's Interactions API: `toolSpecs(tools, 'gemini-interactions')` (function
 * tools with their JSON Schema as it is), `toolMessages('gemini-interactions', step)` (the model's
 * steps in stream order, then `function_result` steps) and a turn recorded from a real stream of the
 * format, sent back as the steps the API streamed.
 */
import { lastValueFrom, tap, toArray } from 'rxjs';
import { z } from 'zod';
import { readStreamEvents, toolCalls, type ToolCall } from 'rxjs-tool-calls';
import { assistantTextMessage, customTool, runTools, tool, toolMessages, toolSpecs, TurnRecorder, type GeminiInteractionsWire, type ToolStep } from 'rxjs-tool-calls/tools';
import { geminiInteractionsEvent as ev, toBytes } from 'rxjs-tool-calls/marbles';
import { chunkings } from '../helpers/chunking';
import { loadOwnFixtures } from '../helpers/fixtures';
import { from } from 'rxjs';

const call: ToolCall = { id: 'k3v9', name: 'get_weather', index: 2, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}', providerMetadata: { thoughtSignature: 'c2ln' } };
const failing: ToolCall = { id: 'p8m2', name: 'get_time', index: 3, choice: 0, arguments: {}, rawArguments: '{}' };

describe("toolSpecs(tools, 'gemini-interactions')", () => {
  it('writes function tools with the JSON Schema as it is (no Gemini schema conversion), a custom tool as a function of one string input', () => {
    const tools = {
      get_weather: tool({ description: 'Weather in a city', schema: z.strictObject({ city: z.string().min(1), units: z.enum(['c', 'f']).optional() }) }),
      patch: customTool({ description: 'Apply a patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } }),
    };
    expect(toolSpecs(tools, 'gemini-interactions')).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string', minLength: 1 }, units: { type: 'string', enum: ['c', 'f'] } }, required: ['city'], additionalProperties: false },
      },
      {
        type: 'function',
        name: 'patch',
        description: 'Apply a patch',
        parameters: { type: 'object', properties: { input: { type: 'string', description: 'The input text, in this lark grammar:\nstart: /.+/' } }, required: ['input'], additionalProperties: false },
      },
    ]);
  });
});

describe("toolMessages('gemini-interactions', step)", () => {
  it('writes the turn in stream order (thought with its signature, text, calls with theirs, a server tool step verbatim), then function_result steps', () => {
    const search = { id: 's1', type: 'google_search_call', arguments: { queries: ['q'] }, signature: '' };
    const step: ToolStep = {
      results: [
        { success: true, data: { name: 'get_weather', call, output: { temperature: 21 } } },
        { success: false, call: failing, error: { code: 'tool-failed', message: 'Tool get_time (p8m2) failed: clock stopped' } as never },
      ],
      content: [
        { type: 'reasoning', part: { text: 'Plan.', signature: 'dGhvdWdodA==' } },
        { type: 'provider-tool', provider: 'gemini-interactions', raw: search },
        { type: 'provider-tool', provider: 'anthropic', raw: { type: 'server_tool_use', id: 'srvtoolu_1' } },
        { type: 'text', text: 'Checking.' },
        { type: 'call', index: 2 },
        { type: 'call', index: 3 },
      ],
    };
    const steps: Array<GeminiInteractionsWire.Step | GeminiInteractionsWire.ServerToolStep> = toolMessages('gemini-interactions', step);
    expect(steps).toEqual([
      { type: 'thought', signature: 'dGhvdWdodA==', summary: [{ type: 'text', text: 'Plan.' }] },
      search,
      { type: 'model_output', content: [{ type: 'text', text: 'Checking.' }] },
      { type: 'function_call', id: 'k3v9', name: 'get_weather', arguments: { city: 'Paris' }, signature: 'c2ln' },
      { type: 'function_call', id: 'p8m2', name: 'get_time', arguments: {} },
      { type: 'function_result', call_id: 'k3v9', name: 'get_weather', result: '{"temperature":21}' },
      { type: 'function_result', call_id: 'p8m2', name: 'get_time', result: 'Tool get_time (p8m2) failed: clock stopped', is_error: true },
    ]);
  });

  it('sendReasoning: false leaves the thought summaries out but keeps each signature (the call needs it); a final answer is one model_output step', () => {
    const step: ToolStep = {
      reasoning: [{ text: 'Plan.', signature: 'x' }, { text: 'More.' }],
      text: 'Hi',
      results: [{ success: true, data: { name: 'get_weather', call, output: 'sunny' } }],
    };
    const steps = toolMessages('gemini-interactions', step, { sendReasoning: false });
    expect(steps.map((s) => s.type)).toEqual(['thought', 'model_output', 'function_call', 'function_result']);
    expect(steps[0]).toEqual({ type: 'thought', signature: 'x' });
    expect(assistantTextMessage('gemini-interactions', 'Done.')).toEqual({ type: 'model_output', content: [{ type: 'text', text: 'Done.' }] });
  });

  it('a turn recorded from a stream of the format is sent back as the steps it streamed', async () => {
    const fixture = loadOwnFixtures().find((f) => f.name === 'gemini-interactions/thought-text-and-two-streamed-calls');
    if (fixture === undefined) throw new Error('missing fixture');
    const turn = new TurnRecorder();
    const tools = { get_weather: tool({ schema: z.object({ city: z.string(), units: z.string() }), execute: ({ city }) => `sunny in ${city}` }) };
    const runs = await lastValueFrom(
      from([fixture.bytes]).pipe(
        readStreamEvents(),
        tap((e) => turn.push(e)),
        toolCalls(),
        runTools(tools),
        toArray(),
      ),
    );
    expect(toolMessages('gemini-interactions', turn.step(runs))).toEqual([
      {
        type: 'thought',
        signature: 'CkUBDDnWxyT0aGhvdWdodC1zaWduYXR1cmUtb25lLWZvci10aGUtdGhvdWdodA==',
        summary: [{ type: 'text', text: 'The user wants the weather in two cities. I will call get_weather twice.' }],
      },
      { type: 'model_output', content: [{ type: 'text', text: 'Checking Zürich and São Paulo…' }] },
      { type: 'function_call', id: 'k3v9qz1a', name: 'get_weather', arguments: { city: 'Zürich', units: 'celsius' } },
      { type: 'function_call', id: 'p8m2wd7c', name: 'get_weather', arguments: { city: 'São Paulo', units: 'celsius' } },
      { type: 'function_result', call_id: 'k3v9qz1a', name: 'get_weather', result: 'sunny in Zürich' },
      { type: 'function_result', call_id: 'p8m2wd7c', name: 'get_weather', result: 'sunny in São Paulo' },
    ]);
  });

  it('a server tool’s steps recorded from a stream are sent back whole, in stream order', () => {
    const fixture = loadOwnFixtures().find((f) => f.name === 'gemini-interactions/google-search-then-text');
    if (fixture === undefined) throw new Error('missing fixture');
    const turn = new TurnRecorder();
    from([fixture.bytes])
      .pipe(readStreamEvents())
      .subscribe((e) => turn.push(e));
    const pieces = turn.step([]).content ?? [];
    expect(pieces.map((p) => (p.type === 'provider-tool' ? p.raw : p.type))).toEqual([
      { id: 'q1s8ta5e', signature: '', type: 'google_search_call', arguments: { queries: ['tallest building 2026'] } },
      { call_id: 'q1s8ta5e', signature: '', type: 'google_search_result', result: [{ title: 'example.org', url: 'https://example.org/tallest' }] },
      'text',
    ]);
  });

  it('allenhutchison/obsidian-gemini#1269: the signature streamed on the thought before the call (none on the call) goes back on that thought, with sendReasoning: false too', async () => {
    // A live gemini-3 stream, as the report probed it: the thought step starts without a signature
    // and gets it from a thought_signature delta; the function_call step has none.
    const wire = [
      ev('interaction.created', { interaction: { id: 'v1_sig', status: 'in_progress', object: 'interaction', model: 'gemini-3-flash-preview' } }),
      ev('step.start', { index: 0, step: { type: 'thought' } }),
      ev('step.delta', { index: 0, delta: { type: 'thought_signature', signature: 'U0lHTkFUVVJF' } }),
      ev('step.stop', { index: 0 }),
      ev('step.start', { index: 1, step: { type: 'function_call', id: 'fc1', name: 'get_weather', arguments: {} } }),
      ev('step.delta', { index: 1, delta: { type: 'arguments_delta', arguments: '{"city":"Paris"}' } }),
      ev('step.stop', { index: 1 }),
      ev('interaction.status_update', { interaction_id: 'v1_sig', status: 'requires_action' }),
    ].join('');
    const tools = { get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => `sunny in ${city}` }) };
    const sent: Array<[string, unknown, unknown]> = [];
    for (const [how, chunks] of chunkings(toBytes(wire))) {
      const turn = new TurnRecorder();
      const runs = await lastValueFrom(
        from(chunks).pipe(
          readStreamEvents(),
          tap((e) => turn.push(e)),
          toolCalls(),
          runTools(tools),
          toArray(),
        ),
      );
      sent.push([how, toolMessages('gemini-interactions', turn.step(runs)), toolMessages('gemini-interactions', turn.step(runs), { sendReasoning: false })]);
    }
    const call = { type: 'function_call', id: 'fc1', name: 'get_weather', arguments: { city: 'Paris' } };
    const result = { type: 'function_result', call_id: 'fc1', name: 'get_weather', result: 'sunny in Paris' };
    const expected = [{ type: 'thought', signature: 'U0lHTkFUVVJF' }, call, result];
    expect(sent).toEqual(chunkings(toBytes(wire)).map(([how]) => [how, expected, expected]));
  });
});
