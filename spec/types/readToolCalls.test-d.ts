// Type-level tests, checked by `tsc --noEmit` (npm run typecheck): typed tools narrow by name.
import type { Observable } from 'rxjs';
import { z } from 'zod';
import { readToolCalls, type StreamEvent, toolCalls } from 'rxjs-tool-calls';

declare const bytes$: Observable<Uint8Array>;
declare const events$: Observable<StreamEvent>;

const tools = {
  get_weather: z.object({ city: z.string(), days: z.number().optional() }),
  send_email: z.object({ to: z.array(z.string()), body: z.string() }),
};

bytes$.pipe(readToolCalls({ tools })).subscribe((r) => {
  if (r.success && r.data.name === 'get_weather') {
    const city: string = r.data.arguments.city;
    const days: number | undefined = r.data.arguments.days;
    void city;
    void days;
    // @ts-expect-error get_weather has no `to`
    void r.data.arguments.to;
  }
  if (r.success && r.data.name === 'send_email') {
    const first: string | undefined = r.data.arguments.to[0];
    void first;
    // @ts-expect-error `body` is a string, not a number
    const n: number = r.data.arguments.body;
    void n;
  }
  if (r.success) {
    // @ts-expect-error no tool is named `other`
    if (r.data.name === 'other') void 0;
  }
  if (!r.success) {
    const code: 'malformed-arguments' | 'incomplete' | 'missing-name' | 'invalid-arguments' | 'unknown-tool' | 'arguments-too-large' | 'missing-tool-calls' = r.error.code;
    void code;
  }
});

events$.pipe(toolCalls({ tools })).subscribe((r) => {
  if (r.success && r.data.name === 'send_email') void r.data.arguments.body.toUpperCase();
});

// Without tools the arguments are unknown.
bytes$.pipe(readToolCalls()).subscribe((r) => {
  // @ts-expect-error arguments are unknown without schemas
  if (r.success) void r.data.arguments.city;
});
