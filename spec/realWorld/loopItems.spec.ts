/**
 * Items a loop must carry and a gateway must not drop: Anthropic `compaction` blocks, tool search
 * (Anthropic `tool_search_tool_*` and `tool_reference`, Responses `tool_search_call` /
 * `tool_search_output`, the `defer_loading` flag), programmatic tool calls (Responses `program` /
 * `program_output` items and a call's `caller`, Anthropic's `caller`). Each is decoded as a
 * `provider-tool` event (or call metadata), kept verbatim in `toolLoop()`'s turn, passed on by the
 * encoder of its own format and left out by the others. Each case is our own small stream shaped
 * like the one in the named public report, decoded under every chunking (see `helpers.ts`).
 */
import { from, lastValueFrom, type Observable, of, throwError, toArray } from 'rxjs';
import { z } from 'zod';
import { readStreamEvents, type ProviderToolEvent, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeGemini, encodeGeminiInteractions, encodeOpenAIChat, encodeOpenAIResponses, fromAnthropicRequest, type AnthropicWire } from 'rxjs-tool-calls/gateway';
import { anthropicEvent, responsesEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { customTool, tool, toolLoop, toolSpecs, type LoopMessage } from 'rxjs-tool-calls/tools';
import { chunkings } from '../helpers/chunking';
import { expectUnsupported } from '../helpers/chatRequests';
import { runChunks } from '../helpers/runStream';
import { ok, outcome, runWire } from './helpers';

/** The provider-tool events of `wire` under every chunking (all must agree). */
function providerTools(...wire: string[]): ProviderToolEvent[] {
  const runs = chunkings(toBytes(wire.join(''))).map(([how, chunks]) => [how, runChunks(chunks).events.filter((e: StreamEvent): e is ProviderToolEvent => e.type === 'provider-tool')] as const);
  for (const [how, events] of runs) expect([how, events]).toEqual([how, runs[0]?.[1]]);
  return [...(runs[0]?.[1] ?? [])];
}

/** The `providerMetadata` of the calls of `wire` under every chunking (all must agree). */
function callMetadata(...wire: string[]): unknown[] {
  const runs = chunkings(toBytes(wire.join(''))).map(([how, chunks]) => [how, runChunks(chunks).results.map((r) => r.success && r.data.providerMetadata)] as const);
  for (const [how, metadata] of runs) expect([how, metadata]).toEqual([how, runs[0]?.[1]]);
  return [...(runs[0]?.[1] ?? [])];
}

/** The events of `wire`, read once. */
const eventsOf = (wire: string): Promise<StreamEvent[]> => lastValueFrom(from([wire]).pipe(readStreamEvents(), toArray()));

/** Re-encode events with each encoder: the text each writes. */
async function encodedBy(events: readonly StreamEvent[]): Promise<Record<string, string>> {
  const encoders = {
    anthropic: encodeAnthropicMessages({ id: 'msg_e', model: 'm' }),
    responses: encodeOpenAIResponses({ id: 'resp_e', model: 'm', created: 1 }),
    chat: encodeOpenAIChat({ id: 'c', model: 'm', created: 1 }),
    gemini: encodeGemini({ id: 'g', model: 'm' }),
    interactions: encodeGeminiInteractions({ id: 'v1_e', model: 'm' }),
  };
  const out: Record<string, string> = {};
  for (const [name, encoder] of Object.entries(encoders)) out[name] = (await lastValueFrom(from(events).pipe(encoder, toArray()))).join('');
  return out;
}

/** A stub model: step n answers `answers[n]`; every request's messages are kept. */
function stub(answers: ReadonlyArray<string>) {
  const sent: Array<ReadonlyArray<LoopMessage>> = [];
  const request = (messages: ReadonlyArray<LoopMessage>, step: number): Observable<string> => {
    sent.push(messages);
    const answer = answers[step];
    return answer === undefined ? throwError(() => new Error(`no answer for step ${step}`)) : of(answer);
  };
  return { request, sent };
}

const ev = anthropicEvent;
const messageStart = (id: string) => ev('message_start', { message: { id, model: 'claude-test', usage: { input_tokens: 3, output_tokens: 1 } } });
const anthropicEnd = (reason: string) => [ev('message_delta', { delta: { stop_reason: reason }, usage: { output_tokens: 9 } }), ev('message_stop')];
const anthropicAnswer = [
  messageStart('m2'),
  ev('content_block_start', { index: 0, content_block: { type: 'text', text: 'Done.' } }),
  ev('content_block_stop', { index: 0 }),
  ...anthropicEnd('end_turn'),
].join('');

const created = (id: string) => responsesEvent('response.created', { response: { id, model: 'gpt-5', status: 'in_progress', output: [] } });
const itemDone = (index: number, item: Record<string, unknown>) => responsesEvent('response.output_item.done', { output_index: index, item });
const completed = (id: string, output: unknown[]) => responsesEvent('response.completed', { response: { id, model: 'gpt-5', status: 'completed', output } });
const responsesAnswer = [created('r2'), responsesEvent('response.output_text.delta', { output_index: 0, content_index: 0, delta: 'Done.' }), completed('r2', [])].join('');

const tools = { save: tool({ schema: z.object({ url: z.string() }), execute: ({ url }) => `saved ${url}` }) };

describe('Anthropic compaction blocks (server-side context compaction)', () => {
  // unslothai/unsloth#5686 (review): a stream translator that handled only text_delta and
  // input_json_delta dropped `compaction_delta`, so the compaction block never reached the history,
  // while Anthropic requires the returned compaction block back on the next turns.
  const compaction = { type: 'compaction', content: 'Summary: the user is saving three links.', encrypted_content: 'ZW5jcnlwdGVk', signature: 'c2lnbmVk' };
  const wire = [
    messageStart('m1'),
    ev('content_block_start', { index: 0, content_block: { type: 'compaction', content: null, encrypted_content: null } }),
    ev('content_block_delta', { index: 0, delta: { type: 'compaction_delta', content: compaction.content, encrypted_content: compaction.encrypted_content, signature: compaction.signature } }),
    ev('content_block_stop', { index: 0 }),
    ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'save', input: {} } }),
    ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"url":"u"}' } }),
    ev('content_block_stop', { index: 1 }),
    ...anthropicEnd('tool_use'),
  ];

  it('unslothai/unsloth#5686: the compaction block is a provider-tool event (tool compaction) with the whole block as raw, its summary as result', () => {
    expect(runWire(...wire)).toEqual(outcome([ok('toolu_1', 'save', { url: 'u' })], 'tool-calls/tool_use'));
    expect(providerTools(...wire)).toEqual([
      { type: 'provider-tool', choice: 0, provider: 'anthropic', index: 0, id: 'compaction_0', tool: 'compaction', status: 'completed', result: compaction.content, raw: compaction },
    ]);
  });

  it('unslothai/unsloth#5686: toolLoop sends the compaction block back first in the assistant turn, verbatim', async () => {
    const { request, sent } = stub([wire.join(''), anthropicAnswer]);
    await lastValueFrom(toolLoop(request, tools, { format: 'anthropic', messages: [{ role: 'user', content: 'Save u' }] }).pipe(toArray()));
    expect(sent[1]?.[1]).toEqual({ role: 'assistant', content: [compaction, { type: 'tool_use', id: 'toolu_1', name: 'save', input: { url: 'u' } }] });
  });

  it('a gateway passes it on to Anthropic clients, whole and in its place, and leaves it out of the other formats', async () => {
    const out = await encodedBy(await eventsOf(wire.join('')));
    const blocks = (await eventsOf(out['anthropic'] ?? '')).filter((e) => e.type === 'provider-tool');
    expect(blocks).toEqual([
      { type: 'provider-tool', choice: 0, provider: 'anthropic', index: 0, id: 'compaction_0', tool: 'compaction', status: 'completed', result: compaction.content, raw: compaction },
    ]);
    for (const name of ['responses', 'chat', 'gemini', 'interactions']) expect([name, out[name]?.includes('ZW5jcnlwdGVk')]).toEqual([name, false]);
  });

  it('stop_reason compaction (paused after compacting) is a stop, its raw reason kept; a failed compaction (content null) is failed', () => {
    const paused = [
      messageStart('m1'),
      ev('content_block_start', { index: 0, content_block: { type: 'compaction', content: null, encrypted_content: null } }),
      ev('content_block_delta', { index: 0, delta: { type: 'compaction_delta', content: null, encrypted_content: null } }),
      ev('content_block_stop', { index: 0 }),
      ...anthropicEnd('compaction'),
    ];
    expect(runWire(...paused)).toEqual(outcome([], 'stop/compaction'));
    expect(providerTools(...paused).map((e) => e.status)).toEqual(['failed']);
  });
});

describe('Responses compaction items', () => {
  // mozilla-ai/otari#513: gateway-managed tool loops omitted intermediate compaction items;
  // they must be replayed in the provider's output order, before the function call outputs.
  const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAA-compacted' };
  const fn = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'save', arguments: '{"url":"u"}', status: 'completed' };
  const wire = [created('r1'), itemDone(0, compaction), itemDone(1, fn), completed('r1', [compaction, fn])];

  it('mozilla-ai/otari#513: the compaction item is a provider-tool event; toolLoop replays it in output order, before the call and its output', async () => {
    expect(providerTools(...wire).map(({ tool, id, status, raw }) => ({ tool, id, status, raw }))).toEqual([{ tool: 'compaction', id: 'cmp_1', status: 'completed', raw: compaction }]);
    const { request, sent } = stub([wire.join(''), responsesAnswer]);
    await lastValueFrom(toolLoop(request, tools, { format: 'openai-responses', messages: [{ role: 'user', content: 'Save u' }] }).pipe(toArray()));
    expect(sent[1]?.slice(1)).toEqual([
      compaction,
      { type: 'function_call', call_id: 'call_1', name: 'save', arguments: '{"url":"u"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'saved u' },
    ]);
  });

  it('encodeOpenAIResponses passes it on whole; the other formats leave it out', async () => {
    const out = await encodedBy(await eventsOf(wire.join('')));
    expect((await eventsOf(out['responses'] ?? '')).flatMap((e) => (e.type === 'provider-tool' && e.status !== 'running' ? [e.raw] : []))).toEqual([compaction]);
    for (const name of ['anthropic', 'chat', 'gemini', 'interactions']) expect([name, out[name]?.includes('gAAAA-compacted')]).toEqual([name, false]);
  });
});

describe('tool search and defer_loading', () => {
  // theopenco/llmgateway#3604: a gateway silently dropped `defer_loading` and the tool search
  // server tool, so every schema went upstream and was billed, and no `server_tool_use` /
  // `tool_search_tool_result` (with its `tool_reference`s) came back.
  const search = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_regex', input: { query: 'weather' } };
  const found = {
    type: 'tool_search_tool_result',
    tool_use_id: 'srvtoolu_1',
    content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'get_weather' }] },
  };
  const wire = [
    messageStart('m1'),
    ev('content_block_start', { index: 0, content_block: { ...search, input: {} } }),
    ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":"weather"}' } }),
    ev('content_block_stop', { index: 0 }),
    ev('content_block_start', { index: 1, content_block: found }),
    ev('content_block_stop', { index: 1 }),
    ev('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'save', input: {} } }),
    ev('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"url":"u"}' } }),
    ev('content_block_stop', { index: 2 }),
    ...anthropicEnd('tool_use'),
  ];

  it('theopenco/llmgateway#3604: toolSpecs writes defer_loading for Anthropic and Responses (custom tools too), and no other format has it', () => {
    const deferred = { save: tool({ description: 'Save a link', schema: z.object({ url: z.string() }), deferLoading: true }), patch: customTool({ deferLoading: true }) };
    expect(toolSpecs(deferred, 'anthropic').map((t) => t.defer_loading)).toEqual([true, true]);
    expect(toolSpecs(deferred, 'openai-responses').map((t) => t.defer_loading)).toEqual([true, true]);
    for (const format of ['openai-chat', 'gemini', 'gemini-interactions', 'bedrock-converse', 'ollama'] as const)
      expect([format, JSON.stringify(toolSpecs(deferred, format)).includes('defer')]).toEqual([format, false]);
    expect(toolSpecs({ save: tool({}) }, 'anthropic')[0]).not.toHaveProperty('defer_loading');
  });

  it('theopenco/llmgateway#3604: the tool search and its tool_reference result are provider-tool events, kept in the loop and passed on to Anthropic clients', async () => {
    expect(runWire(...wire)).toEqual(outcome([ok('toolu_1', 'save', { url: 'u' })], 'tool-calls/tool_use'));
    expect(providerTools(...wire).map(({ tool, status, raw, inputDelta }) => [tool, status, raw ?? inputDelta])).toEqual([
      ['tool_search_tool_regex', 'running', { ...search, input: {} }],
      ['tool_search_tool_regex', 'running', '{"query":"weather"}'],
      ['tool_search_tool_regex', 'running', search],
      ['tool_search_tool_regex', 'completed', found],
    ]);
    const { request, sent } = stub([wire.join(''), anthropicAnswer]);
    await lastValueFrom(toolLoop(request, tools, { format: 'anthropic', messages: [{ role: 'user', content: 'Save u' }] }).pipe(toArray()));
    expect(sent[1]?.[1]).toEqual({ role: 'assistant', content: [search, found, { type: 'tool_use', id: 'toolu_1', name: 'save', input: { url: 'u' } }] });
    const out = await encodedBy(await eventsOf(wire.join('')));
    expect((await eventsOf(out['anthropic'] ?? '')).flatMap((e) => (e.type === 'provider-tool' && e.status !== 'running' ? [e.raw] : []))).toEqual([found]);
    for (const name of ['responses', 'chat', 'gemini', 'interactions']) expect([name, out[name]?.includes('tool_reference')]).toEqual([name, false]);
  });

  it('theopenco/llmgateway#3604: fromAnthropicRequest refuses a deferred tool (typed, naming it) instead of dropping the flag; ignore: [defer_loading] drops it knowingly', () => {
    const request = {
      model: 'm',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ name: 'save', input_schema: { type: 'object' }, defer_loading: true }],
    } as unknown as AnthropicWire.RequestInput;
    expectUnsupported(() => fromAnthropicRequest(request), 'openai-chat', 'tools[0].defer_loading');
    expect(fromAnthropicRequest(request, { ignore: ['defer_loading'] }).tools).toHaveLength(1);
  });

  // experientiallabs/experiential#1042: an all-Responses route forwards `tool_search` and
  // `defer_loading`; the provider's tool_search_call / tool_search_output items come back.
  const call = { type: 'tool_search_call', id: 'tsc_1', call_id: null, execution: 'server', status: 'completed', arguments: { query: 'weather tools' } };
  const output = {
    type: 'tool_search_output',
    id: 'tso_1',
    call_id: null,
    execution: 'server',
    status: 'completed',
    tools: [{ type: 'function', name: 'save', parameters: { type: 'object' }, defer_loading: true }],
  };
  const fn = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'save', arguments: '{"url":"u"}', status: 'completed' };
  const responsesWire = [created('r1'), itemDone(0, call), itemDone(1, output), itemDone(2, fn), completed('r1', [call, output, fn])];

  it('experientiallabs/experiential#1042: Responses tool_search_call and tool_search_output are provider-tool events (input, loaded tools), replayed by the loop and passed on by encodeOpenAIResponses only', async () => {
    expect(providerTools(...responsesWire).map(({ tool, id, status, input, result }) => ({ tool, id, status, input, result }))).toEqual([
      { tool: 'tool_search', id: 'tsc_1', status: 'completed', input: call.arguments, result: undefined },
      { tool: 'tool_search', id: 'tso_1', status: 'completed', input: undefined, result: output.tools },
    ]);
    const { request, sent } = stub([responsesWire.join(''), responsesAnswer]);
    await lastValueFrom(toolLoop(request, tools, { format: 'openai-responses', messages: [{ role: 'user', content: 'Save u' }] }).pipe(toArray()));
    expect(sent[1]?.slice(1, 3)).toEqual([call, output]);
    const out = await encodedBy(await eventsOf(responsesWire.join('')));
    expect((await eventsOf(out['responses'] ?? '')).flatMap((e) => (e.type === 'provider-tool' && e.status !== 'running' ? [e.raw] : []))).toEqual([call, output]);
    for (const name of ['anthropic', 'chat', 'gemini', 'interactions']) expect([name, out[name]?.includes('tool_search')]).toEqual([name, false]);
  });

  it('a tool search the client runs (execution: client) is the app’s to answer: not sent back without its output', async () => {
    const client = { ...call, execution: 'client', call_id: 'tsc_call_1' };
    const wireClient = [created('r1'), itemDone(0, client), itemDone(1, fn), completed('r1', [client, fn])];
    const { request, sent } = stub([wireClient.join(''), responsesAnswer]);
    await lastValueFrom(toolLoop(request, tools, { format: 'openai-responses', messages: [{ role: 'user', content: 'Save u' }] }).pipe(toArray()));
    expect(sent[1]?.slice(1).map((item) => (item as { type: string }).type)).toEqual(['function_call', 'function_call_output']);
  });
});

describe('programmatic tool calls (a call’s caller)', () => {
  // openai/codex#40749: the Programmatic Tool Calling parent relationship was dropped — no
  // `program` / `program_output` items and no `caller` on the calls and their outputs.
  const program = { type: 'program', id: 'prg_1', call_id: 'prog_call_1', code: 'const r = await tools.save({ url: "u" }); return r;', fingerprint: 'fp_opaque' };
  const fn = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'save', arguments: '{"url":"u"}', status: 'completed', caller: { type: 'program', caller_id: 'prog_call_1' } };
  const wire = [
    created('r1'),
    itemDone(0, program),
    responsesEvent('response.output_item.added', { output_index: 1, item: { ...fn, arguments: '', status: 'in_progress' } }),
    responsesEvent('response.function_call_arguments.delta', { output_index: 1, item_id: 'fc_1', delta: '{"url":"u"}' }),
    itemDone(1, fn),
    completed('r1', [program, fn]),
  ];

  it('openai/codex#40749: the program item is a provider-tool event (its code as input); the call’s caller is its metadata', () => {
    expect(providerTools(...wire).map(({ tool, id, input, raw }) => ({ tool, id, input, raw }))).toEqual([{ tool: 'program', id: 'prg_1', input: program.code, raw: program }]);
    expect(callMetadata(...wire)).toEqual([{ itemId: 'fc_1', caller: { type: 'program', caller_id: 'prog_call_1' } }]);
  });

  it('openai/codex#40749: a caller that only the done item carries (the added item had none) is the call’s too', () => {
    const { caller: _, ...added } = fn;
    const late = [
      created('r1'),
      responsesEvent('response.output_item.added', { output_index: 0, item: { ...added, arguments: '', status: 'in_progress' } }),
      responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: '{"url":"u"}' }),
      itemDone(0, fn),
      completed('r1', [fn]),
    ];
    expect(callMetadata(...late)).toEqual([{ itemId: 'fc_1', caller: { type: 'program', caller_id: 'prog_call_1' } }]);
  });

  it('openai/codex#40749: toolLoop replays the program item and writes the caller on the call and on its output', async () => {
    const { request, sent } = stub([wire.join(''), responsesAnswer]);
    await lastValueFrom(toolLoop(request, tools, { format: 'openai-responses', messages: [{ role: 'user', content: 'Save u' }] }).pipe(toArray()));
    expect(sent[1]?.slice(1)).toEqual([
      program,
      { type: 'function_call', call_id: 'call_1', name: 'save', arguments: '{"url":"u"}', caller: { type: 'program', caller_id: 'prog_call_1' } },
      { type: 'function_call_output', call_id: 'call_1', output: 'saved u', caller: { type: 'program', caller_id: 'prog_call_1' } },
    ]);
  });

  it('openai/codex#40749: encodeOpenAIResponses writes the program item and the caller back; Anthropic gets no program-shaped caller', async () => {
    const out = await encodedBy(await eventsOf(wire.join('')));
    const back = runChunks([toBytes(out['responses'] ?? '')]);
    expect(back.results.map((r) => r.success && r.data.providerMetadata?.['caller'])).toEqual([{ type: 'program', caller_id: 'prog_call_1' }]);
    expect(back.events.flatMap((e) => (e.type === 'provider-tool' && e.status !== 'running' ? [e.raw] : []))).toEqual([program]);
    expect(out['anthropic']).not.toContain('caller');
    expect(out['anthropic']).not.toContain('fp_opaque');
  });

  it('program_output (the program’s result, in the next response) is a provider-tool event with its result', () => {
    const result = { type: 'program_output', id: 'prgo_1', call_id: 'prog_call_1', result: 'saved u', status: 'completed' };
    expect(providerTools(created('r2'), itemDone(0, result), completed('r2', [result])).map(({ tool, id, status, result: r }) => ({ tool, id, status, result: r }))).toEqual([
      { tool: 'program', id: 'prgo_1', status: 'completed', result: 'saved u' },
    ]);
  });

  it('Anthropic: a call made from code execution keeps its caller (metadata, toolLoop, encodeAnthropicMessages); other formats write none', async () => {
    const caller = { type: 'code_execution_20260120', tool_id: 'srvtoolu_code' };
    const anthropicWire = [
      messageStart('m1'),
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'save', input: {}, caller } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"url":"u"}' } }),
      ev('content_block_stop', { index: 0 }),
      ...anthropicEnd('tool_use'),
    ];
    expect(callMetadata(...anthropicWire)).toEqual([{ type: 'tool_use', caller }]);
    const { request, sent } = stub([anthropicWire.join(''), anthropicAnswer]);
    await lastValueFrom(toolLoop(request, tools, { format: 'anthropic', messages: [{ role: 'user', content: 'Save u' }] }).pipe(toArray()));
    expect(sent[1]?.[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'save', input: { url: 'u' }, caller }] });
    const out = await encodedBy(await eventsOf(anthropicWire.join('')));
    expect(runChunks([toBytes(out['anthropic'] ?? '')]).results.map((r) => r.success && r.data.providerMetadata?.['caller'])).toEqual([caller]);
    for (const name of ['responses', 'chat', 'gemini', 'interactions']) expect([name, out[name]?.includes('caller')]).toEqual([name, false]);
  });

  it('a gateway reading an Anthropic request refuses a compaction block or a tool_use caller in the history (typed, naming it) rather than drop it', () => {
    const history = (assistant: unknown[]) =>
      ({
        model: 'm',
        max_tokens: 64,
        messages: [
          { role: 'user', content: 'Save u' },
          { role: 'assistant', content: assistant },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'saved u' }] },
        ],
      }) as unknown as AnthropicWire.RequestInput;
    const call = { type: 'tool_use', id: 'toolu_1', name: 'save', input: { url: 'u' } };
    const compaction = { type: 'compaction', content: 'Summary.', encrypted_content: 'ZW5j' };
    expectUnsupported(() => fromAnthropicRequest(history([compaction, call])), 'openai-chat', 'messages[1].content[0].type');
    expectUnsupported(() => fromAnthropicRequest(history([{ ...call, caller: { type: 'code_execution_20260120', tool_id: 'srvtoolu_code' } }])), 'openai-chat', 'messages[1].content[0].caller');
    expect(fromAnthropicRequest(history([call])).messages).toHaveLength(3);
  });
});
