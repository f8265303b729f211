/**
 * OpenAI Responses API streams and Responses-compatible servers (codex models, LM Studio-style
 * servers, bridges and caches): where a function call's final arguments come from. Each case is our
 * own small stream shaped like the one in the named public report; see `helpers.ts` for how it runs.
 */
import { responsesEvent } from 'rxjs-tool-calls/marbles';
import { failed, ok, outcome, runWire } from './helpers';

const created = responsesEvent('response.created', { response: { id: 'resp_rw', model: 'gpt-test', status: 'in_progress', output: [] } });
const item = (args: string, status = 'in_progress') => ({ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: args, status });
const added = (args = ''): string => responsesEvent('response.output_item.added', { output_index: 0, item: item(args) });
const delta = (piece: string): string => responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: piece });
const argsDone = (args: string): string => responsesEvent('response.function_call_arguments.done', { output_index: 0, item_id: 'fc_1', arguments: args });
const itemDone = (args: string): string => responsesEvent('response.output_item.done', { output_index: 0, item: item(args, 'completed') });
const completed = (args: string): string =>
  responsesEvent('response.completed', {
    response: { id: 'resp_rw', model: 'gpt-test', status: 'completed', output: [item(args, 'completed')], usage: { input_tokens: 9, output_tokens: 7, total_tokens: 16 } },
  });
const incomplete = (reason: string): string =>
  responsesEvent('response.incomplete', { response: { id: 'resp_rw', status: 'incomplete', incomplete_details: { reason }, output: [item('{"city":"Par', 'incomplete')] } });

const PARIS = '{"city":"Paris"}';
const TOOL_CALLS = 'tool-calls/completed';

describe('real-world Responses streams that already read right', () => {
  it('BerriAI/litellm#27792: gpt-5.3-codex-spark sends no argument deltas, only .done with the whole arguments', () => {
    const run = runWire(created, added(), argsDone(PARIS), itemDone(PARIS), completed(PARIS));
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Paris' })], TOOL_CALLS));
  });

  it('rsalmn/ExtremeRouter#9: output_item.added then output_item.done with the whole arguments, no deltas and no .done', () => {
    const run = runWire(created, added(), itemDone(PARIS), completed(PARIS));
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Paris' })], TOOL_CALLS));
  });

  it('ENTERPILOT/GoModel#200: a cached replay puts the whole arguments in output_item.added and streams them again', () => {
    const run = runWire(created, added(PARIS), delta('{"city":'), delta('"Paris"}'), argsDone(PARIS), itemDone(PARIS), completed(PARIS));
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Paris' })], TOOL_CALLS));
  });

  it('Wei-Shaw/sub2api#6629: the arguments come only in .done, and the item in output_item.done has arguments ""', () => {
    const run = runWire(created, added(), argsDone(PARIS), itemDone(''), completed(PARIS));
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Paris' })], TOOL_CALLS));
  });

  it('docker/docker-agent#2976: an argument delta arrives before the output_item.added of its call', () => {
    const run = runWire(created, delta('{"city":'), added(), delta('"Paris"}'), itemDone(PARIS), completed(PARIS));
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Paris' })], TOOL_CALLS));
  });
});

describe('real-world Responses streams: the most final non-empty arguments win (rule `final-arguments-win`)', () => {
  it('farion1231/cc-switch#6481: a gateway sends .done with arguments "" after real deltas; the item has the real ones', () => {
    const run = runWire(created, added(), delta('{"city":'), delta('"Paris"}'), argsDone(''), itemDone(PARIS), completed(PARIS));
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Paris' })], TOOL_CALLS));
  });

  it('NVIDIA-NeMo/Switchyard#777: .done and the item carry arguments "", the real ones are only in response.completed', () => {
    const run = runWire(created, added(), argsDone(''), itemDone(''), completed(PARIS));
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Paris' })], TOOL_CALLS));
  });

  it('anomalyco/opencode#44893: partial deltas, no .done and no output_item.done, the whole arguments in response.completed', () => {
    const run = runWire(created, added(), delta('{"city":"Par'), completed(PARIS));
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Paris' })], TOOL_CALLS));
  });
});

describe('real-world Responses streams: response.incomplete (rule `cut-finish`)', () => {
  it('LibreChat-AI/agents#280: max_output_tokens cuts an open call: incomplete with reason length, never run', () => {
    const run = runWire(created, added(), delta('{"city":"Par'), incomplete('max_output_tokens'));
    expect(run).toEqual(outcome([failed('incomplete', 'call_1', 'get_weather', '{"city":"Par', 'length')], 'length/incomplete'));
  });

  it('BerriAI/litellm#34352: a content filter cuts an open call: incomplete with reason content-filter', () => {
    const run = runWire(created, added(), delta('{"city":"Par'), incomplete('content_filter'));
    expect(run).toEqual(outcome([failed('incomplete', 'call_1', 'get_weather', '{"city":"Par', 'content-filter')], 'content-filter/incomplete'));
  });
});
