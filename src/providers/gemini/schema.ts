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
import type { GeminiSchema, GeminiSchemaOptions } from './geminiSchema';
import { Converter } from './schemaConverter';

export type { GeminiSchema, GeminiSchemaDrop, GeminiSchemaOptions, GeminiType } from './geminiSchema';

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
