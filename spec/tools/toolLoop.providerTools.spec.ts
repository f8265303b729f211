/**
 * Provider-executed tools in `toolLoop()`: never run by the loop, and kept in the
 * turn it sends back, verbatim and in stream order, where the format takes them (Responses items,
 * Anthropic blocks, Gemini parts).
 */
import { lastValueFrom, type Observable, of, throwError, toArray } from 'rxjs';
import { tool, toolLoop, type LoopMessage } from 'rxjs-tool-calls/tools';
import { anthropicEvent, responsesEvent } from 'rxjs-tool-calls/marbles';

function stub(answers: ReadonlyArray<string>) {
  const sent: Array<ReadonlyArray<LoopMessage>> = [];
  const request = (messages: ReadonlyArray<LoopMessage>, step: number): Observable<string> => {
    sent.push(messages);
    const answer = answers[step];
    return answer === undefined ? throwError(() => new Error(`no answer for step ${step}`)) : of(answer);
  };
  return { request, sent };
}

const user: LoopMessage = { role: 'user', content: 'Find and save' };
const ran: string[] = [];
const tools = { save: tool({ execute: (args) => (ran.push(String((args as { url?: unknown }).url)), 'saved') }) };

describe('toolLoop keeps provider-executed tools in the turn', () => {
  it('openai-responses: the web_search_call item goes back before the function_call, never run', async () => {
    ran.length = 0;
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'rxjs' } };
    const fn = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'save', arguments: '{"url":"u"}', status: 'completed' };
    const first = [
      responsesEvent('response.created', { response: { id: 'r1', model: 'gpt-5', status: 'in_progress', output: [] } }),
      responsesEvent('response.output_item.added', { output_index: 0, item: { ...search, status: 'in_progress' } }),
      responsesEvent('response.output_item.done', { output_index: 0, item: search }),
      responsesEvent('response.output_item.done', { output_index: 1, item: fn }),
      responsesEvent('response.completed', { response: { id: 'r1', model: 'gpt-5', status: 'completed', output: [search, fn] } }),
    ].join('');
    const second = [
      responsesEvent('response.output_text.delta', { output_index: 0, content_index: 0, delta: 'Saved.' }),
      responsesEvent('response.completed', { response: { id: 'r2', model: 'gpt-5', status: 'completed', output: [] } }),
    ].join('');
    const { request, sent } = stub([first, second]);
    const items = await lastValueFrom(toolLoop(request, tools, { format: 'openai-responses', messages: [user] }).pipe(toArray()));
    expect(ran).toEqual(['u']);
    expect(sent[1]).toEqual([user, search, { type: 'function_call', call_id: 'call_1', name: 'save', arguments: '{"url":"u"}' }, { type: 'function_call_output', call_id: 'call_1', output: 'saved' }]);
    expect(items.at(-1)).toMatchObject({ type: 'done', text: 'Saved.' });
  });

  it('anthropic: server_tool_use and its web_search_tool_result stay in the assistant content, in order', async () => {
    ran.length = 0;
    const results = [{ type: 'web_search_result', url: 'u', title: 'U', encrypted_content: 'e' }];
    const ev = anthropicEvent;
    const first = [
      ev('message_start', { message: { id: 'm1', model: 'claude-test', usage: { input_tokens: 1, output_tokens: 1 } } }),
      ev('content_block_start', { index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":"rxjs"}' } }),
      ev('content_block_stop', { index: 0 }),
      ev('content_block_start', { index: 1, content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: results } }),
      ev('content_block_stop', { index: 1 }),
      ev('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'save', input: {} } }),
      ev('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"url":"u"}' } }),
      ev('content_block_stop', { index: 2 }),
      ev('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } }),
      ev('message_stop'),
    ].join('');
    const second = [
      ev('message_start', { message: { id: 'm2', model: 'claude-test', usage: { input_tokens: 1, output_tokens: 1 } } }),
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: 'Saved.' } }),
      ev('content_block_stop', { index: 0 }),
      ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
      ev('message_stop'),
    ].join('');
    const { request, sent } = stub([first, second]);
    await lastValueFrom(toolLoop(request, tools, { format: 'anthropic', messages: [user] }).pipe(toArray()));
    expect(ran).toEqual(['u']);
    expect(sent[1]?.[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'rxjs' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: results },
        { type: 'tool_use', id: 'toolu_1', name: 'save', input: { url: 'u' } },
      ],
    });
  });
});
