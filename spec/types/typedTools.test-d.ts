/**
 * Type-level tests, checked by `tsc --noEmit -p .` (never run): inference of typed tool calls from
 * Standard Schema validators, and that wrong accesses do not compile.
 */
import * as v from 'valibot';
import { z } from 'zod';
import type { InferToolCall, StandardSchemaV1, ToolCallContext, ToolSchemas, TypedToolCallResult } from 'rxjs-tool-calls';
import { validateArguments, validateToolCall } from 'rxjs-tool-calls/advanced';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

const tools = {
  get_weather: z.object({ city: z.string(), days: z.number().default(1) }),
  get_time: v.object({ zone: v.string(), precise: v.optional(v.boolean()) }),
} satisfies ToolSchemas;

// Zod and Valibot schemas are Standard Schemas.
const zodSchema: StandardSchemaV1<unknown, unknown> = tools.get_weather;
const valibotSchema: StandardSchemaV1<unknown, unknown> = tools.get_time;
void zodSchema;
void valibotSchema;

type Call = InferToolCall<typeof tools>;
assertType<Equal<Call['name'], 'get_weather' | 'get_time'>>();
assertType<Equal<Extract<Call, { name: 'get_weather' }>['arguments'], { city: string; days: number }>>();
assertType<Equal<Extract<Call, { name: 'get_time' }>['arguments'], { zone: string; precise?: boolean | undefined }>>();

declare const result: TypedToolCallResult<typeof tools>;

// Narrowing by success, then by name, types the arguments with no casts.
if (result.success && result.data.name === 'get_weather') {
  const city: string = result.data.arguments.city;
  const days: number = result.data.arguments.days;
  void city;
  void days;
  // @ts-expect-error get_weather has no `zone`
  void result.data.arguments.zone;
}
if (result.success && result.data.name === 'get_time') {
  const zone: string = result.data.arguments.zone;
  void zone;
  // @ts-expect-error get_time has no `city`
  void result.data.arguments.city;
}
if (result.success) {
  // @ts-expect-error not narrowed by name: `city` is not on every call
  void result.data.arguments.city;
  // @ts-expect-error not a tool of this set
  if (result.data.name === 'get_stock') void 0;
}
if (!result.success) {
  const code: 'malformed-arguments' | 'incomplete' | 'missing-name' | 'invalid-arguments' | 'unknown-tool' | 'arguments-too-large' | 'missing-tool-calls' = result.error.code;
  void code;
  // @ts-expect-error no data on a failure
  void result.data.name;
}

// validateArguments infers the schema's output.
declare const context: ToolCallContext;
const checked = validateArguments(tools.get_weather, {}, context);
if (!(checked instanceof Promise) && checked.success) {
  const days: number = checked.data.days;
  void days;
  // @ts-expect-error `days` is a number
  const wrong: string = checked.data.days;
  void wrong;
}

// validateToolCall returns the typed result.
declare const anyCall: Parameters<typeof validateToolCall>[1];
const typed = validateToolCall(tools, anyCall);
void typed;
assertType<Equal<typeof typed, TypedToolCallResult<typeof tools> | Promise<TypedToolCallResult<typeof tools>>>>();

// A schema map must hold Standard Schemas.
// @ts-expect-error a plain object is not a schema
const notSchemas: ToolSchemas = { get_weather: { city: 'string' } };
void notSchemas;
