/**
 * Identity that arrives late or in pieces: Responses adapters that name a call only when its item is
 * done, chat servers that stream the name in pieces, or restate it (and the id) on every fragment, or
 * send no id at all (rules `first-sight` and `name-pieces`). Each case is our own small stream shaped
 * like the one in the named public report; see `helpers.ts`.
 */
import { openaiDone, responsesEvent } from 'rxjs-tool-calls/marbles';
import { calls, chat, failed, finishChunk, ok, outcome, runWire, tc } from './helpers';

const DONE = openaiDone();

describe('real-world Responses adapters that name a call late', () => {
  const created = responsesEvent('response.created', { response: { id: 'resp_m365', model: 'gpt-test', status: 'in_progress', output: [] } });
  const item = (fields: Record<string, unknown>) => ({ type: 'function_call', id: 'fc_9f3c', arguments: '', status: 'in_progress', ...fields });
  const delta = (piece: string): string => responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_9f3c', delta: piece });
  const itemDone = (fields: Record<string, unknown>): string => responsesEvent('response.output_item.done', { output_index: 0, item: item({ status: 'completed', ...fields }) });
  const completed = (fields: Record<string, unknown>): string =>
    responsesEvent('response.completed', { response: { id: 'resp_m365', status: 'completed', output: [item({ status: 'completed', ...fields })] } });

  it('HEXUXIU/M365-Copilot2API#77: output_item.added has call_id "" and name "", output_item.done fills them: the call has its id and name', () => {
    const whole = { call_id: 'call_77', name: 'list_files', arguments: '{"dir":"src"}' };
    const run = runWire(
      created,
      responsesEvent('response.output_item.added', { output_index: 0, item: item({ call_id: '', name: '' }) }),
      delta('{"dir":'),
      delta('"src"}'),
      itemDone(whole),
      completed(whole),
    );
    expect(run).toEqual(outcome([ok('call_77', 'list_files', { dir: 'src' })], 'tool-calls/completed'));
  });

  it('HEXUXIU/M365-Copilot2API#77: without the fill, the call is never run (missing-name), its arguments kept', () => {
    const run = runWire(
      created,
      responsesEvent('response.output_item.added', { output_index: 0, item: item({ call_id: '', name: '' }) }),
      delta('{"dir":"src"}'),
      itemDone({ call_id: '', name: '', arguments: '{"dir":"src"}' }),
      completed({ call_id: '', name: '', arguments: '{"dir":"src"}' }),
    );
    expect(run).toEqual(outcome([failed('missing-name', 'gen_0', '', '{"dir":"src"}')], 'tool-calls/completed'));
  });
});

describe('real-world chat servers that send a name in pieces or again and again (rule `name-pieces`)', () => {
  it('continuedev/continue#5849: the name streamed in pieces ("edit_ex" + "isting_file") is one name', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_e', name: 'edit_ex', args: '' })]),
      calls([tc({ index: 0, name: 'isting_file', args: '' })]),
      calls([tc({ index: 0, args: '{"path":"a.ts"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_e', 'edit_existing_file', { path: 'a.ts' })], 'tool-calls/tool_calls'));
  });

  it('continuedev/continue#5849: the whole name restated on every fragment (the other servers of that report) stays one name', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_e', name: 'edit_existing_file', args: '' })]),
      calls([tc({ index: 0, name: 'edit_existing_file', args: '{"path":' })]),
      calls([tc({ index: 0, name: 'edit_existing_file', args: '"a.ts"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_e', 'edit_existing_file', { path: 'a.ts' })], 'tool-calls/tool_calls'));
  });

  it('ankit373/hydra#957: the name split the way the arguments are, both in the same fragments ("get_wea" + "ther")', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_ab', name: 'get_wea', args: '{"ci' })]), calls([tc({ index: 0, name: 'ther', args: 'ty":"Paris"}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('call_ab', 'get_weather', { city: 'Paris' })], 'tool-calls/tool_calls'));
  });

  it('ggml-org/llama.cpp#13774: llama-server repeats the name on every delta and puts the id inside function: one name, a generated id', () => {
    const fn = (args: string) => ({ index: 0, function: { name: 'add_two_numbers', id: 'tool_1', arguments: args } });
    const run = runWire(calls([fn('')]), calls([fn('{"a":')]), calls([fn(' 2, "b": 3}')]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('gen_0', 'add_two_numbers', { a: 2, b: 3 })], 'tool-calls/tool_calls'));
  });

  it('vllm-project/vllm-ascend#8327: the last chunk restates id, type and name beside the last arguments and the finish reason', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'chatcmpl-tool-1', name: 'get_weather', args: '' })]),
      calls([tc({ index: 0, args: '{"city": "Bei' })]),
      calls([tc({ index: 0, id: 'chatcmpl-tool-1', name: 'get_weather', args: 'jing"}' })], 'tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('chatcmpl-tool-1', 'get_weather', { city: 'Beijing' })], 'tool-calls/tool_calls'));
  });

  it('anomalyco/opencode#1880: GLM behind vLLM opens a tool call without an id: a generated id, the call whole', () => {
    const run = runWire(calls([tc({ index: 0, name: 'write', args: '' })]), calls([tc({ index: 0, args: '{"path":"x.md","content":"# x"}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('gen_0', 'write', { path: 'x.md', content: '# x' })], 'tool-calls/tool_calls'));
  });

  it('tailcallhq/forgecode#1141: Kimi sends a call whose name never arrives: missing-name, never run', () => {
    const run = runWire(calls([tc({ index: 0, id: 'functions.:0', name: '', args: '{"path":"a"}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([failed('missing-name', 'functions.:0', '', '{"path":"a"}')], 'tool-calls/tool_calls'));
  });

  it('jin38324/OCI_GenAI_access_gateway#22: after the opening fragment the gateway sends arguments with no index, id or name: they continue the call', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_oci', name: 'sql_get_claim_details', args: '' })]),
      chat([{ index: 0, delta: { tool_calls: [{ function: { arguments: '{"claim_id":' } }] }, finish_reason: null }]),
      chat([{ index: 0, delta: { tool_calls: [{ function: { arguments: '"103"}' } }] }, finish_reason: null }]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_oci', 'sql_get_claim_details', { claim_id: '103' })], 'tool-calls/tool_calls'));
  });

  it('sgl-project/sglang#25073: Gemma 4 gives two calls of one tool the same index (the tool’s position in the request), with distinct ids', () => {
    const run = runWire(
      calls([tc({ index: 1, id: 'call_1', name: 'get_weather', args: '{"city":"Oslo"}' })]),
      calls([tc({ index: 1, id: 'call_2', name: 'get_weather', args: '{"city":"Rome"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Oslo' }), ok('call_2', 'get_weather', { city: 'Rome' })], 'tool-calls/tool_calls'));
  });
});
