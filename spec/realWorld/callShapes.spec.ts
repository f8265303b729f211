/**
 * Call shapes from public reports (rules `glued-calls`, `several-indices`, `object-tool-calls` and
 * `whitespace-resend`): several calls glued into one entry's arguments, one call sent at several
 * indices, `tool_calls` as an object, resends that differ only in whitespace or grow, and calls told
 * apart by id or name. Each case is our own small stream shaped like the one in the named public
 * report; see `helpers.ts` for how it runs.
 */
import { openaiDone } from 'rxjs-tool-calls/marbles';
import { calls, chat, failed, finishChunk, ok, outcome, runWire, tc } from './helpers';

const DONE = openaiDone();
type Summary = ReturnType<typeof runWire>['results'][number];

describe('real-world glued calls (rule `glued-calls`)', () => {
  it('NousResearch/hermes-agent#62940: Gemini’s OpenAI layer sends three parallel calls whole at index 0, no ids: three calls, repaired "split"', () => {
    const run = runWire(
      calls([tc({ index: 0, name: 'create_event', args: '{"date":"2026-06-11","title":"Dentist"}', type: false })]),
      calls([tc({ index: 0, name: 'create_event', args: '{"date":"2026-06-12","title":"Gym"}', type: false })]),
      calls([tc({ index: 0, name: 'create_event', args: '{"date":"2026-06-12","title":"Dinner"}', type: false })]),
      finishChunk('tool_calls'),
      DONE,
    );
    const split = (id: string, args: unknown): Summary => ok(id, 'create_event', args, 'split');
    expect(run).toEqual(
      outcome(
        [split('gen_0', { date: '2026-06-11', title: 'Dentist' }), split('gen_1', { date: '2026-06-12', title: 'Gym' }), split('gen_2', { date: '2026-06-12', title: 'Dinner' })],
        'tool-calls/tool_calls',
      ),
    );
  });

  it('diegosouzapw/OmniRoute#11043: a provider never bumps index or id for same-name calls whose arguments stream in pieces', () => {
    const run = runWire(
      calls([tc({ index: 0, name: 'read_file', args: '' })]),
      calls([tc({ index: 0, args: '{"path":' })]),
      calls([tc({ index: 0, args: '"a.rs"}' })]),
      calls([tc({ index: 0, args: '{"path":' })]),
      calls([tc({ index: 0, args: '"b.rs"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('gen_0', 'read_file', { path: 'a.rs' }, 'split'), ok('gen_1', 'read_file', { path: 'b.rs' }, 'split')], 'tool-calls/tool_calls'));
  });

  it('weave-os/router#1075: a translator re-emits each Gemini snapshot of one call whole as it grows: one call, the last value, repaired "cumulative"', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_w', name: 'search', args: '{"q":"A"}' })]),
      calls([tc({ index: 0, args: '{"q":"AB"}' })]),
      calls([tc({ index: 0, args: '{"q":"ABC","limit":5}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_w', 'search', { q: 'ABC', limit: 5 }, 'cumulative')], 'tool-calls/tool_calls'));
  });

  it('mudler/cogito#66: glued objects that differ, on a call with an id: never guessed, malformed-arguments', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_c', name: 'set', args: '{"a":1}' })]), calls([tc({ index: 0, args: '{"b":2}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([failed('malformed-arguments', 'call_c', 'set', '{"a":1}{"b":2}')], 'tool-calls/tool_calls'));
  });

  it('springfall2008/batpred#4904: parallel calls without index, each with its own name, stay separate calls (not glued)', () => {
    const run = runWire(
      calls([tc({ name: 'set_chat_title', args: '{"title":"Battery"}' })]),
      calls([tc({ name: 'get_status', args: '{}' })]),
      calls([tc({ name: 'get_log', args: '{"lines":20}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('gen_0', 'set_chat_title', { title: 'Battery' }), ok('gen_1', 'get_status', {}), ok('gen_2', 'get_log', { lines: 20 })], 'tool-calls/tool_calls'));
  });
});

describe('real-world calls at several indices, odd containers and resends (rules `several-indices`, `object-tool-calls` and `whitespace-resend`)', () => {
  it('mudler/LocalAI#9722: one call comes at index 0 (name) and index 1 (arguments) with the same id: one call', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'LipwoT0puK4t', name: 'exec', args: '' })]),
      calls([tc({ index: 1, id: 'LipwoT0puK4t', args: '{"cmd":"uname -a"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('LipwoT0puK4t', 'exec', { cmd: 'uname -a' })], 'tool-calls/tool_calls'));
  });

  it('mudler/LocalAI#9722: the whole call repeated at index 1 with the same id and name: one call, the repeat repaired', () => {
    const whole = { id: 'Xq1', name: 'exec', args: '{"cmd":"ls"}' };
    const run = runWire(calls([tc({ index: 0, ...whole })]), calls([tc({ index: 1, ...whole })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('Xq1', 'exec', { cmd: 'ls' }, 'repeated')], 'tool-calls/tool_calls'));
  });

  it('agno-agi/agno#8880: deepseek-v4-flash sends the head of the second call at index 0 and its tail at index 1 with its id', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_a', name: 'list_dir', args: '{"path":"."}' })]),
      calls([tc({ index: 0, id: 'call_b', name: 'read_file', args: '' })]),
      calls([tc({ index: 1, id: 'call_b', args: '{"path":"README.md"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_a', 'list_dir', { path: '.' }), ok('call_b', 'read_file', { path: 'README.md' })], 'tool-calls/tool_calls'));
  });

  it('a gateway sends `delta.tool_calls` as one object instead of an array (rule `object-tool-calls`)', () => {
    const entry = (fields: Record<string, unknown>): string => chat([{ index: 0, delta: { tool_calls: fields }, finish_reason: null }]);
    const run = runWire(
      entry({ index: 0, id: 'call_o', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }),
      entry({ index: 0, function: { arguments: '"Paris"}' } }),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_o', 'get_weather', { city: 'Paris' })], 'tool-calls/tool_calls'));
  });

  it('anomalyco/opencode#17339: a GLM-style server streams the arguments, then resends them re-serialised without spaces: one call', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_g', name: 'write', args: '{"path": "a.md", ' })]),
      calls([tc({ index: 0, args: '"text": "hi"}' })]),
      calls([tc({ index: 0, args: '{"path":"a.md","text":"hi"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_g', 'write', { path: 'a.md', text: 'hi' }, 'repeated')], 'tool-calls/tool_calls'));
  });

  it('openai/openai-python#3201: vLLM with speculative decoding puts two entries with the same index in one chunk', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_v', name: 'get_time', args: '' }), tc({ index: 0, args: '{"tz":' })]),
      calls([tc({ index: 0, args: '"UTC"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_v', 'get_time', { tz: 'UTC' })], 'tool-calls/tool_calls'));
  });

  it('InternLM/lmdeploy#3412: sglang numbers its parallel calls "0", "1" at index 0, repeating the id on continuations', () => {
    const run = runWire(
      calls([tc({ index: 0, id: '0', name: 'func_name', args: '' })]),
      calls([tc({ index: 0, id: '0', args: '{"n":1}' })]),
      calls([tc({ index: 0, id: '1', name: 'func_name', args: '' })]),
      calls([tc({ index: 0, id: '1', args: '{"n":2}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('0', 'func_name', { n: 1 }), ok('1', 'func_name', { n: 2 })], 'tool-calls/tool_calls'));
  });
});
