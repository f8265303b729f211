import { type GeminiWire, type OpenAIChatWire, toGeminiRequest } from 'rxjs-tool-calls/gateway';
import { z } from 'zod';
import { tool, toolSpecs, type GeminiSchemaDrop } from 'rxjs-tool-calls/tools';
import { expectUnsupported, withOptions, FULL_REQUEST, WEATHER_TOOL } from '../../helpers/chatRequests';

const user = (content: unknown) => ({ role: 'user', content }) as const;
const call = (id: string, name: string, args: string, extra?: object) =>
  ({ id, type: 'function', function: { name, arguments: args }, ...(extra === undefined ? {} : { extra_content: extra }) }) as const;
const body = (extra: Record<string, unknown>, options = {}): GeminiWire.GenerateContentRequest =>
  toGeminiRequest({ model: 'm', messages: [user('Hi')], ...extra } as OpenAIChatWire.RequestInput, options).body;

describe('toGeminiRequest', () => {
  it('translates a whole two-step tool conversation', () => {
    expect(toGeminiRequest(FULL_REQUEST)).toEqual({
      model: 'some-model',
      stream: true,
      path: '/v1beta/models/some-model:streamGenerateContent?alt=sse',
      body: {
        systemInstruction: { parts: [{ text: 'You are terse.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'Weather and time in Paris?' }] },
          {
            role: 'model',
            parts: [{ text: 'Let me look.' }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_time', args: { tz: 'Europe/Paris' } } }],
          },
          {
            role: 'user',
            parts: [{ functionResponse: { name: 'get_weather', response: { output: '18°C, clear' } } }, { functionResponse: { name: 'get_time', response: { output: '14:05' } } }],
          },
          { role: 'user', parts: [{ text: 'Thanks. And tomorrow?' }] },
        ],
        tools: [
          {
            functionDeclarations: [
              { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } },
              { name: 'get_time', parameters: { type: 'OBJECT', properties: { tz: { type: 'STRING' } }, required: ['tz'] } },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: { maxOutputTokens: 512 },
      },
    });
  });

  it('writes the non-streaming path and strips a models/ prefix', () => {
    expect(toGeminiRequest({ model: 'models/gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }] })).toMatchObject({
      model: 'gemini-2.5-flash',
      stream: false,
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
    });
  });

  describe('fields', () => {
    const cases: Array<[string, Record<string, unknown>, Partial<GeminiWire.GenerateContentRequest>, object?]> = withOptions([
      [
        'system parts',
        {
          messages: [
            {
              role: 'developer',
              content: [
                { type: 'text', text: 'A' },
                { type: 'text', text: 'B' },
              ],
            },
            user('Hi'),
          ],
        },
        { systemInstruction: { parts: [{ text: 'A' }, { text: 'B' }] } },
      ],
      [
        'user and assistant text parts',
        {
          messages: [
            user([{ type: 'text', text: 'a' }]),
            {
              role: 'assistant',
              content: [
                { type: 'text', text: 'b' },
                { type: 'text', text: 'c' },
              ],
            },
          ],
        },
        {
          contents: [
            { role: 'user', parts: [{ text: 'a' }] },
            { role: 'model', parts: [{ text: 'b' }, { text: 'c' }] },
          ],
        },
      ],
      [
        'a result with parts is joined into output; the name comes from the call',
        {
          messages: [
            user('Hi'),
            { role: 'assistant', content: '', tool_calls: [call('c1', 'now', '')] },
            {
              role: 'tool',
              tool_call_id: 'c1',
              content: [
                { type: 'text', text: 'no' },
                { type: 'text', text: 'on' },
              ],
            },
          ],
        },
        {
          contents: [
            { role: 'user', parts: [{ text: 'Hi' }] },
            { role: 'model', parts: [{ functionCall: { name: 'now', args: {} } }] },
            { role: 'user', parts: [{ functionResponse: { name: 'now', response: { output: 'noon' } } }] },
          ],
        },
      ],
      [
        'call ids with the callIds option',
        { messages: [user('Hi'), { role: 'assistant', content: null, tool_calls: [call('c1', 'now', '{}')] }, { role: 'tool', tool_call_id: 'c1', content: 'noon' }] },
        {
          contents: [
            { role: 'user', parts: [{ text: 'Hi' }] },
            { role: 'model', parts: [{ functionCall: { name: 'now', args: {}, id: 'c1' } }] },
            { role: 'user', parts: [{ functionResponse: { name: 'now', response: { output: 'noon' }, id: 'c1' } }] },
          ],
        },
        { callIds: true },
      ],
      [
        'thought signatures from extra_content, and the fallback on a first call without one',
        {
          messages: [
            user('Hi'),
            { role: 'assistant', content: null, tool_calls: [call('a', 'f', '{}', { google: { thought_signature: 'SIG' } }), call('b', 'f', '{}')] },
            { role: 'tool', tool_call_id: 'a', content: '1' },
            { role: 'tool', tool_call_id: 'b', content: '2' },
            { role: 'assistant', content: null, tool_calls: [call('c', 'f', '{}'), call('d', 'f', '{}')] },
          ],
        },
        {
          contents: [
            { role: 'user', parts: [{ text: 'Hi' }] },
            { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'SIG' }, { functionCall: { name: 'f', args: {} } }] },
            { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: '1' } } }, { functionResponse: { name: 'f', response: { output: '2' } } }] },
            { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'fallback' }, { functionCall: { name: 'f', args: {} } }] },
          ],
        },
        { thoughtSignature: 'fallback' },
      ],
      ['a tool without parameters', { tools: [{ type: 'function', function: { name: 'now' } }] }, { tools: [{ functionDeclarations: [{ name: 'now' }] }] }],
      [
        'a schema cleaned for Gemini',
        { tools: [{ type: 'function', function: { name: 'f', parameters: { $schema: 'x', properties: { u: { const: 'c' } }, additionalProperties: false } } }] },
        { tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { u: { enum: ['c'] } } } }] }] },
      ],
      [
        'parametersJsonSchema sends the schema unchanged',
        { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { next: { $ref: '#' } } } } }] },
        { tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: { type: 'object', properties: { next: { $ref: '#' } } } }] }] },
        { schemaField: 'parametersJsonSchema' },
      ],
      ['tool_choice none', { tools: [WEATHER_TOOL], tool_choice: 'none' }, { toolConfig: { functionCallingConfig: { mode: 'NONE' } } }],
      ['tool_choice required', { tools: [WEATHER_TOOL], tool_choice: 'required' }, { toolConfig: { functionCallingConfig: { mode: 'ANY' } } }],
      [
        'a named tool_choice',
        { tools: [WEATHER_TOOL], tool_choice: { type: 'function', function: { name: 'f' } } },
        { toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } } },
      ],
      [
        'generation settings',
        { max_tokens: 10, temperature: 1.2, top_p: 0.5, stop: 'X', n: 2, parallel_tool_calls: true, store: false },
        { generationConfig: { maxOutputTokens: 10, temperature: 1.2, topP: 0.5, stopSequences: ['X'], candidateCount: 2 } },
      ],
    ]);
    it.each(cases)('%s', (_name, extra, expected, options) => {
      expect(body(extra, options)).toEqual(expect.objectContaining(expected));
    });

    it('leaves out tool_choice when there are no tools', () => {
      expect(body({ tool_choice: 'required' })).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
    });

    it('reports the schema keywords it drops', () => {
      const drops: GeminiSchemaDrop[] = [];
      body(
        { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {}, additionalProperties: false } } }] },
        { onSchemaDrop: (d: GeminiSchemaDrop) => drops.push(d) },
      );
      expect(drops.map((d) => d.path)).toEqual(['tools[0].function.parameters.additionalProperties']);
    });

    it("accepts what toolSpecs() writes for OpenAI chat: a tool's strict: true is left out and reported as a drop", () => {
      const specs = toolSpecs({ get_weather: tool({ description: 'Weather in a city', schema: z.strictObject({ city: z.string() }) }) }, 'openai-chat');
      expect(specs[0]?.function.strict).toBe(true);
      const drops: GeminiSchemaDrop[] = [];
      expect(body({ tools: specs }, { onSchemaDrop: (d: GeminiSchemaDrop) => drops.push(d) }).tools).toEqual([
        { functionDeclarations: [{ name: 'get_weather', description: 'Weather in a city', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] },
      ]);
      expect(drops).toEqual([
        { path: 'tools[0].function.strict', keyword: 'strict', reason: 'Gemini has no strict function schemas' },
        { path: 'tools[0].function.parameters.additionalProperties', keyword: 'additionalProperties', reason: expect.any(String) },
      ]);
      // Without a drop callback it is left out as quietly as the schema keywords.
      expect(body({ tools: specs }).tools?.[0]?.functionDeclarations[0]).not.toHaveProperty('strict');
    });

    it('reports strict: true with parametersJsonSchema too, and nothing for strict: false', () => {
      const drops: GeminiSchemaDrop[] = [];
      const onSchemaDrop = (d: GeminiSchemaDrop) => drops.push(d);
      const strict = (value: boolean, name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' }, strict: value } });
      expect(body({ tools: [strict(false, 'a'), strict(true, 'b')] }, { onSchemaDrop, schemaField: 'parametersJsonSchema' }).tools).toEqual([
        {
          functionDeclarations: [
            { name: 'a', parametersJsonSchema: { type: 'object' } },
            { name: 'b', parametersJsonSchema: { type: 'object' } },
          ],
        },
      ]);
      expect(drops.map((d) => d.path)).toEqual(['tools[1].function.strict']);
    });
  });

  describe('unsupported-request', () => {
    const cases: Array<[string, Record<string, unknown>, string, object?]> = withOptions([
      ['a later system message', { messages: [user('Hi'), { role: 'system', content: 'x' }] }, 'messages[1].role'],
      ['parallel_tool_calls false', { parallel_tool_calls: false }, 'parallel_tool_calls'],
      ['user', { user: 'u' }, 'user'],
      ['store', { store: true }, 'store'],
      [
        'a recursive schema',
        { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { next: { $ref: '#' } } } } }] },
        'tools[0].function.parameters.properties.next.$ref',
      ],
      ['a schema that is not an object', { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'string' } } }] }, 'tools[0].function.parameters.type'],
      ['arguments that are not JSON', { messages: [user('Hi'), { role: 'assistant', content: null, tool_calls: [call('c', 'f', 'nope')] }] }, 'messages[1].tool_calls[0].function.arguments'],
      [
        'an unknown extra_content',
        { messages: [user('Hi'), { role: 'assistant', content: null, tool_calls: [call('c', 'f', '{}', { vendor: {} })] }] },
        'messages[1].tool_calls[0].extra_content.vendor',
      ],
      ['an image part', { messages: [user([{ type: 'image_url', image_url: { url: 'x' } }])] }, 'messages[0].content[0].type'],
    ]);
    it.each(cases)('%s', (_name, extra, field, options) => {
      expectUnsupported(() => body(extra, options), 'gemini', field);
    });
  });
});
