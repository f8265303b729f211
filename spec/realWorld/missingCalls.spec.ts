/**
 * A finish that promises calls that never came (rule `missing-calls`): `finish_reason: "tool_calls"` or
 * `stop_reason: "tool_use"` with no call in the stream is a `missing-tool-calls` failure (a generated
 * id, no name, no arguments), never silence a tool loop would take as the model's answer. Each case
 * is our own small stream shaped like the one in the named public report; see `helpers.ts`.
 */
import { anthropicEvent, cohereEvent, openaiDone } from 'rxjs-tool-calls/marbles';
import { calls, chat, failed, finishChunk, ok, outcome, runWire, tc, textChunk } from './helpers';

const DONE = openaiDone();
const missing = failed('missing-tool-calls', 'gen_0', '', '');

describe('real-world finishes that promise calls', () => {
  it('NousResearch/hermes-agent#75926: Copilot’s Claude ends with finish_reason "tool_calls", a preamble and an empty tool_calls array', () => {
    const run = runWire(
      chat([{ index: 0, delta: { role: 'assistant', content: "I'll read the brief file first." }, finish_reason: null }]),
      chat([{ index: 0, delta: { tool_calls: [] }, finish_reason: 'tool_calls' }]),
      DONE,
    );
    expect(run).toEqual(outcome([missing], 'tool-calls/tool_calls', 'completed', "I'll read the brief file first."));
    expect(run.error).toBeUndefined();
  });

  it('earendil-works/pi#9681: an Anthropic stream with stop_reason "tool_use" and no content block at all', () => {
    const run = runWire(
      anthropicEvent('message_start', { message: { id: 'msg_p', model: 'claude-test', usage: { input_tokens: 9, output_tokens: 1 } } }),
      anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 1 } }),
      anthropicEvent('message_stop'),
    );
    expect(run).toEqual(outcome([missing], 'tool-calls/tool_use'));
  });

  it('mastra-ai/mastra#14187: a gateway’s chat stream says "tool_calls" without ever sending a tool_calls delta', () => {
    const run = runWire(textChunk(''), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([missing], 'tool-calls/tool_calls'));
  });

  it('labring/FastGPT#7339: only reasoning, then finish_reason "tool_calls" (the request had tool_choice "none")', () => {
    const run = runWire(chat([{ index: 0, delta: { reasoning_content: 'I should call search…' }, finish_reason: null }]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([missing], 'tool-calls/tool_calls'));
  });

  it('jasonxu114514/opencode2api#27: deltas came but never a name: missing-name for that call, no missing-tool-calls (a call did come)', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_q', args: '{"q":' })]), calls([tc({ index: 0, args: '"x"}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([failed('missing-name', 'call_q', '', '{"q":"x"}')], 'tool-calls/tool_calls'));
  });

  it('Kilo-Org/kilocode#7773: a Cohere-format turn ends TOOL_CALL with no tool-call-start', () => {
    const run = runWire(
      cohereEvent('message-start', { id: 'c_k' }),
      cohereEvent('tool-plan-delta', { delta: { message: { tool_plan: 'Search first.' } } }),
      cohereEvent('message-end', { delta: { finish_reason: 'TOOL_CALL' } }),
    );
    expect(run).toEqual(outcome([missing], 'tool-calls/TOOL_CALL'));
  });

  it('n = 2: only the choice that promised calls and sent none gets the failure', () => {
    const run = runWire(
      chat([{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'f', arguments: '{}' } }] }, finish_reason: 'tool_calls' }]),
      chat([{ index: 1, delta: { content: 'none' }, finish_reason: 'tool_calls' }]),
      DONE,
    );
    expect(run.results).toEqual([ok('c0', 'f', {}), failed('missing-tool-calls', 'gen_0', '', '')]);
  });
});
