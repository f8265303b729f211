/**
 * Hostile and messy UI streams (rules `ui-call-ids`, `ui-final-input`, `ui-chunks`): events out of
 * order, input for a call that never started, arguments after a call's end, duplicate starts,
 * unknown types, missing fields, oversized events, the limits. Each is read as stated here, in
 * every chunking: never a crash, a call's siblings unaffected, what was complete kept. Beside each,
 * what the protocol's own client does with the same bytes (served on 127.0.0.1), where it differs.
 */
import { isToolStreamError, type ToolCallResult } from 'rxjs-tool-calls';
import { chunkings } from '../helpers/chunking';
import { runChunks, type RunOutcome } from '../helpers/runStream';
import { agUiStream, readWithAgUi, readWithAiSdk, startBytesServer, type BytesServer } from '../helpers/uiClients';

/** The AI SDK UI message stream of `chunks` (and `[DONE]` unless `done` is false), as its SSE text. */
function ui(chunks: ReadonlyArray<Record<string, unknown>>, done = true): string {
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}${done ? 'data: [DONE]\n\n' : ''}`;
}

const bytes = (text: string | Uint8Array): Uint8Array => (typeof text === 'string' ? new TextEncoder().encode(text) : text);

/** The same outcome under every chunking (the first one is returned). */
function read(text: string | Uint8Array, options: Parameters<typeof runChunks>[1] = {}): RunOutcome {
  const runs = chunkings(bytes(text)).map(([how, chunks]): [string, RunOutcome] => [how, runChunks(chunks, options)]);
  const [, first] = runs[0] as [string, RunOutcome];
  for (const [how, outcome] of runs) expect({ how, results: outcome.results, error: outcome.error }).toEqual({ how, results: first.results, error: first.error });
  return first;
}

/** A result as `[id, name, arguments | error code]`. */
const shown = (r: ToolCallResult): unknown[] => (r.success ? [r.data.id, r.data.name, r.data.arguments] : [r.error.toolCall.id, r.error.toolCall.name, r.error.code]);

let server: BytesServer;
beforeAll(async () => {
  process.env['SUPPRESS_TRANSFORMATION_WARNINGS'] = '1';
  server = await startBytesServer();
});
afterAll(() => server.close());

const start = { type: 'start' };
const finish = { type: 'finish', finishReason: 'tool-calls' };
const inputStart = (id: string, name = 'get_weather') => ({ type: 'tool-input-start', toolCallId: id, toolName: name });
const inputDelta = (id: string, delta: string) => ({ type: 'tool-input-delta', toolCallId: id, inputTextDelta: delta });
const available = (id: string, input: unknown, name = 'get_weather') => ({ type: 'tool-input-available', toolCallId: id, toolName: name, input });

describe('the AI SDK UI message stream', () => {
  it('input for a call that never started is a call of its own without a name (cut when the message finishes); its sibling is unaffected; useChat fails the message', async () => {
    const text = ui([start, inputStart('a'), inputDelta('ghost', '{"x":1}'), inputDelta('a', '{"city":"Oslo"}'), available('a', { city: 'Oslo' }), finish]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toEqual([
      ['a', 'get_weather', { city: 'Oslo' }],
      ['ghost', '', 'incomplete'],
    ]);
    expect(outcome.error).toBeUndefined();
    const client = await readWithAiSdk(server.serve('/ui/ghost', [text]));
    expect(String(client.errors[0])).toContain('missing tool call with ID "ghost"');
  });

  it('input after the call’s end is dropped: the call stays as it ended (useChat takes it back to streaming)', async () => {
    const text = ui([start, inputStart('a'), inputDelta('a', '{"city":"Oslo"}'), available('a', { city: 'Oslo' }), inputDelta('a', ',"late":true}'), finish]);
    expect(read(text).results.map(shown)).toEqual([['a', 'get_weather', { city: 'Oslo' }]]);
    const client = await readWithAiSdk(server.serve('/ui/late', [text]));
    expect(client.message?.parts.find((p) => p.type === 'tool-get_weather')).toMatchObject({ state: 'input-streaming' });
  });

  it('a second start of an open call is the same call: its input goes on (useChat starts its text over)', () => {
    const text = ui([start, inputStart('a'), inputDelta('a', '{"city":'), inputStart('a'), inputDelta('a', '"Oslo"}'), { type: 'tool-input-end' }, finish]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toEqual([['a', 'get_weather', 'incomplete']]);
    expect(outcome.results[0]?.success === false && outcome.results[0].error.toolCall.rawArguments).toBe('{"city":"Oslo"}');
  });

  it('a start with the id of a finished call is a new call (a new step): rule `unique-ids` names it', () => {
    const text = ui([start, available('a', { city: 'Oslo' }), { type: 'start-step' }, inputStart('a', 'get_time'), inputDelta('a', '{"tz":"CET"}'), available('a', { tz: 'CET' }, 'get_time'), finish]);
    expect(read(text).results.map(shown)).toEqual([
      ['a', 'get_weather', { city: 'Oslo' }],
      ['a_2', 'get_time', { tz: 'CET' }],
    ]);
  });

  it('chunks of unknown types are skipped, never fatal (useChat’s schema check fails on them)', async () => {
    const text = ui([start, { type: 'tool-input-progress', toolCallId: 'a', value: 1 }, { type: 'x-vendor-thing' }, available('a', { city: 'Oslo' }), finish]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toEqual([['a', 'get_weather', { city: 'Oslo' }]]);
    expect(outcome.completed).toBe(true);
    const client = await readWithAiSdk(server.serve('/ui/unknown', [text]));
    expect(client.errors.length).toBeGreaterThan(0);
  });

  it('events out of order: an output before its call, text without its start, an end before the start', () => {
    const text = ui([
      start,
      { type: 'tool-output-available', toolCallId: 'a', output: { early: true } },
      { type: 'text-delta', id: 'nope', delta: 'Hello' },
      { type: 'text-end', id: 'never-started' },
      inputStart('a'),
      inputDelta('a', '{"city":"Oslo"}'),
      available('a', { city: 'Oslo' }),
      { type: 'tool-output-available', toolCallId: 'a', output: { celsius: 4 } },
      finish,
    ]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toEqual([['a', 'get_weather', { city: 'Oslo' }]]);
    expect(outcome.text).toBe('Hello');
    expect(outcome.events.filter((e) => e.type === 'tool-result').map((e) => e.type === 'tool-result' && e.output)).toEqual([{ early: true }, { celsius: 4 }]);
  });

  it('a known chunk without a field it needs is invalid-event; the complete call before it is kept, the open one is incomplete', () => {
    const text = ui([start, available('a', { city: 'Oslo' }), inputStart('b'), inputDelta('b', '{"ci'), { type: 'tool-input-delta', toolCallId: 'b' }, finish]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toEqual([
      ['a', 'get_weather', { city: 'Oslo' }],
      ['b', 'get_weather', 'incomplete'],
    ]);
    expect(isToolStreamError(outcome.error, 'invalid-event') && outcome.error.provider).toBe('ai-sdk-ui');
  });

  it('data that is not JSON is invalid-event; keep-alives (empty data, comments) are skipped', () => {
    expect(read(`: keep-alive\n\ndata:\n\n${ui([start, available('a', {}), finish])}`).results.map(shown)).toEqual([['a', 'get_weather', {}]]);
    expect(isToolStreamError(read(`${ui([start, available('a', {})], false)}data: {oops\n\n`).error, 'invalid-event')).toBe(true);
  });

  it('an event larger than maxEventSize is event-too-large, after the calls before it', () => {
    const outcome = read(ui([start, available('a', { city: 'Oslo' }), inputStart('b'), inputDelta('b', `"${'x'.repeat(5000)}"`), finish]), { maxEventSize: 1024 });
    expect(outcome.results.map(shown)).toEqual([
      ['a', 'get_weather', { city: 'Oslo' }],
      ['b', 'get_weather', 'incomplete'],
    ]);
    expect(isToolStreamError(outcome.error, 'event-too-large')).toBe(true);
  });

  it('the limits hold: maxToolCalls ends the stream, maxArgumentsSize fails only that call', () => {
    const many = ui([start, ...['a', 'b', 'c', 'd'].map((id) => available(id, {})), finish]);
    const limited = read(many, { maxToolCalls: 3 });
    expect(limited.results.map(shown)).toEqual([
      ['a', 'get_weather', {}],
      ['b', 'get_weather', {}],
      ['c', 'get_weather', {}],
    ]);
    expect(isToolStreamError(limited.error, 'too-many-tool-calls')).toBe(true);
    const large = read(ui([start, inputStart('a'), inputDelta('a', `{"text":"${'y'.repeat(200)}"}`), available('b', { ok: true }), finish]), { maxArgumentsSize: 100 });
    expect(large.results.map(shown)).toEqual([
      ['a', 'get_weather', 'arguments-too-large'],
      ['b', 'get_weather', { ok: true }],
    ]);
  });

  it('a stream cut before finish and [DONE] is truncated, its open calls incomplete; cut after finish it is complete', () => {
    const cut = read(ui([start, available('a', {}), inputStart('b'), inputDelta('b', '{"ci')], false));
    expect(cut.results.map(shown)).toEqual([
      ['a', 'get_weather', {}],
      ['b', 'get_weather', 'incomplete'],
    ]);
    expect(isToolStreamError(cut.error, 'truncated')).toBe(true);
    const finished = read(ui([start, available('a', {}), finish], false));
    expect(finished).toMatchObject({ error: undefined, completed: true });
  });

  it('a call whose input the message finished before it was complete is incomplete with the finish’s reason', () => {
    const outcome = read(ui([start, inputStart('a'), inputDelta('a', '{"ci'), { type: 'finish', finishReason: 'length' }]));
    expect(outcome.results[0]?.success === false && outcome.results[0].error).toMatchObject({ code: 'incomplete', reason: 'length' });
  });
});

const runStarted = { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
const runFinished = { type: 'RUN_FINISHED', threadId: 't', runId: 'r' };
const callStart = (id: string, name = 'get_weather') => ({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name });
const callArgs = (id: string, delta: string) => ({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta });
const callEnd = (id: string) => ({ type: 'TOOL_CALL_END', toolCallId: id });

describe('AG-UI', () => {
  it('TOOL_CALL_ARGS for a call that never started is a call of its own without a name (missing-name); the run goes on (verifyEvents fails it)', async () => {
    const text = agUiStream([runStarted, callStart('a'), callArgs('ghost', '{}'), callArgs('a', '{"city":"Oslo"}'), callEnd('a'), callEnd('ghost'), runFinished]);
    expect(read(text).results.map(shown)).toEqual([
      ['a', 'get_weather', { city: 'Oslo' }],
      ['ghost', '', 'missing-name'],
    ]);
    const client = await readWithAgUi(server.serve('/ag/ghost', [text]));
    expect(String(client.error)).toContain("No active tool call found with ID 'ghost'");
  });

  it('TOOL_CALL_ARGS after its TOOL_CALL_END is dropped: the call stays as it ended (verifyEvents fails the run)', async () => {
    const text = agUiStream([runStarted, callStart('a'), callArgs('a', '{"city":"Oslo"}'), callEnd('a'), callArgs('a', ',"late":1}'), runFinished]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toEqual([['a', 'get_weather', { city: 'Oslo' }]]);
    expect(outcome.completed).toBe(true);
    const client = await readWithAgUi(server.serve('/ag/late', [text]));
    expect(String(client.error)).toContain("No active tool call found with ID 'a'");
  });

  it('a second TOOL_CALL_START of an open call is the same call (verifyEvents fails the run)', async () => {
    const text = agUiStream([runStarted, callStart('a'), callArgs('a', '{"city":'), callStart('a'), callArgs('a', '"Oslo"}'), callEnd('a'), runFinished]);
    expect(read(text).results.map(shown)).toEqual([['a', 'get_weather', { city: 'Oslo' }]]);
    const client = await readWithAgUi(server.serve('/ag/twice', [text]));
    expect(String(client.error)).toContain('already in progress');
  });

  it('events of unknown types are skipped, as the client drops them', async () => {
    const text = agUiStream([runStarted, { type: 'TOOL_CALL_PROGRESS', toolCallId: 'a' }, callStart('a'), callArgs('a', '{}'), callEnd('a'), runFinished]);
    expect(read(text).results.map(shown)).toEqual([['a', 'get_weather', {}]]);
    const client = await readWithAgUi(server.serve('/ag/unknown', [text]));
    expect(client.error).toBeUndefined();
  });

  it('events before RUN_STARTED, an end for no call, and events after RUN_FINISHED (read, dropped, ignored)', async () => {
    const text = agUiStream([
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Early. ' },
      runStarted,
      callEnd('nobody'),
      callStart('a'),
      callArgs('a', '{}'),
      callEnd('a'),
      runFinished,
      callStart('b'),
      callEnd('b'),
    ]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toEqual([['a', 'get_weather', {}]]);
    expect(outcome.text).toBe('Early. ');
    const client = await readWithAgUi(server.serve('/ag/order', [text]));
    expect(String(client.error)).toContain("First event must be 'RUN_STARTED'");
  });

  it('a call still open when the run finishes is incomplete (verifyEvents refuses the RUN_FINISHED)', async () => {
    const text = agUiStream([runStarted, callStart('a'), callArgs('a', '{"ci'), runFinished]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toEqual([['a', 'get_weather', 'incomplete']]);
    expect(outcome.completed).toBe(true);
    const client = await readWithAgUi(server.serve('/ag/open', [text]));
    expect(String(client.error)).toContain('tool calls are still active');
  });

  it('a TOOL_CALL_CHUNK that opens a call without its id is invalid-event, as the client refuses it; one without a name opens a nameless call', async () => {
    const noId = agUiStream([runStarted, { type: 'TOOL_CALL_CHUNK', toolCallName: 'x', delta: '{}' }, runFinished]);
    expect(isToolStreamError(read(noId).error, 'invalid-event')).toBe(true);
    const client = await readWithAgUi(server.serve('/ag/chunk', [noId]));
    expect(String(client.error)).toContain('must have a toolCallId');
    const noName = agUiStream([
      runStarted,
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'a', delta: '{}' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'b', toolCallName: 'get_time', delta: '{"tz":"UTC"}' },
      runFinished,
    ]);
    expect(read(noName).results.map(shown)).toEqual([
      ['a', '', 'missing-name'],
      ['b', 'get_time', { tz: 'UTC' }],
    ]);
  });

  it('a known event without a field it needs is invalid-event, after the complete calls before it', () => {
    const outcome = read(agUiStream([runStarted, callStart('a'), callArgs('a', '{}'), callEnd('a'), callStart('b'), { type: 'TOOL_CALL_ARGS', toolCallId: 'b' }, runFinished]));
    expect(outcome.results.map(shown)).toEqual([
      ['a', 'get_weather', {}],
      ['b', 'get_weather', 'incomplete'],
    ]);
    expect(isToolStreamError(outcome.error, 'invalid-event') && outcome.error.provider).toBe('ag-ui');
  });

  it('an event larger than maxEventSize is event-too-large; the limits hold', () => {
    const large = read(agUiStream([runStarted, callStart('a'), callArgs('a', '{}'), callEnd('a'), callStart('b'), callArgs('b', `"${'x'.repeat(5000)}"`), runFinished]), { maxEventSize: 1024 });
    expect(large.results.map(shown)).toEqual([
      ['a', 'get_weather', {}],
      ['b', 'get_weather', 'incomplete'],
    ]);
    expect(isToolStreamError(large.error, 'event-too-large')).toBe(true);
    const many = read(agUiStream([runStarted, ...['a', 'b', 'c'].flatMap((id) => [callStart(id), callEnd(id)]), runFinished]), { maxToolCalls: 2 });
    expect(isToolStreamError(many.error, 'too-many-tool-calls')).toBe(true);
    expect(many.results).toHaveLength(2);
  });

  it('a stream cut before RUN_FINISHED is truncated; a text message of another role is not the answer; a snapshot of messages changes nothing', () => {
    const cut = read(agUiStream([runStarted, callStart('a'), callArgs('a', '{}')]));
    expect(isToolStreamError(cut.error, 'truncated')).toBe(true);
    expect(cut.results.map(shown)).toEqual([['a', 'get_weather', 'incomplete']]);
    const roles = read(
      agUiStream([
        runStarted,
        { type: 'TEXT_MESSAGE_START', messageId: 'u', role: 'user' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'u', delta: 'echoed question' },
        { type: 'TEXT_MESSAGE_END', messageId: 'u' },
        { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'x', role: 'assistant', content: 'old', toolCalls: [{ id: 'old', type: 'function', function: { name: 'f', arguments: '{}' } }] }] },
        { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a1', role: 'assistant', delta: 'The answer.' },
        runFinished,
      ]),
    );
    expect(roles.text).toBe('The answer.');
    expect(roles.results).toEqual([]);
  });
});

describe('AG-UI as bridges wrote it (public reports)', () => {
  const result = (id: string, content: string) => ({ type: 'TOOL_CALL_RESULT', messageId: `tool-${id}`, toolCallId: id, content });

  it('a call started and ended with no TOOL_CALL_ARGS, then its result (ag-ui-protocol/ag-ui#2463, ag-ui-protocol/ag-ui#2653): a call without arguments, as the client has it, and its result', async () => {
    const text = agUiStream([runStarted, callStart('call_1', 'read_file'), callEnd('call_1'), result('call_1', 'file contents'), runFinished]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toEqual([['call_1', 'read_file', {}]]);
    expect(outcome.events.filter((e) => e.type === 'tool-result')).toEqual([expect.objectContaining({ type: 'tool-result', id: 'call_1', output: 'file contents' })]);
    const client = await readWithAgUi(server.serve('/ag/no-args', [text]));
    expect(client.error).toBeUndefined();
    const calls = client.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    expect(calls.map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([['call_1', 'read_file', '']]);
  });

  it('the whole arguments in one TOOL_CALL_ARGS at the step’s end, beside a call streamed in fragments (the Mastra bridge before ag-ui-protocol/ag-ui#2066): both calls, as the client has them', async () => {
    const text = agUiStream([
      runStarted,
      callStart('a'),
      callStart('b', 'get_time'),
      callArgs('b', '{"zone":'),
      callArgs('b', '"CET"}'),
      callArgs('a', '{"city":"Oslo","days":2}'),
      callEnd('b'),
      callEnd('a'),
      runFinished,
    ]);
    expect(read(text).results.map(shown)).toEqual([
      ['b', 'get_time', { zone: 'CET' }],
      ['a', 'get_weather', { city: 'Oslo', days: 2 }],
    ]);
    const client = await readWithAgUi(server.serve('/ag/one-args', [text]));
    expect(client.error).toBeUndefined();
    // Without a parentMessageId each call is an assistant message of its own there.
    const calls = client.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    expect(calls.map((c) => [c.id, JSON.parse(c.function.arguments)])).toEqual([
      ['a', { city: 'Oslo', days: 2 }],
      ['b', { zone: 'CET' }],
    ]);
  });

  it('TOOL_CALL_ARGS naming another call than the open one (microsoft/agent-framework#6342): never given to the open call; the open call keeps its own arguments', () => {
    const text = agUiStream([runStarted, callStart('a'), callArgs('a', '{"city":'), callArgs('b', '{"x":1}'), callArgs('a', '"Oslo"}'), callEnd('a'), runFinished]);
    const outcome = read(text);
    expect(outcome.results.map(shown)).toContainEqual(['a', 'get_weather', { city: 'Oslo' }]);
    expect(outcome.results.map(shown)).toContainEqual(['b', '', 'incomplete']);
  });
});
