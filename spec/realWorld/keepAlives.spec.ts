/**
 * Keep-alives never end a stream (rule `keep-alives`): relays, gateways and servers that send an
 * empty `data:` between chunks, `event: ping` with empty or non-JSON data, or a name the format
 * does not use. Each case is our own small stream shaped like the one in the named public report;
 * see `helpers.ts` for how it runs (every chunking, whole pipeline, auto-detected).
 */
import { anthropicEvent, openaiDone, responsesEvent, sseEvent } from 'rxjs-tool-calls/marbles';
import { calls, finishChunk, gemini, ok, outcome, runWire, tc, textChunk } from './helpers';

const DONE = openaiDone();

describe('real-world keep-alives: OpenAI-compatible chat', () => {
  it('netease-lcap/wave-agent#1326: a relay sends an empty `data:` heartbeat between the fragments of a call', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_r', name: 'read_file', args: '{"path":' })]),
      'data:\n\n',
      calls([tc({ index: 0, args: '"a.ts"}' })]),
      'data:\n\n',
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_r', 'read_file', { path: 'a.ts' })], 'tool-calls/tool_calls'));
  });

  it('Growth-Circle/cadis#2329: a proxy writes blank `data:` lines of spaces (one before the first chunk)', () => {
    const run = runWire('data:   \n\n', textChunk('On it.'), 'data:  \t\n\n', calls([tc({ index: 0, id: 'call_b', name: 'bash', args: '{"cmd":"ls"}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('call_b', 'bash', { cmd: 'ls' })], 'tool-calls/tool_calls', 'completed', 'On it.'));
  });

  it('waylaidwanderer/node-chatgpt-api#100: `event: ping` whose data is a timestamp, mid-call', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_t', name: 'search', args: '{"q":' })]),
      sseEvent({ event: 'ping', data: '2023-02-20 08:40:33.556053' }),
      calls([tc({ index: 0, args: '"rxjs"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_t', 'search', { q: 'rxjs' })], 'tool-calls/tool_calls'));
  });

  it('modelcontextprotocol/go-sdk#636: the stream opens with `event: ping` / `data: ping` before any chunk (auto-detection waits)', () => {
    const run = runWire(sseEvent({ event: 'ping', data: 'ping' }), calls([tc({ index: 0, id: 'call_p', name: 'lookup', args: '{"id":7}' })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('call_p', 'lookup', { id: 7 })], 'tool-calls/tool_calls'));
  });

  it('caozhiyuan/copilot-api#88: a ping event whose data is the JSON string "" (not an object) is skipped', () => {
    const run = runWire(sseEvent({ event: 'ping', data: '""' }), textChunk('Hi'), sseEvent({ event: 'ping', data: '""' }), finishChunk('stop'), DONE);
    expect(run).toEqual(outcome([], 'stop/stop', 'completed', 'Hi'));
  });

  it('Portkey-AI/gateway#1035: DeepInfra `: ping - 2` comment lines between chunks', () => {
    const run = runWire(
      ': ping - 1\n\n',
      calls([tc({ index: 0, id: 'call_d', name: 'poem', args: '{"lines":' })]),
      ': ping - 2\n\n',
      calls([tc({ index: 0, args: '4}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_d', 'poem', { lines: 4 })], 'tool-calls/tool_calls'));
  });

  it('theopenco/llmgateway#2334: `: ping` followed by a blank line after events that set `id:` dispatches nothing', () => {
    const withId = (chunk: string, id: string): string => `id: ${id}\n${chunk}`;
    const run = runWire(
      withId(calls([tc({ index: 0, id: 'call_i', name: 'f', args: '{"a":' })]), '1'),
      ': ping\n\n',
      withId(calls([tc({ index: 0, args: '1}' })]), '2'),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_i', 'f', { a: 1 })], 'tool-calls/tool_calls'));
  });

  it('a chunk whose data is not JSON under the default event name is still invalid-event (the format must parse it)', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_x', name: 'f', args: '{"a":1}' })]), 'data: keepalive\n\n', finishChunk('tool_calls'), DONE);
    expect(run.end).toBe('invalid-event');
    expect(run.results).toEqual([{ code: 'incomplete', id: 'call_x', name: 'f', raw: '{"a":1}', reason: 'stream-ended' }]);
  });
});

describe('real-world keep-alives: Anthropic, Responses, Gemini', () => {
  const start = anthropicEvent('message_start', { message: { id: 'msg_k', model: 'claude-test', usage: { input_tokens: 3, output_tokens: 1 } } });
  const toolStart = anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_k', name: 'get_weather', input: {} } });
  const json = (partial: string): string => anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: partial } });
  const end = [
    anthropicEvent('content_block_stop', { index: 0 }),
    anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } }),
    anthropicEvent('message_stop'),
  ];

  it('anthropics/anthropic-sdk-typescript#903: an edge proxy delivers `event: content_block_delta` with an empty data line', () => {
    const run = runWire(start, toolStart, json('{"city":'), 'event: content_block_delta\ndata:\n\n', json('"Oslo"}'), ...end);
    expect(run).toEqual(outcome([ok('toolu_k', 'get_weather', { city: 'Oslo' })], 'tool-calls/tool_use'));
  });

  it('uniai-lab/GLM-API#1: an Anthropic-format proxy sends `event: ping` with an empty data line and with plain text during a long tool input', () => {
    const run = runWire(start, toolStart, 'event: ping\ndata:\n\n', json('{"city":'), sseEvent({ event: 'ping', data: 'keep-alive' }), json('"Rome"}'), ...end);
    expect(run).toEqual(outcome([ok('toolu_k', 'get_weather', { city: 'Rome' })], 'tool-calls/tool_use'));
  });

  it('diegosouzapw/OmniRoute#1146: bare `event: keepalive` frames in a Responses passthrough, after the format was chosen', () => {
    const item = { type: 'function_call', id: 'fc_k', call_id: 'call_k', name: 'get_time', arguments: '' };
    const run = runWire(
      responsesEvent('response.created', { response: { id: 'resp_k', model: 'gpt-test', status: 'in_progress', output: [] } }),
      'event: keepalive\ndata:\n\n',
      responsesEvent('response.output_item.added', { output_index: 0, item }),
      sseEvent({ event: 'keepalive', data: 'keepalive' }),
      responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_k', delta: '{"tz":"UTC"}' }),
      responsesEvent('response.output_item.done', { output_index: 0, item: { ...item, arguments: '{"tz":"UTC"}' } }),
      responsesEvent('response.completed', { response: { id: 'resp_k', model: 'gpt-test', status: 'completed', output: [{ ...item, arguments: '{"tz":"UTC"}' }] } }),
    );
    expect(run).toEqual(outcome([ok('call_k', 'get_time', { tz: 'UTC' })], 'tool-calls/completed'));
  });

  it('googleapis/go-genai#903: a gateway in front of Gemini sends heartbeats (a comment, an empty event, a named ping) between chunks', () => {
    const run = runWire(
      ': heartbeat\n\n',
      gemini([{ text: 'Checking.' }]),
      'data:\n\n',
      sseEvent({ event: 'ping', data: 'alive' }),
      gemini([{ functionCall: { name: 'get_capital', args: { country: 'France' } } }], { finishReason: 'STOP' }),
    );
    expect(run).toEqual(outcome([ok('gen_0', 'get_capital', { country: 'France' })], 'tool-calls/STOP', 'completed', 'Checking.'));
  });
});
