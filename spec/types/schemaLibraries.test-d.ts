/**
 * Type-level tests (tsc only): zod 3.25 (classic root, `zod3` alias), zod 4 and valibot schemas all
 * type tools the same way.
 */
import type { Observable } from 'rxjs';
import * as v from 'valibot';
import { z as z4 } from 'zod';
import { z as z3 } from 'zod3';
import { readToolCalls, type StandardSchemaV1, type ToolSchemas } from 'rxjs-tool-calls';
import { tool } from 'rxjs-tool-calls/tools';

declare const bytes$: Observable<Uint8Array>;

const tools = {
  v3: z3.object({ city: z3.string(), days: z3.number().default(1) }),
  v4: z4.object({ city: z4.string(), days: z4.number().default(1) }),
  vb: v.object({ city: v.string(), days: v.optional(v.number(), 1) }),
} satisfies ToolSchemas;
const asStandard: StandardSchemaV1 = tools.v3;
void asStandard;

bytes$.pipe(readToolCalls({ tools })).subscribe((r) => {
  if (r.success && (r.data.name === 'v3' || r.data.name === 'v4' || r.data.name === 'vb')) {
    const city: string = r.data.arguments.city;
    const days: number = r.data.arguments.days;
    void city;
    void days;
    // @ts-expect-error no `zone` in any of them
    void r.data.arguments.zone;
  }
});

tool({
  schema: z3.object({ q: z3.string() }),
  execute: ({ q }) => q.length,
});
tool({
  schema: z3.object({ q: z3.string() }),
  // @ts-expect-error `q` is a string (zod 3 inference)
  execute: ({ q }) => q * 2,
});
