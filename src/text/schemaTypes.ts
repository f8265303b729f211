/**
 * Parameter types for the XML syntaxes (Qwen3-Coder, GLM 4.5), whose values arrive untyped: read
 * from the tools' JSON Schemas, or from Standard Schema validators that can describe themselves
 * as JSON Schema (`~standard.jsonSchema`, e.g. zod 4).
 *
 * @module
 * @internal
 */

/** The JSON types a parameter accepts (`'string'`, `'number'`, `'integer'`, `'boolean'`, `'null'`, `'object'`, `'array'`). */
export type ParamTypes = ReadonlySet<string>;

type Json = Readonly<Record<string, unknown>>;

const JSON_TYPES = /* @__PURE__ */ new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** The JSON Schema of a tool entry: the schema itself, or what a Standard Schema says it is. */
function jsonSchemaOf(entry: unknown): Json | undefined {
  const standard = record(record(entry)?.['~standard']);
  if (standard === undefined) return record(entry);
  const converter = record(standard['jsonSchema']);
  const input = converter?.['input'];
  if (typeof input !== 'function') return undefined;
  for (const target of ['draft-2020-12', 'draft-07']) {
    try {
      const schema = record((input as (options: { target: string }) => unknown)({ target }));
      if (schema !== undefined) return schema;
    } catch {
      // this converter does not support that target: try the next
    }
  }
  return undefined;
}

/** Follow a local `$ref` (`#/$defs/…`, `#/definitions/…`) once. */
function resolve(schema: Json, root: Json): Json {
  const ref = schema['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = record(node)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return record(node) ?? schema;
}

function collect(schema: Json, root: Json, out: Set<string>, depth: number): void {
  if (depth > 8) return;
  const node = resolve(schema, root);
  const type = node['type'];
  if (typeof type === 'string' && JSON_TYPES.has(type)) out.add(type);
  else if (Array.isArray(type))
    for (const t of type)
      if (typeof t === 'string' && JSON_TYPES.has(t)) out.add(t);
      else if (typeof type !== 'string') {
        for (const key of ['anyOf', 'oneOf', 'allOf']) {
          const list = node[key];
          if (Array.isArray(list)) for (const member of list) if (record(member) !== undefined) collect(member as Json, root, out, depth + 1);
        }
        const values = Array.isArray(node['enum']) ? (node['enum'] as unknown[]) : 'const' in node ? [node['const']] : [];
        for (const value of values) out.add(value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value);
        if (out.size === 0 && record(node['properties']) !== undefined) out.add('object');
      }
}

/** The parameter types of every tool in `options.tools`, resolved once per tool and parameter. */
export class ToolParamTypes {
  private readonly cache = new Map<string, { schema: Json; properties: Json | undefined } | null>();

  /** @param tools Tool names mapped to a JSON Schema of their arguments or a Standard Schema. */
  constructor(private readonly tools: Readonly<Record<string, object>> | undefined) {}

  /** The JSON types parameter `param` of tool `tool` accepts; `undefined` when the schema does not say. */
  typesOf(tool: string, param: string): ParamTypes | undefined {
    if (this.tools === undefined || !Object.prototype.hasOwnProperty.call(this.tools, tool)) return undefined;
    let entry = this.cache.get(tool);
    if (entry === undefined) {
      const schema = jsonSchemaOf(this.tools[tool]);
      entry = schema === undefined ? null : { schema, properties: record(resolve(schema, schema)['properties']) };
      this.cache.set(tool, entry);
    }
    const property = entry === null || entry.properties === undefined || !Object.prototype.hasOwnProperty.call(entry.properties, param) ? undefined : record(entry.properties[param]);
    if (entry === null || property === undefined) return undefined;
    const out = new Set<string>();
    collect(property, entry.schema, out, 0);
    return out.size === 0 ? undefined : out;
  }
}
