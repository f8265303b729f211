import * as v from 'valibot';
import { z } from 'zod';
import type { StandardSchemaV1, ToolCall, ToolCallContext, ToolStreamError } from 'rxjs-tool-calls';
import { validateArguments, validateToolCall } from 'rxjs-tool-calls/advanced';
import { validateArgumentsAsync } from '../../src/parse/validate';
import { toValidationIssues } from '../../src/parse/validate';

const context: ToolCallContext = { id: 'call_1', name: 'get_weather', index: 0, choice: 0, rawArguments: '{"city":"Paris"}' };

function call(name: string, args: unknown): ToolCall {
  return { id: 'call_1', name, index: 0, choice: 0, arguments: args, rawArguments: JSON.stringify(args) };
}

const zodWeather = z.object({ city: z.string().min(1), days: z.number().int().default(1), units: z.object({ temp: z.enum(['c', 'f']) }).optional() });
const valibotWeather = v.object({ city: v.pipe(v.string(), v.minLength(1)), days: v.optional(v.number(), 1), units: v.optional(v.object({ temp: v.picklist(['c', 'f']) })) });

describe.each([
  ['zod', zodWeather],
  ['valibot', valibotWeather],
])('validateArguments with %s', (_vendor, schema) => {
  it('returns the output value (with defaults applied), synchronously', () => {
    const result = validateArguments(schema, { city: 'Paris' }, context);
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ success: true, data: { city: 'Paris', days: 1 } });
  });

  it('returns an invalid-arguments error with every issue and its path', () => {
    const value = { city: '', units: { temp: 'k' } };
    const result = validateArguments(schema, value, context);
    if (result instanceof Promise) throw new Error('expected a synchronous result');
    expect(result.success).toBe(false);
    const error = result.error as ToolStreamError<'invalid-arguments'>;
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'invalid-arguments' });
    expect(error.code).toBe('invalid-arguments');
    expect(error.toolCall).toBe(context);
    expect(error.value).toBe(value);
    expect(error.issues.map((i) => i.path)).toEqual([['city'], ['units', 'temp']]);
    for (const issue of error.issues) expect(typeof issue.message).toBe('string');
    expect(error.message).toMatch(/city: .+; units\.temp: /);
  });

  it('reports a wrong root type at the root path', async () => {
    const result = await validateArgumentsAsync(schema, 'not an object', context);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([]);
  });
});

describe('async validators', () => {
  const zodAsync = z.object({ city: z.string().refine(async (city) => city !== 'Atlantis', 'no such city') });
  const valibotAsync = v.objectAsync({
    city: v.pipeAsync(
      v.string(),
      v.checkAsync(async (city) => city !== 'Atlantis', 'no such city'),
    ),
  });

  it.each([
    ['zod', zodAsync],
    ['valibot', valibotAsync],
  ])('returns a Promise of the result with %s', async (_vendor, schema) => {
    const good = validateArguments(schema, { city: 'Paris' }, context);
    expect(good).toBeInstanceOf(Promise);
    await expect(good).resolves.toEqual({ success: true, data: { city: 'Paris' } });
    const bad = await validateArguments(schema, { city: 'Atlantis' }, context);
    expect(bad.error?.issues).toEqual([{ message: 'no such city', path: ['city'] }]);
  });
});

describe('a hand-written Standard Schema', () => {
  const evenNumber: StandardSchemaV1<unknown, number> = {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) => (typeof value === 'number' && value % 2 === 0 ? { value } : { issues: [{ message: 'not even', path: [{ key: 'items' }, 0, { key: Symbol.for('s') }] }] }),
    },
  };

  it('normalises { key } path segments to keys', () => {
    expect(validateArguments(evenNumber, 4, context)).toEqual({ success: true, data: 4 });
    const result = validateArguments(evenNumber, 3, context) as { error: ToolStreamError<'invalid-arguments'> };
    expect(result.error.issues).toEqual([{ message: 'not even', path: ['items', 0, Symbol.for('s')] }]);
  });

  it('treats an issue without a path as a root issue', () => {
    expect(toValidationIssues([{ message: 'bad' }])).toEqual([{ message: 'bad', path: [] }]);
  });
});

describe('validateToolCall', () => {
  const tools = { get_weather: zodWeather, get_time: v.object({ zone: v.string() }) };

  it('returns the call with typed, validated arguments', () => {
    const result = validateToolCall(tools, call('get_weather', { city: 'Oslo' }));
    expect(result).toEqual({ success: true, data: { ...call('get_weather', { city: 'Oslo' }), arguments: { city: 'Oslo', days: 1 } } });
  });

  it('fails with unknown-tool error for a tool without a schema (own keys only)', () => {
    for (const name of ['get_stock', 'toString', '__proto__']) {
      const result = validateToolCall(tools, call(name, {})) as { error: ToolStreamError<'unknown-tool'> };
      expect(result.error).toMatchObject({ name: 'ToolStreamError', code: 'unknown-tool' });
      expect(result.error.availableTools).toEqual(['get_weather', 'get_time']);
    }
  });

  it('fails with invalid-arguments error naming the call', () => {
    const result = validateToolCall(tools, call('get_time', { zone: 3 })) as { error: ToolStreamError<'invalid-arguments'> };
    expect(result.error.toolCall).toEqual({ id: 'call_1', name: 'get_time', index: 0, choice: 0, rawArguments: '{"zone":3}' });
    expect(result.error.issues[0]?.path).toEqual(['zone']);
  });
});
