// Schema conversion against hostile schemas: long $ref chains, allOf explosions, deep
// schemas, inherited names as types, bad %-escapes, very wide strict schemas. Every refusal is a
// typed `unsupported-request`; nothing overflows the stack.
import { isToolStreamError } from 'rxjs-tool-calls';

import { toGeminiSchema, toolSpecs, type ToolSpecsOptions } from 'rxjs-tool-calls/tools';
import { allowsStrict } from '../../../src/tools/specs/shared';
import { expectUnsupported } from '../../helpers/chatRequests';

const BUDGET = 'the schema has more than 10000 nodes once references are inlined';

/** `{ $ref: D<n> }` where each `D<i>` is `{ $ref: D<i-1> }` and `D0` a string schema. */
function refChain(hops: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { D0: { type: 'string', description: 'leaf' } };
  for (let i = 1; i < hops; i++) defs[`D${i}`] = { $ref: `#/$defs/D${i - 1}` };
  return { type: 'object', properties: { a: { $ref: `#/$defs/D${hops - 1}` } }, $defs: defs };
}

/** `items` nested so that the innermost string schema is `depth` JSON levels deep. */
function itemsChain(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < depth; i++) schema = { type: 'array', items: schema };
  return schema;
}

describe('$ref chains', () => {
  it('follows 9,000 hops (one step each) to the target', () => {
    expect(toGeminiSchema(refChain(9_000))).toEqual({ type: 'OBJECT', properties: { a: { type: 'STRING', description: 'leaf' } } });
  });

  it('counts every hop in the budget: 10,001 hops end typed at the chain start', () => {
    const error = expectUnsupported(() => toGeminiSchema(refChain(10_001)), 'gemini', 'properties.a.$ref');
    expect(error.detail).toBe(BUDGET);
  });

  it('siblings along a chain: the outer win, the target fills in the rest', () => {
    const schema = {
      $ref: '#/$defs/B',
      description: 'outer',
      $defs: { B: { $ref: '#/$defs/C', title: 'middle', description: 'middle' }, C: { type: 'string', title: 'inner', minLength: 2 } },
    };
    expect(toGeminiSchema(schema)).toEqual({ type: 'STRING', title: 'middle', description: 'outer', minLength: 2 });
  });

  it('a recursion deep in a chain names the chain start', () => {
    const schema = { properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } };
    const error = expectUnsupported(() => toGeminiSchema(schema), 'gemini', 'properties.a.$ref');
    expect(error.detail).toContain('the recursive reference #/$defs/A cannot be inlined (reached through 2 references)');
  });

  it.each(['#/$defs/%E0%A4%A', '#/$defs/%', '#/%ZZ'])('a bad %%-escape (%s) is unsupported-request, not a URIError', (ref) => {
    const error = expectUnsupported(() => toGeminiSchema({ $ref: ref, $defs: {} }), 'gemini', '$ref');
    expect(error.detail).toBe(`${JSON.stringify(ref)} is not a valid JSON pointer (a bad %-escape)`);
  });

  it('a good %-escape and ~ escapes still resolve', () => {
    expect(toGeminiSchema({ $ref: '#/$defs/a%20b~1c~0d', $defs: { 'a b/c~d': { type: 'integer' } } })).toEqual({ type: 'INTEGER' });
  });

  it.each(['constructor', '__proto__', 'toString'])('a pointer through an inherited name (%s) points to nothing', (name) => {
    expectUnsupported(() => toGeminiSchema({ $ref: `#/$defs/${name}`, $defs: {} }), 'gemini', '$ref');
  });
});

describe('allOf', () => {
  /** `A<d>` = allOf of two references to `A<d-1>`: inlined naively, 2^d merges. */
  function explosion(levels: number): Record<string, unknown> {
    const defs: Record<string, unknown> = { A0: { type: 'object', properties: { x: { type: 'string' } } } };
    for (let i = 1; i <= levels; i++) defs[`A${i}`] = { allOf: [{ $ref: `#/$defs/A${i - 1}` }, { $ref: `#/$defs/A${i - 1}` }] };
    return { $ref: `#/$defs/A${levels}`, $defs: defs };
  }

  it('merges a small explosion (8 levels: 256 leaves)', () => {
    expect(toGeminiSchema(explosion(8))).toEqual({ type: 'OBJECT', properties: { x: { type: 'STRING' } } });
  });

  it('counts every merge in the budget: 30 levels end typed', () => {
    expect(() => toGeminiSchema(explosion(30))).toThrow(expect.objectContaining({ code: 'unsupported-request', target: 'gemini', detail: BUDGET }));
  });

  it('nested 3,000 deep (allOf in allOf): unsupported-request past maxDepth, no recursion overflow', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 3_000; i++) schema = { allOf: [schema] };
    const error = expectUnsupported(() => toGeminiSchema(schema), 'gemini', Array<string>(256).fill('allOf[0]').join('.'));
    expect(error.detail).toBe('nested deeper than 512 levels (the maxDepth option)');
  });

  it('a chain of 2,000 allOf hops through references merges without recursion', () => {
    const defs: Record<string, unknown> = { B0: { type: 'object', properties: { p0: { type: 'string' } } } };
    for (let i = 1; i < 2_000; i++) defs[`B${i}`] = { allOf: [{ $ref: `#/$defs/B${i - 1}` }] };
    expect(toGeminiSchema({ $ref: '#/$defs/B1999', $defs: defs })).toEqual({ type: 'OBJECT', properties: { p0: { type: 'STRING' } } });
  });

  it('merges properties and required across branches, and a recursion through allOf is refused', () => {
    const merged = toGeminiSchema({
      type: 'object',
      allOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { allOf: [{ properties: { b: { type: 'number' } }, required: ['b', 'a'] }] }],
    });
    expect(merged).toEqual({ type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'NUMBER' } }, required: ['a', 'b'] });
    expectUnsupported(() => toGeminiSchema({ $ref: '#/$defs/L', $defs: { L: { allOf: [{ $ref: '#/$defs/L' }] } } }), 'gemini', 'allOf[0].$ref');
  });

  it('a branch key named __proto__ (own, from JSON.parse) is dropped as unknown, never a prototype', () => {
    const schema = JSON.parse('{"allOf":[{"properties":{"a":{"type":"string"}}},{"type":"object","__proto__":{"properties":{"evil":{"type":"string"}}}}]}') as Record<string, unknown>;
    const drops: string[] = [];
    expect(toGeminiSchema(schema, { onDrop: (d) => drops.push(d.path) })).toEqual({ type: 'OBJECT', properties: { a: { type: 'STRING' } } });
    expect(drops).toEqual(['__proto__']);
  });

  it('a property named __proto__ stays an own property when branches merge', () => {
    const schema = JSON.parse('{"allOf":[{"properties":{"__proto__":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"integer"}}}]}') as Record<string, unknown>;
    const out = toGeminiSchema(schema);
    expect(Object.keys(out.properties ?? {})).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(out.properties)).toBe(Object.prototype);
  });
});

describe('depth', () => {
  it.each([3_000, 10_000])('items %i deep: unsupported-request at level 513, no stack overflow', (depth) => {
    const error = expectUnsupported(() => toGeminiSchema(itemsChain(depth)), 'gemini', 'items'.concat('.items'.repeat(511)));
    expect(error.detail).toBe('nested deeper than 512 levels (the maxDepth option)');
  });

  it.each([
    [511, true],
    [512, true],
    [513, false],
  ])('items %i levels deep with the default maxDepth 512: converted = %s', (depth, converted) => {
    if (converted) expect(JSON.stringify(toGeminiSchema(itemsChain(depth)))).toContain('"type":"STRING"');
    else expect(() => toGeminiSchema(itemsChain(depth))).toThrow(expect.objectContaining({ code: 'unsupported-request' }));
  });

  it.each([
    [9, true],
    [10, true],
    [11, false],
  ])('items %i levels deep with maxDepth 10: converted = %s', (depth, converted) => {
    if (converted) expect(() => toGeminiSchema(itemsChain(depth), { maxDepth: 10 })).not.toThrow();
    else expect(() => toGeminiSchema(itemsChain(depth), { maxDepth: 10 })).toThrow(expect.objectContaining({ code: 'unsupported-request' }));
  });

  it('references that inline past maxDepth are refused though the schema given is shallow', () => {
    const defs: Record<string, unknown> = { L0: { type: 'string' } };
    for (let i = 1; i <= 300; i++) defs[`L${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/L${i - 1}` } } };
    const error = expectUnsupported(() => toGeminiSchema({ $ref: '#/$defs/L300', $defs: defs }), 'gemini', `properties.a${'.properties.a'.repeat(255)}`);
    expect(error.detail).toBe('the schema is nested deeper than 512 levels once references are inlined (the maxDepth option)');
  });

  it('an inlined default counts its depth where it is written', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10; i++) deep = [deep];
    // Given: $defs.D.default spans levels 4 to 13. Written: properties.a.properties.b.default spans 6 to 15.
    const schema = { type: 'object', properties: { a: { type: 'object', properties: { b: { $ref: '#/$defs/D' } } } }, $defs: { D: { type: 'array', default: deep } } };
    expect(() => toGeminiSchema(schema, { maxDepth: 15 })).not.toThrow();
    const error = expectUnsupported(() => toGeminiSchema(schema, { maxDepth: 14 }), 'gemini', 'properties.a.properties.b.default');
    expect(error.detail).toContain('once references are inlined');
  });

  it('a large default inlined many times spends the budget', () => {
    const big = Array.from({ length: 1_000 }, (_, i) => i);
    const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, { $ref: '#/$defs/Big' }]));
    expect(() => toGeminiSchema({ type: 'object', properties, $defs: { Big: { type: 'array', default: big } } })).toThrow(expect.objectContaining({ detail: BUDGET }));
  });
});

describe('types', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('"type": "%s" is an unknown type', (type) => {
    const error = expectUnsupported(() => toGeminiSchema({ type }), 'gemini', 'type');
    expect(error.detail).toBe(`unknown type ${JSON.stringify(type)}`);
    expectUnsupported(() => toGeminiSchema({ type: ['string', type] }), 'gemini', 'type');
  });

  it("Gemini's own type names are still accepted", () => {
    expect(toGeminiSchema({ type: 'STRING' })).toEqual({ type: 'STRING' });
  });

  it.each(['constructor', 'toString'])('a format named %s is dropped, not looked up', (format) => {
    const drops: string[] = [];
    expect(toGeminiSchema({ type: 'string', format }, { onDrop: (d) => drops.push(d.keyword) })).toEqual({ type: 'STRING' });
    expect(drops).toEqual(['format']);
  });
});

describe('strict schemas of any width (allowsStrict, toolSpecs)', () => {
  const N = 200_000;
  const properties = Object.fromEntries(Array.from({ length: N }, (_, i) => [`p${i}`, { type: 'string' }]));
  const required = Object.keys(properties);

  it('200,000 properties all required: strict', () => {
    expect(allowsStrict({ type: 'object', properties, required, additionalProperties: false })).toBe(true);
    const [spec] = toolSpecs({ wide: { parameters: { type: 'object', properties, required, additionalProperties: false } } }, 'openai-chat');
    expect(spec?.function.strict).toBe(true);
  });

  it('200,000 properties, the last one optional: not strict', () => {
    expect(allowsStrict({ type: 'object', properties, required: required.slice(0, -1), additionalProperties: false })).toBe(false);
  });

  it('200,000 items of an anyOf: walked without a spread', () => {
    const anyOf = Array.from({ length: N }, () => ({ type: 'object', properties: {}, additionalProperties: false }));
    expect(allowsStrict({ anyOf })).toBe(true);
    anyOf.push({ type: 'object', properties: {}, additionalProperties: true });
    expect(allowsStrict({ anyOf })).toBe(false);
  });

  it('a cyclic schema built in code ends (each object looked at once)', () => {
    const schema: Record<string, unknown> = { type: 'object', additionalProperties: false, required: ['self'], properties: {} };
    (schema['properties'] as Record<string, unknown>)['self'] = schema;
    expect(allowsStrict(schema)).toBe(true);
  });

  describe.each(['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const)('toolSpecs(%s)', (format) => {
    it('a schema 3,000 levels deep is unsupported-request naming the tool', () => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < 3_000; i++) schema = { type: 'object', properties: { a: schema } };
      let caught: unknown;
      try {
        toolSpecs({ deep: { parameters: schema } }, format);
      } catch (error) {
        caught = error;
      }
      expect(isToolStreamError(caught, 'unsupported-request')).toBe(true);
      expect(caught).toMatchObject({ target: format, detail: 'nested deeper than 512 levels (the maxDepth option)' });
      expect((caught as { field: string }).field.startsWith('deep.parameters.properties.a.properties')).toBe(true);
    });

    it.each([
      [4, true],
      [5, false],
    ])('maxDepth 4, a schema of %i levels: written = %s', (levels, written) => {
      // { type, properties: { a: { type, properties: { a: { type: 'string' } } } } }: 5 levels.
      const schema =
        levels === 4 ? { type: 'object', properties: { a: { type: 'object', properties: {} } } } : { type: 'object', properties: { a: { type: 'object', properties: { a: { type: 'string' } } } } };
      const options: ToolSpecsOptions = { maxDepth: 4 };
      if (written) expect(() => JSON.stringify(toolSpecs({ t: { parameters: schema } }, format, options))).not.toThrow();
      else expect(() => toolSpecs({ t: { parameters: schema } }, format, options)).toThrow(expect.objectContaining({ code: 'unsupported-request', field: 't.parameters.properties.a.properties.a' }));
    });
  });
});
