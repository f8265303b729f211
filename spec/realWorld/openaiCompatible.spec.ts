/**
 * OpenAI-compatible chat servers (Ollama, vLLM, SGLang, DashScope, DeepSeek routes, MiniMax behind
 * NVIDIA NIM, Fireworks, Mistral's API, …): how they identify tool calls across fragments.
 * Each case is our own small stream shaped like the one in the named public report; see
 * `helpers.ts` for how it runs (every chunking, whole pipeline).
 */
import { openaiDone } from 'rxjs-tool-calls/marbles';
import { calls, failed, finishChunk, ok, outcome, runWire, tc, textChunk } from './helpers';

const DONE = openaiDone();

describe('real-world OpenAI-compatible streams: call identity', () => {
  it('ollama/ollama#15457: every parallel call is sent whole at index 0 with its own id', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_a', name: 'write_file', args: '{"path":"hello.py","content":"print(1)"}' })]),
      calls([tc({ index: 0, id: 'call_b', name: 'write_file', args: '{"path":"world.py","content":"print(2)"}' })]),
      finishChunk('stop'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_a', 'write_file', { path: 'hello.py', content: 'print(1)' }), ok('call_b', 'write_file', { path: 'world.py', content: 'print(2)' })], 'stop/stop'));
  });

  it('ollama/ollama#7881: tool-call fragments carry no index at all', () => {
    const run = runWire(
      calls([tc({ id: 'call_1', name: 'get_weather', args: '{"city":"Boston"}' })]),
      calls([tc({ id: 'call_2', name: 'get_time', args: '{"tz":"EST"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_1', 'get_weather', { city: 'Boston' }), ok('call_2', 'get_time', { tz: 'EST' })], 'tool-calls/tool_calls'));
  });

  it('continuedev/continue#13225: Ollama gpt-oss sends an index but no id: the call gets a generated id', () => {
    const run = runWire(calls([tc({ index: 0, name: 'read_file', args: '' })]), calls([tc({ index: 0, args: '{"filepath":"convex/schema.ts"}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('gen_0', 'read_file', { filepath: 'convex/schema.ts' })], 'tool-calls/tool_calls'));
  });

  it('symfony/ai#2220: DashScope repeats the id as "" on every continuation fragment', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_q1', name: 'get_weather', args: '' })]),
      calls([tc({ index: 0, id: '', args: '{"location":' })]),
      calls([tc({ index: 0, id: '', args: '"Hangzhou"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_q1', 'get_weather', { location: 'Hangzhou' })], 'tool-calls/tool_calls'));
  });

  it('spring-projects/spring-ai#4790: Qwen continuations carry id "" and name "" beside the argument pieces', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_8589', name: 'rag_search', args: '' })]),
      calls([tc({ index: 0, id: '', name: '', args: '{"arg0": 1' })]),
      calls([tc({ index: 0, id: '', name: '', args: '' })]),
      calls([tc({ index: 0, id: '', name: '', args: ', "arg1": ""}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_8589', 'rag_search', { arg0: 1, arg1: '' })], 'tool-calls/tool_calls'));
  });

  it('NousResearch/hermes-agent#12230: MiniMax behind NVIDIA NIM re-sends the whole name on every fragment (never concatenated)', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_m1', name: 'read_file', args: '{"path":' })]),
      calls([tc({ index: 0, name: 'read_file', args: '"notes.md"' })]),
      calls([tc({ index: 0, name: 'read_file', args: '}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_m1', 'read_file', { path: 'notes.md' })], 'tool-calls/tool_calls'));
  });

  it('SillyTavern/SillyTavern#5948: Fireworks repeats id, type and name on every fragment (the id is never concatenated)', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'chatcmpl-tool-aa62', name: 'debug_tool', args: '' })]),
      calls([tc({ index: 0, id: 'chatcmpl-tool-aa62', name: 'debug_tool', args: '{"level":' })]),
      calls([tc({ index: 0, id: 'chatcmpl-tool-aa62', name: 'debug_tool', args: '3}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('chatcmpl-tool-aa62', 'debug_tool', { level: 3 })], 'tool-calls/tool_calls'));
  });

  it('vercel/ai#14722: the first fragment has an id and empty arguments, the name comes in a later fragment', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_123', args: '' })]),
      calls([tc({ index: 0, id: 'call_123', name: 'bash', args: '{' })]),
      calls([tc({ index: 0, args: '"command": "ls -la"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_123', 'bash', { command: 'ls -la' })], 'tool-calls/tool_calls'));
  });

  it('vllm-project/vllm#9693: the name and the arguments come in separate fragments without any id', () => {
    const run = runWire(calls([tc({ index: 0, id: null, name: 'sum', args: null })]), calls([tc({ index: 0, id: null, name: null, args: '{"n1": 2, "n2": 2}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('gen_0', 'sum', { n1: 2, n2: 2 })], 'tool-calls/tool_calls'));
  });

  it('deepset-ai/haystack#9581: qwen-plus sends a fragment whose name and arguments are both null mid-call', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_w', name: 'weather', args: '{"city":' })]),
      calls([tc({ index: 0, id: null, name: null, args: null })]),
      calls([tc({ index: 0, args: '"Berlin"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_w', 'weather', { city: 'Berlin' })], 'tool-calls/tool_calls'));
  });

  it('langchain-ai/langchain#36627: two fragments of the same index inside one delta (name/id, then "{")', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_s', name: 'search', args: '' }), tc({ index: 0, args: '{' })]),
      calls([tc({ index: 0, args: '"q":"rxjs"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_s', 'search', { q: 'rxjs' })], 'tool-calls/tool_calls'));
  });

  it('oracle/langchain-oracle#108: Grok streams parallel calls at index 0, each with a new id and a name', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_abc', name: 'get_weather', args: '' })]),
      calls([tc({ index: 0, args: '{"city":"Oslo"}' })]),
      calls([tc({ index: 0, id: 'call_def', name: 'get_weather', args: '' })]),
      calls([tc({ index: 0, args: '{"city":"Rome"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_abc', 'get_weather', { city: 'Oslo' }), ok('call_def', 'get_weather', { city: 'Rome' })], 'tool-calls/tool_calls'));
  });

  it('ollama/ollama#4357: finish_reason "" on every text chunk is no finish', () => {
    const run = runWire(textChunk('It', ''), textChunk(' depends', ''), textChunk('.', ''), finishChunk('stop'), DONE);
    expect(run).toEqual(outcome([], 'stop/stop', 'completed', 'It depends.'));
  });
});

describe('real-world OpenAI-compatible streams: ids that change, names that never come (rules `nameless-continues` and `name-required`)', () => {
  it('poolsideai/pool#9: the id changes after the first fragment (no name on the later ones): one call, first id kept', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_first', name: 'read_file', args: '' })]),
      calls([tc({ index: 0, id: 'call_second', args: '{"path":' })]),
      calls([tc({ index: 0, id: 'call_second', args: '"src/main.ts"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_first', 'read_file', { path: 'src/main.ts' })], 'tool-calls/tool_calls'));
  });

  it('langchain-ai/langchainjs#11373: zai-glm on Mistral\'s API sends the placeholder id "null" on continuations: one call', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'Xq7bT2mKp', name: 'search_docs', args: '{"query": ' })]),
      calls([tc({ index: 0, id: 'null', args: '"streaming tool calls"' })]),
      calls([tc({ index: 0, id: 'null', args: ', "limit": 5}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('Xq7bT2mKp', 'search_docs', { query: 'streaming tool calls', limit: 5 })], 'tool-calls/tool_calls'));
  });

  it('lidge-jun/opencodex#1531: a DeepSeek route streams arguments but never a name: missing-name, never a success', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_ds', args: '{"cmd' })]), calls([tc({ index: 0, args: '":"ls"}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([failed('missing-name', 'call_ds', '', '{"cmd":"ls"}')], 'tool-calls/tool_calls'));
  });

  it('farion1231/cc-switch#4158: one call only ever has name "" while its sibling is named: the sibling still succeeds', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_ok', name: 'list_dir', args: '{"path":"."}' }), tc({ index: 1, id: 'call_noname', name: '', args: '' })]),
      calls([tc({ index: 1, name: '', args: '{"path":"docs"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_ok', 'list_dir', { path: '.' }), failed('missing-name', 'call_noname', '', '{"path":"docs"}')], 'tool-calls/tool_calls'));
  });
});
