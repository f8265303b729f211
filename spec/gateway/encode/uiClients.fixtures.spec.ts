/**
 * The UI protocols' own clients as readers of re-encoded streams: every recorded provider stream in
 * ../shared/fixtures, read and re-encoded by `encodeAiSdkUi()` and `encodeAgUi()`, is served from
 * 127.0.0.1 and read by `useChat`'s transport with `readUIMessageStream` (the `ai` package) and by
 * `@ag-ui/client`'s `HttpAgent` (schema checks, chunk expansion, `verifyEvents`, its reducer). What
 * they hold is the fixture's: each call's id, name and input, the text, and the provider's error.
 */
import { concat, from, throwError } from 'rxjs';
import { isToolStreamError } from 'rxjs-tool-calls';
import { encodeAgUi, encodeAiSdkUi } from 'rxjs-tool-calls/gateway';
import type { UIMessage } from 'ai';
import { loadFixtures } from '../../helpers/fixtures';
import { collect, eventsOf, genIds, view, type View } from '../../helpers/reencode';
import { readWithAgUi, readWithAiSdk, startBytesServer, type BytesServer } from '../../helpers/uiClients';

const fixtures = loadFixtures();

let server: BytesServer;
beforeAll(async () => {
  server = await startBytesServer();
});
afterAll(() => server.close());

/** The fixture re-encoded: its events (and the error it ended with) through `encode`, as one text. */
function encoded(bytes: Uint8Array, target: 'ai-sdk-ui' | 'ag-ui'): { text: string; error: unknown } {
  const { events, error } = eventsOf(bytes);
  const source = concat(from(events), error === undefined ? [] : throwError(() => error));
  const options = { generateId: genIds() };
  const out = collect(source.pipe(target === 'ai-sdk-ui' ? encodeAiSdkUi(options) : encodeAgUi({ ...options, threadId: 'thread-1', runId: 'run-1', id: 'msg-1' })));
  return { text: out.values.join(''), error: out.error };
}

/** A tool part of a UI message. */
interface ToolPart {
  readonly type: string;
  readonly toolCallId: string;
  readonly state: string;
  readonly input?: unknown;
  readonly rawInput?: unknown;
  readonly output?: unknown;
  readonly providerExecuted?: boolean;
}

const toolPartsOf = (message: UIMessage | undefined): ToolPart[] => (message?.parts ?? []).filter((part) => part.type.startsWith('tool-')) as unknown as ToolPart[];

/** The tool parts of calls for the client, as compared: id, name, state, and the input (or the raw input of one that failed). */
function toolParts(message: UIMessage | undefined): unknown[] {
  return toolPartsOf(message)
    .filter((part) => part.providerExecuted !== true)
    .map((tool) => [tool.toolCallId, tool.type.slice('tool-'.length), tool.state, tool.state === 'output-error' ? tool.rawInput : tool.input]);
}

/** The tools the provider ran, as compared: id, name, state, input and output. */
function providerParts(message: UIMessage | undefined): unknown[] {
  return toolPartsOf(message)
    .filter((part) => part.providerExecuted === true)
    .map((tool) => [tool.toolCallId, tool.type.slice('tool-'.length), tool.state, tool.input, tool.output]);
}

/** What the client should hold of the provider's tools of the original: each run's id, tool, last input and result. */
function expectedProviderParts(bytes: Uint8Array): unknown[] {
  const runs = new Map<string, { tool: string; input: unknown; result: unknown; status: string }>();
  for (const event of eventsOf(bytes).events) {
    if (event.type !== 'provider-tool') continue;
    const run = runs.get(event.id) ?? { tool: event.tool, input: null, result: null, status: event.status };
    runs.set(event.id, { tool: run.tool, input: event.input ?? run.input, result: event.result ?? run.result, status: event.status });
  }
  return [...runs].map(([id, run]) => [
    id,
    run.tool,
    run.status === 'completed' ? 'output-available' : run.status === 'running' ? 'input-available' : 'output-error',
    run.input,
    run.status === 'completed' ? run.result : undefined,
  ]);
}

/** What `useChat` should hold of the original: every call, complete ones with their input, failed ones with their raw text, cut ones still streaming. */
function expectedToolParts(original: View): unknown[] {
  return original.calls
    .filter((c) => c.outcome !== 'missing-tool-calls')
    .map((c) => {
      if (c.outcome === 'ok') return [c.id, c.name, 'input-available', c.arguments];
      if (c.outcome === 'incomplete' || c.outcome === 'arguments-too-large') return [c.id, c.name, 'input-streaming', partialOf(c.rawArguments)];
      return [c.id, c.name, 'output-error', c.rawArguments];
    });
}

/** The input the AI SDK shows for a call still streaming: its partial parse (`undefined` for none). */
function partialOf(raw: string): unknown {
  return raw === '' ? undefined : expect.anything();
}

const textOf = (message: UIMessage | undefined): string =>
  (message?.parts ?? [])
    .filter((part) => part.type === 'text')
    .map((part) => (part as { text: string }).text)
    .join('');

const clean = fixtures.filter((f) => view(f.bytes).error === undefined);
const failed = fixtures.filter((f) => view(f.bytes).error !== undefined);

it('serves every fixture: clean streams and provider failures', () => {
  expect(clean.length + failed.length).toBe(40);
  expect(failed.every((f) => isToolStreamError(view(f.bytes).error, 'provider-error'))).toBe(true);
});

describe.each(clean.map((f): [string, Uint8Array] => [f.name, f.bytes]))('%s', (name, bytes) => {
  const original = view(bytes);

  it("useChat's transport and readUIMessageStream hold every call (complete, failed or cut as the readers judge it) and the text", async () => {
    const { text, error } = encoded(bytes, 'ai-sdk-ui');
    expect(error).toBeUndefined();
    const client = await readWithAiSdk(server.serve(`/ui/${name}`, [text]));
    expect(client.errors).toEqual([]);
    expect(toolParts(client.message)).toEqual(expectedToolParts(original));
    expect(providerParts(client.message)).toEqual(expectedProviderParts(bytes));
    expect(textOf(client.message)).toBe(original.text);
    const reasoning = (client.message?.parts ?? []).filter((part) => part.type === 'reasoning').map((part) => (part as { text: string }).text);
    expect(reasoning.join('')).toBe(original.reasoning);
  });

  it("HttpAgent's verified run holds every call (its arguments as written parse to the readers' value) and the text", async () => {
    const { text, error } = encoded(bytes, 'ag-ui');
    expect(error).toBeUndefined();
    const client = await readWithAgUi(server.serve(`/agui/${name}`, [text]));
    expect(client.error).toBeUndefined();
    const assistant = client.messages.filter((m) => m.role === 'assistant');
    expect(assistant).toHaveLength(original.calls.length > 0 || original.text !== '' ? 1 : 0);
    const message = assistant[0] as { content?: string; toolCalls?: Array<{ id: string; function: { name: string; arguments: string } }> } | undefined;
    expect(message?.content ?? '').toBe(original.text);
    const calls = (message?.toolCalls ?? []).map((c) => [c.id, c.function.name, parsedOr(c.function.arguments)]);
    expect(calls).toEqual(original.calls.filter((c) => c.outcome !== 'missing-tool-calls').map((c) => [c.id, c.name, c.outcome === 'ok' ? c.arguments : parsedOr(c.rawArguments)]));
  });
});

describe.each(failed.map((f): [string, Uint8Array] => [f.name, f.bytes]))('%s (provider error)', (name, bytes) => {
  const message = (view(bytes).error as Error).message;
  const own = message.slice(message.indexOf(': ') + 2);

  it("useChat's transport reports the provider's message (the error chunk)", async () => {
    const client = await readWithAiSdk(server.serve(`/ui-error/${name}`, [encoded(bytes, 'ai-sdk-ui').text]));
    expect(client.errors.map((e) => (e as Error).message)).toEqual([own]);
  });

  it("HttpAgent's run fails with the provider's message (RUN_ERROR)", async () => {
    const client = await readWithAgUi(server.serve(`/agui-error/${name}`, [encoded(bytes, 'ag-ui').text]));
    expect(client.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', message: own });
  });
});

/** A failed call's text (parsed when it happens to be JSON). */
function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
