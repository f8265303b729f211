/**
 * `toGeminiInteractionsRequest()`: a Chat Completions request as a Gemini Interactions create
 * request (the conversation as `input` steps), each field, and what it refuses; the body is what
 * `@google/genai`'s `interactions.create()` sends (its own client posts it to a 127.0.0.1 server).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI } from '@google/genai';
import { type OpenAIChatWire, toGeminiInteractionsRequest } from 'rxjs-tool-calls/gateway';
import { z } from 'zod';
import { tool, toolSpecs } from 'rxjs-tool-calls/tools';
import { ask, expectUnsupported, FULL_REQUEST } from '../../helpers/chatRequests';

const translate = (extra: Record<string, unknown>, options = {}) => toGeminiInteractionsRequest(ask(extra), options).body;

describe('toGeminiInteractionsRequest', () => {
  it('translates a whole two-step tool conversation into input steps', () => {
    expect(toGeminiInteractionsRequest(FULL_REQUEST)).toEqual({
      model: 'some-model',
      stream: true,
      path: '/v1beta/interactions',
      body: {
        model: 'some-model',
        system_instruction: 'You are terse.',
        input: [
          { type: 'user_input', content: [{ type: 'text', text: 'Weather and time in Paris?' }] },
          { type: 'model_output', content: [{ type: 'text', text: 'Let me look.' }] },
          { type: 'function_call', id: 'call_wx', name: 'get_weather', arguments: { city: 'Paris' } },
          { type: 'function_call', id: 'call_tm', name: 'get_time', arguments: { tz: 'Europe/Paris' } },
          { type: 'function_result', call_id: 'call_wx', name: 'get_weather', result: '18°C, clear' },
          { type: 'function_result', call_id: 'call_tm', name: 'get_time', result: '14:05' },
          { type: 'user_input', content: [{ type: 'text', text: 'Thanks. And tomorrow?' }] },
        ],
        tools: [
          { type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
          { type: 'function', name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } },
        ],
        tool_choice: 'auto',
        generation_config: { max_output_tokens: 512 },
        stream: true,
      },
    });
  });

  it.each([
    ['required → any', 'required', 'any'],
    ['none', 'none', 'none'],
    ['one function', { type: 'function', function: { name: 'get_weather' } }, { allowed_tools: { mode: 'any', tools: ['get_weather'] } }],
  ])('tool_choice: %s', (_name, choice, expected) => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }];
    expect(translate({ tools, tool_choice: choice }).tool_choice).toEqual(expected);
    expect(translate({ tool_choice: choice }).tool_choice).toBeUndefined(); // without tools it says nothing
  });

  it('system parts joined, sampling, stop sequences, store; a models/ prefix stripped; the signature of a call kept, or the option’s for the first', () => {
    const body = toGeminiInteractionsRequest(
      {
        model: 'models/gemini-3-flash-preview',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'One.' }] },
          { role: 'developer', content: 'Two.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'f', arguments: '' } },
              { id: 'c2', type: 'function', function: { name: 'g', arguments: '{"x":1}' }, extra_content: { google: { thought_signature: 'own' } } },
            ],
          },
          { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'one' }] },
          { role: 'tool', tool_call_id: 'c2', content: 'two' },
        ],
        temperature: 0.2,
        top_p: 0.9,
        stop: 'END',
        store: false,
      } as OpenAIChatWire.RequestInput,
      { thoughtSignature: 'given' },
    );
    expect(body.model).toBe('gemini-3-flash-preview');
    expect(body.stream).toBe(false);
    expect(body.body).toEqual({
      model: 'gemini-3-flash-preview',
      system_instruction: 'One.\n\nTwo.',
      input: [
        {
          type: 'user_input',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        { type: 'function_call', id: 'c1', name: 'f', arguments: {}, signature: 'given' },
        { type: 'function_call', id: 'c2', name: 'g', arguments: { x: 1 }, signature: 'own' },
        { type: 'function_result', call_id: 'c1', name: 'f', result: 'one' },
        { type: 'function_result', call_id: 'c2', name: 'g', result: 'two' },
      ],
      generation_config: { temperature: 0.2, top_p: 0.9, stop_sequences: ['END'] },
      store: false,
    });
  });

  it('accepts the tools toolSpecs(tools, "openai-chat") writes: strict is left out, the JSON Schema kept as it is', () => {
    const tools = toolSpecs({ get_weather: tool({ description: 'Weather', schema: z.strictObject({ city: z.string() }) }) }, 'openai-chat');
    expect(translate({ tools }).tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
    ]);
  });

  it.each([
    [
      'a later system message',
      {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'system', content: 'Later.' },
        ],
      },
      'messages[1].role',
    ],
    ['n', { n: 2 }, 'n'],
    ['parallel_tool_calls: false', { parallel_tool_calls: false }, 'parallel_tool_calls'],
    ['user', { user: 'u1' }, 'user'],
    ['an image part', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x' } }] }] }, 'messages[0].content[0].type'],
    [
      'arguments that are not a JSON object',
      {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }] },
        ],
      },
      'messages[1].tool_calls[0].function.arguments',
    ],
  ])('refuses %s (unsupported-request naming the field)', (_what, extra, field) => {
    expectUnsupported(() => translate(extra), 'gemini-interactions', field);
  });

  it('ignore drops what the caller allows', () => {
    expect(translate({ user: 'u1' }, { ignore: ['user'] })).not.toHaveProperty('user');
  });

  it('the body is what @google/genai’s interactions.create() sends for the same conversation', async () => {
    const bodies: unknown[] = [];
    const server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      req.on('end', () => {
        bodies.push(JSON.parse(text));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'v1_x', status: 'completed', object: 'interaction', steps: [] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { stream_options: _options, ...unstreamed } = FULL_REQUEST;
      const { body } = toGeminiInteractionsRequest({ ...unstreamed, stream: false });
      const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } });
      await ai.interactions.create({ ...body, input: body.input as never, tools: body.tools as never });
      expect(bodies).toEqual([body]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
