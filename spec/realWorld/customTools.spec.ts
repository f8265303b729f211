/**
 * Custom (freeform) tools (rule `custom-text`): calls whose input is text, not JSON — OpenAI chat
 * `type: "custom"` with `custom: { name, input }`, Responses `custom_tool_call` items with
 * `response.custom_tool_call_input.delta` / `.done` — and the JSON `{ "input": … }` servers without
 * custom tools send for them. Each case is our own small stream shaped like the one in the named
 * public report; see `helpers.ts` for how the untyped ones run (every chunking, whole pipeline).
 */
import { from, lastValueFrom, of, toArray } from 'rxjs';
import { readToolCalls, type ToolCallResult } from 'rxjs-tool-calls';
import { customTool, toolLoop, type ToolLoopItem } from 'rxjs-tool-calls/tools';
import { openaiDone, responsesEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { chunkings } from '../helpers/chunking';
import { chat, finishChunk, outcome, runWire } from './helpers';

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch';
const created = responsesEvent('response.created', { response: { id: 'resp_c', model: 'gpt-5', status: 'in_progress', output: [] } });
const item = (input: string): Record<string, unknown> => ({ type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_p', name: 'apply_patch', input, status: input === '' ? 'in_progress' : 'completed' });
const completed = responsesEvent('response.completed', { response: { id: 'resp_c', model: 'gpt-5', status: 'completed', output: [item(PATCH)] } });
const custom = (id: string, name: string, input: string): ReturnType<typeof runWire>['results'][number] => ({ id, name, args: input, kind: 'custom' });

describe('real-world custom tools: Responses', () => {
  it('langchain-ai/langchainjs#8854: a custom_tool_call whose input streams as response.custom_tool_call_input.delta', () => {
    const run = runWire(
      created,
      responsesEvent('response.output_item.added', { output_index: 0, item: item('') }),
      responsesEvent('response.custom_tool_call_input.delta', { output_index: 0, item_id: 'ctc_1', delta: PATCH.slice(0, 20) }),
      responsesEvent('response.custom_tool_call_input.delta', { output_index: 0, item_id: 'ctc_1', delta: PATCH.slice(20) }),
      responsesEvent('response.custom_tool_call_input.done', { output_index: 0, item_id: 'ctc_1', input: PATCH }),
      responsesEvent('response.output_item.done', { output_index: 0, item: item(PATCH) }),
      completed,
    );
    expect(run).toEqual(outcome([custom('call_p', 'apply_patch', PATCH)], 'tool-calls/completed'));
  });

  it('decolua/9router#1371: Codex’s apply_patch arrives as a custom_tool_call with its input only in the done item (no deltas)', () => {
    const run = runWire(
      created,
      responsesEvent('response.output_item.added', { output_index: 0, item: item('') }),
      responsesEvent('response.output_item.done', { output_index: 0, item: item(PATCH) }),
      completed,
    );
    expect(run).toEqual(outcome([custom('call_p', 'apply_patch', PATCH)], 'tool-calls/completed'));
  });

  it('MetaFARS/codex-relay#37: the custom_tool_call is only in response.completed’s output', () => {
    const run = runWire(created, completed);
    expect(run).toEqual(outcome([custom('call_p', 'apply_patch', PATCH)], 'tool-calls/completed'));
  });
});

describe('real-world custom tools: Chat Completions', () => {
  const customDelta = (fields: Record<string, unknown>, finish: string | null = null): string => chat([{ index: 0, delta: { tool_calls: [fields] }, finish_reason: finish }]);

  it('openai/openai-python#2530: streamed chat tool calls of type "custom" with custom.name and custom.input', () => {
    const run = runWire(customDelta({ index: 0, id: 'call_c', type: 'custom', custom: { name: 'run_sql', input: 'SELECT 1' } }), finishChunk('tool_calls'), openaiDone());
    expect(run).toEqual(outcome([custom('call_c', 'run_sql', 'SELECT 1')], 'tool-calls/tool_calls'));
  });

  it('BerriAI/litellm#34029: the custom input streams across chunks, the id and type only on the first (not JSON: never malformed)', () => {
    const run = runWire(
      customDelta({ index: 0, id: 'call_l', type: 'custom', custom: { name: 'apply_patch', input: '' } }),
      customDelta({ index: 0, custom: { input: PATCH.slice(0, 9) } }),
      customDelta({ index: 0, custom: { input: PATCH.slice(9) } }),
      finishChunk('tool_calls'),
      openaiDone(),
    );
    expect(run).toEqual(outcome([custom('call_l', 'apply_patch', PATCH)], 'tool-calls/tool_calls'));
  });

  it('a custom call cut by the token limit is incomplete (its text may be cut), not a success', () => {
    const run = runWire(customDelta({ index: 0, id: 'call_t', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch\n+hel' } }), finishChunk('length'), openaiDone());
    expect(run).toEqual(outcome([{ code: 'incomplete', id: 'call_t', name: 'apply_patch', raw: '*** Begin Patch\n+hel', reason: 'length' }], 'length/length'));
  });
});

describe('real-world custom tools through typed `tools`', () => {
  const tools = { apply_patch: { kind: 'custom' as const } };
  /** Results of `readToolCalls({ tools })` under every chunking (all the same). */
  async function typed(...wire: string[]): Promise<unknown[]> {
    const seen: unknown[][] = [];
    for (const [, chunks] of chunkings(toBytes(wire.join('')))) {
      const results: ToolCallResult[] = await lastValueFrom(from(chunks).pipe(readToolCalls({ tools }), toArray()));
      seen.push(results.map((r) => (r.success ? { kind: r.data.kind, input: r.data.input, arguments: r.data.arguments } : r.error.code)));
    }
    for (const s of seen) expect(s).toEqual(seen[0]);
    return seen[0] ?? [];
  }
  const fnCall = (args: string): string =>
    chat([{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_f', type: 'function', function: { name: 'apply_patch', arguments: args } }] }, finish_reason: 'tool_calls' }]);

  it('Wei-Shaw/sub2api#5659: DeepSeek answers a custom tool with a function call of JSON `{"input": …}`: read as the custom call’s text', async () => {
    expect(await typed(fnCall(JSON.stringify({ input: PATCH })), openaiDone())).toEqual([{ kind: 'custom', input: PATCH, arguments: PATCH }]);
  });

  it('router-for-me/CLIProxyAPI#5753: MiniMax wraps the patch in another member: invalid-arguments, never run as text', async () => {
    expect(await typed(fnCall(JSON.stringify({ patch: PATCH })), openaiDone())).toEqual(['invalid-arguments']);
  });

  it('unslothai/unsloth#9121: toolLoop runs the custom tool with its text and sends custom_tool_call and custom_tool_call_output back', async () => {
    const ran: string[] = [];
    const loopTools = { apply_patch: customTool({ description: 'Apply a patch', execute: (patch) => (ran.push(patch), 'applied') }) };
    const answers = [
      [created, responsesEvent('response.output_item.done', { output_index: 0, item: item(PATCH) }), completed],
      [
        responsesEvent('response.output_text.delta', { output_index: 0, content_index: 0, delta: 'Done.' }),
        responsesEvent('response.completed', { response: { id: 'resp_d', model: 'gpt-5', status: 'completed', output: [] } }),
      ],
    ];
    const sent: unknown[][] = [];
    const items: ToolLoopItem[] = await lastValueFrom(
      toolLoop((messages, step) => (sent.push([...messages]), of((answers[step] ?? []).join(''))), loopTools, {
        format: 'openai-responses',
        messages: [{ role: 'user', content: 'Add hello.txt' }],
      }).pipe(toArray()),
    );
    expect(ran).toEqual([PATCH]);
    expect(sent[1]).toEqual([
      { role: 'user', content: 'Add hello.txt' },
      { type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: PATCH },
      { type: 'custom_tool_call_output', call_id: 'call_p', output: 'applied' },
    ]);
    expect(items.at(-1)).toMatchObject({ type: 'done', text: 'Done.' });
  });
});
