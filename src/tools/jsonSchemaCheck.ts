/**
 * A Standard Schema that checks a value against a JSON Schema given as data (an MCP tool's
 * `inputSchema`): the keywords that decide a tool call's shape — `type`, `properties`, `required`,
 * `additionalProperties`, `items`, `enum`, `const`, `anyOf` / `oneOf` / `allOf`, and the bounds
 * `minimum` / `maximum` / `exclusiveMinimum` / `exclusiveMaximum`, `minLength` / `maxLength`,
 * `minItems` / `maxItems`. Other keywords (`$ref`, `pattern`, `format`, …) are not checked here:
 * the server that owns the schema checks the call again.
 *
 * @module
 */
import type { StandardSchemaV1 } from '../parse/standardSchema';

type Issue = StandardSchemaV1.Issue;
type Schema = { readonly [keyword: string]: unknown };

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON type name of a parsed JSON value (`integer` is checked apart). */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return isRecord(value);
    default:
      return typeOf(value) === type;
  }
}

/** Deep equality of JSON values (for `enum` and `const`). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return false;
}

const bound = (schema: Schema, key: string): number | undefined => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);

/** The issues of `value` against `schema`, each with its path (the value's keys from the root). */
function check(value: unknown, schema: unknown, path: PropertyKey[], issues: Issue[]): void {
  if (schema === false) {
    issues.push({ message: 'No value is allowed here', path: [...path] });
    return;
  }
  if (!isRecord(schema)) return;
  const fail = (message: string): void => void issues.push({ message, path: [...path] });
  const { type } = schema;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (!types.some((t) => hasType(value, t))) return fail(`Expected ${types.join(' or ')}, received ${typeOf(value)}`);
  }
  if (Array.isArray(schema['enum']) && !schema['enum'].some((option) => sameJson(option, value))) fail(`Expected one of ${JSON.stringify(schema['enum'])}`);
  if ('const' in schema && !sameJson(schema['const'], value)) fail(`Expected ${JSON.stringify(schema['const'])}`);
  if (typeof value === 'number') {
    const [min, max, xmin, xmax] = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].map((key) => bound(schema, key));
    if (min !== undefined && value < min) fail(`Expected a number ≥ ${min}`);
    if (max !== undefined && value > max) fail(`Expected a number ≤ ${max}`);
    if (xmin !== undefined && value <= xmin) fail(`Expected a number > ${xmin}`);
    if (xmax !== undefined && value >= xmax) fail(`Expected a number < ${xmax}`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    const [min, max] = ['minLength', 'maxLength'].map((key) => bound(schema, key));
    if (min !== undefined && length < min) fail(`Expected at least ${min} characters`);
    if (max !== undefined && length > max) fail(`Expected at most ${max} characters`);
  }
  if (Array.isArray(value)) {
    const [min, max] = ['minItems', 'maxItems'].map((key) => bound(schema, key));
    if (min !== undefined && value.length < min) fail(`Expected at least ${min} items`);
    if (max !== undefined && value.length > max) fail(`Expected at most ${max} items`);
    if (schema['items'] !== undefined && !Array.isArray(schema['items'])) value.forEach((item, i) => check(item, schema['items'], [...path, i], issues));
  }
  if (isRecord(value)) {
    const properties = isRecord(schema['properties']) ? schema['properties'] : {};
    if (Array.isArray(schema['required'])) for (const key of schema['required']) if (typeof key === 'string' && !Object.hasOwn(value, key)) issues.push({ message: 'Required', path: [...path, key] });
    const extra = schema['additionalProperties'];
    for (const [key, item] of Object.entries(value)) {
      if (Object.hasOwn(properties, key)) check(item, properties[key], [...path, key], issues);
      else if (extra === false) issues.push({ message: `Unexpected property ${JSON.stringify(key)}`, path: [...path, key] });
      else if (isRecord(extra)) check(item, extra, [...path, key], issues);
    }
  }
  if (Array.isArray(schema['allOf'])) for (const part of schema['allOf']) check(value, part, path, issues);
  const passing = (options: readonly unknown[]): number => options.filter((option) => issuesOf(value, option, path).length === 0).length;
  if (Array.isArray(schema['anyOf']) && passing(schema['anyOf']) === 0) fail('Expected a value matching one of the schemas (anyOf)');
  if (Array.isArray(schema['oneOf']) && passing(schema['oneOf']) !== 1) fail('Expected a value matching exactly one of the schemas (oneOf)');
}

function issuesOf(value: unknown, schema: unknown, path: PropertyKey[] = []): Issue[] {
  const issues: Issue[] = [];
  check(value, schema, path, issues);
  return issues;
}

/**
 * A Standard Schema (vendor `rxjs-tool-calls`) that passes a value matching `schema` unchanged and
 * reports every mismatch found with its path.
 */
export function jsonSchemaCheck(schema: Schema): StandardSchemaV1<Readonly<Record<string, unknown>>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'rxjs-tool-calls',
      validate: (value) => {
        const issues = issuesOf(value, schema);
        return issues.length === 0 ? { value: value as Readonly<Record<string, unknown>> } : { issues };
      },
    },
  };
}
