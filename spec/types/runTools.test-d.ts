/**
 * Type-level tests of `runTools()` / `tool()`, checked by `tsc --noEmit -p .` (never run).
 */
import { Observable, of, type OperatorFunction } from 'rxjs';
import * as v from 'valibot';
import { z } from 'zod';
import type { ToolCallResult } from 'rxjs-tool-calls';
import { type InferToolRun, runTools, tool, type ToolRunResult } from 'rxjs-tool-calls/tools';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

const tools = {
  get_weather: tool({
    schema: z.object({ city: z.string(), days: z.number().default(1) }),
    execute: async ({ city, days }, { signal, call }) => {
      const s: AbortSignal = signal;
      const id: string = call.id;
      const c: string = call.arguments.city;
      void s;
      void id;
      void c;
      // @ts-expect-error get_weather has no `zone`
      void call.arguments.zone;
      return { city, temperature: 21 * days };
    },
  }),
  get_time: tool({
    schema: v.object({ zone: v.string() }),
    execute: ({ zone }) => of(`12:00 ${zone}`),
  }),
  ping: tool({ execute: (args) => args }),
  inline: {
    execute: (args: unknown) => String(args),
  },
};

// execute's arguments come from the schema's output type.
tool({
  schema: z.object({ q: z.string() }),
  // @ts-expect-error `q` is a string
  execute: ({ q }) => q * 2,
});
tool({
  schema: z.object({ q: z.string() }),
  // @ts-expect-error no `nope` on the arguments
  execute: (args) => args.nope,
});
// Without a schema the arguments are unknown.
tool({
  // @ts-expect-error `args` is unknown
  execute: (args) => args.city,
});
// Inline tools (no helper) get unknown arguments too.
runTools({
  x: {
    // @ts-expect-error `args` is unknown
    execute: (args) => args.city,
  },
});

type Run = InferToolRun<typeof tools>;
assertType<Equal<Run['call']['name'], 'get_weather' | 'get_time' | 'ping' | 'inline'>>();
assertType<Equal<Extract<Run, { call: { name: 'get_weather' } }>['output'], { city: string; temperature: number }>>();
assertType<Equal<Extract<Run, { call: { name: 'get_weather' } }>['call']['arguments'], { city: string; days: number }>>();
assertType<Equal<Extract<Run, { call: { name: 'get_time' } }>['output'], string>>();
assertType<Equal<Extract<Run, { call: { name: 'ping' } }>['output'], unknown>>();
assertType<Equal<Extract<Run, { call: { name: 'inline' } }>['output'], string>>();

const operator: OperatorFunction<ToolCallResult, ToolRunResult<Run>> = runTools(tools, { concurrency: 2, timeoutMs: 1000, failFast: false });
void operator;

declare const result: ToolRunResult<Run>;
if (result.success) {
  if (result.data.name === 'get_weather') {
    const temperature: number = result.data.output.temperature;
    const city: string = result.data.call.arguments.city;
    void temperature;
    void city;
    // @ts-expect-error get_weather's output has no `zone`
    void result.data.output.zone;
  }
  // @ts-expect-error not narrowed by name
  void result.data.output.temperature;
  // @ts-expect-error no `call` beside `data` on a success
  const c: string = result.call.id;
  void c;
} else {
  const code:
    'malformed-arguments' | 'incomplete' | 'missing-name' | 'invalid-arguments' | 'unknown-tool' | 'arguments-too-large' | 'missing-tool-calls' | 'tool-failed' | 'tool-timeout' | 'tool-denied' =
    result.error.code;
  const id: string = result.error.toolCall.id;
  const maybeCall: string | undefined = result.call?.name;
  void code;
  void id;
  void maybeCall;
  // @ts-expect-error no data on a failure
  void result.data.call;
}

// An Observable-returning tool's output is the observable's value type.
const _obs = tool({ execute: () => new Observable<number>() });
assertType<Equal<InferToolRun<{ obs: typeof _obs }>['output'], number>>();
