/**
 * The schema Gemini's function declarations accept (a subset of OpenAPI 3.0), and the options and
 * drop reports of `toGeminiSchema()`: types only, shared by the conversion (`schemaConverter.ts`)
 * and its entry (`schema.ts`) without either importing the other's module back.
 *
 * @module
 */

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
