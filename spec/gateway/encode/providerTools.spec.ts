/**
 * Provider-run tools through the encoders: a Responses target writes a Responses source's finished
 * server-tool items back whole (read back, they are the same `provider-tool` events with the same
 * `raw` item); a target of another format drops them, and the turn's text and calls are unchanged.
 */
import { lastValueFrom, of, toArray } from 'rxjs';
import { readStreamEvents, readToolCalls, type ProviderToolEvent, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { responsesEvent } from 'rxjs-tool-calls/marbles';

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
  ] as const)('%s() drops them (no form in that format): the calls are unchanged and nothing of them is written', async (_name, encode) => {
    const written = (await lastValueFrom(of(...(await events(wire))).pipe(encode(), toArray()))).join('');
    expect(finished(await events(written))).toEqual([]);
    expect(written).not.toContain('ws_1');
    expect(await calls(written)).toEqual([['save', { url: 'u' }]]);
  });
});
