/**
 * Custom (freeform) tools end to end: a call whose input is text, live in
 * `partialToolCalls()`, written by every encoder (as a custom call where the target has them, else
 * as the JSON `{"input": text}` of the function `toolSpecs()` declares), declared by `toolSpecs()`,
 * validated and run by `runTools()`, and sent back by `toolLoop()` in chat.
 */
import { from, lastValueFrom, of, toArray, type OperatorFunction } from 'rxjs';
import { z } from 'zod';
import { partialToolCalls, readStreamEvents, readToolCalls, type StreamEvent, type ToolCallResult } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeGemini, encodeOllamaChat, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { customTool, runTools, toolLoop, toolSpecs } from 'rxjs-tool-calls/tools';
import { openaiDone, responsesEvent, sseEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { chunkings } from '../helpers/chunking';

const PATCH = '*** Begin Patch\n+"hi" \\ there\n*** End Patch';
const item = (input: string): Record<string, unknown> => ({ type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_p', name: 'apply_patch', input, status: input === '' ? 'in_progress' : 'completed' });
const RESPONSES = [
  responsesEvent('response.created', { response: { id: 'resp_c', model: 'gpt-5', status: 'in_progress', output: [] } }),
  responsesEvent('response.output_item.added', { output_index: 0, item: item('') }),
  responsesEvent('response.custom_tool_call_input.delta', { output_index: 0, item_id: 'ctc_1', delta: PATCH.slice(0, 10) }),
  responsesEvent('response.custom_tool_call_input.delta', { output_index: 0, item_id: 'ctc_1', delta: PATCH.slice(10) }),
  responsesEvent('response.custom_tool_call_input.done', { output_index: 0, item_id: 'ctc_1', input: PATCH }),
  responsesEvent('response.output_item.done', { output_index: 0, item: item(PATCH) }),
  responsesEvent('response.completed', { response: { id: 'resp_c', model: 'gpt-5', status: 'completed', output: [item(PATCH)] } }),
].join('');
const FORMAT = { type: 'grammar', syntax: 'lark', definition: 'start: /.+/s' } as const;
const tools = { apply_patch: customTool({ description: 'Apply a patch', format: FORMAT, execute: (patch) => `applied ${patch.length}` }) };

/** One chat chunk of choice 0 with this delta. */
const openaiChunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  sseEvent({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices: [{ index: 0, delta, finish_reason: finish }] }) });
const eventsOf = (wire: string): Promise<StreamEvent[]> => lastValueFrom(from([wire]).pipe(readStreamEvents(), toArray()));
const shape = (r: ToolCallResult): unknown => (r.success ? { kind: r.data.kind, name: r.data.name, input: r.data.input, arguments: r.data.arguments } : r.error.code);

describe('custom tools in partialToolCalls()', () => {
  it('the text grows with each fragment (a resend of the same text shows nothing new); the last value has the result', async () => {
    for (const [, chunks] of chunkings(toBytes(RESPONSES))) {
      const values = await lastValueFrom(from(chunks).pipe(readStreamEvents(), partialToolCalls({ tools }), toArray()));
      expect(values.map((v) => [v.kind, v.arguments])).toEqual([
        ['custom', ''],
        ['custom', PATCH.slice(0, 10)],
        ['custom', PATCH],
        ['custom', PATCH],
      ]);
      const last = values.at(-1);
      expect(last?.result === undefined ? undefined : shape(last.result)).toEqual({ kind: 'custom', name: 'apply_patch', input: PATCH, arguments: PATCH });
      expect(values.slice(0, -1).every((v) => v.result === undefined)).toBe(true);
    }
  });
});

describe('custom calls through every encoder', () => {
  const fixed = { id: 'enc_1' };
  const created = 1_700_000_000;
  const encoders: Array<[string, OperatorFunction<StreamEvent, string>, boolean]> = [
    ['openai-chat', encodeOpenAIChat({ ...fixed, created }), true],
    ['openai-responses', encodeOpenAIResponses({ ...fixed, created }), true],
    ['anthropic', encodeAnthropicMessages(fixed), false],
    ['gemini', encodeGemini(fixed), false],
    ['ollama', encodeOllamaChat(fixed), false],
  ];

  it.each(encoders)('%s: written, and read back as the same custom call', async (_name, encoder, native) => {
    const text = (await lastValueFrom(from(await eventsOf(RESPONSES)).pipe(encoder, toArray()))).join('');
    if (native) {
      // The target has custom tools: read back without `tools`, still a custom call.
      expect(text).toMatch(/"type":"custom(_tool_call)?"/);
      const back = await lastValueFrom(from([text]).pipe(readToolCalls(), toArray()));
      expect(back.map(shape)).toEqual([{ kind: 'custom', name: 'apply_patch', input: PATCH, arguments: PATCH }]);
    } else {
      // The documented wrapping: the function toolSpecs() declares for the tool, `{"input": text}`.
      const plain = await lastValueFrom(from([text]).pipe(readToolCalls(), toArray()));
      expect(plain.map((r) => (r.success ? r.data.arguments : r.error.code))).toEqual([{ input: PATCH }]);
      const typed = await lastValueFrom(from([text]).pipe(readToolCalls({ tools }), toArray()));
      expect(typed.map(shape)).toEqual([{ kind: 'custom', name: 'apply_patch', input: PATCH, arguments: PATCH }]);
    }
  });

  it('a chat custom call re-encoded as Responses is a custom_tool_call', async () => {
    const chat = [
      openaiChunk({ tool_calls: [{ index: 0, id: 'call_c', type: 'custom', custom: { name: 'apply_patch', input: PATCH.slice(0, 5) } }] }),
      openaiChunk({ tool_calls: [{ index: 0, custom: { input: PATCH.slice(5) } }] }),
      openaiChunk({}, 'tool_calls'),
      openaiDone(),
    ].join('');
    const text = (await lastValueFrom(from(await eventsOf(chat)).pipe(encodeOpenAIResponses(fixed), toArray()))).join('');
    expect(text).toContain('response.custom_tool_call_input.delta');
    const back = await lastValueFrom(from([text]).pipe(readToolCalls(), toArray()));
    expect(back.map(shape)).toEqual([{ kind: 'custom', name: 'apply_patch', input: PATCH, arguments: PATCH }]);
  });
});

describe('custom tools in toolSpecs()', () => {
  it('OpenAI chat and Responses write type "custom" with the format', () => {
    expect(toolSpecs(tools, 'openai-chat')).toEqual([
      { type: 'custom', custom: { name: 'apply_patch', description: 'Apply a patch', format: { type: 'grammar', grammar: { syntax: 'lark', definition: 'start: /.+/s' } } } },
    ]);
    expect(toolSpecs(tools, 'openai-responses')).toEqual([{ type: 'custom', name: 'apply_patch', description: 'Apply a patch', format: FORMAT }]);
  });

  it('formats without custom tools get a function of one required string `input`, described by the grammar', () => {
    const [spec] = toolSpecs(tools, 'anthropic');
    expect(spec).toEqual({
      name: 'apply_patch',
      description: 'Apply a patch',
      input_schema: { type: 'object', properties: { input: { type: 'string', description: 'The input text, in this lark grammar:\nstart: /.+/s' } }, required: ['input'], additionalProperties: false },
      eager_input_streaming: true,
    });
  });

  it('a custom tool without a format is any text', () => {
    expect(toolSpecs([customTool({ name: 'note' })], 'openai-responses')).toEqual([{ type: 'custom', name: 'note' }]);
  });
});

describe('custom tools in runTools() and toolLoop()', () => {
  const chatCall = (input: string): string =>
    [openaiChunk({ tool_calls: [{ index: 0, id: 'call_c', type: 'custom', custom: { name: 'count_lines', input } }] }), openaiChunk({}, 'tool_calls'), openaiDone()].join('');
  const counting = {
    count_lines: customTool({
      schema: z
        .string()
        .min(1)
        .transform((s) => s.split('\n')),
      execute: (rows) => rows.length,
    }),
  };

  it('execute gets the validator’s output of the text; a text the validator refuses is invalid-arguments, never run', async () => {
    const ran = await lastValueFrom(from([chatCall('a\nb\nc')]).pipe(readToolCalls(), runTools(counting), toArray()));
    expect(ran.map((r) => (r.success ? r.data.output : r.error.code))).toEqual([3]);
    const refused = await lastValueFrom(from([chatCall('')]).pipe(readToolCalls(), runTools(counting), toArray()));
    expect(refused.map((r) => (r.success ? r.data.output : r.error.code))).toEqual(['invalid-arguments']);
  });

  it('a JSON call of another shape than {"input": text} is invalid-arguments', async () => {
    const fn = [
      openaiChunk({ tool_calls: [{ index: 0, id: 'call_f', type: 'function', function: { name: 'count_lines', arguments: '{"text":"a"}' } }] }),
      openaiChunk({}, 'tool_calls'),
      openaiDone(),
    ].join('');
    const ran = await lastValueFrom(from([fn]).pipe(readToolCalls(), runTools(counting), toArray()));
    expect(ran.map((r) => (r.success ? r.data.output : r.error.code))).toEqual(['invalid-arguments']);
  });

  it('toolLoop in chat sends the custom call back as type "custom" and its output as the tool message', async () => {
    const sent: unknown[][] = [];
    const answers = [chatCall('x\ny'), [openaiChunk({ content: 'Two lines.' }), openaiChunk({}, 'stop'), openaiDone()].join('')];
    const items = await lastValueFrom(
      toolLoop((messages, step) => (sent.push([...messages]), of(answers[step] ?? '')), counting, { format: 'openai-chat', messages: [{ role: 'user', content: 'Count' }] }).pipe(toArray()),
    );
    expect(sent[1]).toEqual([
      { role: 'user', content: 'Count' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_c', type: 'custom', custom: { name: 'count_lines', input: 'x\ny' } }] },
      { role: 'tool', tool_call_id: 'call_c', content: '2' },
    ]);
    expect(items.at(-1)).toMatchObject({ type: 'done', text: 'Two lines.' });
  });
});
