import fc from 'fast-check';
import { z } from 'zod';
import type { GeminiWire } from 'rxjs-tool-calls/gateway';
import { type GeminiSchemaDrop, toGeminiSchema } from 'rxjs-tool-calls/tools';
import { expectUnsupported } from '../../helpers/chatRequests';

/** The fields of Gemini's `Schema` message: anything else is a 400 `Unknown name`. */
const GEMINI_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'default',
  'example',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'propertyOrdering',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
]);
const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

/** Every field of `schema`, at every depth, is one Gemini knows, with a value of the right kind. */
function expectGeminiShape(schema: GeminiWire.Schema, path = '(root)'): void {
  for (const [key, value] of Object.entries(schema)) {
    expect(`${path}.${key}: ${GEMINI_FIELDS.has(key)}`).toBe(`${path}.${key}: true`);
    if (key === 'type') expect(GEMINI_TYPES.has(value as string)).toBe(true);
    if (key === 'enum') expect((value as unknown[]).every((v) => typeof v === 'string')).toBe(true);
    if (key === 'items') expectGeminiShape(value as GeminiWire.Schema, `${path}.items`);
    if (key === 'anyOf') (value as GeminiWire.Schema[]).forEach((s, i) => expectGeminiShape(s, `${path}.anyOf[${i}]`));
    if (key === 'properties') for (const [name, s] of Object.entries(value as Record<string, GeminiWire.Schema>)) expectGeminiShape(s, `${path}.properties.${name}`);
  }
}

function convert(schema: Record<string, unknown> | boolean): { schema: GeminiWire.Schema; drops: string[] } {
  const drops: GeminiSchemaDrop[] = [];
  const out = toGeminiSchema(schema, { onDrop: (drop) => drops.push(drop) });
  return { schema: out, drops: drops.map((d) => d.path) };
}

describe('toGeminiSchema', () => {
  const cases: Array<[string, Record<string, unknown>, GeminiWire.Schema, string[]]> = [
    [
      'an object with annotations, required and ordering',
      { type: 'object', title: 'T', description: 'D', properties: { a: { type: 'string', default: 'x', example: 'y' } }, required: ['a'], propertyOrdering: ['a'], minProperties: 1, maxProperties: 3 },
      { type: 'OBJECT', title: 'T', description: 'D', properties: { a: { type: 'STRING', default: 'x', example: 'y' } }, required: ['a'], propertyOrdering: ['a'], minProperties: 1, maxProperties: 3 },
      [],
    ],
    [
      '$schema and additionalProperties are dropped',
      { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {}, additionalProperties: false },
      { type: 'OBJECT', properties: {} },
      ['$schema', 'additionalProperties'],
    ],
    ['const becomes a one-value enum', { const: 'celsius' }, { enum: ['celsius'] }, []],
    ['number and boolean enum values become strings', { type: 'integer', enum: [1, 2] }, { type: 'INTEGER', enum: ['1', '2'] }, []],
    ['null in an enum makes it nullable', { type: 'string', enum: ['a', null] }, { type: 'STRING', enum: ['a'], nullable: true }, []],
    ['a [type, null] list becomes nullable', { type: ['string', 'null'], maxLength: 5 }, { type: 'STRING', maxLength: 5, nullable: true }, []],
    [
      'a type list becomes anyOf',
      { type: ['string', 'integer'], description: 'id', minLength: 1, minimum: 0 },
      {
        description: 'id',
        anyOf: [
          { type: 'STRING', minLength: 1 },
          { type: 'INTEGER', minimum: 0 },
        ],
      },
      ['minimum', 'minLength'],
    ],
    ['anyOf with a null branch (zod optional-nullable)', { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'maybe' }, { type: 'STRING', description: 'maybe', nullable: true }, []],
    ['anyOf with several branches', { anyOf: [{ type: 'string' }, { type: 'number' }] }, { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] }, []],
    ['oneOf becomes anyOf', { oneOf: [{ type: 'string' }, { type: 'boolean' }] }, { anyOf: [{ type: 'STRING' }, { type: 'BOOLEAN' }] }, []],
    [
      'allOf is merged',
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'number' } }, required: ['b'] },
        ],
      },
      { type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'NUMBER' } }, required: ['a', 'b'] },
      [],
    ],
    [
      'local $ref into $defs and definitions is inlined, siblings win',
      {
        type: 'object',
        properties: { a: { $ref: '#/$defs/Item', description: 'first' }, b: { $ref: '#/definitions/Other' } },
        $defs: { Item: { type: 'string', description: 'an item' } },
        definitions: { Other: { type: 'boolean' } },
      },
      { type: 'OBJECT', properties: { a: { type: 'STRING', description: 'first' }, b: { type: 'BOOLEAN' } } },
      [],
    ],
    [
      'a $ref to a property (JSON pointer)',
      { type: 'object', properties: { a: { type: 'string' }, b: { $ref: '#/properties/a' } } },
      { type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'STRING' } } },
      [],
    ],
    ['an exclusive integer minimum is exact', { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 }, { type: 'INTEGER', minimum: 1, maximum: 9 }, []],
    ['an exclusive number bound becomes inclusive, reported', { type: 'number', exclusiveMinimum: 0.5 }, { type: 'NUMBER', minimum: 0.5 }, ['exclusiveMinimum']],
    ['draft 4 boolean exclusive bounds', { type: 'integer', minimum: 3, exclusiveMinimum: true }, { type: 'INTEGER', minimum: 4 }, []],
    ['the tighter of minimum and exclusiveMinimum', { type: 'integer', minimum: 5, exclusiveMinimum: 2 }, { type: 'INTEGER', minimum: 5 }, []],
    [
      'supported formats stay, others are dropped',
      { type: 'object', properties: { at: { type: 'string', format: 'date-time' }, mail: { type: 'string', format: 'email' }, n: { type: 'integer', format: 'int64' } } },
      { type: 'OBJECT', properties: { at: { type: 'STRING', format: 'date-time' }, mail: { type: 'STRING' }, n: { type: 'INTEGER', format: 'int64' } } },
      ['properties.mail.format'],
    ],
    [
      'validation keywords Gemini lacks are dropped at any depth',
      { type: 'array', items: { type: 'string', uniqueItems: true }, uniqueItems: true, minItems: 1, maxItems: 4, contains: { type: 'string' }, examples: [['a']] },
      { type: 'ARRAY', items: { type: 'STRING' }, minItems: 1, maxItems: 4 },
      ['items.uniqueItems', 'uniqueItems', 'contains', 'examples'],
    ],
    ['keywords of another type are dropped', { type: 'string', properties: { a: {} }, required: ['a'], pattern: '^a' }, { type: 'STRING', pattern: '^a' }, ['properties', 'required']],
    ['properties without a type mean an object', { properties: { a: { type: 'number', multipleOf: 2 } } }, { type: 'OBJECT', properties: { a: { type: 'NUMBER' } } }, ['properties.a.multipleOf']],
    ['upper-case (OpenAPI) types and nullable are kept', { type: 'STRING', nullable: true }, { type: 'STRING', nullable: true }, []],
    [
      'not, if / then / else and patternProperties are dropped',
      { type: 'object', properties: {}, not: { required: ['x'] }, if: {}, then: {}, else: {}, patternProperties: {} },
      { type: 'OBJECT', properties: {} },
      ['not', 'if', 'then', 'else', 'patternProperties'],
    ],
  ];
  it.each(cases)('%s', (_name, input, expected, drops) => {
    const out = convert(input);
    expect(out.schema).toEqual(expected);
    expect(out.drops.sort()).toEqual([...drops].sort());
  });

  it("converts zod 4's JSON Schema into fields Gemini knows", () => {
    const zodSchema = z.toJSONSchema(
      z.object({
        city: z.string().describe('City'),
        unit: z.enum(['c', 'f']).optional(),
        days: z.number().int().min(1).max(7),
        tags: z.array(z.string()).nullable(),
        kind: z.literal('x'),
        when: z.iso.datetime(),
        mail: z.email(),
        pos: z.number().positive(),
      }),
    );
    const out = convert(zodSchema as Record<string, unknown>);
    expectGeminiShape(out.schema);
    expect(out.schema.properties).toMatchObject({
      city: { type: 'STRING', description: 'City' },
      unit: { type: 'STRING', enum: ['c', 'f'] },
      days: { type: 'INTEGER', minimum: 1, maximum: 7 },
      tags: { type: 'ARRAY', items: { type: 'STRING' }, nullable: true },
      kind: { type: 'STRING', enum: ['x'] },
      when: { type: 'STRING', format: 'date-time' },
      mail: { type: 'STRING' },
      pos: { type: 'NUMBER', minimum: 0 },
    });
    expect(out.drops.sort()).toEqual(['$schema', 'additionalProperties', 'properties.mail.format', 'properties.pos.exclusiveMinimum']);
  });

  it('writes only fields Gemini knows, or throws unsupported-request, for any schema (property)', () => {
    const name = fc.constantFrom('a', 'b', 'c');
    const { schema } = fc.letrec((tie) => ({
      schema: fc.oneof({ maxDepth: 3, depthIdentifier: 'schema' }, fc.constantFrom({ type: 'string' }, { type: 'integer', minimum: 0 }, true), tie('node')),
      node: fc.record(
        {
          type: fc.constantFrom<unknown>('string', 'integer', 'number', 'object', 'array', 'null', 'boolean', ['string', 'null'], ['string', 'integer'], 'date'),
          properties: fc.dictionary(name, tie('schema'), { maxKeys: 3 }),
          required: fc.array(name, { maxLength: 2 }),
          items: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 1 })),
          anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }),
          oneOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }),
          allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }),
          enum: fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3 }),
          const: fc.oneof(fc.string({ maxLength: 3 }), fc.integer()),
          format: fc.constantFrom('date-time', 'email', 'int64', 'float', 'uuid'),
          additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
          $ref: fc.constantFrom('#', '#/$defs/A', '#/$defs/B'),
          $defs: fc.record({ A: tie('schema') }),
          nullable: fc.boolean(),
          minimum: fc.integer({ min: -5, max: 5 }),
          exclusiveMinimum: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.boolean()),
          exclusiveMaximum: fc.double({ min: -5, max: 5, noNaN: true }),
          minLength: fc.nat(5),
          pattern: fc.constant('^a'),
          description: fc.string({ maxLength: 5 }),
          title: fc.string({ maxLength: 5 }),
          default: fc.jsonValue({ maxDepth: 1 }),
          uniqueItems: fc.boolean(),
          multipleOf: fc.integer({ min: 1, max: 3 }),
          not: tie('schema'),
          $schema: fc.constant('https://json-schema.org/draft/2020-12/schema'),
          'x-extension': fc.jsonValue({ maxDepth: 1 }),
        },
        { requiredKeys: [] },
      ),
    }));
    let converted = 0;
    fc.assert(
      fc.property(schema, (input) => {
        let out: GeminiWire.Schema;
        try {
          out = toGeminiSchema(input as Record<string, unknown>);
        } catch (error) {
          expect(error).toMatchObject({ name: 'ToolStreamError', code: 'unsupported-request' });
          return;
        }
        expectGeminiShape(out);
        converted++;
      }),
      { numRuns: 1000 },
    );
    expect(converted).toBeGreaterThan(100); // the property is not vacuous
  });

  it('reads true as the empty schema', () => {
    expect(convert(true).schema).toEqual({});
  });

  it('does not modify its input and prefixes paths', () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string', additionalProperties: false } } };
    const copy = JSON.parse(JSON.stringify(schema)) as unknown;
    const drops: GeminiSchemaDrop[] = [];
    toGeminiSchema(schema, { path: 'tools[0].function.parameters', onDrop: (d) => drops.push(d) });
    expect(schema).toEqual(copy);
    expect(drops).toEqual([{ path: 'tools[0].function.parameters.properties.a.additionalProperties', keyword: 'additionalProperties', reason: 'Gemini schemas have no additionalProperties' }]);
  });

  describe('unsupported-request', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a recursive $ref', { type: 'object', properties: { child: { $ref: '#' } } }, 'properties.child.$ref'],
      ['a recursive $defs entry', { $ref: '#/$defs/Node', $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } } }, 'properties.next.$ref'],
      ['a remote $ref', { $ref: 'https://example.com/schema.json' }, '$ref'],
      ['a $ref to nothing', { $ref: '#/$defs/Missing' }, '$ref'],
      ['a tuple', { type: 'array', prefixItems: [{ type: 'string' }] }, 'prefixItems'],
      ['an items list', { type: 'array', items: [{ type: 'string' }] }, 'items'],
      ['a false schema', { type: 'object', properties: { never: false } }, 'properties.never'],
      ['conflicting allOf branches', { allOf: [{ type: 'string' }, { type: 'number' }] }, 'allOf[1].type'],
      ['an object enum value', { enum: [{ a: 1 }] }, 'enum[0]'],
      ['an empty enum', { enum: [] }, 'enum'],
      ['an unknown type', { type: 'date' }, 'type'],
      ['a type list beside anyOf', { type: ['string', 'number'], anyOf: [{ minLength: 1 }] }, 'type'],
    ];
    it.each(cases)('%s', (_name, input, field) => {
      expectUnsupported(() => toGeminiSchema(input), 'gemini', field);
    });

    it('refuses a schema that explodes when inlined', () => {
      const defs: Record<string, unknown> = { L0: { type: 'string' } };
      for (let i = 1; i <= 20; i++) defs[`L${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/L${i - 1}` }, b: { $ref: `#/$defs/L${i - 1}` } } };
      expect(() => toGeminiSchema({ $ref: '#/$defs/L20', $defs: defs })).toThrow(
        expect.objectContaining({ code: 'unsupported-request', target: 'gemini', detail: 'the schema has more than 10000 nodes once references are inlined' }),
      );
    });

    it('lets onDrop refuse a lossy conversion', () => {
      expect(() =>
        toGeminiSchema(
          { type: 'object', properties: {}, additionalProperties: false },
          {
            onDrop: (drop) => {
              throw new Error(`would drop ${drop.keyword}`);
            },
          },
        ),
      ).toThrow('would drop additionalProperties');
    });
  });
});
