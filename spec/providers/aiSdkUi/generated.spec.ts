/**
 * Conformance of `aiSdkUi` over streams the AI SDK writes itself: `streamText` over the `ai`
 * package's mock model → `toUIMessageStreamResponse()`, for each case. What `readToolCalls()` and
 * `readStreamEvents()` give, under every chunking, equals what the protocol's own client
 * reconstructs from the same bytes served on 127.0.0.1 (`useChat`'s `DefaultChatTransport` →
 * `readUIMessageStream`): each call's id, name and input, the text, the reasoning, the tool outputs
 * (progress values included), the approvals, the tools the provider ran, the finish and the usage.
 */
import type { UIMessage } from 'ai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { chatState, readStreamEvents, type StreamEvent } from 'rxjs-tool-calls';
import { chunkings } from '../../helpers/chunking';
import { runChunks, type RunOutcome } from '../../helpers/runStream';
import { AI_SDK_UI_CASES, aiSdkUiCaseStream } from '../../helpers/uiCases';
import { readWithAiSdk, startBytesServer, type AiSdkClientView, type BytesServer } from '../../helpers/uiClients';

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

describe.each(Object.entries(AI_SDK_UI_CASES))('%s', (name, spec) => {
  let bytes: Uint8Array;
  let client: AiSdkClientView;
  beforeAll(async () => {
    const stream = await aiSdkUiCaseStream(spec);
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
