/**
 * JSON Schema → the OpenAPI 3.0 subset Gemini's `functionDeclarations[].parameters` accept.
 *
 * Gemini parses `parameters` as its `Schema` message and answers 400 for any field it does not
 * know (`Unknown name "additionalProperties"`, `"$schema"`, `"$ref"`, `"const"`,
 * `"exclusiveMinimum"`, …). {@link toGeminiSchema} keeps what that message has, rewrites what
 * has an equivalent, inlines local references, and drops the rest (reporting each drop).
 *
 * @module
 */
import { Converter } from './schemaConverter';

/** Gemini's schema types. */
export type GeminiType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';

/** The schema Gemini's function declarations accept (a subset of OpenAPI 3.0). */
export interface GeminiSchema {
  /** The value's type (absent: any). */
  type?: GeminiType;
  /** A format hint (`date-time`, `enum`, `int32`, `int64`, `float`, `double`). */
  format?: string;
  /** A title. */
  title?: string;
  /** What the value means, for the model. */
  description?: string;
  /** The value may also be `null`. */
  nullable?: boolean;
  /** The allowed values, as strings. */
  enum?: string[];
  /** A default value. */
  default?: unknown;
  /** An example value. */
  example?: unknown;
  /** The schema of an array's items. */
  items?: GeminiSchema;
  /** The fewest array items. */
  minItems?: number;
  /** The most array items. */
  maxItems?: number;
  /** An object's properties. */
  properties?: { [name: string]: GeminiSchema };
  /** The properties an object must have. */
  required?: string[];
  /** The order properties are generated in. */
  propertyOrdering?: string[];
  /** The fewest properties. */
  minProperties?: number;
  /** The most properties. */
  maxProperties?: number;
  /** The shortest string. */
  minLength?: number;
  /** The longest string. */
  maxLength?: number;
  /** A regular expression strings must match. */
  pattern?: string;
  /** The smallest number (inclusive). */
  minimum?: number;
  /** The largest number (inclusive). */
  maximum?: number;
  /** The value matches at least one of these. */
  anyOf?: GeminiSchema[];
}

/** One keyword {@link toGeminiSchema} left out. */
export interface GeminiSchemaDrop {
  /** The JSON path of the keyword (e.g. `'tools[0].function.parameters.properties.tags.uniqueItems'`). */
  readonly path: string;
  /** The keyword (e.g. `'additionalProperties'`). */
  readonly keyword: string;
  /** Why, e.g. `'Gemini schemas have no additionalProperties'`. */
  readonly reason: string;
}

/** Options of {@link toGeminiSchema}. */
export interface GeminiSchemaOptions {
  /** The schema's JSON path in the request, prefixed to the paths of errors and drops. Default `''`. */
  readonly path?: string;
  /** Called for every keyword left out. Default: nothing (throw from it to refuse a lossy conversion). */
  readonly onDrop?: (drop: GeminiSchemaDrop) => void;
  /**
   * The deepest nesting accepted, in JSON levels (an object or array is one level, the schema itself
   * level 1), both in the schema given and in the schema written once references are inlined.
   * Deeper throws `unsupported-request`. A whole number from 1 to 1,024; default 512.
   */
  readonly maxDepth?: number;
}

/**
 * Convert a JSON Schema (draft 7 / 2020-12, or OpenAPI 3.0) into the schema Gemini's function
 * declarations accept.
 *
 * 1. Kept: `type` (as Gemini's upper-case names), `title`, `description`, `default`, `example`,
 *    `nullable`, `enum`, `format` (the ones Gemini accepts), `properties`, `required`,
 *    `propertyOrdering`, `min/maxProperties`, `items`, `min/maxItems`, `min/maxLength`,
 *    `pattern`, `minimum`, `maximum`, `anyOf`.
 * 2. Rewritten: `const` → a one-value `enum`; enum numbers and booleans → strings; `null` in a
 *    `type` list, an `enum` or an `anyOf` branch → `nullable: true`; a `type` list → `anyOf`;
 *    `oneOf` → `anyOf`; `allOf` → merged into one schema; `exclusiveMinimum` /
 *    `exclusiveMaximum` → `minimum` / `maximum` (exact for integers, inclusive for numbers,
 *    reported); local `$ref` (`#/$defs/…`, `#/definitions/…`, any `#/…` pointer) → inlined.
 * 3. Dropped and reported to `onDrop`: every other keyword (`$schema`, `$id`,
 *    `additionalProperties`, `uniqueItems`, `multipleOf`, `not`, `if`, `patternProperties`,
 *    `examples`, unsupported formats, type-specific keywords on another type, …).
 * 4. Throws `unsupported-request` (target `gemini`, naming the keyword) for what has no
 *    equivalent: a recursive or non-local `$ref`, a tuple (`prefixItems`, array `items`), a
 *    `false` schema, conflicting `allOf` branches, object or array enum values.
 * 5. Hostile schemas end with `unsupported-request` too, never a stack overflow or a raw
 *    `TypeError` / `URIError`: a schema (given, or once inlined) nested deeper than `maxDepth`
 *    (default 512 levels); more than 10,000 units of work (each schema node written, `$ref` hop
 *    followed, key merged from an `allOf` branch and JSON value of an inlined `default` /
 *    `example` is one); a `$ref` with a bad %-escape; a type name that is not a JSON Schema type
 *    (`"constructor"`). A `$ref` chain costs one step per hop.
 *
 * @example
 * ```ts
 * import { toGeminiSchema } from 'rxjs-tool-calls';
 *
 * console.log(toGeminiSchema({ type: 'object', properties: { unit: { const: 'celsius' } }, additionalProperties: false }));
 * // displays: { type: 'OBJECT', properties: { unit: { enum: ['celsius'] } } }
 * ```
 *
 * @param schema The JSON Schema (a `false` schema throws, `true` is `{}`).
 * @param options `path` (for errors and drops), `onDrop` and `maxDepth`.
 * @return A new schema; the input is not modified.
 */
export function toGeminiSchema(schema: Readonly<Record<string, unknown>> | boolean, options: GeminiSchemaOptions = {}): GeminiSchema {
  return new Converter(schema, options).run();
}
