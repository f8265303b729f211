/**
 * `toolSpecs(tools, format)`: one tool definition, written as each provider's request `tools`.
 */
import * as v from 'valibot';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { isToolStreamError } from 'rxjs-tool-calls';
import { type MessageFormat, tool, toolSpecs } from 'rxjs-tool-calls/tools';
import { allowsStrict } from '../../src/tools/specs/shared';
import { toolJsonSchema } from '../../src/tools/toolSpecs';

const strictWeather = tool({ description: 'Weather in a city', schema: z.strictObject({ city: z.string(), unit: z.enum(['c', 'f']) }) });
const looseWeather = tool({ description: 'Weather in a city', schema: z.object({ city: z.string(), days: z.number().min(1).default(1) }) });
const strictParams = { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city', 'unit'], additionalProperties: false };
const looseParams = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'number', minimum: 1, default: 1 } }, required: ['city'] };

const codeOf = (f: () => unknown): unknown => {
  try {
    f();
  } catch (error) {
    return isToolStreamError(error, 'unsupported-request') ? { code: error.code, field: error.field } : error;
  }
  return 'no error';
};

describe('toolSpecs()', () => {
  it('OpenAI chat: strict only when every property is required and additionalProperties is false', () => {
    expect(toolSpecs({ get_weather: strictWeather, loose: looseWeather }, 'openai-chat')).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather in a city', parameters: strictParams, strict: true } },
      { type: 'function', function: { name: 'loose', description: 'Weather in a city', parameters: looseParams } },
    ]);
    expect(toolSpecs({ get_weather: strictWeather }, 'openai-chat', { strict: false })[0]?.function.strict).toBeUndefined();
  });

  it('Responses: flat, with strict always written', () => {
    expect(toolSpecs({ get_weather: strictWeather, loose: looseWeather }, 'openai-responses')).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather in a city', parameters: strictParams, strict: true },
      { type: 'function', name: 'loose', description: 'Weather in a city', parameters: looseParams, strict: false },
    ]);
  });

  it('Anthropic: input_schema, and fine-grained tool streaming (eager_input_streaming) unless turned off', () => {
    expect(toolSpecs({ get_weather: strictWeather }, 'anthropic')).toEqual([{ name: 'get_weather', description: 'Weather in a city', input_schema: strictParams, eager_input_streaming: true }]);
    expect(toolSpecs({ get_weather: strictWeather }, 'anthropic', { eagerInputStreaming: false })).toEqual([{ name: 'get_weather', description: 'Weather in a city', input_schema: strictParams }]);
    // Bedrock rejects the field on a tool (vercel/ai#17179): InvokeModel's tools never carry it, whatever the option.
    expect(toolSpecs({ get_weather: strictWeather }, 'bedrock-invoke-model')).toEqual([{ name: 'get_weather', description: 'Weather in a city', input_schema: strictParams }]);
    expect(toolSpecs({ get_weather: strictWeather }, 'bedrock-invoke-model', { eagerInputStreaming: true })).toEqual([
      { name: 'get_weather', description: 'Weather in a city', input_schema: strictParams },
    ]);
    expect(() => toolSpecs({ get_weather: strictWeather }, 'anthropic', { eagerInputStreaming: 'yes' as unknown as boolean })).toThrow(
      expect.objectContaining({ code: 'invalid-option', option: 'options.eagerInputStreaming' }),
    );
  });

  it('Gemini: one functionDeclarations tool, keywords Gemini rejects dropped and reported', () => {
    const drops: string[] = [];
    const specs = toolSpecs({ get_weather: strictWeather, loose: looseWeather }, 'gemini', { onSchemaDrop: (d) => drops.push(`${d.path} ${d.keyword}`) });
    expect(specs).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather in a city',
            parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' }, unit: { type: 'STRING', enum: ['c', 'f'] } }, required: ['city', 'unit'] },
          },
          {
            name: 'loose',
            description: 'Weather in a city',
            parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' }, days: { type: 'NUMBER', minimum: 1, default: 1 } }, required: ['city'] },
          },
        ],
      },
    ]);
    expect(drops).toEqual(['get_weather.parameters.additionalProperties additionalProperties']);
  });

  it('a tool without a schema takes no arguments; `parameters` overrides the derived schema', () => {
    const explicit = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false };
    expect(toolSpecs({ ping: tool({ description: 'Ping' }), search: tool({ schema: v.object({ q: v.string() }), parameters: explicit }) }, 'openai-chat')).toEqual([
      { type: 'function', function: { name: 'ping', description: 'Ping', parameters: { type: 'object', properties: {} } } },
      { type: 'function', function: { name: 'search', parameters: explicit, strict: true } },
    ]);
  });

  it('a schema that cannot describe itself (valibot, zod 3) is an unsupported-request error naming the tool', () => {
    expect(codeOf(() => toolSpecs({ search: tool({ schema: v.object({ q: v.string() }) }) }, 'anthropic'))).toEqual({ code: 'unsupported-request', field: 'search.schema' });
    expect(codeOf(() => toolSpecs({ old: tool({ schema: z3.object({ q: z3.string() }) }) }, 'openai-chat'))).toEqual({ code: 'unsupported-request', field: 'old.schema' });
  });

  it('names: a record key, a matching name, an array of named tools; mismatches are errors', () => {
    expect(toolSpecs({ a: tool({ name: 'a' }) }, 'anthropic').map((t) => t.name)).toEqual(['a']);
    expect(toolSpecs([tool({ name: 'x' }), tool({ name: 'y' })], 'anthropic').map((t) => t.name)).toEqual(['x', 'y']);
    expect(codeOf(() => toolSpecs({ a: tool({ name: 'b' }) }, 'anthropic'))).toEqual({ code: 'unsupported-request', field: 'a.name' });
    expect(codeOf(() => toolSpecs([tool({ description: 'no name' })], 'anthropic'))).toEqual({ code: 'unsupported-request', field: '[0].name' });
  });

  it('a non-object root is refused by Anthropic and Gemini; an unknown format is an error', () => {
    const list = tool({ parameters: { type: 'array', items: { type: 'string' } } });
    expect(codeOf(() => toolSpecs({ list }, 'anthropic'))).toEqual({ code: 'unsupported-request', field: 'list.input_schema.type' });
    expect(codeOf(() => toolSpecs({ list }, 'gemini'))).toEqual({ code: 'unsupported-request', field: 'list.parameters.type' });
    expect(() => toolSpecs({ list }, 'cohere' as MessageFormat)).toThrow(expect.objectContaining({ code: 'invalid-option', function: 'toolSpecs', option: 'format', value: 'cohere' }));
  });

  it('toolJsonSchema: the input side of the schema (defaults optional), without $schema', () => {
    expect(toolJsonSchema(looseWeather, 'loose')).toEqual(looseParams);
    expect(toolJsonSchema(tool({ schema: z.object({ n: z.string().transform(Number) }) }), 'n')).toEqual({ type: 'object', properties: { n: { type: 'string' } }, required: ['n'] });
  });
});

describe('allowsStrict()', () => {
  const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false, ...extra });
  it.each([
    ['flat, closed, all required', obj({ a: { type: 'string' } }), true],
    ['an optional property', { ...obj({ a: { type: 'string' }, b: { type: 'number' } }), required: ['a'] }, false],
    ['additionalProperties absent', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, false],
    ['a nested open object', obj({ a: { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] } }), false],
    ['an open object in array items', obj({ a: { type: 'array', items: { type: 'object', properties: {} } } }), false],
    ['an open object in anyOf', obj({ a: { anyOf: [{ type: 'null' }, { type: 'object', properties: { b: {} } }] } }), false],
    ['an open object in $defs', obj({ a: { $ref: '#/$defs/x' } }, { $defs: { x: { type: 'object', properties: { y: {} }, required: [] } } }), false],
    ['nested closed objects everywhere', obj({ a: { type: 'array', items: obj({ b: { anyOf: [{ type: 'null' }, obj({ c: { type: 'string' } })] } }) } }), true],
    ['an enum value that looks like a schema', obj({ a: { enum: [{ type: 'object' }] } }), true],
  ])('%s', (_name, schema, expected) => {
    expect(allowsStrict(schema)).toBe(expected);
  });

  it('handles deep nesting without recursion', () => {
    let schema: Record<string, unknown> = obj({ leaf: { type: 'string' } });
    for (let i = 0; i < 20_000; i++) schema = obj({ next: schema });
    expect(allowsStrict(schema)).toBe(true);
  });
});
