/**
 * What every format's tool spec builder (a file of this folder) is given: one tool's name,
 * description and the JSON Schema of its arguments (already derived from its schema), and whether
 * that schema allows OpenAI's strict mode.
 *
 * @module
 */
import type { JsonSchema } from '../../providers/openaiChat/wire';
import type { CustomToolFormat } from '../../providers/openaiResponses/wire';

/** One tool, ready to be written in a format's request. */
export interface ToolSpecInput {
  /** The name the model calls the tool by. */
  readonly name: string;
  /** What the tool does, for the model; absent: no description is sent. */
  readonly description?: string | undefined;
  /** The arguments' JSON Schema (an object schema), without `$schema`. */
  readonly parameters: JsonSchema;
  /** Whether the request asks for strict schema adherence (OpenAI formats only; see {@link allowsStrict}). */
  readonly strict: boolean;
  /**
   * Set for a custom (freeform) tool: OpenAI chat and Responses write a `type: "custom"` tool with
   * its `format`; the other formats write a function whose one string parameter `input` carries the
   * text (`parameters` is that schema, see {@link customInputSchema}).
   */
  readonly custom?: { readonly format: CustomToolFormat | undefined } | undefined;
  /** Leave the tool out of the model's context until a tool search loads it (`defer_loading`: Anthropic, OpenAI Responses). */
  readonly deferLoading?: boolean | undefined;
}

/**
 * The JSON Schema a format without custom tools declares for one: an object with one string
 * `input` (the text), described by the grammar when there is one.
 */
export function customInputSchema(format: CustomToolFormat | undefined): Record<string, unknown> {
  const description = format?.type === 'grammar' ? `The input text, in this ${format.syntax} grammar:\n${format.definition}` : 'The input text.';
  return { type: 'object', properties: { input: { type: 'string', description } }, required: ['input'], additionalProperties: false };
}

const record = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether OpenAI's strict mode can take `schema` as it is: every object schema in it (at any depth,
 * also in `items`, `anyOf`, `$defs`, …) lists all of its properties in `required` and has
 * `additionalProperties: false`. Iterative (any depth without recursion), any width (members are
 * pushed one by one, never spread into a call), and each object looked at once (a shared or cyclic
 * part of a schema built in code is not walked again).
 */
export function allowsStrict(schema: JsonSchema): boolean {
  const stack: unknown[] = [schema];
  const seen = new Set<object>(); // not weak: it lives for this call only, and a Set is faster
  const pushAll = (values: readonly unknown[]): void => {
    for (const value of values) stack.push(value);
  };
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      pushAll(node as unknown[]);
      continue;
    }
    if (!record(node)) continue;
    const properties = node['properties'];
    const isObject = node['type'] === 'object' || (Array.isArray(node['type']) && (node['type'] as unknown[]).includes('object')) || record(properties);
    if (isObject) {
      if (node['additionalProperties'] !== false) return false;
      const keys = record(properties) ? Object.keys(properties) : [];
      const required = Array.isArray(node['required']) ? new Set(node['required'] as unknown[]) : new Set<unknown>();
      if (keys.some((key) => !required.has(key))) return false;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties') {
        if (record(value)) pushAll(Object.values(value));
      } else if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples' && key !== 'required') stack.push(value);
    }
  }
  return true;
}
