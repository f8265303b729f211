/**
 * `for await` over tool-call results: `eachToolCall` (rxjs-tool-calls/async) and the documented
 * `eachValueFrom(… .pipe(readToolCalls()))`, against a real local server.
 */
import { defer } from 'rxjs';
import { z } from 'zod';
import { eachValueFrom } from 'rxjs-for-await';
import { fromResponse, readToolCalls, type ToolCallResult } from 'rxjs-tool-calls';
import { eachToolCall } from 'rxjs-tool-calls/async';
import { startSdkServer, type SdkServer } from '../helpers/sdkServer';
import { startSourcesServer, type SourcesServer } from '../helpers/sourcesServer';

let sources: SourcesServer;
let sdk: SdkServer;
beforeAll(async () => {
  [sources, sdk] = await Promise.all([startSourcesServer(20), startSdkServer()]);
});
afterAll(() => Promise.all([sources.close(), sdk.close()]));

/** A chat request to the SDK server; `slow` keeps the stream open after the only call completed. */
const chat = (model: 'fast' | 'slow') => fetch(`${sdk.origin}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model, stream: true }) });
const summary = (r: ToolCallResult) => (r.success ? `${r.data.name} ${JSON.stringify(r.data.arguments)}` : r.error.code);

describe('eachToolCall (rxjs-tool-calls/async)', () => {
  it('yields every result of a whole stream', async () => {
    const seen: string[] = [];
    for await (const result of eachToolCall(fromResponse(fetch(`${sources.origin}/finite`)))) seen.push(summary(result));
    expect(seen).toEqual(['get_weather {"city":"Paris"}']);
  });

  it('with tools: validates each call and transforms its arguments (the schema output)', async () => {
    const seen: unknown[] = [];
    const tools = { get_weather: z.object({ city: z.string().transform((c) => c.toUpperCase()) }) };
    for await (const result of eachToolCall(fromResponse(fetch(`${sources.origin}/finite`)), { tools })) {
      seen.push(result.success && result.data.name === 'get_weather' ? result.data.arguments.city : result.success);
    }
    expect(seen).toEqual(['PARIS']);
    const strict = { get_weather: z.object({ city: z.number() }) };
    const codes: string[] = [];
    for await (const result of eachToolCall(fromResponse(fetch(`${sources.origin}/finite`)), { tools: strict })) codes.push(result.success ? 'ok' : result.error.code);
    expect(codes).toEqual(['invalid-arguments']);
  });

  it('break cancels the request: the server socket closes while the stream is still open', async () => {
    const before = sdk.requests.length;
    const seen: string[] = [];
    for await (const result of eachToolCall(fromResponse(chat('slow')), { provider: 'openai-chat' })) {
      seen.push(summary(result));
      break;
    }
    expect(seen).toEqual(['get_weather {"city":"Oslo"}']);
    expect(sdk.requests).toHaveLength(before + 1);
    await sdk.waitForClose();
    expect(sdk.requests.at(-1)?.ended).toBe(false);
  });

  it('does not start the request until the loop starts, and starts it again for a second loop', async () => {
    const before = sdk.requests.length;
    let requests = 0;
    const results = eachToolCall(defer(() => (requests++, fromResponse(chat('fast')))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toBe(0);
    for (let round = 0; round < 2; round++) {
      const seen: string[] = [];
      for await (const result of results) seen.push(summary(result));
      expect(seen).toEqual(['get_weather {"city":"Oslo"}']);
    }
    expect(sdk.requests.length - before).toBe(2);
  });

  it('throws the typed error of a failed request', async () => {
    const body = encodeURIComponent('{"error":{"message":"slow down","code":"rate_limit_exceeded"}}');
    const loop = async () => {
      for await (const _ of eachToolCall(fromResponse(fetch(`${sources.origin}/status/429?body=${body}`)))) throw new Error('no result expected');
    };
    await expect(loop()).rejects.toMatchObject({ code: 'provider-error', status: 429, retryable: true, providerCode: 'rate_limit_exceeded' });
    await expect(loop()).rejects.toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
  });
});

describe('the documented form: eachValueFrom(fromResponse(fetch(…)).pipe(readToolCalls()))', () => {
  it('yields the results, and break closes the connection', async () => {
    const before = sdk.requests.length;
    let first: ToolCallResult | undefined;
    for await (const result of eachValueFrom(fromResponse(chat('slow')).pipe(readToolCalls()))) {
      first = result;
      break;
    }
    expect(first && summary(first)).toBe('get_weather {"city":"Oslo"}');
    expect(sdk.requests).toHaveLength(before + 1);
    await sdk.waitForClose();
  });
});
