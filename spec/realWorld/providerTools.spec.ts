/**
 * Provider-executed tools: tools the provider runs (web search, file search,
 * code interpreter, MCP, image generation; Anthropic server tools; Gemini code execution), and shell
 * calls the app runs itself, are never silently dropped and never become a call for `runTools()`:
 * each is a `provider-tool` event (what ran, its input, its result when the stream carries it).
 * Each case is our own small stream shaped like the one in the named public report, run under
 * every chunking (whole, byte by byte, seeded random); see `helpers.ts`.
 */
import type { ProviderToolEvent, StreamEvent } from 'rxjs-tool-calls';
import { anthropicEvent, responsesEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { chunkings } from '../helpers/chunking';
import { runChunks } from '../helpers/runStream';
import { gemini, ok, outcome, runWire } from './helpers';

/** A provider-tool event as the suite compares it (without `raw`, checked on its own). */
type Seen = Omit<ProviderToolEvent, 'raw' | 'type' | 'choice' | 'provider'>;

/** The provider-tool events of `wire` under every chunking (all must agree). */
function providerTools(...wire: string[]): { seen: Seen[]; raw: Array<ProviderToolEvent['raw']> } {
  const runs = chunkings(toBytes(wire.join(''))).map(([how, chunks]) => [how, runChunks(chunks).events.filter((e: StreamEvent): e is ProviderToolEvent => e.type === 'provider-tool')] as const);
  const [first] = runs;
  for (const [how, events] of runs) expect([how, events]).toEqual([how, first?.[1]]);
  const events = first?.[1] ?? [];
  return { seen: events.map(({ raw: _raw, type: _type, choice: _choice, provider: _provider, ...rest }) => rest), raw: events.map((e) => e.raw) };
}

const created = responsesEvent('response.created', { response: { id: 'resp_1', model: 'gpt-5', status: 'in_progress', output: [] } });
const completed = (output: unknown[]): string => responsesEvent('response.completed', { response: { id: 'resp_1', model: 'gpt-5', status: 'completed', output } });
const added = (index: number, item: Record<string, unknown>): string => responsesEvent('response.output_item.added', { output_index: index, item });
const done = (index: number, item: Record<string, unknown>): string => responsesEvent('response.output_item.done', { output_index: index, item });
const text = (delta: string): string => responsesEvent('response.output_text.delta', { output_index: 1, content_index: 0, delta });

describe('real-world provider-executed tools: Responses', () => {
  it('vercel/ai#6815: a web_search_call then the answer: the search is a provider-tool event, the turn is text only, no call to run', () => {
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'rxjs 8 release' } };
    const wire = [
      created,
      added(0, { ...search, status: 'in_progress', action: undefined }),
      responsesEvent('response.web_search_call.searching', { output_index: 0, item_id: 'ws_1' }),
      done(0, search),
      text('Not yet.'),
      completed([search]),
    ];
    expect(runWire(...wire)).toEqual(outcome([], 'stop/completed', 'completed', 'Not yet.'));
    const { seen, raw } = providerTools(...wire);
    expect(seen).toEqual([
      { index: 0, id: 'ws_1', tool: 'web_search', status: 'running' },
      { index: 0, id: 'ws_1', tool: 'web_search', status: 'completed', input: { type: 'search', query: 'rxjs 8 release' } },
    ]);
    expect(raw[1]).toEqual(search);
  });

  it('vllm-project/vllm#31761: an mcp_call whose arguments stream as response.mcp_call_arguments.delta, with its output in the done item', () => {
    const mcp = { type: 'mcp_call', id: 'mcp_1', server_label: 'calc', name: 'python', arguments: '{"code":"123*456"}', output: '56088', error: null, status: 'completed' };
    const wire = [
      created,
      added(0, { ...mcp, arguments: '', output: null, status: 'in_progress' }),
      responsesEvent('response.mcp_call_arguments.delta', { output_index: 0, item_id: 'mcp_1', delta: '{"code":' }),
      responsesEvent('response.mcp_call_arguments.delta', { output_index: 0, item_id: 'mcp_1', delta: '"123*456"}' }),
      responsesEvent('response.mcp_call_arguments.done', { output_index: 0, item_id: 'mcp_1', arguments: mcp.arguments }),
      done(0, mcp),
      completed([mcp]),
    ];
    expect(runWire(...wire).results).toEqual([]);
    const { seen } = providerTools(...wire);
    expect(seen).toEqual([
      { index: 0, id: 'mcp_1', tool: 'mcp', status: 'running', input: { server: 'calc', name: 'python', arguments: '' } },
      { index: 0, id: 'mcp_1', tool: 'mcp', status: 'running', inputDelta: '{"code":' },
      { index: 0, id: 'mcp_1', tool: 'mcp', status: 'running', inputDelta: '"123*456"}' },
      { index: 0, id: 'mcp_1', tool: 'mcp', status: 'completed', input: { server: 'calc', name: 'python', arguments: mcp.arguments }, result: '56088' },
    ]);
  });

  it('vercel/ai#8973: code_interpreter_call code streams as response.code_interpreter_call_code.delta; its outputs come with the item', () => {
    const ci = { type: 'code_interpreter_call', id: 'ci_1', container_id: 'cntr_1', code: 'print(2**10)', outputs: [{ type: 'logs', logs: '1024\n' }], status: 'completed' };
    const wire = [
      created,
      added(0, { ...ci, code: '', outputs: null, status: 'in_progress' }),
      responsesEvent('response.code_interpreter_call_code.delta', { output_index: 0, item_id: 'ci_1', delta: 'print(' }),
      responsesEvent('response.code_interpreter_call_code.delta', { output_index: 0, item_id: 'ci_1', delta: '2**10)' }),
      responsesEvent('response.code_interpreter_call_code.done', { output_index: 0, item_id: 'ci_1', code: ci.code }),
      done(0, ci),
      completed([ci]),
    ];
    const { seen } = providerTools(...wire);
    expect(seen.map((e) => e.inputDelta ?? e.status)).toEqual(['running', 'print(', '2**10)', 'completed']);
    expect(seen.at(-1)).toEqual({ index: 0, id: 'ci_1', tool: 'code_interpreter', status: 'completed', input: 'print(2**10)', result: ci.outputs });
  });

  it('microsoft/agent-framework-go#613: a code_interpreter_call only in response.completed’s output still surfaces, once', () => {
    const ci = { type: 'code_interpreter_call', id: 'ci_2', code: 'x = 1', outputs: [], status: 'completed' };
    expect(providerTools(created, completed([ci])).seen).toEqual([{ index: 0, id: 'ci_2', tool: 'code_interpreter', status: 'completed', input: 'x = 1', result: [] }]);
    expect(providerTools(created, done(0, ci), completed([ci])).seen).toHaveLength(1);
  });

  it('dotnet/extensions#7758: the final image of an image_generation_call is its result (partial images are not it)', () => {
    const image = { type: 'image_generation_call', id: 'ig_1', status: 'completed', revised_prompt: 'an owl', result: 'iVBORw0KGgo=' };
    const wire = [
      created,
      added(0, { type: 'image_generation_call', id: 'ig_1', status: 'in_progress' }),
      responsesEvent('response.image_generation_call.partial_image', { output_index: 0, item_id: 'ig_1', partial_image_index: 0, partial_image_b64: 'cGFydGlhbA==' }),
      done(0, image),
      completed([image]),
    ];
    expect(providerTools(...wire).seen.at(-1)).toEqual({ index: 0, id: 'ig_1', tool: 'image_generation', status: 'completed', input: 'an owl', result: 'iVBORw0KGgo=' });
  });

  it('BerriAI/litellm#15269: a file_search_call with its queries and results', () => {
    const fs = { type: 'file_search_call', id: 'fs_1', status: 'completed', queries: ['refund policy'], results: [{ file_id: 'file_1', text: '30 days', score: 0.9 }] };
    expect(providerTools(created, added(0, { ...fs, status: 'in_progress', results: null }), done(0, fs), completed([fs])).seen.at(-1)).toEqual({
      index: 0,
      id: 'fs_1',
      tool: 'file_search',
      status: 'completed',
      input: ['refund policy'],
      result: fs.results,
    });
  });

  it('langwatch/langwatch#6433: a local_shell_call is surfaced for the app to run, never read as a function call', () => {
    const shell = { type: 'local_shell_call', id: 'lsh_1', call_id: 'call_s', status: 'completed', action: { type: 'exec', command: ['ls', '-l'] } };
    const wire = [created, done(0, shell), completed([shell])];
    expect(runWire(...wire)).toEqual(outcome([], 'stop/completed'));
    expect(providerTools(...wire).seen).toEqual([{ index: 0, id: 'lsh_1', tool: 'local_shell', status: 'completed', input: shell.action }]);
  });

  it('maximhq/bifrost#7292: a shell_call (the successor of local_shell) with its commands', () => {
    const shell = { type: 'shell_call', id: 'sh_1', call_id: 'call_t', status: 'completed', action: { commands: ['ls -l'], timeout_ms: 120000 } };
    expect(providerTools(created, done(0, shell), completed([shell])).seen).toEqual([{ index: 0, id: 'sh_1', tool: 'shell', status: 'completed', input: shell.action }]);
  });

  it('orangeboyChen/codebuddy2api#156: a failed image_generation_call is kept (status failed), not dropped', () => {
    const image = { type: 'image_generation_call', id: 'ig_2', status: 'failed', result: null };
    expect(providerTools(created, done(0, image), completed([image])).seen).toEqual([{ index: 0, id: 'ig_2', tool: 'image_generation', status: 'failed' }]);
  });

  it('a function call beside a web search: only the function call is a result to run', () => {
    const search = { type: 'web_search_call', id: 'ws_2', status: 'completed', action: { type: 'search', query: 'x' } };
    const fn = { type: 'function_call', id: 'fc_1', call_id: 'call_f', name: 'save', arguments: '{"q":"x"}', status: 'completed' };
    const run = runWire(created, done(0, search), done(1, fn), completed([search, fn]));
    expect(run).toEqual(outcome([ok('call_f', 'save', { q: 'x' })], 'tool-calls/completed'));
  });
});

const message = anthropicEvent('message_start', { message: { id: 'msg_1', model: 'claude-test', usage: { input_tokens: 5, output_tokens: 1 } } });
const blockStart = (index: number, block: Record<string, unknown>): string => anthropicEvent('content_block_start', { index, content_block: block });
const inputJson = (index: number, partial: string): string => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
const blockStop = (index: number): string => anthropicEvent('content_block_stop', { index });
const end = (reason: string): string[] => [anthropicEvent('message_delta', { delta: { stop_reason: reason }, usage: { output_tokens: 9 } }), anthropicEvent('message_stop')];

describe('real-world provider-executed tools: Anthropic', () => {
  const results = [{ type: 'web_search_result', url: 'https://example.com', title: 'Example', encrypted_content: 'enc' }];

  it('can1357/oh-my-pi#6496: server_tool_use → web_search_tool_result → text: the search is kept (input and results), no call to run', () => {
    const wire = [
      message,
      blockStart(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      inputJson(0, '{"query":'),
      inputJson(0, '"rxjs"}'),
      blockStop(0),
      blockStart(1, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: results }),
      blockStop(1),
      blockStart(2, { type: 'text', text: '' }),
      anthropicEvent('content_block_delta', { index: 2, delta: { type: 'text_delta', text: 'Found it.' } }),
      blockStop(2),
      ...end('end_turn'),
    ];
    expect(runWire(...wire)).toEqual(outcome([], 'stop/end_turn', 'completed', 'Found it.'));
    const { seen, raw } = providerTools(...wire);
    expect(seen).toEqual([
      { index: 0, id: 'srvtoolu_1', tool: 'web_search', status: 'running' },
      { index: 0, id: 'srvtoolu_1', tool: 'web_search', status: 'running', inputDelta: '{"query":' },
      { index: 0, id: 'srvtoolu_1', tool: 'web_search', status: 'running', inputDelta: '"rxjs"}' },
      { index: 0, id: 'srvtoolu_1', tool: 'web_search', status: 'running', input: { query: 'rxjs' } },
      { index: 1, id: 'srvtoolu_1', tool: 'web_search', status: 'completed', result: results },
    ]);
    expect(raw[3]).toEqual({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'rxjs' } });
  });

  it('anthropics/anthropic-sdk-python#1875: a server_tool_use’s input streams as input_json_delta and is read whole at its stop', () => {
    const wire = [message, blockStart(0, { type: 'server_tool_use', id: 'srvtoolu_2', name: 'code_execution', input: {} }), inputJson(0, '{"code":"print(1)"}'), blockStop(0), ...end('pause_turn')];
    expect(providerTools(...wire).seen.at(-1)).toEqual({ index: 0, id: 'srvtoolu_2', tool: 'code_execution', status: 'running', input: { code: 'print(1)' } });
    expect(runWire(...wire).results).toEqual([]);
  });

  it('anthropics/anthropic-sdk-csharp#270: an mcp_tool_use block’s arguments arrive after its start, then its mcp_tool_result', () => {
    const wire = [
      message,
      blockStart(0, { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'search_docs', server_name: 'docs', input: {} }),
      inputJson(0, '{"q":"retry"}'),
      blockStop(0),
      blockStart(1, { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'retry() …' }] }),
      blockStop(1),
      ...end('end_turn'),
    ];
    const { seen } = providerTools(...wire);
    expect(seen[2]).toEqual({ index: 0, id: 'mcptoolu_1', tool: 'mcp', status: 'running', input: { server: 'docs', name: 'search_docs', arguments: { q: 'retry' } } });
    expect(seen[3]).toEqual({ index: 1, id: 'mcptoolu_1', tool: 'mcp', status: 'completed', result: [{ type: 'text', text: 'retry() …' }] });
  });

  it('anthropics/anthropic-sdk-csharp#162: a web_search_tool_result whose content is an error is a failed run', () => {
    const wire = [
      message,
      blockStart(0, { type: 'server_tool_use', id: 'srvtoolu_3', name: 'web_search', input: { query: 'x' } }),
      blockStop(0),
      blockStart(1, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_3', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } }),
      blockStop(1),
      ...end('end_turn'),
    ];
    expect(providerTools(...wire).seen.at(-1)).toEqual({
      index: 1,
      id: 'srvtoolu_3',
      tool: 'web_search',
      status: 'failed',
      result: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
    });
  });

  it('a client tool_use beside a server tool: only the tool_use is a result to run', () => {
    const wire = [
      message,
      blockStart(0, { type: 'server_tool_use', id: 'srvtoolu_4', name: 'web_search', input: { query: 'x' } }),
      blockStop(0),
      blockStart(1, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_4', content: [] }),
      blockStop(1),
      blockStart(2, { type: 'tool_use', id: 'toolu_1', name: 'save', input: {} }),
      inputJson(2, '{"url":"u"}'),
      blockStop(2),
      ...end('tool_use'),
    ];
    expect(runWire(...wire)).toEqual(outcome([ok('toolu_1', 'save', { url: 'u' })], 'tool-calls/tool_use'));
  });
});

describe('real-world provider-executed tools: Gemini', () => {
  it('BerriAI/litellm#34802: executableCode and codeExecutionResult parts surface instead of being dropped', () => {
    const wire = [
      gemini([{ text: 'Let me compute.' }, { executableCode: { language: 'PYTHON', code: 'print(6*7)' } }]),
      gemini([{ codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } }, { text: 'It is 42.' }], { finishReason: 'STOP' }),
    ];
    expect(runWire(...wire)).toEqual(outcome([], 'stop/STOP', 'completed', 'Let me compute.It is 42.'));
    expect(providerTools(...wire).seen).toEqual([
      { id: 'code_0_0', tool: 'code_execution', status: 'running', input: { language: 'PYTHON', code: 'print(6*7)' } },
      { id: 'code_0_0', tool: 'code_execution', status: 'completed', result: { outcome: 'OUTCOME_OK', output: '42\n' } },
    ]);
  });

  it('vercel/ai#17399: several codeExecutionResult parts for one executableCode all carry its id', () => {
    const wire = [
      gemini(
        [{ executableCode: { language: 'PYTHON', code: 'run()' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: 'a' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: 'b' } }],
        { finishReason: 'STOP' },
      ),
    ];
    expect(providerTools(...wire).seen.map((e) => e.id)).toEqual(['code_0_0', 'code_0_0', 'code_0_0']);
  });

  it('maximhq/bifrost#1544: a failed run (OUTCOME_FAILED) in a stream is a failed provider-tool event, not text', () => {
    const wire = [
      gemini([{ executableCode: { language: 'PYTHON', code: '1/0' } }]),
      gemini([{ codeExecutionResult: { outcome: 'OUTCOME_FAILED', output: 'ZeroDivisionError' } }], { finishReason: 'STOP' }),
    ];
    const run = runWire(...wire);
    expect(run.text).toBe('');
    expect(providerTools(...wire).seen.at(-1)).toMatchObject({ status: 'failed', result: { outcome: 'OUTCOME_FAILED', output: 'ZeroDivisionError' } });
  });
});
