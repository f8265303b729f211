/**
 * Type-level tests (tsc only): one tool vocabulary. The same `tools` — a record of `tool()`
 * definitions, an array of named `tool()` definitions, or a record of bare schemas — is accepted by
 * every function that takes tools, and narrows calls by name the same way everywhere.
 */
import { filter, type Observable } from 'rxjs';
import * as v from 'valibot';
import { z } from 'zod';
import {
  chatState,
  partialObject,
  partialToolCalls,
  readStreamEvents,
  readToolCalls,
  toolCalls,
  validateResults,
  type InferToolCall,
  type StreamEvent,
  type ToolCallResult,
  type ToolsInput,
} from 'rxjs-tool-calls';
import { injectChatStream } from 'rxjs-tool-calls/angular';
import { eachToolCall } from 'rxjs-tool-calls/async';
import { isMerged, mergeStreams, tagSource } from 'rxjs-tool-calls/gateway';
import { runTools, tool, toolLoop, toolSpecs, type InferToolRun, type ToolLoopRequest } from 'rxjs-tool-calls/tools';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

declare const bytes$: Observable<Uint8Array>;
declare const events$: Observable<StreamEvent>;
declare const results$: Observable<ToolCallResult>;
declare const request: ToolLoopRequest;

const weather = z.object({ city: z.string(), days: z.number().default(1) });
const time = v.object({ zone: v.string() });

// The three spellings of the same two tools.
const asTools = {
  get_weather: tool({ description: 'Weather in a city', schema: weather, execute: ({ city, days }) => ({ city, days, temperature: 21 }) }),
  get_time: tool({ schema: time, execute: ({ zone }) => `12:00 ${zone}` }),
};
const asArray = [
  tool({ name: 'get_weather', description: 'Weather in a city', schema: weather, execute: ({ city, days }) => ({ city, days, temperature: 21 }) }),
  tool({ name: 'get_time', schema: time, execute: ({ zone }) => `12:00 ${zone}` }),
];
const asSchemas = { get_weather: weather, get_time: time };

type Weather = { city: string; days: number };
type Time = { zone: string };
type Expected = { name: 'get_weather'; arguments: Weather } | { name: 'get_time'; arguments: Time };
type Shape<C> = C extends { name: infer N; arguments: infer A } ? { name: N; arguments: A } : never;

// ---- tool() keeps a literal name; each spelling is a ToolsInput with the same calls -------------
assertType<Equal<(typeof asArray)[number]['name'], 'get_weather' | 'get_time'>>();
assertType<Equal<NonNullable<(typeof asTools)['get_weather']['name']>, string>>();
const inputs: ToolsInput[] = [asTools, asArray, asSchemas];
void inputs;
assertType<Equal<Shape<InferToolCall<typeof asTools>>, Expected>>();
assertType<Equal<Shape<InferToolCall<typeof asArray>>, Expected>>();
assertType<Equal<Shape<InferToolCall<typeof asSchemas>>, Expected>>();

// A tool without a schema: known by name, arguments unknown.
const mixed = { get_weather: weather, ping: tool({ execute: () => 'pong' }), get_time: tool({ schema: time }) };
assertType<Equal<Shape<InferToolCall<typeof mixed>>, Expected | { name: 'ping'; arguments: unknown }>>();
// An array of tools whose names are not literals still reads, without narrowing.
declare const _named: Array<ReturnType<typeof tool> & { readonly name: string }>;
assertType<Equal<InferToolCall<typeof _named>['name'], string>>();

// Not a vocabulary: a plain object, an array entry without a name.
// @ts-expect-error a plain object is neither a schema nor a tool
readToolCalls({ tools: { get_weather: { city: 'string' } } });
// @ts-expect-error a tool in an array needs a name
readToolCalls({ tools: [tool({ schema: weather })] });

// ---- readToolCalls, toolCalls, validateResults, eachToolCall ---------------------------------------
function checkResults(r: ToolCallResult<InferToolCall<typeof asTools>>): void {
  if (r.success && r.data.name === 'get_weather') {
    const days: number = r.data.arguments.days;
    void days;
    // @ts-expect-error get_weather has no `zone`
    void r.data.arguments.zone;
  }
  // @ts-expect-error no tool is named `other`
  if (r.success && r.data.name === 'other') void 0;
}
bytes$.pipe(readToolCalls({ tools: asTools })).subscribe(checkResults);
bytes$.pipe(readToolCalls({ tools: asArray })).subscribe(checkResults);
bytes$.pipe(readToolCalls({ tools: asSchemas })).subscribe(checkResults);
events$.pipe(toolCalls({ tools: asTools })).subscribe(checkResults);
events$.pipe(toolCalls({ tools: asArray })).subscribe(checkResults);
events$.pipe(toolCalls({ tools: asSchemas })).subscribe(checkResults);
results$.pipe(validateResults(asTools)).subscribe(checkResults);
results$.pipe(validateResults(asArray)).subscribe(checkResults);
results$.pipe(validateResults(asSchemas)).subscribe(checkResults);
// Narrowing inside the callback, with an array.
bytes$.pipe(readToolCalls({ tools: asArray })).subscribe((r) => {
  if (r.success && r.data.name === 'get_time') {
    const zone: string = r.data.arguments.zone;
    void zone;
    // @ts-expect-error get_time has no `city`
    void r.data.arguments.city;
  }
});
async function iterate(): Promise<void> {
  for await (const r of eachToolCall(bytes$, { tools: asTools })) checkResults(r);
  for await (const r of eachToolCall(bytes$, { tools: asArray })) checkResults(r);
  for await (const r of eachToolCall(bytes$, { tools: asSchemas })) checkResults(r);
}
void iterate;

// ---- partialToolCalls, chatState ---------------------------------------------------------------------
events$.pipe(partialToolCalls({ tools: asArray })).subscribe((p) => {
  if (p.name === 'get_weather') {
    const city: string | undefined = p.arguments.city;
    void city;
    if (p.result?.success) {
      const days: number = p.result.data.arguments.days;
      void days;
    }
    // @ts-expect-error get_weather has no `zone`
    void p.arguments.zone;
  }
  // @ts-expect-error no tool is named `other`
  if (p.name === 'other') void 0;
});
events$.pipe(partialToolCalls({ tools: asTools })).subscribe((p) => {
  if (p.name === 'get_time') void p.arguments.zone?.toUpperCase();
});
events$.pipe(partialToolCalls({ tools: asSchemas })).subscribe((p) => {
  if (p.name === 'get_time') void p.arguments.zone?.toUpperCase();
});
for (const state$ of [events$.pipe(chatState({ tools: asTools })), events$.pipe(chatState({ tools: asArray })), events$.pipe(chatState({ tools: asSchemas }))]) {
  state$.subscribe((state) => {
    for (const call of state.calls) {
      if (call.name === 'get_weather') {
        const city: string | undefined = call.partialArguments.city;
        void city;
        // @ts-expect-error get_weather has no `zone`
        void call.partialArguments.zone;
      }
    }
  });
}
bytes$.pipe(readStreamEvents(), chatState({ tools: mixed })).subscribe((state) => {
  for (const call of state.calls) {
    // @ts-expect-error ping has no schema: its arguments are unknown
    if (call.name === 'ping') void call.partialArguments.anything;
  }
});

// injectChatStream takes chatState's tools (never called here: it needs an injection context).
function chatComponent(): void {
  const chat = injectChatStream({ url: '/api/chat', tools: asArray });
  for (const call of chat.state()?.calls ?? []) {
    if (call.name === 'get_time') void call.partialArguments.zone?.toUpperCase();
    // @ts-expect-error get_time has no `city`
    if (call.name === 'get_time') void call.partialArguments.city;
  }
}
void chatComponent;

// ---- partialObject: fromTool takes the tool itself, and its schema types the document ---------------
const answer = tool({ name: 'answer', description: 'The answer', schema: z.object({ title: z.string(), tags: z.array(z.string()) }) });
events$.pipe(partialObject({ fromTool: answer })).subscribe((u) => {
  const title: string | undefined = u.value?.title;
  void title;
  if (u.type === 'result' && u.result.success) {
    const tags: string[] = u.result.data.tags;
    void tags;
  }
  // @ts-expect-error the answer has no `city`
  void u.value?.city;
});
events$.pipe(partialObject({ fromTool: 'answer' })).subscribe((u) => {
  assertType<Equal<typeof u.value, unknown>>();
  void u;
});

// ---- mergeStreams, tagSource -----------------------------------------------------------------------
for (const items$ of [mergeStreams({ a: bytes$, b: bytes$ }, { tools: asTools }), mergeStreams({ a: bytes$, b: bytes$ }, { tools: asArray }), mergeStreams({ a: bytes$ }, { tools: asSchemas })]) {
  items$.pipe(filter(isMerged('result'))).subscribe(({ result }) => {
    if (result.success && result.data.name === 'get_weather') void result.data.arguments.city.toUpperCase();
    // @ts-expect-error no tool is named `other`
    if (result.success && result.data.name === 'other') void 0;
  });
}
bytes$.pipe(tagSource('a', { tools: asArray })).subscribe((item) => {
  if (item.type === 'result' && item.result.success && item.result.data.name === 'get_time') void item.result.data.arguments.zone.toUpperCase();
});

// ---- runTools, toolLoop, toolSpecs: the record and the array, one run type ---------------------------
type Run = InferToolRun<typeof asTools>;
assertType<Equal<InferToolRun<typeof asArray>, Run>>();
assertType<Equal<Extract<Run, { name: 'get_weather' }>['output'], { city: string; days: number; temperature: number }>>();
results$.pipe(runTools(asArray)).subscribe((run) => {
  if (run.success && run.data.name === 'get_weather') {
    const temperature: number = run.data.output.temperature;
    void temperature;
  }
  if (run.success && run.data.name === 'get_time') {
    const out: string = run.data.output;
    void out;
  }
});
results$.pipe(runTools(asTools)).subscribe((run) => {
  if (run.success && run.data.name === 'get_time') void run.data.output.toUpperCase();
});
// @ts-expect-error schemas alone cannot run
results$.pipe(runTools(asSchemas));
toolLoop(request, asArray, { format: 'anthropic' }).subscribe((item) => {
  if (item.type === 'tool-result' && item.result.success && item.result.data.name === 'get_weather') void item.result.data.output.temperature.toFixed();
});
toolLoop(request, asTools).subscribe((item) => {
  if (item.type === 'tool-result' && item.result.success && item.result.data.name === 'get_time') void item.result.data.output.toUpperCase();
});
void toolSpecs(asTools, 'openai-chat');
void toolSpecs(asArray, 'anthropic');
void toolSpecs(asSchemas, 'gemini');
void toolSpecs(mixed, 'openai-responses');
