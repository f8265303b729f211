/**
 * The conversion behind `toGeminiSchema()`: one instance per schema (it counts the nodes it
 * produces and resolves references against the root).
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import { fieldPath } from '../requestReader';
import type { GeminiSchema, GeminiSchemaOptions, GeminiType } from './schema';

const TYPES: Record<string, GeminiType> = { string: 'STRING', number: 'NUMBER', integer: 'INTEGER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT', null: 'NULL' };
/** Keywords of every type, copied as they are. */
const ANNOTATIONS = ['title', 'description', 'default', 'example'] as const;
/** Keywords that apply to one type only: Gemini rejects them on another. */
const TYPED: Record<string, GeminiType[]> = {
  properties: ['OBJECT'],
  required: ['OBJECT'],
  propertyOrdering: ['OBJECT'],
  minProperties: ['OBJECT'],
  maxProperties: ['OBJECT'],
  items: ['ARRAY'],
  minItems: ['ARRAY'],
  maxItems: ['ARRAY'],
  prefixItems: ['ARRAY'],
  minLength: ['STRING'],
  maxLength: ['STRING'],
  pattern: ['STRING'],
  minimum: ['NUMBER', 'INTEGER'],
  maximum: ['NUMBER', 'INTEGER'],
  exclusiveMinimum: ['NUMBER', 'INTEGER'],
  exclusiveMaximum: ['NUMBER', 'INTEGER'],
};
/** The formats the Gemini API accepts, per type. */
const FORMATS: Partial<Record<GeminiType, readonly string[]>> = { STRING: ['date-time', 'enum'], NUMBER: ['float', 'double'], INTEGER: ['int32', 'int64'] };
/** Keywords consumed by the conversion itself. */
const STRUCTURAL = /* @__PURE__ */ new Set(['type', 'nullable', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'format', '$defs', 'definitions', ...ANNOTATIONS, ...Object.keys(TYPED)]);
/** The most schema nodes one conversion may produce once references are inlined. */
const MAX_NODES = 10_000;

type Node = Record<string, unknown>;

/** Converts one schema (see `toGeminiSchema()`). */
export class Converter {
  private nodes = 0;
  constructor(
    private readonly root: unknown,
    private readonly options: GeminiSchemaOptions,
  ) {}

  private fail(path: string, detail: string): never {
    throw new ToolStreamError('unsupported-request', { target: 'gemini', field: path, detail });
  }

  private drop(path: string, keyword: string, reason: string): void {
    this.options.onDrop?.({ path: fieldPath(path, keyword), keyword, reason });
  }

  /** `value` as a schema object with its own `$ref` inlined (siblings of `$ref` override the target). */
  private resolve(value: unknown, path: string, stack: readonly string[]): { node: Node; stack: readonly string[] } {
    if (value === true) return { node: {}, stack };
    if (value === false) this.fail(path, 'a false schema (nothing is valid) cannot be expressed');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(path, 'a schema must be an object or a boolean');
    const { $ref: ref, ...siblings } = value as Node;
    if (ref === undefined) return { node: value as Node, stack };
    const refPath = fieldPath(path, '$ref');
    if (typeof ref !== 'string' || !ref.startsWith('#')) this.fail(refPath, 'only local references (#/…) can be inlined');
    if (stack.includes(ref)) this.fail(refPath, `the recursive reference ${ref} cannot be inlined (the gemini parametersJsonSchema option sends the schema unchanged)`);
    const target = this.resolve(pointer(this.root, ref) ?? this.fail(refPath, `${ref} points to nothing`), refPath, [...stack, ref]);
    return { node: { ...target.node, ...siblings }, stack: target.stack };
  }

  convert(value: unknown, path: string, outer: readonly string[]): GeminiSchema {
    if (++this.nodes > MAX_NODES) this.fail(path, `the schema has more than ${MAX_NODES} nodes once references are inlined`);
    const resolved = this.resolve(value, path, outer);
    const node = this.mergeAllOf(resolved.node, path, resolved.stack);
    const stack = resolved.stack;
    for (const key of Object.keys(node)) {
      if (!STRUCTURAL.has(key)) this.drop(path, key, `Gemini schemas have no ${key}`);
    }
    const out: GeminiSchema = {};
    for (const key of ANNOTATIONS) {
      if (node[key] === undefined) continue;
      if ((key === 'title' || key === 'description') && typeof node[key] !== 'string') this.fail(fieldPath(path, key), 'must be a string');
      (out as Node)[key] = node[key];
    }
    let nullable = node['nullable'] === true;
    let types = typesOf(node, fieldPath(path, 'type'), (p, d) => this.fail(p, d));
    if (types.includes('NULL') && types.length > 1) {
      nullable = true;
      types = types.filter((t) => t !== 'NULL');
    }
    const values = this.enumOf(node, path);
    if (values?.nullable === true) nullable = true;
    const alternatives = this.alternativesOf(node, path, stack);
    if (alternatives.nullable) nullable = true;
    if (types.length > 1) {
      if (alternatives.schemas.length > 0) this.fail(fieldPath(path, 'type'), 'a type list together with anyOf / oneOf cannot be expressed');
      out.anyOf = types.map((type) => this.typed(node, type, path, stack, values?.list));
    } else {
      Object.assign(out, this.typed(node, types[0], path, stack, values?.list));
      if (alternatives.schemas.length === 1) Object.assign(out, alternatives.schemas[0], stripUndefined(pick(out, ANNOTATIONS)));
      else if (alternatives.schemas.length > 1) out.anyOf = alternatives.schemas;
    }
    if (nullable) out.nullable = true;
    return out;
  }

  /** The keywords of one type (or of no type), with `properties` and `items` converted. */
  private typed(node: Node, type: GeminiType | undefined, path: string, stack: readonly string[], values: string[] | undefined): GeminiSchema {
    const out: GeminiSchema = type === undefined ? {} : { type };
    if (values !== undefined) out.enum = values;
    const format = node['format'];
    if (format !== undefined) {
      if (type !== undefined && typeof format === 'string' && FORMATS[type]?.includes(format) === true) out.format = format;
      else this.drop(path, 'format', `Gemini accepts no format ${JSON.stringify(format)} here`);
    }
    for (const [key, on] of Object.entries(TYPED)) {
      const value = node[key];
      if (value === undefined) continue;
      if (type === undefined || !on.includes(type)) {
        this.drop(path, key, `${key} applies to ${on.join(' / ').toLowerCase()} values only`);
        continue;
      }
      const keyPath = fieldPath(path, key);
      if (key === 'properties') {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(keyPath, 'must be an object');
        out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, this.convert(sub, fieldPath(keyPath, name), stack)]));
      } else if (key === 'items') {
        if (Array.isArray(value)) this.fail(keyPath, 'tuples (an items list) cannot be expressed');
        out.items = this.convert(value, keyPath, stack);
      } else if (key === 'prefixItems') {
        this.fail(keyPath, 'tuples (prefixItems) cannot be expressed');
      } else if (key === 'required' || key === 'propertyOrdering') {
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) this.fail(keyPath, 'must be a list of names');
        out[key] = [...(value as string[])];
      } else if (key === 'pattern') {
        if (typeof value !== 'string') this.fail(keyPath, 'must be a string');
        out.pattern = value;
      } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        this.exclusive(node, key, type, out, path);
      } else {
        if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(keyPath, 'must be a number');
        (out as Node)[key] = value;
      }
    }
    return out;
  }

  /** `exclusiveMinimum` / `exclusiveMaximum` (a number, or draft 4's boolean beside `minimum` / `maximum`) as an inclusive bound. */
  private exclusive(node: Node, key: 'exclusiveMinimum' | 'exclusiveMaximum', type: GeminiType, out: GeminiSchema, path: string): void {
    const lower = key === 'exclusiveMinimum';
    const bound = lower ? 'minimum' : 'maximum';
    const raw = node[key];
    const value = raw === true ? node[bound] : raw === false ? undefined : raw;
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(fieldPath(path, key), 'must be a number or a boolean beside a number bound');
    const step = lower ? Math.floor(value) + 1 : Math.ceil(value) - 1;
    const inclusive = type === 'INTEGER' ? step : value;
    if (type !== 'INTEGER') this.drop(path, key, `Gemini has no exclusive bounds: ${bound} ${value} is inclusive`);
    const other = typeof node[bound] === 'number' && raw !== true ? (node[bound] as number) : undefined;
    out[bound] = other === undefined ? inclusive : lower ? Math.max(other, inclusive) : Math.min(other, inclusive);
  }

  /** `enum` / `const` as Gemini's string enum; `null` among the values makes the schema nullable. */
  private enumOf(node: Node, path: string): { list: string[]; nullable: boolean } | undefined {
    const hasConst = node['const'] !== undefined;
    const raw = hasConst ? [node['const']] : node['enum'];
    if (raw === undefined) return undefined;
    const key = hasConst ? 'const' : 'enum';
    if (!Array.isArray(raw) || raw.length === 0) this.fail(fieldPath(path, key), 'must be a non-empty list');
    const list: string[] = [];
    let nullable = false;
    raw.forEach((value: unknown, i) => {
      if (value === null) nullable = true;
      else if (typeof value === 'string') list.push(value);
      else if (typeof value === 'number' || typeof value === 'boolean') list.push(String(value));
      else this.fail(hasConst ? fieldPath(path, key) : fieldPath(fieldPath(path, key), i), 'object and array enum values cannot be expressed');
    });
    return { list, nullable };
  }

  /** `anyOf` / `oneOf` branches, converted, with `{ type: 'null' }` branches taken out as `nullable`. */
  private alternativesOf(node: Node, path: string, stack: readonly string[]): { schemas: GeminiSchema[]; nullable: boolean } {
    if (node['anyOf'] !== undefined && node['oneOf'] !== undefined) this.fail(fieldPath(path, 'oneOf'), 'anyOf and oneOf together cannot be expressed');
    const key = node['oneOf'] !== undefined ? 'oneOf' : 'anyOf';
    const raw = node[key];
    if (raw === undefined) return { schemas: [], nullable: false };
    if (!Array.isArray(raw) || raw.length === 0) this.fail(fieldPath(path, key), 'must be a non-empty list');
    const schemas = raw.map((branch: unknown, i) => this.convert(branch, fieldPath(fieldPath(path, key), i), stack));
    const nonNull = schemas.filter((s) => !(s.type === 'NULL' && Object.keys(s).length === 1));
    return { schemas: nonNull, nullable: nonNull.length < schemas.length };
  }

  /** `node` with its `allOf` branches merged in (`properties` and `required` united; any other conflict throws). */
  private mergeAllOf(node: Node, path: string, stack: readonly string[]): Node {
    const branches = node['allOf'];
    if (branches === undefined) return node;
    if (!Array.isArray(branches)) this.fail(fieldPath(path, 'allOf'), 'must be a list');
    const { allOf: _allOf, ...merged } = node;
    branches.forEach((branch: unknown, i) => {
      const branchPath = fieldPath(fieldPath(path, 'allOf'), i);
      const resolved = this.resolve(branch, branchPath, stack);
      const own = this.mergeAllOf(resolved.node, branchPath, resolved.stack);
      for (const [key, value] of Object.entries(own)) {
        const current = merged[key];
        if (current === undefined) merged[key] = value;
        else if (key === 'properties' && isNode(current) && isNode(value))
          merged[key] = mergeProperties(current, value, () => this.fail(fieldPath(branchPath, key), 'conflicting allOf properties cannot be merged'));
        else if (key === 'required' && Array.isArray(current) && Array.isArray(value)) merged[key] = [...new Set([...current, ...value])];
        else if (JSON.stringify(current) !== JSON.stringify(value)) this.fail(fieldPath(branchPath, key), 'conflicting allOf branches cannot be merged');
      }
    });
    return merged;
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeProperties(a: Node, b: Node, conflict: () => never): Node {
  const out: Node = { ...a };
  for (const [name, schema] of Object.entries(b)) {
    if (out[name] !== undefined && JSON.stringify(out[name]) !== JSON.stringify(schema)) conflict();
    out[name] = schema;
  }
  return out;
}

function pick(schema: GeminiSchema, keys: readonly string[]): Partial<GeminiSchema> {
  return Object.fromEntries(keys.map((key) => [key, (schema as Node)[key]]));
}

function stripUndefined(record: Partial<GeminiSchema>): Partial<GeminiSchema> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/** The Gemini types of a node: its `type` (string or list), or inferred from `properties` / `items`. */
function typesOf(node: Node, path: string, fail: (path: string, detail: string) => never): GeminiType[] {
  const raw = node['type'];
  if (raw === undefined) return node['properties'] !== undefined ? ['OBJECT'] : node['items'] !== undefined ? ['ARRAY'] : [];
  const names = Array.isArray(raw) ? raw : [raw];
  if (names.length === 0) fail(path, 'must name at least one type');
  return [
    ...new Set(
      names.map((name: unknown) => {
        const type = typeof name === 'string' ? (TYPES[name] ?? (Object.values(TYPES).includes(name as GeminiType) ? (name as GeminiType) : undefined)) : undefined;
        return type ?? fail(path, `unknown type ${JSON.stringify(name)}`);
      }),
    ),
  ];
}

/** The value a local JSON pointer (`#/$defs/Item`) designates in `root`, or `undefined`. */
function pointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let value: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Node)[key];
  }
  return value;
}
