/**
 * Arguments on their way through servers and gateways of 2026: resent, cut, dropped, interleaved,
 * or carried in chunks that break the usual shape. Each case is our own small stream shaped like the
 * one in the named public report; see `helpers.ts`.
 */
import { from, lastValueFrom, toArray } from 'rxjs';
import { readStreamEvents, readToolCalls } from 'rxjs-tool-calls';
import { openaiDone, responsesEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { z } from 'zod';
import { calls, chat, failed, finishChunk, ok, outcome, runWire, tc, textChunk } from './helpers';

const DONE = openaiDone();

describe('real-world chat servers and gateways', () => {
  it('lidge-jun/opencodex#361: each call’s arguments arrive twice (a third chunk repeats the second): one call, repaired as repeated', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'tool_sh', name: 'shell', args: '' })]),
      calls([tc({ index: 0, args: '{"command":"ls /home/opc"}' })]),
      calls([tc({ index: 0, args: '{"command":"ls /home/opc"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('tool_sh', 'shell', { command: 'ls /home/opc' }, 'repeated')], 'tool-calls/tool_calls'));
  });

  it('vllm-project/vllm#47901: a call after an empty-argument call arrives without its arguments: `{}`, which the schema refuses (never run)', async () => {
    const wire = [calls([tc({ index: 0, id: 'call_a', name: 'list_tools', args: '{}' })]), calls([tc({ index: 1, id: 'call_b', name: 'read_file', args: '' })]), finishChunk('tool_calls'), DONE];
    expect(runWire(...wire)).toEqual(outcome([ok('call_a', 'list_tools', {}), ok('call_b', 'read_file', {})], 'tool-calls/tool_calls'));
    const tools = { list_tools: z.object({}), read_file: z.object({ path: z.string() }) };
    const results = await lastValueFrom(from([toBytes(wire.join(''))]).pipe(readToolCalls({ tools }), toArray()));
    expect(results.map((r) => (r.success ? r.data.name : r.error.code))).toEqual(['list_tools', 'invalid-arguments']);
  });

  it('anthropics/claude-code#19143: the stream says "stop" before the last argument chunks came: malformed-arguments with the text that came, never run', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'toolu_01HM', name: 'create_batch_slides', args: '' })]),
      calls([tc({ index: 0, args: '{"file_path_list": ["presentation/01.html","prese' })]),
      finishChunk('stop'),
      DONE,
    );
    expect(run).toEqual(outcome([failed('malformed-arguments', 'toolu_01HM', 'create_batch_slides', '{"file_path_list": ["presentation/01.html","prese')], 'stop/stop'));
  });

  it('praxis-proxy/ai#266: two calls opened, then id-less argument deltas interleaved by index: each goes to its own call', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_0', name: 'read', args: '' }), tc({ index: 1, id: 'call_1', name: 'read', args: '' })]),
      calls([tc({ index: 1, args: '{"path":' })]),
      calls([tc({ index: 0, args: '{"path":' })]),
      calls([tc({ index: 0, args: '"a.md"}' })]),
      calls([tc({ index: 1, args: '"b.md"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_0', 'read', { path: 'a.md' }), ok('call_1', 'read', { path: 'b.md' })], 'tool-calls/tool_calls'));
  });

  it('Portkey-AI/portkey-python-sdk#370: random comment lines (": L1Gt0UZWbB") between chunks change nothing', () => {
    const comment = ': L1Gt0UZWbB\n\n';
    const run = runWire(calls([tc({ index: 0, id: 'call_p', name: 'search', args: '{"q":' })]), comment, calls([tc({ index: 0, args: '"rxjs"}' })]), comment, finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('call_p', 'search', { q: 'rxjs' })], 'tool-calls/tool_calls'));
  });

  it('lingyuins/octopus#62: the finish chunk has no delta at all ({"index":0,"finish_reason":"tool_calls"})', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_o', name: 'get_time', args: '{"tz":"UTC"}' })]), chat([{ index: 0, finish_reason: 'tool_calls' }]), DONE);
    expect(run).toEqual(outcome([ok('call_o', 'get_time', { tz: 'UTC' })], 'tool-calls/tool_calls'));
  });

  it('nextai-translator/nextai-translator#1922: the last text segment and the finish share one chunk (OpenRouter forwarding Cerebras): the text is kept', () => {
    const run = runWire(textChunk('Bonjour '), textChunk('le monde.', 'stop'), DONE);
    expect(run).toEqual(outcome([], 'stop/stop', 'completed', 'Bonjour le monde.'));
  });
});

describe('real-world Responses servers', () => {
  it('vllm-project/vllm#44348: the argument deltas stop short and the rest comes only in the final item: the whole arguments win (rule `final-arguments-win`)', async () => {
    const item = (args: string, status: string) => ({ type: 'function_call', id: 'fc_v', call_id: 'call_v', name: 'get_weather', arguments: args, status });
    const wire = [
      responsesEvent('response.created', { response: { id: 'resp_v', status: 'in_progress', output: [] } }),
      responsesEvent('response.output_item.added', { output_index: 0, item: item('', 'in_progress') }),
      responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_v', delta: '{"location": "San' }),
      responsesEvent('response.output_item.done', { output_index: 0, item: item('{"location": "San Francisco"}', 'completed') }),
      responsesEvent('response.completed', { response: { id: 'resp_v', status: 'completed', output: [item('{"location": "San Francisco"}', 'completed')] } }),
    ];
    expect(runWire(...wire)).toEqual(outcome([ok('call_v', 'get_weather', { location: 'San Francisco' })], 'tool-calls/completed'));
    // The deltas were shown live; the final item restated the whole text.
    const events = await lastValueFrom(from([toBytes(wire.join(''))]).pipe(readStreamEvents(), toArray()));
    expect(events.filter((e) => e.type === 'tool-call-delta').map((e) => (e.type === 'tool-call-delta' ? [e.argumentsDelta, e.replace === true] : []))).toEqual([
      ['', false],
      ['{"location": "San', false],
      ['{"location": "San Francisco"}', true],
    ]);
  });
});
