/**
 * Type-level tests, checked by `tsc --noEmit -p .` (never run): the paths that take typed `tools`
 * besides `readToolCalls()` / `toolCalls()` — `eachToolCall`, `mergeStreams`, `tagSource`,
 * `partialToolCalls` — and the named members of `toolLoop()`'s items.
 */
import { filter, type Observable } from 'rxjs';
import * as v from 'valibot';
import { z } from 'zod';
import { partialToolCalls, type DeepPartial, type StreamEvent, type ToolCallResult, type TypedPartialToolCall } from 'rxjs-tool-calls';
import { isMerged, mergeStreams, tagSource } from 'rxjs-tool-calls/gateway';
import {
  tool,
  toolLoop,
  type InferToolRun,
  type ToolRunResult,
  type ToolLoopDone,
  type ToolLoopSteer,
  type ToolLoopEvent,
  type ToolLoopItem,
  type ToolLoopStepEnd,
  type ToolLoopStepStart,
  type ToolLoopToolCall,
  type ToolLoopToolResult,
} from 'rxjs-tool-calls/tools';
import { eachToolCall } from 'rxjs-tool-calls/async';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

declare const bytes$: Observable<Uint8Array>;
declare const events$: Observable<StreamEvent>;

const tools = {
  get_weather: z.object({ city: z.string(), days: z.number().default(1), tags: z.array(z.object({ k: z.string() })) }),
  get_time: v.object({ zone: v.string() }),
};

// ---- eachToolCall(bytes$, { tools }) -----------------------------------------------------------
export async function each(): Promise<void> {
  for await (const r of eachToolCall(bytes$, { tools, provider: 'openai-chat' })) {
    if (r.success && r.data.name === 'get_weather') {
      const days: number = r.data.arguments.days;
      void days;
      // @ts-expect-error get_weather has no `zone`
      void r.data.arguments.zone;
    }
    if (r.success && r.data.name === 'get_time') {
      const zone: string = r.data.arguments.zone;
      void zone;
    }
    // @ts-expect-error no tool is named `other`
    if (r.success && r.data.name === 'other') void 0;
  }
  // Without tools: untyped results, as before.
  for await (const r of eachToolCall(bytes$)) {
    assertType<Equal<typeof r, ToolCallResult>>();
    void r;
  }
}
// @ts-expect-error `tools` must hold Standard Schemas
eachToolCall(bytes$, { tools: { get_weather: { city: 'string' } } });

// ---- mergeStreams(…, { tools }) and tagSource(name, { tools }) ---------------------------------
mergeStreams({ a: bytes$, b: { bytes$, provider: 'anthropic' } }, { tools })
  .pipe(filter(isMerged('result')))
  .subscribe(({ source, result }) => {
    assertType<Equal<typeof source, 'a' | 'b'>>();
    void source;
    if (result.success && result.data.name === 'get_weather') {
      const city: string = result.data.arguments.city;
      void city;
      // @ts-expect-error `city` is a string
      const n: number = result.data.arguments.city;
      void n;
    }
    if (result.success) {
      // @ts-expect-error not narrowed by name
      void result.data.arguments.city;
    }
  });
mergeStreams({ a: bytes$ })
  .pipe(filter(isMerged('result')))
  .subscribe(({ result }) => {
    if (result.success) assertType<Equal<typeof result.data.arguments, unknown>>();
  });
bytes$.pipe(tagSource('x', { tools })).subscribe((item) => {
  if (item.type === 'result' && item.result.success && item.result.data.name === 'get_time') {
    const zone: string = item.result.data.arguments.zone;
    void zone;
  }
});

// ---- partialToolCalls({ tools }) ------------------------------------------------------------------
events$.pipe(partialToolCalls({ tools })).subscribe((p) => {
  assertType<Equal<typeof p, TypedPartialToolCall<typeof tools>>>();
  if (p.name === 'get_weather') {
    assertType<Equal<typeof p.arguments, DeepPartial<{ city: string; days: number; tags: Array<{ k: string }> }>>>();
    const city: string | undefined = p.arguments.city;
    const k: string | undefined = p.arguments.tags?.[0]?.k;
    void city;
    void k;
    // @ts-expect-error a field may still be missing
    const sure: string = p.arguments.city;
    void sure;
    // @ts-expect-error get_weather has no `zone`
    void p.arguments.zone;
    if (p.result?.success === true) {
      const days: number = p.result.data.arguments.days; // the result carries the schema's output, whole
      void days;
    }
  }
  if (p.name === 'get_time') {
    const zone: string | undefined = p.arguments.zone;
    void zone;
  }
});
events$.pipe(partialToolCalls()).subscribe((p) => {
  assertType<Equal<typeof p.arguments, unknown>>();
  void p;
});

// ---- toolLoop items: a union by `type` ------------------------------------------------------------
declare const request: (messages: readonly object[], step: number) => Observable<Uint8Array>;
const loopTools = {
  get_weather: tool({ schema: z.object({ city: z.string() }), execute: ({ city }) => ({ city, celsius: 21 }) }),
};
toolLoop(request, loopTools).subscribe((item) => {
  switch (item.type) {
    case 'step-start':
      assertType<Equal<typeof item, ToolLoopStepStart>>();
      break;
    case 'event':
      assertType<Equal<typeof item, ToolLoopEvent>>();
      break;
    case 'tool-call':
      assertType<Equal<typeof item, ToolLoopToolCall>>();
      if (item.result.success) assertType<Equal<typeof item.result.data.arguments, unknown>>(); // not validated yet
      break;
    case 'tool-result':
      if (item.result.success) {
        const celsius: number = item.result.data.output.celsius;
        const city: string = item.result.data.call.arguments.city;
        void celsius;
        void city;
      }
      // @ts-expect-error the call is in `result` (`result.data.call`), not on the item
      void item.call;
      break;
    case 'step-end':
      assertType<Equal<(typeof item)['results'][number], ToolRunResult<InferToolRun<typeof loopTools>>>>();
      break;
    case 'done':
      assertType<Equal<typeof item, ToolLoopDone>>();
      break;
    case 'tool-approval':
    case 'tool-progress':
    case 'paused':
      break;
    case 'steer':
      assertType<Equal<typeof item, ToolLoopSteer>>();
      break;
    default:
      assertType<Equal<typeof item, never>>();
  }
});
type Items = ToolLoopItem<{ readonly name: 'x'; readonly call: never; readonly output: 1 }>;
assertType<Equal<Items['type'], 'step-start' | 'event' | 'tool-call' | 'tool-approval' | 'tool-progress' | 'tool-result' | 'steer' | 'step-end' | 'paused' | 'done'>>();
assertType<Equal<Extract<Items, { type: 'tool-result' }>, ToolLoopToolResult<{ readonly name: 'x'; readonly call: never; readonly output: 1 }>>>();
assertType<Equal<Extract<Items, { type: 'step-end' }>, ToolLoopStepEnd<{ readonly name: 'x'; readonly call: never; readonly output: 1 }>>>();
