/**
 * The identity rules in the formats the bug-report cases do not reach: each rule as our own small
 * stream in every format it applies to, under every chunking (see `helpers.ts`), plus the paths
 * beside `toolCalls()` that must not treat a nameless call as runnable.
 */
import { concat, from, lastValueFrom, NEVER, toArray } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { accumulateToolCalls, partialToolCalls, readStreamEvents, readToolCalls, ToolStreamError } from 'rxjs-tool-calls';
import { runTools, tool } from 'rxjs-tool-calls/tools';
import { anthropicEvent, cohereEvent, openaiChunk, openaiDone, responsesEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { calls, chat, failed, finishChunk, gemini, ok, outcome, runWire, tc } from './helpers';
import { testScheduler } from '../helpers/marbles';

const anthropicStart = anthropicEvent('message_start', { message: { id: 'msg_r', model: 'claude-test', usage: { input_tokens: 5, output_tokens: 1 } } });
const toolUse = (index: number, block: Record<string, unknown>): string => anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', input: {}, ...block } });
const inputJson = (index: number, partial: string): string => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
const blockStop = (index: number): string => anthropicEvent('content_block_stop', { index });
const anthropicEnd = (reason: string): string[] => [anthropicEvent('message_delta', { delta: { stop_reason: reason }, usage: { output_tokens: 9 } }), anthropicEvent('message_stop')];

const responsesCreated = responsesEvent('response.created', { response: { id: 'resp_r', model: 'gpt-test', status: 'in_progress', output: [] } });
const responsesCompleted = (output: unknown[]): string => responsesEvent('response.completed', { response: { id: 'resp_r', model: 'gpt-test', status: 'completed', output } });

const cohereStart = cohereEvent('message-start', { id: 'c_r' });
const cohereCallStart = (index: number, id: string, name: string | undefined): string =>
  cohereEvent('tool-call-start', { index, delta: { message: { tool_calls: { id, type: 'function', function: { ...(name === undefined ? {} : { name }), arguments: '' } } } } });
const cohereArgs = (index: number, args: string): string => cohereEvent('tool-call-delta', { index, delta: { message: { tool_calls: { function: { arguments: args } } } } });
const cohereCallEnd = (index: number): string => cohereEvent('tool-call-end', { index });
const cohereEnd = (reason: string): string => cohereEvent('message-end', { delta: { finish_reason: reason } });

describe('rule `name-required`: a call without a name is never a success', () => {
  it('Anthropic: a tool_use block without a name', () => {
    const run = runWire(anthropicStart, toolUse(0, { id: 'toolu_x' }), inputJson(0, '{"a":1}'), blockStop(0), ...anthropicEnd('tool_use'));
    expect(run).toEqual(outcome([failed('missing-name', 'toolu_x', '', '{"a":1}')], 'tool-calls/tool_use'));
  });

  it('Responses: a function_call item without a name', () => {
    const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', arguments: '' };
    const run = runWire(
      responsesCreated,
      responsesEvent('response.output_item.added', { output_index: 0, item }),
      responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: '{"a":1}' }),
      responsesEvent('response.output_item.done', { output_index: 0, item: { ...item, arguments: '{"a":1}' } }),
      responsesCompleted([{ ...item, arguments: '{"a":1}' }]),
    );
    expect(run).toEqual(outcome([failed('missing-name', 'call_1', '', '{"a":1}')], 'tool-calls/completed'));
  });

  it('Cohere: a tool-call-start without a name', () => {
    const run = runWire(cohereStart, cohereCallStart(0, 't_1', undefined), cohereArgs(0, '{}'), cohereCallEnd(0), cohereEnd('TOOL_CALL'));
    expect(run).toEqual(outcome([failed('missing-name', 't_1', '', '{}')], 'tool-calls/TOOL_CALL'));
  });

  const nameless = toBytes([calls([tc({ index: 0, id: 'call_n', args: '{"path":' })]), calls([tc({ index: 0, args: '"a.txt"}' })]), finishChunk('tool_calls'), openaiDone()].join(''));

  it('partialToolCalls(): the last value of a nameless call carries missing-name', async () => {
    const values = await lastValueFrom(from([nameless]).pipe(readStreamEvents(), partialToolCalls(), toArray()));
    const last = values.at(-1);
    expect(last?.result?.success).toBe(false);
    expect(last?.result?.error?.code).toBe('missing-name');
  });

  it('accumulateToolCalls(): the closed nameless call is complete with a missing-name failure', async () => {
    const snapshots = await lastValueFrom(from([nameless]).pipe(readStreamEvents(), accumulateToolCalls(), toArray()));
    const call = snapshots.at(-1)?.[0];
    expect(call?.status).toBe('complete');
    expect(call?.result?.error?.code).toBe('missing-name');
  });

  it('runTools(): a nameless call is never run; its result is the missing-name failure', async () => {
    const ran: unknown[] = [];
    const tools = { '': tool({ execute: (args: unknown) => ran.push(args) }) };
    const results = await lastValueFrom(from([nameless]).pipe(readToolCalls(), runTools(tools), toArray()));
    expect(ran).toEqual([]);
    expect(results.map((r) => (r.success ? 'ran' : r.error.code))).toEqual(['missing-name']);
  });
});

describe('rule `nameless-continues`: nameless fragments continue, they do not start', () => {
  it('chat without index: a nameless fragment with a new id continues the open call; the id goes to providerMetadata', () => {
    const run = runWire(calls([tc({ id: 'a', name: 'f', args: '{"x":' })]), calls([tc({ id: 'b', args: '1}' })]), finishChunk('tool_calls'), openaiDone());
    expect(run).toEqual(outcome([ok('a', 'f', { x: 1 })], 'tool-calls/tool_calls'));
  });

  it('an index reused with a known id goes to that call, not the last one (interleaved index-0 gateway)', () => {
    const run = runWire(
      calls([tc({ index: 0, id: 'a', name: 'f', args: '{"x":' })]),
      calls([tc({ index: 0, id: 'b', name: 'g', args: '{"y":' })]),
      calls([tc({ index: 0, id: 'a', args: '1}' })]),
      calls([tc({ index: 0, id: 'b', args: '2}' })]),
      finishChunk('tool_calls'),
      openaiDone(),
    );
    expect(run).toEqual(outcome([ok('a', 'f', { x: 1 }), ok('b', 'g', { y: 2 })], 'tool-calls/tool_calls'));
  });
});

describe('rule `when-complete`: a chat finish never closes calls', () => {
  it('a nameless fragment after the finish still belongs to its call', () => {
    const run = runWire(calls([tc({ index: 0, id: 'a', name: 'f', args: '{"x":' })], 'tool_calls'), calls([tc({ index: 0, args: '1}' })]), openaiDone());
    expect(run).toEqual(outcome([ok('a', 'f', { x: 1 })], 'tool-calls/tool_calls'));
  });

  const scheduler = (): TestScheduler => testScheduler();
  const wire = {
    a: openaiChunk({ toolCalls: [{ index: 0, id: 'a', name: 'f', arguments: '{"x":1}' }] }),
    f: openaiChunk({ finishReason: 'tool_calls' }),
  };

  it('idle past idleTimeoutMs after every choice finished: complete, not idle-timeout (marble)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const bytes$ = concat(cold('-a-f', wire), NEVER);
      const ids = bytes$.pipe(readToolCalls({ idleTimeoutMs: 5 }));
      expectObservable(ids).toBe('--------(r|)', { r: expect.objectContaining({ success: true, data: expect.objectContaining({ id: 'a', arguments: { x: 1 } }) }) });
    });
  });

  it('idle before any finish: idle-timeout, the call incomplete (marble)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const bytes$ = concat(cold('-a', wire), NEVER);
      expectObservable(bytes$.pipe(readToolCalls({ idleTimeoutMs: 5 }))).toBe(
        '------(r#)',
        { r: expect.objectContaining({ success: false, error: expect.objectContaining({ code: 'incomplete', reason: 'idle-timeout' }) }) },
        new ToolStreamError('idle-timeout', { timeoutMs: 5 }),
      );
    });
  });

  it('the same through readStreamEvents(): the held finish, then done, then completion', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const events$ = concat(cold('-a-f', wire), NEVER).pipe(readStreamEvents({ idleTimeoutMs: 5 }));
      expectObservable(events$).toBe('-(mx)---(Fd|)', {
        m: expect.objectContaining({ type: 'metadata' }),
        x: expect.objectContaining({ type: 'tool-call-delta' }),
        F: { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
        d: { type: 'done' },
      });
    });
  });

  it('Gemini: idle after every candidate finished is complete too', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const g = { a: gemini([{ functionCall: { name: 'f', args: { x: 1 } } }], { finishReason: 'STOP' }) };
      const results$ = concat(cold('-a', g), NEVER).pipe(readToolCalls({ idleTimeoutMs: 5 }));
      expectObservable(results$).toBe('-r----|', { r: expect.objectContaining({ success: true }) });
    });
  });
});

describe('rule `cut-finish`: error finishes make unparseable arguments incomplete, named after the finish', () => {
  it('Cohere ERROR with a call never ended: incomplete (error)', () => {
    const run = runWire(cohereStart, cohereCallStart(0, 't_1', 'f'), cohereArgs(0, '{"a":'), cohereEnd('ERROR'));
    expect(run).toEqual(outcome([failed('incomplete', 't_1', 'f', '{"a":', 'error')], 'error/ERROR'));
  });

  it('chat: a gateway finish naming a malformed call normalises to error', () => {
    const run = runWire(calls([tc({ index: 0, id: 'a', name: 'f', args: '{"a":' })]), finishChunk('function_call_filter: MALFORMED_FUNCTION_CALL'), openaiDone());
    expect(run).toEqual(outcome([failed('incomplete', 'a', 'f', '{"a":', 'error')], 'error/function_call_filter: MALFORMED_FUNCTION_CALL'));
  });

  it('chat: OpenRouter native_finish_reason error beside finish_reason stop', () => {
    const run = runWire(calls([tc({ index: 0, id: 'a', name: 'f', args: '{"a":' })]), chat([{ index: 0, delta: {}, finish_reason: 'stop', native_finish_reason: 'network_error' }]), openaiDone());
    expect(run).toEqual(outcome([failed('incomplete', 'a', 'f', '{"a":', 'error')], 'error/network_error'));
  });
});

describe('rule `unambiguous-repair`: repeated and cumulative resends, in every format with fragments', () => {
  it('Anthropic: the input streamed, then sent whole again: repeated', () => {
    const run = runWire(anthropicStart, toolUse(0, { id: 'toolu_r', name: 'f' }), inputJson(0, '{"a":'), inputJson(0, '1}'), inputJson(0, '{"a":1}'), blockStop(0), ...anthropicEnd('tool_use'));
    expect(run).toEqual(outcome([ok('toolu_r', 'f', { a: 1 }, 'repeated')], 'tool-calls/tool_use'));
  });

  it('Cohere: every delta repeats all earlier text: cumulative', () => {
    const run = runWire(cohereStart, cohereCallStart(0, 't_1', 'f'), cohereArgs(0, '{"a"'), cohereArgs(0, '{"a":1'), cohereArgs(0, '{"a":1}'), cohereCallEnd(0), cohereEnd('TOOL_CALL'));
    expect(run).toEqual(outcome([ok('t_1', 'f', { a: 1 }, 'cumulative')], 'tool-calls/TOOL_CALL'));
  });

  it('Responses: repeated deltas without .done are repaired too', () => {
    const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '' };
    const run = runWire(
      responsesCreated,
      responsesEvent('response.output_item.added', { output_index: 0, item }),
      responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: '{"a":1}' }),
      responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: '{"a":1}' }),
      responsesEvent('response.output_item.done', { output_index: 0, item }),
      responsesCompleted([item]),
    );
    expect(run).toEqual(outcome([ok('call_1', 'f', { a: 1 }, 'repeated')], 'tool-calls/completed'));
  });

  it('repairArguments: false reports the text as malformed', async () => {
    const wire = toBytes([calls([tc({ index: 0, id: 'a', name: 'f', args: '{"a":1}' })]), calls([tc({ index: 0, args: '{"a":1}' })]), finishChunk('tool_calls'), openaiDone()].join(''));
    const [result] = await lastValueFrom(from([wire]).pipe(readToolCalls({ repairArguments: false }), toArray()));
    expect(result?.error?.code).toBe('malformed-arguments');
  });

  it('never guesses beyond the two shapes: a prefix that is not a resend stays malformed', () => {
    const run = runWire(calls([tc({ index: 0, id: 'a', name: 'f', args: '{"a":1}' })]), calls([tc({ index: 0, args: '{"a":2}' })]), finishChunk('tool_calls'), openaiDone());
    expect(run).toEqual(outcome([failed('malformed-arguments', 'a', 'f', '{"a":1}{"a":2}')], 'tool-calls/tool_calls'));
  });
});
