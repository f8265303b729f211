/**
 * `geminiInteractions()`: Gemini's Interactions API events as the library's events — live
 * arguments, the `requires_action` status as the calls' end, thoughts, server tools, finish
 * reasons, usage, errors inside the stream, the stream's end; each case under whole, byte-by-byte
 * and random chunkings through the whole pipeline.
 */
import { Subject, type Observable } from 'rxjs';
import {
  chatState,
  geminiInteractions,
  isToolStreamError,
  partialToolCalls,
  readStreamEvents,
  readToolCalls,
  type ChatState,
  type PartialToolCall,
  type StreamEvent,
  type ToolCallResult,
  type ToolCallUpdate,
} from 'rxjs-tool-calls';
import { geminiInteractionsEvent } from 'rxjs-tool-calls/marbles';
import { interactionsFinishReason } from '../../../src/providers/geminiInteractions/decoder';
import { chunkings } from '../../helpers/chunking';
import { loadOwnFixtures } from '../../helpers/fixtures';
import { interactionsEvents, interactionsStream } from '../../helpers/interactionsWire';
import { runChunks, type RunOutcome } from '../../helpers/runStream';
import { sse } from '../../helpers/sse';
import { toolCallUpdates } from '../../helpers/updates';

const utf8 = new TextEncoder();
const ev = geminiInteractionsEvent;
const created = ev('interaction.created', { interaction: { id: 'v1_a', status: 'in_progress', object: 'interaction', model: 'gemini-3-flash-preview' } });
const callStart = (index: number, id: string, name: string, args: Record<string, unknown> = {}, signature = '') =>
  ev('step.start', { index, step: { id, signature, type: 'function_call', name, arguments: args } });
const piece = (index: number, args: string, extra: Record<string, unknown> = {}) => ev('step.delta', { index, delta: { arguments: args, type: 'arguments_delta', ...extra } });
const stop = (index: number) => ev('step.stop', { index });
const status = (value: string, usage?: Record<string, unknown>) => ev('interaction.status_update', { interaction_id: 'v1_a', status: value, ...(usage === undefined ? {} : { usage }) });
const completed = (value: string, extra: Record<string, unknown> = {}) =>
  ev('interaction.completed', { interaction: { id: 'v1_a', status: value, object: 'interaction', model: 'gemini-3-flash-preview', ...extra } });

/** Run `wire` under every chunking: every run must give the same outcome, which is returned. */
function everyChunking(wire: string): RunOutcome {
  const bytes = utf8.encode(wire);
  const runs = chunkings(bytes).map(([how, chunks]): [string, RunOutcome] => [how, runChunks(chunks)]);
  const [, first] = runs[0]!;
  const print = (o: RunOutcome) => JSON.stringify({ events: o.events, results: o.results, error: isToolStreamError(o.error) ? o.error.toJSON() : o.error, completed: o.completed });
  for (const [how, outcome] of runs) expect([how, print(outcome)]).toEqual([how, print(first)]);
  return first;
}

const ok = (r: ToolCallResult) => (r.success ? { id: r.data.id, name: r.data.name, index: r.data.index, arguments: r.data.arguments } : { code: r.error.code, id: r.error.toolCall.id });

describe('geminiInteractions()', () => {
  it('reads a function call whose arguments stream in pieces, ended by its step and finished by requires_action', () => {
    const out = everyChunking(
      [
        created,
        callStart(0, 'c1', 'get_weather'),
        piece(0, '{"city":"Zü'),
        piece(0, 'rich"}'),
        stop(0),
        status('requires_action', { total_input_tokens: 9, total_output_tokens: 4 }),
        completed('requires_action'),
      ].join(''),
    );
    expect(out.error).toBeUndefined();
    expect(out.results.map(ok)).toEqual([{ id: 'c1', name: 'get_weather', index: 0, arguments: { city: 'Zürich' } }]);
    expect(out.events.filter((e) => e.type !== 'usage')).toEqual([
      { type: 'metadata', provider: 'gemini-interactions', responseId: 'v1_a', model: 'gemini-3-flash-preview' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"city":"Zü' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: 'rich"}' },
      { type: 'tool-call-end', choice: 0, index: 0, id: 'c1' },
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'requires_action' },
      { type: 'done' },
    ]);
    expect(out.events.filter((e) => e.type === 'usage')).toEqual([{ type: 'usage', inputTokens: 9, outputTokens: 4, totalTokens: 13, raw: { total_input_tokens: 9, total_output_tokens: 4 } }]);
  });

  it('requires_action ends the calls whose steps never stopped: they are complete, answer them', () => {
    const out = everyChunking([created, callStart(0, 'c1', 'a'), piece(0, '{"x":1}'), callStart(1, 'c2', 'b'), piece(1, '{}'), status('requires_action'), completed('requires_action')].join(''));
    expect(out.results.map(ok)).toEqual([
      { id: 'c1', name: 'a', index: 0, arguments: { x: 1 } },
      { id: 'c2', name: 'b', index: 1, arguments: {} },
    ]);
    expect(out.finishReason).toBe('requires_action');
  });

  it('every arguments_delta is visible the moment its event is complete (readStreamEvents, groupToolCalls, partialToolCalls, chatState)', () => {
    const fixture = loadOwnFixtures().find((f) => f.name === 'gemini-interactions/thought-text-and-two-streamed-calls');
    if (fixture === undefined) throw new Error('missing fixture');
    const records = new TextDecoder()
      .decode(fixture.bytes)
      .split('\n\n')
      .filter((r) => r !== '');
    const bytes$ = new Subject<Uint8Array>();
    const latest = { events: [] as StreamEvent[], partial: new Map<string, unknown>(), state: undefined as ChatState | undefined, raw: new Map<string, string>() };
    const read = (): Observable<StreamEvent> => bytes$.pipe(readStreamEvents({ provider: geminiInteractions }));
    read().subscribe((e) => latest.events.push(e));
    read()
      .pipe(partialToolCalls())
      .subscribe((p: PartialToolCall) => latest.partial.set(p.id, p.arguments));
    read()
      .pipe(chatState())
      .subscribe((s) => (latest.state = s));
    read()
      .pipe(toolCallUpdates())
      .subscribe((u: ToolCallUpdate) => latest.raw.set(u.id, u.rawArguments));
    const seen: Array<[string, string, unknown, unknown]> = [];
    for (const record of records) {
      bytes$.next(utf8.encode(`${record}\n\n`));
      const payload = JSON.parse(record.slice(record.indexOf('data: ') + 6)) as { delta?: { type: string; arguments?: string } };
      if (payload.delta?.type !== 'arguments_delta') continue;
      expect(latest.events.at(-1)).toMatchObject({ type: 'tool-call-delta', argumentsDelta: payload.delta.arguments });
      const call = latest.state?.calls.at(-1);
      if (call === undefined) throw new Error('no call in the view');
      expect(latest.partial.get(call.id)).toEqual(call.partialArguments);
      seen.push([call.id, latest.raw.get(call.id) ?? '', call.partialArguments, latest.partial.get(call.id)]);
    }
    bytes$.complete();
    expect(seen.map(([id, raw, view]) => [id, raw, view])).toEqual([
      ['k3v9qz1a', '{"city":', {}],
      ['k3v9qz1a', '{"city":"Zür', { city: 'Zür' }],
      ['k3v9qz1a', '{"city":"Zürich","un', { city: 'Zürich' }],
      ['k3v9qz1a', '{"city":"Zürich","units":"celsius"}', { city: 'Zürich', units: 'celsius' }],
      ['p8m2wd7c', '{"ci', {}],
      ['p8m2wd7c', '{"city":"São Pa', { city: 'São Pa' }],
      ['p8m2wd7c', '{"city":"São Paulo","units":"cel', { city: 'São Paulo', units: 'cel' }],
      ['p8m2wd7c', '{"city":"São Paulo","units":"celsius"}', { city: 'São Paulo', units: 'celsius' }],
    ]);
    expect(latest.state?.status).toBe('done');
  });

  it('arguments given whole in the step start are a replace, and the first streamed piece replaces them', () => {
    const whole = everyChunking([created, callStart(0, 'c1', 'f', { a: 1 }), stop(0), completed('requires_action')].join(''));
    expect(whole.results.map(ok)).toEqual([{ id: 'c1', name: 'f', index: 0, arguments: { a: 1 } }]);
    const streamed = everyChunking([created, callStart(0, 'c1', 'f', { a: 1 }), piece(0, '{"a":'), piece(0, '2}'), stop(0), completed('requires_action')].join(''));
    expect(streamed.results.map(ok)).toEqual([{ id: 'c1', name: 'f', index: 0, arguments: { a: 2 } }]);
  });

  it('a call id or signature that arrives in an arguments_delta (the step start had "") is the call’s', () => {
    const out = everyChunking([created, callStart(0, '', 'f'), piece(0, '{}', { id: 'late_1', signature: 'sig-1' }), stop(0), completed('requires_action')].join(''));
    const [result] = out.results;
    expect(result?.success && result.data.id).toBe('late_1');
    expect(result?.success && result.data.providerMetadata?.['thoughtSignature']).toBe('sig-1');
  });

  it('keeps the step’s signature as metadata.thoughtSignature', () => {
    const out = everyChunking([created, callStart(0, 'c1', 'f', {}, 'CiQsig=='), piece(0, '{}'), stop(0), completed('requires_action')].join(''));
    const [result] = out.results;
    expect(result?.success && result.data.providerMetadata).toEqual({ thoughtSignature: 'CiQsig==' });
  });

  it('a thought step is a whole reasoning part at its stop (summary and signature), and text streams', () => {
    const out = everyChunking(interactionsStream({ thought: { summary: ['Plan: ', 'look it up.'], signature: 'c2ln' }, text: ['Hel', 'lo'] }));
    expect(out.reasoning).toBe('Plan: look it up.');
    expect(out.text).toBe('Hello');
    expect(out.events.filter((e) => e.type === 'reasoning-end')).toEqual([{ type: 'reasoning-end', choice: 0, index: 0, text: 'Plan: look it up.', signature: 'c2ln' }]);
    expect(out.events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', choice: 0, reason: 'stop', rawReason: 'completed' });
  });

  it('completed after function calls is tool-calls (rawReason completed)', () => {
    const out = everyChunking(interactionsStream({ calls: [{ id: 'c1', name: 'f', pieces: ['{}'] }], status: 'completed' }));
    expect(out.events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'completed' });
  });

  it.each([
    ['incomplete', 'length'],
    ['budget_exceeded', 'length'],
    ['requires_continuation', 'length'],
    ['cancelled', 'other'],
  ])('a call open at status %s is incomplete, the finish is %s', (value, reason) => {
    const out = everyChunking([created, callStart(0, 'c1', 'f'), piece(0, '{"a":"b'), status(value), completed(value)].join(''));
    expect(out.results.map(ok)).toEqual([{ code: 'incomplete', id: 'c1' }]);
    expect(out.events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', choice: 0, reason, rawReason: value });
    expect(out.completed).toBe(true);
  });

  it('normalises every status', () => {
    expect(['completed', 'requires_action', 'incomplete', 'budget_exceeded', 'requires_continuation', 'failed', 'cancelled', 'in_progress'].map(interactionsFinishReason)).toEqual([
      'stop',
      'tool-calls',
      'length',
      'length',
      'length',
      'error',
      'other',
      'other',
    ]);
  });

  it('an error event ends the stream with a provider-error (retryable when it says so), after the open call is reported incomplete', () => {
    const out = everyChunking(
      [created, callStart(0, 'c1', 'f'), piece(0, '{"a":'), ev('error', { error: { code: 'unavailable', message: 'The model is overloaded. Please try again later.' } })].join(''),
    );
    expect(out.results.map(ok)).toEqual([{ code: 'incomplete', id: 'c1' }]);
    expect(isToolStreamError(out.error, 'provider-error') && { provider: out.error.provider, code: out.error.providerCode, retryable: out.error.retryable, message: out.error.message }).toEqual({
      provider: 'gemini-interactions',
      code: 'unavailable',
      retryable: true,
      message: 'gemini-interactions error unavailable: The model is overloaded. Please try again later.',
    });
  });

  it('a failed status ends the stream with a provider-error carrying the interaction’s own error', () => {
    const out = everyChunking([created, callStart(0, 'c1', 'f'), piece(0, '{}'), stop(0), completed('failed', { errors: [{ code: 'internal', message: 'Internal error encountered.' }] })].join(''));
    expect(out.results.map(ok)).toEqual([{ id: 'c1', name: 'f', index: 0, arguments: {} }]);
    expect(isToolStreamError(out.error, 'provider-error') && [out.error.providerCode, out.error.retryable]).toEqual(['internal', true]);
    const update = everyChunking([created, status('failed')].join(''));
    expect(isToolStreamError(update.error, 'provider-error')).toBe(true);
  });

  it('a stream cut before any terminal status is truncated; one cut after requires_action is complete', () => {
    const cut = everyChunking([created, callStart(0, 'c1', 'f'), piece(0, '{"a":')].join(''));
    expect(isToolStreamError(cut.error, 'truncated') && cut.error.message).toContain('no interaction.completed arrived (1 function call still open)');
    expect(cut.results.map(ok)).toEqual([{ code: 'incomplete', id: 'c1' }]);
    const afterStatus = everyChunking([created, callStart(0, 'c1', 'f'), piece(0, '{}'), stop(0), status('requires_action')].join(''));
    expect(afterStatus.error).toBeUndefined();
    expect(afterStatus.completed).toBe(true);
    expect(afterStatus.events.at(-1)).toEqual({ type: 'done' });
  });

  it('the final steps of interaction.completed give a call the stream never showed, and the arguments of one it showed empty', () => {
    const finalSteps = [
      { id: 'c1', type: 'function_call', name: 'shown', arguments: { from: 'final' } },
      { id: 'c2', type: 'function_call', name: 'unseen', arguments: { n: 2 } },
    ];
    const out = everyChunking([created, callStart(0, 'c1', 'shown'), completed('requires_action', { steps: finalSteps })].join(''));
    expect(out.results.map(ok)).toEqual([
      { id: 'c1', name: 'shown', index: 0, arguments: { from: 'final' } },
      { id: 'c2', name: 'unseen', index: 1, arguments: { n: 2 } },
    ]);
  });

  it('server tool steps are provider-tool events with the step as raw, never calls', () => {
    const out = everyChunking(
      [
        created,
        ev('step.start', { index: 0, step: { id: 'cx1', type: 'code_execution_call' } }),
        ev('step.delta', { index: 0, delta: { type: 'code_execution_call', arguments: { code: 'print(1+1)', language: 'python' } } }),
        stop(0),
        ev('step.start', { index: 1, step: { call_id: 'cx1', type: 'code_execution_result' } }),
        ev('step.delta', { index: 1, delta: { type: 'code_execution_result', result: '2\n' } }),
        stop(1),
        ev('step.start', { index: 2, step: { id: 'm1', type: 'mcp_server_tool_call', name: 'lookup', server_name: 'docs', arguments: { q: 'x' } } }),
        stop(2),
        ev('step.start', { index: 3, step: { call_id: 'm1', type: 'mcp_server_tool_result', is_error: true, result: 'denied' } }),
        stop(3),
        completed('completed'),
      ].join(''),
    );
    expect(out.results).toEqual([]);
    const tools = out.events.filter((e) => e.type === 'provider-tool');
    expect(tools.map((e) => e.type === 'provider-tool' && [e.tool, e.id, e.status])).toEqual([
      ['code_execution', 'cx1', 'running'],
      ['code_execution', 'cx1', 'running'],
      ['code_execution', 'cx1', 'completed'],
      ['mcp', 'm1', 'running'],
      ['mcp', 'm1', 'running'],
      ['mcp', 'm1', 'failed'],
    ]);
    expect(tools[1]).toMatchObject({ input: { code: 'print(1+1)', language: 'python' }, raw: { id: 'cx1', type: 'code_execution_call', arguments: { code: 'print(1+1)', language: 'python' } } });
    expect(tools[2]).toMatchObject({ result: '2\n', raw: { call_id: 'cx1', type: 'code_execution_result', result: '2\n' } });
    expect(tools[3]).toMatchObject({ input: { server: 'docs', name: 'lookup', arguments: { q: 'x' } } });
    expect(out.finishReason).toBe('completed');
    expect(out.events.find((e) => e.type === 'finish')).toMatchObject({ reason: 'stop' });
  });

  it('reads streams without event: lines (the type in event_type), the intermediate event names, keep-alives and unknown events', () => {
    const dataOnly = interactionsEvents({ calls: [{ id: 'c1', name: 'f', pieces: ['{"a"', ':1}'] }] })
      .map(([type, payload]) => `data: ${JSON.stringify({ ...payload, event_type: type })}\n\n`)
      .join('');
    expect(everyChunking(dataOnly).results.map(ok)).toEqual([{ id: 'c1', name: 'f', index: 0, arguments: { a: 1 } }]);
    const legacy = [
      created,
      ev('interaction.in_progress', { interaction_id: 'v1_a' }),
      ': keep-alive\n\n',
      'event: ping\ndata: \n\n',
      ev('step.future', { index: 0 }),
      callStart(0, 'c1', 'f'),
      piece(0, '{}'),
      ev('interaction.requires_action', { interaction_id: 'v1_a' }),
      completed('requires_action'),
    ].join('');
    const out = everyChunking(legacy);
    expect(out.results.map(ok)).toEqual([{ id: 'c1', name: 'f', index: 0, arguments: {} }]);
    expect(out.finishReason).toBe('requires_action');
  });

  it('data that is not JSON under one of its own events is invalid-event', () => {
    const out = everyChunking([created, 'event: step.delta\ndata: {not json\n\n'].join(''));
    expect(isToolStreamError(out.error, 'invalid-event') && out.error.provider).toBe('gemini-interactions');
  });

  it('Lingtai-AI/lingtai-kernel#45: the earlier beta shape (interaction.start, content.delta, interaction.complete) is refused at its first content event, typed, not read as an empty turn', () => {
    const old = [
      ev('interaction.start', { interaction: { id: 'v1_old', status: 'in_progress', model: 'gemini-2.5-flash' } }),
      ev('content.start', { index: 0, content: { type: 'text' } }),
      ev('content.delta', { index: 0, delta: { type: 'text', text: 'Checking.' } }),
      ev('content.delta', { index: 1, delta: { type: 'function_call', id: 'fc1', name: 'get_weather', arguments: { city: 'Paris' } } }),
      ev('interaction.complete', { interaction: { id: 'v1_old', status: 'requires_action' } }),
    ].join('');
    const out = everyChunking(old);
    expect(isToolStreamError(out.error, 'invalid-event') && [out.error.provider, out.error.detail]).toEqual([
      'gemini-interactions',
      "content.start is an event of the Interactions API's earlier shape (content.* before step.*), which is not read",
    ]);
    expect([out.results, out.text]).toEqual([[], '']);
    // Its terminator alone (a stream without content) is refused too, rather than read as truncated.
    expect(isToolStreamError(everyChunking(ev('interaction.complete', { interaction: { id: 'v1_old', status: 'completed' } })).error, 'invalid-event')).toBe(true);
  });

  it('a whole Interaction (a server that answered without streaming) is read as its stream', () => {
    const body = JSON.stringify({
      id: 'v1_whole',
      status: 'requires_action',
      object: 'interaction',
      model: 'gemini-2.5-flash',
      steps: [
        { type: 'thought', signature: 'c2ln' },
        { type: 'model_output', content: [{ type: 'text', text: 'Let me check.' }] },
        { id: 'w1', type: 'function_call', name: 'get_weather', arguments: { city: 'Oslo' } },
      ],
      usage: { total_input_tokens: 5, total_output_tokens: 6 },
    });
    const out = everyChunking(body);
    expect(out.results.map(ok)).toEqual([{ id: 'w1', name: 'get_weather', index: 2, arguments: { city: 'Oslo' } }]);
    expect(out.text).toBe('Let me check.');
    expect(out.events[0]).toEqual({ type: 'metadata', provider: 'gemini-interactions', responseId: 'v1_whole', model: 'gemini-2.5-flash' });
    expect(out.finishReason).toBe('requires_action');
  });

  it('is recognised from the first event, and readToolCalls() reads it alone (provider option)', () => {
    const wire = interactionsStream({ calls: [{ id: 'c1', name: 'f', pieces: ['{}'] }] });
    const results: ToolCallResult[] = [];
    new Subject<string>().pipe(readToolCalls({ provider: 'gemini-interactions' })).subscribe((r) => results.push(r));
    const bytes$ = new Subject<string>();
    bytes$.pipe(readToolCalls({ provider: geminiInteractions })).subscribe((r) => results.push(r));
    bytes$.next(wire);
    bytes$.complete();
    expect(results.map(ok)).toEqual([{ id: 'c1', name: 'f', index: 0, arguments: {} }]);
    expect(geminiInteractions.detect(sse('{}', { event: 'interaction.created' }), {})).toBe(true);
    expect(geminiInteractions.detect(sse('{}'), { event_type: 'step.delta' })).toBe(true);
    expect(geminiInteractions.detect(sse('{}', { event: 'error' }), { event_type: 'error', error: { message: 'x' } })).toBe(true);
    expect(geminiInteractions.detect(sse('{}', { event: 'error' }), { type: 'error', error: { message: 'x' } })).toBe(false);
    expect(geminiInteractions.detect(sse('{}'), { choices: [] })).toBe(false);
  });
});
