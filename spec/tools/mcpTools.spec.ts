/**
 * The parts of `mcpTools()` that need no server: the check of a call's arguments against an MCP
 * tool's input JSON Schema (the keywords that decide a call's shape), the options checked at once,
 * and the SDK never imported by the library at run time (it is an optional peer).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { NEVER } from 'rxjs';
import { mcpTools } from 'rxjs-tool-calls/tools';
import { jsonSchemaCheck } from '../../src/tools/jsonSchemaCheck';

const check = (schema: Record<string, unknown>, value: unknown) => {
  const result = jsonSchemaCheck(schema)['~standard'].validate(value);
  if (result instanceof Promise) throw new Error('sync expected');
  return result.issues === undefined ? 'ok' : result.issues.map((i) => `${(i.path ?? []).map(String).join('.') || '(root)'}: ${i.message}`);
};

describe('the check of MCP arguments against the input schema', () => {
  const schema = {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2, maxLength: 20 },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      units: { enum: ['c', 'f'] },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
      at: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      kind: { const: 'forecast' },
      nested: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'], additionalProperties: false },
    },
    required: ['city'],
  };

  it.each<[string, unknown, 'ok' | string[]]>([
    ['a valid call', { city: 'Paris', days: 3, units: 'c', tags: ['a'], at: null, kind: 'forecast', nested: { x: 1 } }, 'ok'],
    ['extra keys where additionalProperties is not false', { city: 'Paris', other: 1 }, 'ok'],
    ['a missing required key', {}, ['city: Required']],
    ['the wrong type, with the path', { city: 1 }, ['city: Expected string, received number']],
    ['not an object', [], ['(root): Expected object, received array']],
    ['a number for an integer', { city: 'Paris', days: 1.5 }, ['days: Expected integer, received number']],
    ['bounds', { city: 'P', days: 20, tags: ['a', 'b', 'c'] }, ['city: Expected at least 2 characters', 'days: Expected a number ≤ 14', 'tags: Expected at most 2 items']],
    ['enum and const', { city: 'Paris', units: 'k', kind: 'now' }, ['units: Expected one of ["c","f"]', 'kind: Expected "forecast"']],
    ['items', { city: 'Paris', tags: ['a', 2] }, ['tags.1: Expected string, received number']],
    ['anyOf', { city: 'Paris', at: 3 }, ['at: Expected a value matching one of the schemas (anyOf)']],
    ['additionalProperties false and nested required', { city: 'Paris', nested: { y: 1 } }, ['nested.x: Required', 'nested.y: Unexpected property "y"']],
  ])('%s', (_name, value, expected) => {
    expect(check(schema, value)).toEqual(expected);
  });

  it('oneOf passes exactly one; allOf every one; keywords it does not check ($ref, pattern) pass', () => {
    const oneOf = { oneOf: [{ type: 'number' }, { type: 'integer' }] };
    expect(check(oneOf, 1.5)).toBe('ok');
    expect(check(oneOf, 2)).toEqual(['(root): Expected a value matching exactly one of the schemas (oneOf)']);
    expect(check({ allOf: [{ type: 'object' }, { required: ['a'] }] }, {})).toEqual(['a: Required']);
    expect(check({ type: 'object', properties: { a: { $ref: '#/$defs/x', pattern: '^z' } } }, { a: 'anything' })).toBe('ok');
  });
});

describe('mcpTools()', () => {
  it('checks its options at once: a key it does not take is invalid-option, before the client is asked', () => {
    const asked: string[] = [];
    const client = { listTools: () => (asked.push('list'), NEVER as never), callTool: () => NEVER as never };
    expect(() => mcpTools(client, { maxResultByte: 10 } as never)).toThrow(expect.objectContaining({ code: 'invalid-option', option: 'options.maxResultByte' }));
    expect(() => mcpTools(client, { maxResultBytes: 0 })).toThrow(expect.objectContaining({ code: 'invalid-option' }));
    expect(asked).toEqual([]);
  });

  it('the library never imports the MCP SDK at run time (an optional peer: only `import type`, or nothing)', () => {
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? files(path.join(dir, name)) : [path.join(dir, name)]));
    const offenders = files(path.resolve(__dirname, '../../src')).filter((file) => /^\s*(import|export)\s+(?!type\b)[^;]*['"]@modelcontextprotocol\//m.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
