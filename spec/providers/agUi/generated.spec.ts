/**
 * Conformance of `agUi` over streams `@ag-ui/encoder` writes, for each case of the protocol's
 * events. What `readToolCalls()` and `readStreamEvents()` give, under every chunking, equals what
 * `@ag-ui/client`'s `HttpAgent` reconstructs from the same bytes served on 127.0.0.1 (schema checks,
 * chunk expansion, `verifyEvents`, the default reducer): each call's id, name and arguments, the
 * assistant's text, the tool results, the approvals the run's interrupts ask for, and the usage.
 */
import { from, lastValueFrom, toArray } from 'rxjs';
import { chatState, readStreamEvents } from 'rxjs-tool-calls';
import { chunkings } from '../../helpers/chunking';
import { runChunks, type RunOutcome } from '../../helpers/runStream';
import { agUiStream, readWithAgUi, startBytesServer, type AgUiClientView, type BytesServer } from '../../helpers/uiClients';

type Event = Record<string, unknown> & { readonly type: string };

const started: Event = { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' };
const finished = (extra: Record<string, unknown> = {}): Event => ({ type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'run-1', ...extra });
const say = (messageId: string, ...deltas: string[]): Event[] => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  ...deltas.map((delta): Event => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
  { type: 'TEXT_MESSAGE_END', messageId },
];
const call = (toolCallId: string, toolCallName: string, deltas: string[], parentMessageId = 'msg-1'): Event[] => [
  { type: 'TOOL_CALL_START', toolCallId, toolCallName, parentMessageId },
  ...deltas.map((delta): Event => ({ type: 'TOOL_CALL_ARGS', toolCallId, delta })),
  { type: 'TOOL_CALL_END', toolCallId },
];

/** Each case: the events of one run. */
const CASES: Record<string, Event[]> = {
  'text, then a call in fragments and its result': [
    started,
    ...say('msg-1', 'Checking ', 'the weather.'),
    ...call('call_1', 'get_weather', ['{"ci', 'ty": "Zü', 'rich"}']),
    { type: 'TOOL_CALL_RESULT', messageId: 'res-1', toolCallId: 'call_1', content: '{"celsius":21}', role: 'tool' },
    finished(),
  ],
  'two calls whose fragments interleave': [
    started,
    { type: 'TOOL_CALL_START', toolCallId: 'call_a', toolCallName: 'get_weather', parentMessageId: 'msg-1' },
    { type: 'TOOL_CALL_START', toolCallId: 'call_b', toolCallName: 'get_time', parentMessageId: 'msg-1' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_a', delta: '{"city":' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_b', delta: '{"tz":"UTC"}' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_a', delta: '"Paris"}' },
    { type: 'TOOL_CALL_END', toolCallId: 'call_b' },
    { type: 'TOOL_CALL_END', toolCallId: 'call_a' },
    finished(),
  ],
  'the arguments in one event (what some bridges send)': [started, ...call('call_1', 'get_weather', ['{"city":"Lima","days":3}']), finished()],
  'the chunk shorthand: a call and text from TOOL_CALL_CHUNK and TEXT_MESSAGE_CHUNK': [
    started,
    { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg-1', role: 'assistant', delta: 'On it. ' },
    { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', toolCallName: 'get_weather', parentMessageId: 'msg-1', delta: '{"city"' },
    { type: 'TOOL_CALL_CHUNK', delta: ':"Oslo"}' },
    { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_2', toolCallName: 'get_time', parentMessageId: 'msg-1', delta: '{"tz":"CET"}' },
    { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg-2', delta: 'Done.' },
    finished(),
  ],
  'reasoning with its encrypted value, then text': [
    started,
    { type: 'REASONING_START', messageId: 'r-1' },
    { type: 'REASONING_MESSAGE_START', messageId: 'r-1', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r-1', delta: 'The user wants ' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r-1', delta: 'the weather.' },
    { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r-1', encryptedValue: 'gAAAAB…' },
    { type: 'REASONING_MESSAGE_END', messageId: 'r-1' },
    { type: 'REASONING_END', messageId: 'r-1' },
    ...say('msg-1', 'Sunny.'),
    finished(),
  ],
  'a run that stops for an approval (interrupt outcome)': [
    started,
    ...call('call_1', 'delete_file', ['{"path":"/tmp/x"}']),
    finished({ outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_approval', toolCallId: 'call_1', message: 'Delete /tmp/x?' }] } }),
  ],
  'a frontend tool left for the client (pendingToolCallIds)': [
    started,
    ...say('msg-1', 'Let me ask.'),
    ...call('call_1', 'confirm', ['{"question":"Proceed?"}']),
    finished({ outcome: { type: 'success', pendingToolCallIds: ['call_1'] } }),
  ],
  'usage of two models': [
    started,
    ...say('msg-1', 'Hello.'),
    finished({
      usage: [
        { provider: 'openai', model: 'gpt-4o', inputTokens: 30, outputTokens: 9, totalTokens: 39 },
        { provider: 'anthropic', model: 'claude', inputTokens: 12, outputTokens: 3, totalTokens: 15, cachedInputTokens: 10 },
      ],
    }),
  ],
  'steps, state, activity, custom and raw events around the answer': [
    started,
    { type: 'STEP_STARTED', stepName: 'plan' },
    { type: 'STATE_SNAPSHOT', snapshot: { count: 1 } },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: 2 }] },
    { type: 'ACTIVITY_SNAPSHOT', messageId: 'act-1', activityType: 'PLAN', content: { steps: ['look'] } },
    { type: 'CUSTOM', name: 'progress', value: 50 },
    { type: 'RAW', event: { vendor: 'x' } },
    { type: 'STEP_FINISHED', stepName: 'plan' },
    ...say('msg-1', 'Planned.'),
    ...call('call_1', 'get_weather', ['{"city":"Rome"}']),
    finished(),
  ],
  'a subagent’s text and call': [
    started,
    { type: 'SUBAGENT_STARTED', subagentRunId: 'sub-1', name: 'researcher' },
    { type: 'TEXT_MESSAGE_START', messageId: 'sub-msg', role: 'assistant', subagentRunId: 'sub-1' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'sub-msg', delta: 'Searching.', subagentRunId: 'sub-1' },
    { type: 'TEXT_MESSAGE_END', messageId: 'sub-msg', subagentRunId: 'sub-1' },
    { type: 'TOOL_CALL_START', toolCallId: 'call_s', toolCallName: 'search', parentMessageId: 'sub-msg', subagentRunId: 'sub-1' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_s', delta: '{"q":"x"}', subagentRunId: 'sub-1' },
    { type: 'TOOL_CALL_END', toolCallId: 'call_s', subagentRunId: 'sub-1' },
    { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub-1' },
    finished(),
  ],
  'a run that fails after some text (RUN_ERROR)': [started, ...say('msg-1', 'Partly'), { type: 'RUN_ERROR', message: 'The model is overloaded', code: 'overloaded' }],
};

let server: BytesServer;
beforeAll(async () => {
  server = await startBytesServer();
});
afterAll(() => server.close());

interface ClientCall {
  readonly id: string;
  readonly function: { readonly name: string; readonly arguments: string };
}

/** The client's calls in the order its messages hold them: id, name, arguments parsed. */
function clientCalls(client: AgUiClientView): unknown[] {
  return client.messages.flatMap((m) => ((m as { toolCalls?: ClientCall[] }).toolCalls ?? []).map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments) as unknown]));
}

/** Ours, in the order the calls were first seen. */
function ourCalls(outcome: RunOutcome): unknown[] {
  const index = (r: RunOutcome['results'][number]): number => (r.success ? r.data.index : r.error.toolCall.index);
  return [...outcome.results].sort((a, b) => index(a) - index(b)).map((r) => (r.success ? [r.data.id, r.data.name, r.data.arguments] : [r.error.toolCall.id, r.error.code]));
}

describe.each(Object.entries(CASES))('%s', (name, events) => {
  const bytes = agUiStream(events);
  let client: AgUiClientView;
  beforeAll(async () => {
    client = await readWithAgUi(server.serve(`/${encodeURIComponent(name)}`, [bytes]));
  });

  it('gives the calls, text, results, approvals, finish and usage the client reconstructs, in every chunking', () => {
    const assistantText = client.messages
      .filter((m) => m.role === 'assistant')
      .map((m) => (m as { content?: string }).content ?? '')
      .join('');
    const results = client.messages.filter((m) => m.role === 'tool').map((m) => [(m as { toolCallId: string }).toolCallId, (m as { content: unknown }).content]);
    const finishedEvent = client.events.find((e) => e.type === 'RUN_FINISHED') as
      { outcome?: { type: string; interrupts?: Array<{ id: string; toolCallId?: string }> }; usage?: Array<Record<string, number>> } | undefined;
    const interrupts = (finishedEvent?.outcome?.interrupts ?? []).filter((i) => i.toolCallId !== undefined).map((i) => [i.toolCallId, i.id]);
    const runError = client.events.find((e) => e.type === 'RUN_ERROR') as { message: string } | undefined;
    // The client verified the stream: a valid run of the protocol.
    if (runError === undefined) expect(client.error).toBeUndefined();
    for (const [how, pieces] of chunkings(bytes)) {
      const outcome = runChunks(pieces);
      const at = { case: name, chunking: how };
      expect({ ...at, calls: ourCalls(outcome) }).toEqual({ ...at, calls: clientCalls(client) });
      expect({ ...at, text: outcome.text }).toEqual({ ...at, text: assistantText });
      expect({ ...at, results: outcome.events.flatMap((e) => (e.type === 'tool-result' ? [[e.id, e.output]] : [])) }).toEqual({ ...at, results });
      expect({ ...at, approvals: outcome.events.flatMap((e) => (e.type === 'tool-approval-request' ? [[e.id, e.approvalId]] : [])) }).toEqual({ ...at, approvals: interrupts });
      if (runError !== undefined) {
        expect(outcome.error).toMatchObject({ code: 'provider-error', message: expect.stringContaining(runError.message) });
        continue;
      }
      expect({ ...at, error: outcome.error, completed: outcome.completed }).toEqual({ ...at, error: undefined, completed: true });
      const usage = outcome.events.filter((e) => e.type === 'usage').at(-1);
      const sum = (key: string): number | undefined => (finishedEvent?.usage === undefined ? undefined : finishedEvent.usage.reduce((n, u) => n + (u[key] ?? 0), 0));
      expect({ ...at, input: usage?.inputTokens, output: usage?.outputTokens }).toEqual({ ...at, input: sum('inputTokens'), output: sum('outputTokens') });
      // A run that left calls unanswered, or asks to approve one, stopped for them.
      const unanswered = clientCalls(client).length > results.length || interrupts.length > 0;
      expect({ ...at, finish: outcome.events.find((e) => e.type === 'finish') }).toMatchObject({ ...at, finish: { reason: unanswered ? 'tool-calls' : 'stop' } });
    }
  });

  it('shows each result and approval on its call in chatState()', async () => {
    const states = await lastValueFrom(from([bytes]).pipe(readStreamEvents(), chatState(), toArray()));
    const last = states.at(-1);
    for (const message of client.messages.filter((m) => m.role === 'tool')) {
      const { toolCallId, content } = message as { toolCallId: string; content: unknown };
      expect(last?.calls.find((c) => c.id === toolCallId)?.output).toMatchObject({ output: content });
    }
    const finishedEvent = client.events.find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts?: Array<{ id: string; toolCallId?: string }> } } | undefined;
    for (const interrupt of finishedEvent?.outcome?.interrupts ?? []) expect(last?.calls.find((c) => c.id === interrupt.toolCallId)?.approval).toEqual({ id: interrupt.id });
  });
});
