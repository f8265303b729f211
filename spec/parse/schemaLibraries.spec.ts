/**
 * Typed tools with every schema library the peer range promises: zod 3.25 (its classic root, under
 * the `zod3` alias), zod 4 and valibot, through `readToolCalls({ tools })` and `runTools()`.
 */
import { from, lastValueFrom, of, toArray } from 'rxjs';
import * as v from 'valibot';
import { z as z4 } from 'zod';
import { z as z3 } from 'zod3';
import { readToolCalls, type StandardSchemaV1, type ToolSchemas } from 'rxjs-tool-calls';
import { runTools, tool } from 'rxjs-tool-calls/tools';
import { openaiChunk, openaiDone } from '../../marbles/wire';

const wire = (args: string): string[] => [
  openaiChunk({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '' }] }),
  openaiChunk({ toolCalls: [{ index: 0, arguments: args }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiDone(),
];

const libraries: Array<[string, StandardSchemaV1]> = [
  ['zod 3.25', z3.object({ city: z3.string(), days: z3.number().default(1) })],
  ['zod 4', z4.object({ city: z4.string(), days: z4.number().default(1) })],
  ['valibot', v.object({ city: v.string(), days: v.optional(v.number(), 1) })],
];

describe.each(libraries)('typed tools with %s', (_name, schema) => {
  const tools: ToolSchemas = { get_weather: schema };

  it('readToolCalls({ tools }) gives the schema output (default applied)', async () => {
    const results = await lastValueFrom(from(wire('{"city":"Oslo"}')).pipe(readToolCalls({ tools }), toArray()));
    expect(results).toEqual([{ success: true, data: expect.objectContaining({ name: 'get_weather', arguments: { city: 'Oslo', days: 1 } }) }]);
  });

  it('readToolCalls({ tools }) reports invalid arguments with the issue path', async () => {
    const results = await lastValueFrom(from(wire('{"city":5}')).pipe(readToolCalls({ tools }), toArray()));
    const [result] = results;
    expect(result?.success).toBe(false);
    if (result?.success === false && result.error.code === 'invalid-arguments') expect(result.error.issues.map((i) => i.path)).toEqual([['city']]);
    else throw new Error(`expected invalid-arguments, got ${JSON.stringify(result)}`);
  });

  it('runTools() runs a tool() defined with it', async () => {
    const runs = await lastValueFrom(from(wire('{"city":"Rome"}')).pipe(readToolCalls(), runTools({ get_weather: tool({ schema, execute: (args) => of(args) }) }), toArray()));
    expect(runs.map((r) => (r.success ? r.data.output : r.error.code))).toEqual([{ city: 'Rome', days: 1 }]);
  });
});
