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
import { AG_UI_CASES } from '../../helpers/uiCases';
import { agUiStream, readWithAgUi, startBytesServer, type AgUiClientView, type BytesServer } from '../../helpers/uiClients';

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

describe.each(Object.entries(AG_UI_CASES))('%s', (name, events) => {
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
