/**
 * The UI protocols' example streams, one per case, shared by their conformance specs
 * (spec/providers/aiSdkUi, spec/providers/agUi) and the liveness specs: for the AI SDK, what the mock
 * model streams (one array per model call) and the request's tools, written by `streamText` itself
 * ({@link aiSdkUiCaseStream}); for AG-UI, the events of one run, written by `@ag-ui/encoder`
 * (`agUiStream`).
 *
 * @module
 */
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { jsonSchema, tool, type ToolSet } from 'ai';
import { aiSdkUiStream, MOCK_USAGE } from './uiClients';

const city = jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
const finish = (unified: 'stop' | 'tool-calls' | 'length' | 'error', usage = MOCK_USAGE): LanguageModelV3StreamPart => ({ type: 'finish', finishReason: { unified, raw: unified }, usage });
const text = (id: string, ...deltas: string[]): LanguageModelV3StreamPart[] => [
  { type: 'text-start', id },
  ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
];
const streamedCall = (id: string, toolName: string, deltas: string[], input = deltas.join('')): LanguageModelV3StreamPart[] => [
  { type: 'tool-input-start', id, toolName },
  ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: 'tool-input-delta', id, delta })),
  { type: 'tool-input-end', id },
  { type: 'tool-call', toolCallId: id, toolName, input },
];

export interface AiSdkUiCase {
  readonly steps: ReadonlyArray<ReadonlyArray<LanguageModelV3StreamPart>>;
  readonly tools?: ToolSet;
  readonly usageInMetadata?: boolean;
}

/** Each case: what the mock model streams (one array per model call), and the tools of the request. */
export const AI_SDK_UI_CASES: Record<string, AiSdkUiCase> = {
  'text, then a call streamed in fragments and run on the server': {
    steps: [[...text('t1', 'Checking ', 'the weather.'), ...streamedCall('call_1', 'get_weather', ['{"ci', 'ty": "Zü', 'rich"}']), finish('tool-calls')]],
    tools: { get_weather: tool({ inputSchema: city, execute: async ({ city }) => ({ city, celsius: 21 }) }) },
  },
  'two calls whose fragments interleave, for the client to run': {
    steps: [
      [
        { type: 'tool-input-start', id: 'call_a', toolName: 'get_weather' },
        { type: 'tool-input-start', id: 'call_b', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'call_a', delta: '{"city":' },
        { type: 'tool-input-delta', id: 'call_b', delta: '{"city":"Oslo"}' },
        { type: 'tool-input-delta', id: 'call_a', delta: '"Paris"}' },
        { type: 'tool-input-end', id: 'call_b' },
        { type: 'tool-input-end', id: 'call_a' },
        { type: 'tool-call', toolCallId: 'call_b', toolName: 'get_weather', input: '{"city":"Oslo"}' },
        { type: 'tool-call', toolCallId: 'call_a', toolName: 'get_weather', input: '{"city":"Paris"}' },
        finish('tool-calls'),
      ],
    ],
    tools: { get_weather: tool({ inputSchema: city }) },
  },
  'a call whose input comes whole (no fragments)': {
    steps: [[{ type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Lima"}' }, finish('tool-calls')]],
    tools: { get_weather: tool({ inputSchema: city }) },
  },
  'input the model got wrong (tool-input-error)': {
    steps: [[...streamedCall('call_1', 'get_weather', ['{"city": ']), finish('tool-calls')]],
    tools: { get_weather: tool({ inputSchema: city }) },
  },
  'a tool that fails (tool-output-error)': {
    steps: [[{ type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Rome"}' }, finish('tool-calls')]],
    tools: {
      get_weather: tool({
        inputSchema: city,
        execute: async (): Promise<string> => {
          throw new Error('no weather today');
        },
      }),
    },
  },
  'progress values, then the output (preliminary)': {
    steps: [[{ type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Bern"}' }, finish('tool-calls')]],
    tools: {
      get_weather: tool({
        inputSchema: city,
        execute: async function* () {
          yield { status: 'looking' };
          yield { status: 'found', celsius: 18 };
        },
      }),
    },
  },
  'a call that needs approval': {
    steps: [[{ type: 'tool-call', toolCallId: 'call_1', toolName: 'delete_file', input: '{"city":"/tmp/x"}' }, finish('tool-calls')]],
    tools: { delete_file: tool({ inputSchema: city, needsApproval: true, execute: async () => 'deleted' }) },
  },
  'reasoning, text and a call': {
    steps: [
      [
        { type: 'reasoning-start', id: 'r1' },
        { type: 'reasoning-delta', id: 'r1', delta: 'The user wants ' },
        { type: 'reasoning-delta', id: 'r1', delta: 'the weather.' },
        { type: 'reasoning-end', id: 'r1' },
        ...text('t1', 'Sure.'),
        ...streamedCall('call_1', 'get_weather', ['{"city"', ':"Kyiv"}']),
        finish('tool-calls'),
      ],
    ],
    tools: { get_weather: tool({ inputSchema: city }) },
  },
  'two steps: a call run on the server, then the answer': {
    steps: [
      [...streamedCall('call_1', 'get_weather', ['{"city":"Oslo"}']), finish('tool-calls')],
      [...text('t2', 'It is ', '4 °C in Oslo.'), finish('stop')],
    ],
    tools: { get_weather: tool({ inputSchema: city, execute: async () => ({ celsius: 4 }) }) },
  },
  'the usage in the message metadata (totalUsage at finish)': {
    steps: [[...text('t1', 'Hello.'), finish('stop', { inputTokens: { total: 120, noCache: 20, cacheRead: 90, cacheWrite: 10 }, outputTokens: { total: 40, text: 25, reasoning: 15 } })]],
    usageInMetadata: true,
  },
  'a tool the provider ran (providerExecuted)': {
    steps: [
      [
        { type: 'tool-call', toolCallId: 'ws_1', toolName: 'web_search', input: '{"query":"weather Oslo"}', providerExecuted: true, dynamic: true },
        { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: { hits: 2 }, dynamic: true },
        ...text('t1', 'Found it.'),
        finish('stop'),
      ],
    ],
  },
  'an error in the middle of the answer': {
    steps: [[...text('t1', 'Partly'), { type: 'error', error: new Error('overloaded') }, finish('error')]],
  },
  'a call whose final input differs from its fragments (repaired by the server)': {
    steps: [[...streamedCall('call_1', 'get_weather', ['{"city":', '"Par'], '{"city":"Paris"}'), finish('tool-calls')]],
    tools: { get_weather: tool({ inputSchema: city }) },
  },
  'a custom tool’s text (inputEncoding: text)': {
    steps: [
      [
        { type: 'tool-input-start', id: 'call_1', toolName: 'apply_patch', inputEncoding: 'text' },
        { type: 'tool-input-delta', id: 'call_1', delta: '*** Begin Patch\n' },
        { type: 'tool-input-delta', id: 'call_1', delta: '*** End Patch' },
        { type: 'tool-input-end', id: 'call_1' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'apply_patch', input: JSON.stringify('*** Begin Patch\n*** End Patch') },
        finish('tool-calls'),
      ],
    ],
    tools: { apply_patch: tool({ inputSchema: jsonSchema<string>({ type: 'string' }) }) },
  },
  'a call cut by the token limit': {
    steps: [[...text('t1', 'Let me'), { type: 'tool-input-start', id: 'call_1', toolName: 'get_weather' }, { type: 'tool-input-delta', id: 'call_1', delta: '{"city":"Ber' }, finish('length')]],
    tools: { get_weather: tool({ inputSchema: city }) },
  },
};

/** The bytes (and headers) `streamText` writes for one case: its usage in the message metadata when the case asks. */
export function aiSdkUiCaseStream(spec: AiSdkUiCase): Promise<{ bytes: Uint8Array; headers: Headers }> {
  return aiSdkUiStream(spec.steps, {
    ...(spec.tools === undefined ? {} : { tools: spec.tools }),
    ...(spec.usageInMetadata === true ? { messageMetadata: ({ part }) => (part.type === 'finish' ? { totalUsage: part.totalUsage } : undefined) } : {}),
  });
}

export type AgUiEvent = Record<string, unknown> & { readonly type: string };

const started: AgUiEvent = { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' };
const finished = (extra: Record<string, unknown> = {}): AgUiEvent => ({ type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'run-1', ...extra });
const say = (messageId: string, ...deltas: string[]): AgUiEvent[] => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  ...deltas.map((delta): AgUiEvent => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
  { type: 'TEXT_MESSAGE_END', messageId },
];
const call = (toolCallId: string, toolCallName: string, deltas: string[], parentMessageId = 'msg-1'): AgUiEvent[] => [
  { type: 'TOOL_CALL_START', toolCallId, toolCallName, parentMessageId },
  ...deltas.map((delta): AgUiEvent => ({ type: 'TOOL_CALL_ARGS', toolCallId, delta })),
  { type: 'TOOL_CALL_END', toolCallId },
];

/** Each case: the events of one run. */
export const AG_UI_CASES: Record<string, AgUiEvent[]> = {
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
