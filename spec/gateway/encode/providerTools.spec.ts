/**
 * Provider-run tools through the encoders: a Responses target writes a Responses source's finished
 * server-tool items back whole, an Anthropic target an Anthropic source's server tool blocks (read
 * back, they are the same `provider-tool` events with the same `raw` objects); a target of another
 * format drops them, and the turn's text and calls are unchanged.
 */
import { lastValueFrom, of, toArray } from 'rxjs';
import { readStreamEvents, readToolCalls, type ProviderToolEvent, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { anthropicEvent, responsesEvent } from 'rxjs-tool-calls/marbles';

const search = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'rxjs 8 release' } };
const mcp = { type: 'mcp_call', id: 'mcp_1', server_label: 'calc', name: 'python', arguments: '{"code":"1+1"}', output: '2', error: null, status: 'completed' };
const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'save', arguments: '{"url":"u"}', status: 'completed' };
const wire = [
  responsesEvent('response.created', { response: { id: 'resp_1', model: 'gpt-5', status: 'in_progress', output: [] } }),
  responsesEvent('response.output_item.added', { output_index: 0, item: { ...search, status: 'in_progress', action: undefined } }),
  responsesEvent('response.output_item.done', { output_index: 0, item: search }),
  responsesEvent('response.output_item.added', { output_index: 1, item: { ...mcp, arguments: '', output: null, status: 'in_progress' } }),
  responsesEvent('response.mcp_call_arguments.delta', { output_index: 1, item_id: 'mcp_1', delta: mcp.arguments }),
  responsesEvent('response.output_item.done', { output_index: 1, item: mcp }),
  responsesEvent('response.output_item.added', { output_index: 2, item: { ...call, arguments: '', status: 'in_progress' } }),
  responsesEvent('response.function_call_arguments.delta', { output_index: 2, item_id: 'fc_1', delta: call.arguments }),
  responsesEvent('response.output_item.done', { output_index: 2, item: call }),
  responsesEvent('response.completed', { response: { id: 'resp_1', model: 'gpt-5', status: 'completed', output: [search, mcp, call] } }),
].join('');

const events = (text: string): Promise<StreamEvent[]> => lastValueFrom(of(text).pipe(readStreamEvents(), toArray()));
const finished = (all: StreamEvent[]): ProviderToolEvent[] => all.filter((e): e is ProviderToolEvent => e.type === 'provider-tool' && e.status !== 'running');
const calls = async (text: string): Promise<unknown[]> => (await lastValueFrom(of(text).pipe(readToolCalls(), toArray()))).map((r) => (r.success ? [r.data.name, r.data.arguments] : r.error.code));

describe('provider-run tools through the encoders', () => {
  it('encodeOpenAIResponses() writes a Responses source’s finished server-tool items back: read back, the same events, raw items and calls', async () => {
    const source = await events(wire);
    expect(finished(source).map((e) => e.id)).toEqual(['ws_1', 'mcp_1']);
    const written = (await lastValueFrom(of(...source).pipe(encodeOpenAIResponses(), toArray()))).join('');
    const back = finished(await events(written));
    expect(back.map(({ id, tool, status, raw }) => ({ id, tool, status, raw }))).toEqual(finished(source).map(({ id, tool, status, raw }) => ({ id, tool, status, raw })));
    expect(await calls(written)).toEqual([['save', { url: 'u' }]]);
  });

  it('each item is written once, though the source reports it in its done item and again in response.completed', async () => {
    const written = (await lastValueFrom(of(...(await events(wire))).pipe(encodeOpenAIResponses(), toArray()))).join('');
    expect(written.match(/"type":"response\.output_item\.done","output_index":\d+,"item":\{"id":"ws_1"/g)).toHaveLength(1);
  });

  it.each([
    ['encodeAnthropicMessages', encodeAnthropicMessages],
    ['encodeOpenAIChat', encodeOpenAIChat],
  ] as const)('%s() drops a Responses source’s (no form in that format): the calls are unchanged and nothing of them is written', async (_name, encode) => {
    const written = (await lastValueFrom(of(...(await events(wire))).pipe(encode(), toArray()))).join('');
    expect(finished(await events(written))).toEqual([]);
    expect(written).not.toContain('ws_1');
    expect(await calls(written)).toEqual([['save', { url: 'u' }]]);
  });
  const blockStart = (index: number, block: Record<string, unknown>): string => anthropicEvent('content_block_start', { index, content_block: block });
  const blockStop = (index: number): string => anthropicEvent('content_block_stop', { index });
  const results = [{ type: 'web_search_result', url: 'https://example.com', title: 'Example', encrypted_content: 'enc' }];
  const anthropic = [
    anthropicEvent('message_start', { message: { id: 'msg_1', model: 'claude-test', usage: { input_tokens: 5, output_tokens: 1 } } }),
    blockStart(0, { type: 'text', text: '' }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Searching.' } }),
    blockStop(0),
    blockStart(1, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
    anthropicEvent('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"query":' } }),
    anthropicEvent('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '"rxjs"}' } }),
    blockStop(1),
    blockStart(2, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: results }),
    blockStop(2),
    blockStart(3, { type: 'tool_use', id: 'toolu_1', name: 'save', input: {} }),
    anthropicEvent('content_block_delta', { index: 3, delta: { type: 'input_json_delta', partial_json: '{"url":"u"}' } }),
    blockStop(3),
    anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
    anthropicEvent('message_stop'),
  ].join('');
  /** The provider-tool events as a reader compares them: what ran, its input and result, the whole block (not its input's pieces). */
  const blocks = (all: StreamEvent[]): unknown[] =>
    all.filter((e): e is ProviderToolEvent => e.type === 'provider-tool' && e.inputDelta === undefined).map(({ id, tool, status, input, result, raw }) => ({ id, tool, status, input, result, raw }));

  it('encodeAnthropicMessages() writes an Anthropic source’s server tool blocks back in order: read back, the same use (whole input) and result, the text and the call', async () => {
    const source = await events(anthropic);
    const written = (await lastValueFrom(of(...source).pipe(encodeAnthropicMessages(), toArray()))).join('');
    const back = await events(written);
    expect(blocks(back).slice(-2)).toEqual(blocks(source).slice(-2));
    expect(blocks(back).at(-1)).toMatchObject({ status: 'completed', result: results });
    expect(back.filter((e) => e.type === 'text-delta').map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual(['Searching.']);
    expect(await calls(written)).toEqual([['save', { url: 'u' }]]);
    expect(written.indexOf('server_tool_use')).toBeGreaterThan(written.indexOf('Searching.'));
    expect(written.indexOf('web_search_tool_result')).toBeGreaterThan(written.indexOf('server_tool_use'));
  });

  it('encodeOpenAIResponses() drops an Anthropic source’s server tools (no Responses form for them)', async () => {
    const written = (await lastValueFrom(of(...(await events(anthropic))).pipe(encodeOpenAIResponses(), toArray()))).join('');
    expect(written).not.toContain('srvtoolu_1');
    expect(await calls(written)).toEqual([['save', { url: 'u' }]]);
  });
});
