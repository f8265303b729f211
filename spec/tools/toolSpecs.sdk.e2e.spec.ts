/**
 * `toolSpecs()` output sent by the real `openai` and `@anthropic-ai/sdk` clients to a 127.0.0.1
 * server: the SDKs take the values as their own request types and send them unchanged.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { z } from 'zod';
import { tool, toolSpecs } from 'rxjs-tool-calls/tools';
import { startSdkServer, type SdkServer } from '../helpers/sdkServer';

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer();
});
afterAll(() => server.close());

const tools = {
  get_weather: tool({ description: 'Weather in a city', schema: z.strictObject({ city: z.string(), unit: z.enum(['c', 'f']) }) }),
  search: tool({ description: 'Search', schema: z.object({ q: z.string(), limit: z.number().int().optional() }) }),
};
const sentTools = (): unknown => (JSON.parse(server.requests.at(-1)?.body ?? '{}') as { tools?: unknown }).tools;
async function drain(stream: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _event of stream) count++;
  return count;
}

describe('toolSpecs() through the SDKs', () => {
  const openai = () => new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test', maxRetries: 0 });

  it('openai chat.completions.create', async () => {
    const specs = toolSpecs(tools, 'openai-chat');
    expect(await drain(await openai().chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }], tools: specs }))).toBeGreaterThan(0);
    expect(sentTools()).toEqual(specs);
    expect(specs.map((s) => s.function.strict)).toEqual([true, undefined]);
  });

  it('openai responses.create', async () => {
    const specs = toolSpecs(tools, 'openai-responses');
    expect(await drain(await openai().responses.create({ model: 'gpt-test', stream: true, input: 'hi', tools: specs }))).toBeGreaterThan(0);
    expect(sentTools()).toEqual(specs);
  });

  it('@anthropic-ai/sdk messages.create', async () => {
    const specs = toolSpecs(tools, 'anthropic');
    const client = new Anthropic({ baseURL: server.origin, apiKey: 'test', maxRetries: 0 });
    expect(await drain(await client.messages.create({ model: 'claude-test', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }], tools: specs }))).toBeGreaterThan(0);
    expect(sentTools()).toEqual(specs);
  });
});
