/**
 * OpenAI-compatible chat servers: the argument text of a call (empty arguments, resent and
 * cumulative arguments, streams cut mid-call). Each case is our own small stream shaped like the one
 * in the named public report; see `helpers.ts` for how it runs (every chunking, whole pipeline).
 */
import { openaiDone } from 'rxjs-tool-calls/marbles';
import { calls, failed, finishChunk, ok, outcome, runWire, tc } from './helpers';

const DONE = openaiDone();
const TOOL_CALLS = 'tool-calls/tool_calls';

describe('real-world OpenAI-compatible streams: empty arguments', () => {
  it('QwenLM/qwen-code#6249: a no-parameter tool streams arguments "" and nothing more: success with {}', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_t', name: 'task_list', args: '' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('call_t', 'task_list', {})], TOOL_CALLS));
  });

  it('pipecat-ai/pipecat#4060: vLLM sends arguments: null on every fragment of a no-parameter tool: success with {}', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_n', name: 'get_time', args: null })]), calls([tc({ index: 0, args: null })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('call_n', 'get_time', {})], TOOL_CALLS));
  });

  it('VicBilibily/GCMP#194: fragments that legitimately repeat text ("100" then "00") are joined as they are', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_p', name: 'pad', args: '{"n":100' })]),
      calls([tc({ index: 0, args: '00,"s":"-step' })]),
      calls([tc({ index: 0, args: '-step"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_p', 'pad', { n: 10000, s: '-step-step' })], TOOL_CALLS));
  });
});

describe('real-world OpenAI-compatible streams: resent arguments (rule `unambiguous-repair`)', () => {
  it('cline/kanban#339: a local server sends the whole arguments twice: one copy, repaired "repeated"', () => {
    const args = '{"files":[{"path":"/app/AppState.kt"}]}';
    const run = runWire(calls([tc({ index: 0, id: 'call_r', name: 'read_files', args: '' })]), calls([tc({ index: 0, args })]), calls([tc({ index: 0, args })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('call_r', 'read_files', { files: [{ path: '/app/AppState.kt' }] }, 'repeated')], TOOL_CALLS));
  });

  it('vllm-project/vllm#51697: the xlam parser streams the arguments, then its end-of-stream flush sends them all again', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'chatcmpl-tool-x1', name: 'get_current_weather', args: '' })]),
      calls([tc({ index: 0, args: '{"city": "Seattle", ' })]),
      calls([tc({ index: 0, args: '"state": "WA"}' })]),
      calls([tc({ index: 0, args: '{"city": "Seattle", "state": "WA"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('chatcmpl-tool-x1', 'get_current_weather', { city: 'Seattle', state: 'WA' }, 'repeated')], TOOL_CALLS));
  });

  it('vllm-project/vllm#51697: under another alignment the parser streams "{" and then the whole object: repaired "cumulative"', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'chatcmpl-tool-x2', name: 'get_current_weather', args: '' })]),
      calls([tc({ index: 0, args: '{' })]),
      calls([tc({ index: 0, args: '{"city": "Orlando", "state": "FL"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('chatcmpl-tool-x2', 'get_current_weather', { city: 'Orlando', state: 'FL' }, 'cumulative')], TOOL_CALLS));
  });

  it('NousResearch/hermes-agent#35718: a DeepSeek/Qianfan route resends all the arguments so far in every fragment: repaired "cumulative"', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_c', name: 'search_files', args: '{"pattern":' })]),
      calls([tc({ index: 0, args: '{"pattern":"*.ts","path":' })]),
      calls([tc({ index: 0, args: '{"pattern":"*.ts","path":"src"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_c', 'search_files', { pattern: '*.ts', path: 'src' }, 'cumulative')], TOOL_CALLS));
  });

  it('vllm-project/vllm#10395: garbled fragments followed by the whole object are neither shape: malformed-arguments, never guessed', () => {
    const pieces = ['{"wd": 2', '3', ', "sd": 0', '.8, "injection": ""', 'ZSJB', '{"wd": 23, "sd": 0.8, "injection": "ZSJB"}'];
    const run = runWire(calls([tc({ index: 0, id: 'chatcmpl-tool-4a68', name: 'predict_x', args: '' })]), ...pieces.map((args) => calls([tc({ index: 0, args })])), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([failed('malformed-arguments', 'chatcmpl-tool-4a68', 'predict_x', pieces.join(''))], TOOL_CALLS));
  });

  it('open-webui/open-webui#22235: two different complete objects under one index are not a resend: malformed-arguments', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_ws', name: 'web_search', args: '{"query":"A","count":5}' })]),
      calls([tc({ index: 0, args: '{"query":"B","count":5}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([failed('malformed-arguments', 'call_ws', 'web_search', '{"query":"A","count":5}{"query":"B","count":5}')], TOOL_CALLS));
  });
});

describe('real-world OpenAI-compatible streams: cut streams', () => {
  it('CommandCodeAI/command-code#785: the SSE body ends mid-arguments with no finish_reason and no [DONE]: incomplete, then truncated', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_w', name: 'write_file', args: '{"path":"big.md","content":"# Ti' })]), calls([tc({ index: 0, args: 'tle\\n' })]));
    expect(run).toEqual(outcome([failed('incomplete', 'call_w', 'write_file', '{"path":"big.md","content":"# Title\\n', 'truncated')], null, 'truncated'));
  });
});
