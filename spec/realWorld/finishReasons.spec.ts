/**
 * Finish reasons outside the ones each format defines: Ollama emulators that send OpenAI's reasons,
 * Bedrock's `malformed_*` stop reasons, and the other formats' reasons that gateways pass through
 * (rule `cut-finish`: an error finish makes a cut call `incomplete`, never `malformed-arguments`).
 * Each case is our own small stream shaped like the one in the named public report; see `helpers.ts`.
 */
import { toBytes } from 'rxjs-tool-calls/marbles';
import { awsEvent, concatBytes } from '../helpers/framing';
import { failed, ok, outcome, runBytes } from './helpers';

const ndjson = (...lines: unknown[]): Uint8Array => toBytes(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
const ollamaLine = (message: Record<string, unknown>, done = false, extra: Record<string, unknown> = {}) => ({
  model: 'qwen3:8b',
  created_at: '2026-01-01T00:00:00Z',
  message: { role: 'assistant', content: '', ...message },
  done,
  ...extra,
});

describe('real-world Ollama emulators', () => {
  it('ollama/ollama#5995: a server emulating /api/chat ends a turn that called tools with done_reason "tool_calls": tool-calls', () => {
    const run = runBytes(
      ndjson(
        ollamaLine({ tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Oslo' } } }] }),
        ollamaLine({}, true, { done_reason: 'tool_calls', prompt_eval_count: 12, eval_count: 9 }),
      ),
    );
    expect(run).toEqual(outcome([ok('gen_0', 'get_weather', { city: 'Oslo' })], 'tool-calls/tool_calls'));
  });

  it('ollama/ollama#5995: done_reason "tool_calls" and no call at all: missing-tool-calls (rule `missing-calls`), not an answer', () => {
    const run = runBytes(ndjson(ollamaLine({ content: 'Let me check.' }), ollamaLine({}, true, { done_reason: 'tool_calls' })));
    expect(run).toEqual(outcome([failed('missing-tool-calls', 'gen_0', '', '')], 'tool-calls/tool_calls', 'completed', 'Let me check.'));
  });
});

describe('real-world Bedrock Converse stop reasons', () => {
  const converse = (stopReason: string, input: string, stopped: boolean): Uint8Array =>
    concatBytes([
      awsEvent('messageStart', { role: 'assistant' }),
      awsEvent('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'tooluse_1', name: 'create_ticket' } } }),
      awsEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input } } }),
      ...(stopped ? [awsEvent('contentBlockStop', { contentBlockIndex: 0 })] : []),
      awsEvent('messageStop', { stopReason }),
      awsEvent('metadata', { usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 }, metrics: { latencyMs: 300 } }),
    ]);

  it('langchain-ai/langchainjs#12252: stopReason "malformed_tool_use" while the toolUse block is open: incomplete with reason error, never malformed-arguments', () => {
    const run = runBytes(converse('malformed_tool_use', '{"title": "Disk full", "priority":', false));
    expect(run).toEqual(outcome([failed('incomplete', 'tooluse_1', 'create_ticket', '{"title": "Disk full", "priority":', 'error')], 'error/malformed_tool_use'));
  });

  it('langchain-ai/langchainjs#12252: stopReason "malformed_model_output" after a closed block whose input does not parse: the finish is error, the call never runs', () => {
    const run = runBytes(converse('malformed_model_output', '{"title": "Disk full",}', true));
    // The block closed before the stop reason said why: its result came at its close (malformed-arguments), never a success.
    expect(run.finish).toBe('error/malformed_model_output');
    expect(run.results).toEqual([failed('malformed-arguments', 'tooluse_1', 'create_ticket', '{"title": "Disk full",}')]);
  });

  it('maximhq/bifrost#5206: a ConverseStream egress ends a turn whose toolUse block streamed whole with stopReason "end_turn": the call still comes out, whole', () => {
    const run = runBytes(converse('end_turn', '{"title": "Disk full", "priority": 2}', true));
    expect(run).toEqual(outcome([ok('tooluse_1', 'create_ticket', { title: 'Disk full', priority: 2 })], 'stop/end_turn'));
  });

  it('strands-rl/strands-env#252: stopReason "tool_use" on a text-only message (no toolUse block at all): missing-tool-calls, the text kept, nothing run', () => {
    const run = runBytes(
      concatBytes([
        awsEvent('messageStart', { role: 'assistant' }),
        awsEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'All done.' } }),
        awsEvent('contentBlockStop', { contentBlockIndex: 0 }),
        awsEvent('messageStop', { stopReason: 'tool_use' }),
        awsEvent('metadata', { usage: { inputTokens: 30, outputTokens: 3, totalTokens: 33 }, metrics: { latencyMs: 120 } }),
      ]),
    );
    expect(run).toEqual(outcome([failed('missing-tool-calls', 'gen_0', '', '')], 'tool-calls/tool_use', 'completed', 'All done.'));
  });
});
