/**
 * The translated requests go through the official SDK clients unchanged: each is sent with the
 * real `@anthropic-ai/sdk` / `openai` client to a 127.0.0.1 server that records the body.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { fromAnthropicRequest, toAnthropicRequest, toResponsesRequest } from 'rxjs-tool-calls/gateway';
import { FULL_REQUEST } from '../helpers/chatRequests';
import { startSdkServer, type SdkServer } from '../helpers/sdkServer';

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer();
});
afterAll(() => server.close());

const openai = (): OpenAI => new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test', maxRetries: 0 });
const anthropic = (): Anthropic => new Anthropic({ baseURL: server.origin, apiKey: 'test', maxRetries: 0 });

async function drain(stream: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _event of stream) count++;
  return count;
}

/** The body the server received last, parsed. */
function lastBody(path: string): unknown {
  const request = server.requests.at(-1);
  expect(request?.path).toBe(path);
  return JSON.parse(request?.body ?? 'null') as unknown;
}

describe('translated requests through the official SDKs', () => {
  it('@anthropic-ai/sdk messages.create sends toAnthropicRequest() unchanged', async () => {
    const params = toAnthropicRequest({ ...FULL_REQUEST, parallel_tool_calls: false, stop: ['END'], user: 'u-1' });
    expect(await drain(await anthropic().messages.create(params))).toBeGreaterThan(0);
    expect(lastBody('/v1/messages')).toEqual(params);
  });

  it('@anthropic-ai/sdk messages.stream sends toAnthropicRequest() unchanged and reads the answer', async () => {
    const params = toAnthropicRequest(FULL_REQUEST);
    const message = await anthropic().messages.stream(params).finalMessage();
    expect(message.content.filter((block) => block.type === 'tool_use').map((block) => block.name)).toEqual(['get_weather', 'get_time']);
    expect(lastBody('/v1/messages')).toEqual(params);
  });

  it('openai responses.create sends toResponsesRequest() unchanged', async () => {
    const params = toResponsesRequest({ ...FULL_REQUEST, parallel_tool_calls: false, user: 'u-1', temperature: 0.2 }, { instructions: true });
    expect(await drain(await openai().responses.create(params))).toBeGreaterThan(0);
    expect(lastBody('/v1/responses')).toEqual(params);
  });

  it('openai chat.completions.create sends fromAnthropicRequest() unchanged', async () => {
    const params = fromAnthropicRequest({ ...toAnthropicRequest(FULL_REQUEST), system: [{ type: 'text', text: 'Be brief.' }] });
    expect(await drain(await openai().chat.completions.create(params))).toBeGreaterThan(0);
    expect(lastBody('/v1/chat/completions')).toEqual(params);
  });
});
