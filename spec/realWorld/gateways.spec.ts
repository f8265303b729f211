/**
 * Gateways and proxies in front of OpenAI-compatible chat (OpenRouter, OpenWebUI-style relays,
 * LiteLLM-style bridges, Azure, Groq): finish reasons sent too often, too early or as errors,
 * arguments resent by a bridge, and Groq's `tool_use_failed`. Each case is our own small stream
 * shaped like the one in the named public report; see `helpers.ts` for how it runs.
 */
import { isToolStreamError } from 'rxjs-tool-calls';
import { openaiDone, sseEvent } from 'rxjs-tool-calls/marbles';
import { calls, chat, failed, finishChunk, ok, outcome, runWire, tc } from './helpers';

const DONE = openaiDone();

describe('real-world gateways: finish_reason that does not end the calls (rule `when-complete`)', () => {
  it('1jehuang/jcode#1326: an OpenWebUI-style relay sends a finish_reason "stop" chunk after every streamed chunk', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_rd', name: 'read', args: '' })]),
      finishChunk('stop'),
      calls([tc({ index: 0, args: '{"path":' })]),
      finishChunk('stop'),
      calls([tc({ index: 0, args: '"README.md"}' })]),
      finishChunk('stop'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_rd', 'read', { path: 'README.md' })], 'stop/stop'));
  });

  it('ducks/claux#43: finish_reason "tool_calls" arrives before the trailing argument fragments (with and without [DONE])', () => {
    const wire = [calls([tc({ index: 0, id: 'call_b', name: 'bash', args: '{"command":' })]), finishChunk('tool_calls'), calls([tc({ index: 0, args: '"ls -la"}' })])];
    const expected = outcome([ok('call_b', 'bash', { command: 'ls -la' })], 'tool-calls/tool_calls');
    expect(runWire(...wire, DONE)).toEqual(expected);
    // Ending after a finish without [DONE] is complete, not truncated.
    expect(runWire(...wire)).toEqual(expected);
  });

  it('sgl-project/sglang#8417: a choice finishes twice ("stop", then "tool_calls"): the last reason wins', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_g', name: 'get_weather', args: '{"city":"Lima"}' })]), finishChunk('stop'), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('call_g', 'get_weather', { city: 'Lima' })], 'tool-calls/tool_calls'));
  });

  it('OpenRouterTeam/ai-sdk-provider#288: Gemini 3 through OpenRouter ends a tool call with finish_reason "stop" (kept as sent)', () => {
    const run = runWire(
      chat([{ index: 0, delta: { role: 'assistant', content: '', reasoning: 'Need the forecast.' }, finish_reason: null }]),
      calls([tc({ index: 0, id: 'tool_0_get_forecast', name: 'get_forecast', args: '{"day":"monday"}' })]),
      finishChunk('stop'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('tool_0_get_forecast', 'get_forecast', { day: 'monday' })], 'stop/stop'));
  });
});

describe('real-world gateways: error and content-filter finishes (rule `cut-finish`)', () => {
  it('gethouston/houston#1211: OpenRouter ends with finish_reason "error" when the upstream dies mid-arguments', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_ok', name: 'list_files', args: '{"dir":"src"}' })]),
      calls([tc({ index: 1, id: 'call_cut', name: 'write_file', args: '{"path":"notes.md","content":"Mon' })]),
      finishChunk('error'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_ok', 'list_files', { dir: 'src' }), failed('incomplete', 'call_cut', 'write_file', '{"path":"notes.md","content":"Mon', 'error')], 'error/error'));
  });

  it('openai/openai-agents-python#3897: a content_filter finish with an empty delta arrives while a call is still mid-arguments', () => {
    const run = runWire(calls([tc({ index: 0, id: 'call_f', name: 'send_email', args: '{"to":"a@b.c","body":"' })]), finishChunk('content_filter'), DONE);
    expect(run).toEqual(outcome([failed('incomplete', 'call_f', 'send_email', '{"to":"a@b.c","body":"', 'content-filter')], 'content-filter/content_filter'));
  });

  it('damianvtran/local-operator#223: an OpenRouter mid-stream error chunk (error object and finish_reason "error", HTTP 200)', () => {
    const midStreamError = chat([{ index: 0, delta: { content: '' }, finish_reason: 'error' }], { error: { code: 429, message: 'Provider returned error', metadata: { error_type: 'rate_limit' } } });
    const run = runWire(calls([tc({ index: 0, id: 'call_m', name: 'grep', args: '{"pattern":"TO' })]), midStreamError);
    expect(run).toEqual(outcome([failed('incomplete', 'call_m', 'grep', '{"pattern":"TO', 'provider-error')], null, 'provider-error'));
    expect(run.error).toMatchObject({ code: 'provider-error', message: expect.stringContaining('Provider returned error') });
  });
});

describe('real-world gateways: arguments resent by a bridge (rule `unambiguous-repair`)', () => {
  it('Soju06/codex-lb#284: a Responses-to-chat bridge repeats the whole arguments three times', () => {
    const args = '{"city":"Zurich","unit":"C"}';
    const run = runWire(calls([tc({ index: 0, id: 'call_z', name: 'get_weather', args })]), calls([tc({ index: 0, args })]), calls([tc({ index: 0, args })]), finishChunk('tool_calls'), DONE);
    expect(run).toEqual(outcome([ok('call_z', 'get_weather', { city: 'Zurich', unit: 'C' }, 'repeated')], 'tool-calls/tool_calls'));
  });

  it('elizaOS/eliza#16973: a proxy streams the argument pieces, then re-emits the whole arguments in a consolidated chunk', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'call_t', name: 'terminal', args: '{"command": ' })]),
      calls([tc({ index: 0, args: '"git status"}' })]),
      calls([tc({ index: 0, id: 'call_t', name: 'terminal', args: '{"command": "git status"}' })]),
      finishChunk('tool_calls'),
      DONE,
    );
    expect(run).toEqual(outcome([ok('call_t', 'terminal', { command: 'git status' }, 'repeated')], 'tool-calls/tool_calls'));
  });
});

describe('real-world gateways: Groq tool_use_failed', () => {
  const reasoning = (text: string): string => chat([{ index: 0, delta: { reasoning: text, channel: 'analysis' }, finish_reason: null }]);
  const groqError = (failedGeneration: string): string =>
    sseEvent({
      event: 'error',
      data: JSON.stringify({
        error: {
          message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
          type: 'invalid_request_error',
          code: 'tool_use_failed',
          failed_generation: failedGeneration,
          status_code: 400,
        },
      }),
    });

  function groqFailure(failedGeneration: string): Record<string, unknown> {
    const run = runWire(reasoning('Call the tool.'), groqError(failedGeneration));
    expect(run).toEqual(outcome([], null, 'provider-error'));
    if (!isToolStreamError(run.error)) throw new Error('expected a ToolStreamError');
    expect(run.error).toMatchObject({ code: 'provider-error', providerCode: 'tool_use_failed', type: 'invalid_request_error' });
    // The rejected generation is kept (in the untouched payload at least).
    expect(JSON.stringify((run.error as unknown as { payload: unknown }).payload)).toContain('tool_use_failed');
    return run.error as unknown as Record<string, unknown>;
  }

  it('vercel/ai#6916: the rejected generation holds a parseable call: it is reported as failedCall, never run', () => {
    const error = groqFailure('{"name": "query_worker_observability", "arguments": {\n  "view": "events", "limit": 5\n}}');
    const failedCall = error['failedCall'] as { name?: unknown; arguments?: unknown } | undefined;
    expect(failedCall?.name).toBe('query_worker_observability');
    const args = typeof failedCall?.arguments === 'string' ? (JSON.parse(failedCall.arguments) as unknown) : failedCall?.arguments;
    expect(args).toEqual({ view: 'events', limit: 5 });
  });

  it('lucagrippa/obsidian-ai-tagger#34: failed_generation is "": a provider-error without failedCall', () => {
    expect(groqFailure('')['failedCall']).toBeUndefined();
  });

  it('tashfeenahmed/freellmapi#291: failed_generation in the "<function=NAME={json}</function>" dialect still holds one call: failedCall', () => {
    expect(groqFailure('<function=read={"file_path": "sample.txt"}</function>')['failedCall']).toEqual({ name: 'read', arguments: { file_path: 'sample.txt' } });
  });
});
