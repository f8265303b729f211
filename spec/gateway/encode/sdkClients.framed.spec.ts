/**
 * Clients no one here wrote, reading our encoders through a 127.0.0.1 server: AWS's own
 * `@aws-sdk/client-bedrock-runtime` (`ConverseStreamCommand`) reads `encodeBedrockConverse()`, and
 * the `ollama` npm client (`chat({ stream: true })`) reads `encodeOllamaChat()`, for every recorded
 * stream in ../shared/fixtures: the calls (ids, names, arguments), the text, the reasoning, the stop
 * reason and the usage they put together are those of reading the original; a provider error is
 * thrown with the provider's message; a cut source is a failed stream, never a clean end.
 */
import { BedrockRuntimeClient, ConverseStreamCommand, type ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Ollama } from 'ollama';
import { concat, from, switchMap, throwError, timer, type Observable } from 'rxjs';
import { bedrockConverse, ollamaChat, readStreamEvents, ToolStreamError, type StreamEvent } from 'rxjs-tool-calls';
import { loadFixtures } from '../../helpers/fixtures';
import { expectedFramedFinish, expectedFramedUsage } from '../../helpers/framedTargets';
import { startFramedServer, type FramedServer } from '../../helpers/framedServer';
import { view, type View } from '../../helpers/reencode';

const fixtures = loadFixtures();
const byName = new Map(fixtures.map((f) => [f.name, f.bytes]));
const CUT: StreamEvent[] = [
  { type: 'text-delta', choice: 0, text: 'Both.' },
  { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_a', name: 'get_weather', argumentsDelta: '{"city":' },
];
const source = (model: string): Observable<StreamEvent> =>
  model === 'synthetic/truncated'
    ? concat(
        from(CUT),
        // Later than the first frames, as a real upstream cut comes: the client has read them by then.
        timer(100).pipe(switchMap(() => throwError(() => new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no finish_reason and no [DONE]' })))),
      )
    : from([byName.get(model) ?? new Uint8Array()]).pipe(readStreamEvents());

let server: FramedServer;
beforeAll(async () => {
  server = await startFramedServer(source);
});
afterAll(() => server.close());

const bedrock = (): BedrockRuntimeClient =>
  new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: server.origin,
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
  });
const ollama = (): Ollama => new Ollama({ host: server.origin });

/** Parse a client's argument text (text that is not JSON stays a string). */
function parsed(text: string): unknown {
  try {
    return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

/** What an AWS SDK user puts together from `response.stream`. */
async function converse(model: string): Promise<{ calls: unknown[][]; text: string; reasoning: string; stopReason: string | undefined; usage: Record<string, unknown> | undefined }> {
  const response = await bedrock().send(new ConverseStreamCommand({ modelId: model, messages: [{ role: 'user', content: [{ text: 'go' }] }] }));
  const tools = new Map<number, { id: string; name: string; input: string }>();
  let text = '';
  let reasoning = '';
  let stopReason: string | undefined;
  let usage: Record<string, unknown> | undefined;
  for await (const event of response.stream as AsyncIterable<ConverseStreamOutput>) {
    if (event.contentBlockStart?.start?.toolUse !== undefined) {
      const use = event.contentBlockStart.start.toolUse;
      tools.set(event.contentBlockStart.contentBlockIndex ?? -1, { id: use.toolUseId ?? '', name: use.name ?? '', input: '' });
    }
    const delta = event.contentBlockDelta?.delta;
    if (delta?.text !== undefined) text += delta.text;
    if (delta?.toolUse?.input !== undefined) {
      const tool = tools.get(event.contentBlockDelta?.contentBlockIndex ?? -1);
      if (tool !== undefined) tool.input += delta.toolUse.input;
    }
    if (delta?.reasoningContent?.text !== undefined) reasoning += delta.reasoningContent.text;
    if (event.messageStop !== undefined) stopReason = event.messageStop.stopReason;
    if (event.metadata?.usage !== undefined) usage = { ...event.metadata.usage };
  }
  return { calls: [...tools.values()].map((t) => [t.id, t.name, parsed(t.input)]), text, reasoning, stopReason, usage };
}

/** What an `ollama` client user puts together from `chat({ stream: true })`. */
async function ollamaChatOf(model: string): Promise<{ calls: unknown[][]; text: string; reasoning: string; doneReason: string | undefined; counts: [number | undefined, number | undefined] }> {
  const stream = await ollama().chat({ model, messages: [{ role: 'user', content: 'go' }], stream: true });
  const calls: unknown[][] = [];
  let text = '';
  let reasoning = '';
  let doneReason: string | undefined;
  let counts: [number | undefined, number | undefined] = [undefined, undefined];
  for await (const part of stream) {
    text += part.message.content;
    reasoning += part.message.thinking ?? '';
    for (const call of part.message.tool_calls ?? []) calls.push([(call as { id?: string }).id ?? '(none)', call.function.name, call.function.arguments]);
    if (part.done) {
      doneReason = part.done_reason;
      counts = [part.prompt_eval_count, part.eval_count];
    }
  }
  return { calls, text, reasoning, doneReason, counts };
}

const clean = fixtures.filter((f) => view(f.bytes).error === undefined);
const failed = fixtures.filter((f) => view(f.bytes).error !== undefined);

it('serves every fixture: clean streams and provider failures', () => {
  expect(clean.length + failed.length).toBe(40);
  expect(failed.map((f) => f.name)).toEqual(['groq/tool-use-failed-error-event', 'openai/responses-error-insufficient-quota', 'openrouter/error-chunk-mid-stream']);
});

/** The calls as the clients hold them: id, name, arguments (parsed when they parse, else the text). */
const allCalls = (original: View): unknown[][] => original.calls.map((c) => [c.id, c.name, c.outcome === 'ok' ? c.arguments : c.rawArguments]);

describe.each(clean.map((f): [string, Uint8Array] => [f.name, f.bytes]))('%s', (name, bytes) => {
  const original = view(bytes);

  it('AWS SDK ConverseStreamCommand: every call, the text, the reasoning, the stop reason and the usage', async () => {
    const got = await converse(name);
    expect(got.calls).toEqual(allCalls(original));
    expect(got.text).toBe(original.text);
    expect(got.reasoning).toBe(original.reasoning);
    expect(bedrockConverse.finishReason(got.stopReason ?? '')).toBe(expectedFramedFinish('bedrock-converse', original, original.calls.length > 0));
    const usage = expectedFramedUsage('bedrock-converse', original);
    const back =
      got.usage === undefined
        ? undefined
        : {
            inputTokens: got.usage['inputTokens'],
            outputTokens: got.usage['outputTokens'],
            cache: [got.usage['cacheReadInputTokens'], got.usage['cacheWriteInputTokens']],
            total: got.usage['totalTokens'],
          };
    expect(
      back === undefined
        ? undefined
        : { ...back, inputTokens: ((back.inputTokens as number | undefined) ?? 0) + ((back.cache[0] as number | undefined) ?? 0) + ((back.cache[1] as number | undefined) ?? 0) },
    ).toEqual(
      usage === undefined
        ? undefined
        : {
            inputTokens: usage.inputTokens ?? 0,
            outputTokens: usage.outputTokens,
            cache: [usage.cachedInputTokens, usage.cacheWriteInputTokens],
            total: usage.totalTokens,
          },
    );
  });

  it('ollama chat({ stream: true }): the runnable calls, the text, the reasoning, done_reason and the counts', async () => {
    const got = await ollamaChatOf(name);
    const runnable = original.closing
      .map((id) => original.calls.find((c) => c.id === id))
      .filter((c) => c !== undefined && c.outcome === 'ok' && typeof c.arguments === 'object' && c.arguments !== null && !Array.isArray(c.arguments))
      .map((c) => [original.generated.has(c?.id ?? '') ? '(none)' : c?.id, c?.name, c?.arguments]);
    expect(got.calls).toEqual(runnable);
    expect(got.text).toBe(original.text);
    expect(got.reasoning).toBe(original.reasoning);
    // done_reason alone (without the calls of the turn) reads `stop` for a turn that called tools.
    expect(ollamaChat.finishReason(got.doneReason ?? '')).toBe(expectedFramedFinish('ollama', original, false));
    expect(got.counts).toEqual([original.usage?.inputTokens, original.usage?.outputTokens]);
  });
});

describe.each(failed.map((f): [string, Uint8Array] => [f.name, f.bytes]))('%s (provider error)', (name, bytes) => {
  const message = (view(bytes).error as Error).message;
  const own = message.slice(message.indexOf(': ') + 2);

  it('AWS SDK ConverseStreamCommand throws the exception with the provider message', async () => {
    await expect(converse(name)).rejects.toMatchObject({ name: 'ValidationException', message: own });
  });

  it('ollama chat() throws the provider message', async () => {
    await expect(ollamaChatOf(name)).rejects.toThrow(own);
  });
});

describe('a source cut mid-stream', () => {
  it('is a failed stream for the AWS SDK after the frames that came, never a clean end', async () => {
    const response = await bedrock().send(new ConverseStreamCommand({ modelId: 'synthetic/truncated', messages: [{ role: 'user', content: [{ text: 'go' }] }] }));
    const seen: string[] = [];
    const read = async (): Promise<void> => {
      for await (const event of response.stream as AsyncIterable<ConverseStreamOutput>) seen.push(Object.keys(event)[0] ?? '');
    };
    await expect(read()).rejects.toThrow();
    expect(seen).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockStop', 'contentBlockStart', 'contentBlockDelta']);
  });

  it('is a failed stream for the ollama client after the lines that came (no line with done: true)', async () => {
    const stream = await ollama().chat({ model: 'synthetic/truncated', messages: [{ role: 'user', content: 'go' }], stream: true });
    const seen: string[] = [];
    const read = async (): Promise<void> => {
      for await (const part of stream) seen.push(part.message.content);
    };
    await expect(read()).rejects.toThrow();
    expect(seen).toEqual(['Both.']);
  });
});
