/**
 * Conformance of `aiSdkUi` over streams the AI SDK writes itself: `streamText` over the `ai`
 * package's mock model → `toUIMessageStreamResponse()`, for each case. What `readToolCalls()` and
 * `readStreamEvents()` give, under every chunking, equals what the protocol's own client
 * reconstructs from the same bytes served on 127.0.0.1 (`useChat`'s `DefaultChatTransport` →
 * `readUIMessageStream`): each call's id, name and input, the text, the reasoning, the tool outputs
 * (progress values included), the approvals, the tools the provider ran, the finish and the usage.
 */
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { jsonSchema, tool, type ToolSet, type UIMessage } from 'ai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { chatState, readStreamEvents, type StreamEvent } from 'rxjs-tool-calls';
import { chunkings } from '../../helpers/chunking';
import { runChunks, type RunOutcome } from '../../helpers/runStream';
import { aiSdkUiStream, MOCK_USAGE, readWithAiSdk, startBytesServer, type AiSdkClientView, type BytesServer } from '../../helpers/uiClients';

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

interface Case {
  readonly steps: ReadonlyArray<ReadonlyArray<LanguageModelV3StreamPart>>;
  readonly tools?: ToolSet;
  readonly usageInMetadata?: boolean;
}

/** Each case: what the mock model streams (one array per model call), and the tools of the request. */
const CASES: Record<string, Case> = {
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

let server: BytesServer;
beforeAll(async () => {
  server = await startBytesServer();
});
afterAll(() => server.close());

/** A tool part of the client's message. */
interface ToolPart {
  readonly type: string;
  readonly toolName?: string;
  readonly toolCallId: string;
  readonly state: string;
  readonly input?: unknown;
  readonly rawInput?: unknown;
  readonly output?: unknown;
  readonly errorText?: string;
  readonly preliminary?: boolean;
  readonly providerExecuted?: boolean;
  readonly approval?: { readonly id: string };
}

const partsOf = (message: UIMessage | undefined): ToolPart[] => (message?.parts ?? []).filter((p) => p.type.startsWith('tool-') || p.type === 'dynamic-tool') as unknown as ToolPart[];
const nameOf = (part: ToolPart): string => part.toolName ?? part.type.slice('tool-'.length);

/** The client's calls for the app to run: id, name, and the input (the raw input of one that failed, the partial input of one cut). */
function clientCalls(client: AiSdkClientView): unknown[] {
  return partsOf(client.message)
    .filter((part) => part.providerExecuted !== true)
    .map((part) => [part.toolCallId, nameOf(part), part.input === undefined ? part.rawInput : part.input]);
}

/** Ours, in the message's order (results come in the order calls close): each call's id, name, and its arguments (the raw text of one that failed; the partial value of one cut). */
function ourCalls(outcome: RunOutcome, partial: ReadonlyMap<string, unknown>): unknown[] {
  const index = (r: RunOutcome['results'][number]): number => (r.success ? r.data.index : r.error.toolCall.index);
  return [...outcome.results]
    .sort((a, b) => index(a) - index(b))
    .map((r) => {
      if (r.success) return [r.data.id, r.data.name, r.data.arguments];
      const call = r.error.toolCall;
      return [call.id, call.name, r.error.code === 'incomplete' ? partial.get(call.id) : call.rawArguments];
    });
}

/** The last output, error or denial of each call, as the client shows it and as the `tool-result` events say. */
function clientOutputs(client: AiSdkClientView): unknown[] {
  return partsOf(client.message)
    .filter((part) => part.providerExecuted !== true && (part.state === 'output-available' || part.state === 'output-error'))
    .map((part) => [part.toolCallId, part.state === 'output-error' ? { error: part.errorText } : { output: part.output }]);
}

function ourOutputs(events: readonly StreamEvent[]): unknown[] {
  const last = new Map<string, unknown>();
  for (const e of events) if (e.type === 'tool-result') last.set(e.id, e.error !== undefined ? { error: e.error } : { output: e.output });
  return [...last];
}

describe.each(Object.entries(CASES))('%s', (name, spec) => {
  let bytes: Uint8Array;
  let client: AiSdkClientView;
  beforeAll(async () => {
    const stream = await aiSdkUiStream(spec.steps, {
      ...(spec.tools === undefined ? {} : { tools: spec.tools }),
      ...(spec.usageInMetadata === true ? { messageMetadata: ({ part }) => (part.type === 'finish' ? { totalUsage: part.totalUsage } : undefined) } : {}),
    });
    bytes = stream.bytes;
    expect(stream.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    client = await readWithAiSdk(server.serve(`/${encodeURIComponent(name)}`, [bytes]));
  });

  it('gives the calls, text, reasoning, outputs, approvals, provider tools, finish and usage the client reconstructs, in every chunking', async () => {
    // What chatState() shows of a call cut before its input was complete: the client's partial input.
    const states = await lastValueFrom(from([bytes]).pipe(readStreamEvents(), chatState(), toArray()));
    const partial = new Map((states.at(-1)?.calls ?? []).map((call) => [call.id, call.partialArguments]));
    const texts = (client.message?.parts ?? []).filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
    const reasoning = (client.message?.parts ?? []).filter((p) => p.type === 'reasoning').map((p) => (p as { text: string }).text);
    const clientFinish = client.chunks.filter((c) => c.type === 'finish').at(-1) as { finishReason?: string } | undefined;
    const providerRuns = partsOf(client.message)
      .filter((part) => part.providerExecuted === true)
      .map((part) => [part.toolCallId, nameOf(part), part.input, part.output]);
    const approvals = partsOf(client.message)
      .filter((part) => part.approval !== undefined)
      .map((part) => [part.toolCallId, part.approval?.id]);
    const metadataUsage = (client.message?.metadata as { totalUsage?: { inputTokens?: number; outputTokens?: number } } | undefined)?.totalUsage;
    for (const [how, pieces] of chunkings(bytes)) {
      const outcome = runChunks(pieces);
      const at = { case: name, chunking: how };
      expect({ ...at, calls: ourCalls(outcome, partial) }).toEqual({ ...at, calls: clientCalls(client) });
      expect({ ...at, text: outcome.text }).toEqual({ ...at, text: texts.join('') });
      expect({ ...at, reasoning: outcome.reasoning }).toEqual({ ...at, reasoning: reasoning.join('') });
      expect({ ...at, outputs: ourOutputs(outcome.events) }).toEqual({ ...at, outputs: clientOutputs(client) });
      const runs = new Map<string, unknown[]>();
      for (const e of outcome.events) if (e.type === 'provider-tool') runs.set(e.id, [e.id, e.tool, e.input ?? runs.get(e.id)?.[2], e.result ?? runs.get(e.id)?.[3]]);
      expect({ ...at, providerRuns: [...runs.values()] }).toEqual({ ...at, providerRuns });
      const asked = outcome.events.flatMap((e) => (e.type === 'tool-approval-request' ? [[e.id, e.approvalId]] : []));
      expect({ ...at, approvals: asked }).toEqual({ ...at, approvals });
      if (client.errors.length > 0) {
        expect(outcome.error).toMatchObject({ code: 'provider-error', message: expect.stringContaining((client.errors[0] as Error).message) });
        continue;
      }
      expect({ ...at, error: outcome.error, completed: outcome.completed }).toEqual({ ...at, error: undefined, completed: true });
      expect({ ...at, finish: outcome.finishReason }).toEqual({ ...at, finish: clientFinish?.finishReason ?? null });
      const usage = outcome.events.filter((e) => e.type === 'usage').at(-1);
      expect({ ...at, usage: usage === undefined ? undefined : { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } }).toEqual({
        ...at,
        usage: metadataUsage === undefined ? undefined : { inputTokens: metadataUsage.inputTokens, outputTokens: metadataUsage.outputTokens },
      });
    }
  });

  it('shows each output and approval on its call in chatState(), as the client does', async () => {
    const states = await lastValueFrom(from([bytes]).pipe(readStreamEvents(), chatState(), toArray()));
    const last = states.at(-1);
    for (const part of partsOf(client.message).filter((p) => p.providerExecuted !== true)) {
      const call = last?.calls.find((c) => c.id === part.toolCallId);
      if (part.state === 'output-available') expect(call?.output).toEqual({ output: part.output });
      else if (part.state === 'output-error') expect(call?.output).toEqual({ error: part.errorText });
      else expect(call?.output).toBeUndefined();
      expect(call?.approval).toEqual(part.approval === undefined ? undefined : { id: part.approval.id });
    }
    // A progress value shows while it is the last one: preliminary.
    const progress = states.flatMap((s) => s.calls.filter((c) => c.output?.preliminary === true));
    const preliminary = client.chunks.filter((c) => c.type === 'tool-output-available' && (c as { preliminary?: boolean }).preliminary === true);
    expect(progress.length > 0).toBe(preliminary.length > 0);
  });
});
