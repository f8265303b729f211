/**
 * Reasoning that must go back with tool results, end to end: `toolLoop()` with real tools, global
 * `fetch` + `fromResponse`, against scripted models on 127.0.0.1 that check the reasoning of the
 * turn that called the tools as the real APIs do (see `strictProviders.ts`) and answer a request
 * without it, or with it modified or reordered, with the provider's own HTTP error.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { fromResponse, isToolStreamError, type ToolStreamError } from 'rxjs-tool-calls';
import { type LoopMessage, tool, toolLoop, type ToolLoopOptions } from 'rxjs-tool-calls/tools';
import { startScriptedModel, type ScriptedModel } from '../helpers/scriptedModel';
import { expectedTurn, type ScriptedProvider, STRICT_PROVIDERS, strictAnthropic, strictGroq, strictSteps, type StrictProvider } from '../helpers/strictProviders';

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function serve(provider: ScriptedProvider): Promise<ScriptedModel> {
  model = await startScriptedModel(strictSteps(provider));
  return model;
}

const tools = {
  get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => ({ city, temperature: 21 }) }),
  get_time: tool({ schema: z.object({ zone: z.string() }), execute: ({ zone }) => `12:00 ${zone}` }),
  search: tool({ schema: z.object({ q: z.string() }), execute: async ({ q }) => `3 results for ${q}` }),
};

type Json = Record<string, unknown>;

/** Each provider's error body, as its API sends it. */
const ERROR_SHAPE: Record<StrictProvider['format'], Json> = {
  anthropic: { type: 'error', error: { type: 'invalid_request_error' } },
  'openai-responses': { error: { type: 'invalid_request_error' } },
  'openai-chat': { error: { type: 'invalid_request_error', code: 'invalid_request_error' } },
  gemini: { error: { code: 400, status: 'INVALID_ARGUMENT' } },
};
const post = (url: string, body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The loop's `request`: the provider's body for the messages, through `edit` (a client that changes what it sends). */
function requestTo(server: ScriptedModel, provider: ScriptedProvider, edit: (body: Json) => Json = (body) => body) {
  return (messages: ReadonlyArray<LoopMessage>) => fromResponse(post(server.url, edit(provider.body(messages))), { provider: provider.format });
}

function run(server: ScriptedModel, provider: ScriptedProvider, options: Partial<ToolLoopOptions> = {}, edit?: (body: Json) => Json) {
  return lastValueFrom(toolLoop(requestTo(server, provider, edit), tools, { format: provider.format, messages: [provider.question], ...options }).pipe(toArray()));
}

/** The assistant turn `n` as the request `body` carries it (the shape `expectedTurn` gives). */
function turnIn(provider: ScriptedProvider, body: Json, n: number): unknown {
  const list = (key: string): Json[] => body[key] as Json[];
  switch (provider.format) {
    case 'openai-chat':
    case 'anthropic':
      return list('messages').filter((m) => m['role'] === 'assistant')[n];
    case 'gemini':
      return list('contents').filter((c) => c['role'] === 'model')[n];
    case 'openai-responses': {
      // The input after the question, in groups that each end with their function_call_outputs.
      const groups: Json[][] = [[]];
      list('input')
        .slice(1)
        .forEach((item, k, items) => {
          if (item['type'] !== 'function_call_output') groups.at(-1)?.push(item);
          else if (items[k + 1]?.['type'] !== 'function_call_output') groups.push([]);
        });
      return groups[n];
    }
  }
}

/** The loop's error: the provider's HTTP error, as `fromResponse` reads it. */
async function loopError(promise: Promise<unknown>): Promise<ToolStreamError<'provider-error'>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isToolStreamError(error, 'provider-error')) throw new Error(`expected a ToolStreamError<'provider-error'>, got ${String(error)}`);
  return error;
}

describe.each(STRICT_PROVIDERS.map((p): [string, StrictProvider] => [p.format, p]))('toolLoop against a strict %s server', (_name, provider) => {
  it('sends each turn’s reasoning back verbatim and in order: every request is accepted and the loop ends with the answer', async () => {
    const server = await serve(provider);
    const items = await run(server, provider);

    expect(server.rejections).toEqual([]);
    expect(server.requests).toHaveLength(3);
    expect(items.at(-1)).toMatchObject({ type: 'done', step: 2, text: 'Sunny, noon in Tokyo, and found.' });
    expect(items.filter((i) => i.type === 'tool-result').map((i) => i.type === 'tool-result' && i.result.success)).toEqual([true, true, true]);
    const [, second, third] = server.requests.map((r) => r.body as unknown as Json);
    expect(turnIn(provider, second ?? {}, 0)).toEqual(expectedTurn(provider, 0));
    expect(turnIn(provider, third ?? {}, 0)).toEqual(expectedTurn(provider, 0));
    expect(turnIn(provider, third ?? {}, 1)).toEqual(expectedTurn(provider, 1));
  });

  it('a client that drops the reasoning gets the provider’s 400 at its second request', async () => {
    const server = await serve(provider);
    const error = await loopError(run(server, provider, {}, provider.strip));

    expect(server.requests).toHaveLength(2);
    expect(server.rejections).toHaveLength(1);
    expect(error).toMatchObject({ code: 'provider-error', status: 400, retryable: false });
    expect(error.message).toMatch(provider.strippedError);
  });

  it('the check: the library’s second request is accepted; stripped or modified it is answered with the provider’s error body', async () => {
    const good = await serve(provider);
    await run(good, provider);
    const body = good.requests[1]?.body as unknown as Json;
    await good.close();
    model = undefined;

    // A fresh model: turn 0 for any first request, then each body below as a second request.
    const steps = strictSteps(provider);
    const server = await startScriptedModel([steps[0] ?? { events: [] }, ...[1, 2, 3].map(() => steps[1] ?? { events: [] })]);
    model = server;
    await (await post(server.url, provider.body([provider.question]))).text();

    const stripped = await post(server.url, provider.strip(body));
    expect(stripped.status).toBe(400);
    const strippedBody = (await stripped.json()) as Json;
    expect(strippedBody).toMatchObject(ERROR_SHAPE[provider.format]);
    expect((strippedBody['error'] as Json)['message']).toMatch(provider.strippedError);

    const tampered = await post(server.url, provider.tamper(body));
    expect(tampered.status).toBe(400);
    const tamperedBody = (await tampered.json()) as Json;
    expect(tamperedBody).toMatchObject(ERROR_SHAPE[provider.format]);
    expect((tamperedBody['error'] as Json)['message']).toMatch(provider.tamperedError);

    const accepted = await post(server.url, body);
    expect(accepted.status).toBe(200);
    await accepted.text();
    expect(server.rejections).toHaveLength(2);
  });
});

describe('sendReasoning: false', () => {
  it.each(STRICT_PROVIDERS.filter((p) => p.format !== 'gemini').map((p): [string, StrictProvider] => [p.format, p]))(
    '%s: the reasoning is left out and the strict server rejects the second request',
    async (_name, provider) => {
      const server = await serve(provider);
      const error = await loopError(run(server, provider, { reply: { sendReasoning: false } }));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(provider.strippedError);
    },
  );

  it('gemini: call signatures are not reasoning and still go back', async () => {
    const server = await serve(STRICT_PROVIDERS.find((p) => p.format === 'gemini') as StrictProvider);
    const items = await run(server, STRICT_PROVIDERS.find((p) => p.format === 'gemini') as StrictProvider, { reply: { sendReasoning: false } });
    expect(server.rejections).toEqual([]);
    expect(items.at(-1)).toMatchObject({ type: 'done' });
  });
});

describe('anthropic: the latest turn’s thinking blocks must stay as streamed', () => {
  it('reordered (redacted block first) or one of them left out, the request is rejected', async () => {
    const good = await serve(strictAnthropic);
    await run(good, strictAnthropic);
    const body = good.requests[1]?.body as unknown as Json;
    const messages = body['messages'] as Json[];
    const assistant = messages[1] as Json;
    const [thinking, redacted, ...rest] = assistant['content'] as Json[];
    const withContent = (content: Json[]): Json => ({ ...body, messages: [messages[0], { ...assistant, content }, ...messages.slice(2)] });

    expect(() => strictAnthropic.check(withContent([redacted ?? {}, thinking ?? {}, ...rest]))).toThrow(
      /messages\.1\.content\.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified/,
    );
    expect(() => strictAnthropic.check(withContent([thinking ?? {}, ...rest]))).toThrow(/cannot be modified/);
    expect(() => strictAnthropic.check(withContent([{ ...thinking, signature: undefined }, redacted ?? {}, ...rest]))).toThrow(/messages\.1\.content\.0\.thinking\.signature: Field required/);
    expect(() => strictAnthropic.check(body)).not.toThrow();
  });
});

describe('a chat server that streams `reasoning` and refuses it back (Groq)', () => {
  it('by default the reasoning is not echoed: every request is accepted', async () => {
    const server = await serve(strictGroq);
    const items = await run(server, strictGroq);
    expect(server.rejections).toEqual([]);
    expect(items.at(-1)).toMatchObject({ type: 'done', step: 2 });
    expect(turnIn(strictGroq, server.requests[2]?.body as unknown as Json, 1)).toEqual(expectedTurn(strictGroq, 1));
    expect(expectedTurn(strictGroq, 1)).not.toHaveProperty('reasoning');
  });

  it('echoing it (reasoningField, or a client that adds reasoning_content) gets Groq’s 400', async () => {
    const server = await serve(strictGroq);
    const named = await loopError(run(server, strictGroq, { reply: { reasoningField: 'reasoning' } }));
    expect(named.message).toMatch(/'messages\.1' : property 'reasoning' is unsupported/);
    await server.close();
    const again = await serve(strictGroq);
    const echoed = await loopError(
      run(again, strictGroq, {}, (body) => ({ ...body, messages: (body['messages'] as Json[]).map((m) => (m['role'] === 'assistant' ? { ...m, reasoning_content: 'Weather and time.' } : m)) })),
    );
    expect(echoed.message).toMatch(/'messages\.1' : for 'role:assistant' the following must be satisfied\[\('messages\.1' : property 'reasoning_content' is unsupported\)\]/);
  });
});
