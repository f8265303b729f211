import { BedrockRuntimeClient, ConverseStreamCommand, type ConverseStreamCommandInput } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { from } from 'rxjs';
import type { StreamEvent } from 'rxjs-tool-calls';
import { type OpenAIChatWire, toConverseRequest } from 'rxjs-tool-calls/gateway';
import { ask, expectUnsupported, FULL_REQUEST } from '../../helpers/chatRequests';
import { startFramedServer, type FramedServer } from '../../helpers/framedServer';

describe('toConverseRequest', () => {
  it('translates a whole two-step tool conversation: roles alternate, results before the follow-up text', () => {
    expect(toConverseRequest(FULL_REQUEST)).toEqual({
      modelId: 'some-model',
      stream: true,
      path: '/model/some-model/converse-stream',
      body: {
        system: [{ text: 'You are terse.' }],
        messages: [
          { role: 'user', content: [{ text: 'Weather and time in Paris?' }] },
          {
            role: 'assistant',
            content: [
              { text: 'Let me look.' },
              { toolUse: { toolUseId: 'call_wx', name: 'get_weather', input: { city: 'Paris' } } },
              { toolUse: { toolUseId: 'call_tm', name: 'get_time', input: { tz: 'Europe/Paris' } } },
            ],
          },
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 'call_wx', content: [{ text: '18°C, clear' }] } },
              { toolResult: { toolUseId: 'call_tm', content: [{ text: '14:05' }] } },
              { text: 'Thanks. And tomorrow?' },
            ],
          },
        ],
        toolConfig: {
          tools: [
            { toolSpec: { name: 'get_weather', description: 'Weather for a city', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } } },
            { toolSpec: { name: 'get_time', inputSchema: { json: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } } } },
          ],
          toolChoice: { auto: {} },
        },
        inferenceConfig: { maxTokens: 512 },
      },
    });
  });

  it('maps the tool choices, sampling and stop sequences; a model id with a colon is escaped in the path', () => {
    const tools = [{ type: 'function', function: { name: 'f' } }];
    expect(toConverseRequest(ask({ tools, tool_choice: 'required' })).body.toolConfig?.toolChoice).toEqual({ any: {} });
    expect(toConverseRequest(ask({ tools, tool_choice: { type: 'function', function: { name: 'f' } } })).body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object', properties: {} } } } }],
      toolChoice: { tool: { name: 'f' } },
    });
    expect(toConverseRequest(ask({ temperature: 0.3, top_p: 0.9, stop: 'END' })).body.inferenceConfig).toEqual({ maxTokens: 100, temperature: 0.3, topP: 0.9, stopSequences: ['END'] });
    const request = toConverseRequest({ model: 'anthropic.claude-sonnet-4-5-20250929-v1:0', messages: [{ role: 'user', content: 'Hi' }] });
    expect(request).toMatchObject({ stream: false, path: '/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse' });
    expect(request.body.toolConfig).toBeUndefined();
  });

  it('merges consecutive user turns into one message', () => {
    expect(
      toConverseRequest(
        ask({
          messages: [
            { role: 'user', content: 'a' },
            { role: 'user', content: [{ type: 'text', text: 'b' }] },
          ],
        }),
      ).body.messages,
    ).toEqual([{ role: 'user', content: [{ text: 'a' }, { text: 'b' }] }]);
  });

  it.each([
    [
      'a later system message',
      ask({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'system', content: 's' },
        ],
      }),
      'messages[1].role',
    ],
    ['tool_choice none with tools', ask({ tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'none' }), 'tool_choice'],
    ['parallel_tool_calls false', ask({ tools: [{ type: 'function', function: { name: 'f' } }], parallel_tool_calls: false }), 'parallel_tool_calls'],
    ['a strict tool', ask({ tools: [{ type: 'function', function: { name: 'f', strict: true } }] }), 'tools[0].function.strict'],
    ['a schema that is not an object', ask({ tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'string' } } }] }), 'tools[0].function.parameters.type'],
    ['user', ask({ user: 'u-1' }), 'user'],
    ['n', ask({ n: 2 }), 'n'],
    ['store', ask({ store: true }), 'store'],
    ['an image part', ask({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }), 'messages[0].content[0].type'],
  ])('%s: unsupported-request naming the field', (_name, request, field) => {
    expectUnsupported(() => toConverseRequest(request as OpenAIChatWire.RequestInput), 'bedrock-converse', field);
  });

  describe('through the AWS SDK', () => {
    let server: FramedServer;
    beforeAll(async () => {
      server = await startFramedServer(() => from<StreamEvent[]>([{ type: 'text-delta', choice: 0, text: 'ok' }, { type: 'done' }]));
    });
    afterAll(() => server.close());

    it('ConverseStreamCommand({ modelId, ...body }) sends the body unchanged', async () => {
      const { modelId, body } = toConverseRequest({ ...FULL_REQUEST, model: 'anthropic.claude-sonnet-4-5-20250929-v1:0', temperature: 0.5, stop: ['END'] });
      const client = new BedrockRuntimeClient({
        region: 'us-east-1',
        endpoint: server.origin,
        credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
        requestHandler: new NodeHttpHandler(),
        maxAttempts: 1,
      });
      const response = await client.send(new ConverseStreamCommand({ modelId, ...body } as ConverseStreamCommandInput));
      let text = '';
      for await (const event of response.stream ?? []) text += event.contentBlockDelta?.delta?.text ?? '';
      expect(text).toBe('ok');
      expect(server.requests.at(-1)).toEqual({ path: '/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream', body });
    });
  });
});
