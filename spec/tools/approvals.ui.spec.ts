/**
 * Approvals through the UI protocols: a tool loop's items through `loopEvents()` and the UI
 * encoders, served on 127.0.0.1 and read by the protocols' own clients (`useChat`'s transport and
 * `readUIMessageStream`, AG-UI's `HttpAgent`): a denied call is the AI SDK's `output-denied` part
 * and AG-UI's tool message; a call waiting for approval is the AI SDK's `approval-requested` part
 * and AG-UI's interrupt outcome.
 */
import { from, lastValueFrom, of, takeWhile, toArray, type Observable } from 'rxjs';
import { z } from 'zod';
import { encodeAgUi, encodeAiSdkUi } from 'rxjs-tool-calls/gateway';
import { loopEvents, tool, toolLoop, type LoopMessage, type ToolApprovalDecision } from 'rxjs-tool-calls/tools';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { readWithAgUi, readWithAiSdk, startBytesServer, type BytesServer } from '../helpers/uiClients';

const CALLS = [
  openaiChunk({ toolCalls: [{ index: 0, id: 'call_del', name: 'delete_file', arguments: '{"path":"/tmp/a"}' }] }),
  openaiChunk({ toolCalls: [{ index: 1, id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiDone(),
].join('');
const tools = {
  delete_file: tool({ schema: z.object({ path: z.string() }), needsApproval: true, execute: ({ path }) => `deleted ${path}` }),
  get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => `sunny in ${city}` }),
};
/** The first step (up to its `step-end`): a denial, or a pause. */
const oneStep = (approve?: () => Observable<ToolApprovalDecision>) =>
  toolLoop((_m: ReadonlyArray<LoopMessage>) => from([CALLS]), tools, approve === undefined ? {} : { approve }).pipe(
    takeWhile((item) => item.type !== 'step-end'),
    loopEvents(),
  );

let server: BytesServer;
beforeAll(async () => (server = await startBytesServer()));
afterAll(() => server.close());

describe('approvals through the UI encoders, read by the protocols’ clients', () => {
  it('AI SDK: a denied call is an output-denied part; a pending one is approval-requested', async () => {
    const denied = await lastValueFrom(oneStep(() => of({ type: 'deny', reason: 'no' })).pipe(encodeAiSdkUi({ id: 'm1' }), toArray()));
    const view = await readWithAiSdk(server.serve('/denied', denied));
    expect(view.errors).toEqual([]);
    const parts = (view.message?.parts ?? []).filter((p) => p.type.startsWith('tool-')) as Array<Record<string, unknown>>;
    expect(parts.map((p) => [p['toolCallId'], p['state']])).toEqual([
      ['call_del', 'output-denied'],
      ['call_w', 'output-available'],
    ]);

    const paused = await lastValueFrom(oneStep().pipe(encodeAiSdkUi({ id: 'm2' }), toArray()));
    const view2 = await readWithAiSdk(server.serve('/paused', paused));
    expect(view2.errors).toEqual([]);
    const parts2 = (view2.message?.parts ?? []).filter((p) => p.type.startsWith('tool-')) as Array<Record<string, unknown>>;
    expect(parts2.map((p) => [p['toolCallId'], p['state']])).toEqual([
      ['call_del', 'approval-requested'],
      ['call_w', 'output-available'],
    ]);
    expect(parts2[0]?.['approval']).toEqual({ id: 'call_del' });
  });

  it('AG-UI: a denied call is a tool message saying so; a pending one is the run’s interrupt outcome', async () => {
    const denied = await lastValueFrom(oneStep(() => of({ type: 'deny', reason: 'no' })).pipe(encodeAgUi({ threadId: 't', runId: 'run-1' }), toArray()));
    const view = await readWithAgUi(server.serve('/ag-denied', denied));
    expect(view.error).toBeUndefined();
    const toolMessages = view.messages.filter((m) => m.role === 'tool') as Array<{ toolCallId: string; content: string }>;
    expect(toolMessages.map((m) => [m.toolCallId, m.content])).toEqual([
      ['call_del', 'The tool call was denied.'],
      ['call_w', 'sunny in Paris'],
    ]);

    const paused = await lastValueFrom(oneStep().pipe(encodeAgUi({ threadId: 't', runId: 'run-1' }), toArray()));
    const view2 = await readWithAgUi(server.serve('/ag-paused', paused));
    expect(view2.error).toBeUndefined();
    const finished = view2.events.find((e) => e.type === 'RUN_FINISHED') as unknown as Record<string, unknown>;
    expect(JSON.stringify(finished)).toContain('"toolCallId":"call_del"');
    expect(JSON.stringify(finished)).toContain('tool_approval');
  });
});
