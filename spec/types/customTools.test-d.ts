/**
 * Type-level tests (tsc only): custom tools in the one tool vocabulary. A `customTool()` in a record
 * or an array narrows like any tool: its calls are `kind: 'custom'` with `input: string`, and their
 * `arguments` are the text (or the output of the tool's validator).
 */
import type { Observable } from 'rxjs';
import { z } from 'zod';
import { partialToolCalls, readStreamEvents, readToolCalls, type InferToolCall, type ToolsInput } from 'rxjs-tool-calls';
import { customTool, runTools, tool, toolSpecs } from 'rxjs-tool-calls/tools';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

declare const bytes$: Observable<Uint8Array>;

const weather = tool({ name: 'get_weather', schema: z.object({ city: z.string() }), execute: ({ city }) => city });
const patch = customTool({ name: 'apply_patch', description: 'Apply a patch', execute: (text) => text.length });
const lines = customTool({ name: 'count_lines', schema: z.string().transform((s) => s.split('\n')), execute: (rows) => rows.length });

const asArray = [weather, patch, lines];
const asRecord = { get_weather: weather, apply_patch: patch, count_lines: lines };

// customTool() keeps a literal name; both spellings are ToolsInput.
assertType<Equal<(typeof patch)['name'], 'apply_patch'>>();
const inputs: ToolsInput[] = [asArray, asRecord];
void inputs;

type Call = InferToolCall<typeof asArray>;
type Patch = Extract<Call, { name: 'apply_patch' }>;
type Lines = Extract<Call, { name: 'count_lines' }>;
type Weather = Extract<Call, { name: 'get_weather' }>;
assertType<Equal<Patch['kind'], 'custom'>>();
assertType<Equal<Patch['input'], string>>();
assertType<Equal<Patch['arguments'], string>>();
assertType<Equal<Lines['arguments'], string[]>>();
assertType<Equal<Weather['arguments'], { city: string }>>();
assertType<Equal<InferToolCall<typeof asRecord>, Call>>();

// Narrowing by name in readToolCalls() results.
bytes$.pipe(readToolCalls({ tools: asArray })).subscribe((r) => {
  if (!r.success) return;
  if (r.data.name === 'apply_patch') {
    const text: string = r.data.input;
    const kind: 'custom' = r.data.kind;
    void text;
    void kind;
  }
  // @ts-expect-error a JSON tool's arguments are not text
  if (r.data.name === 'get_weather') r.data.arguments.toUpperCase();
});

// partialToolCalls(): a custom call's arguments so far are its text.
bytes$.pipe(readStreamEvents(), partialToolCalls({ tools: asRecord })).subscribe((p) => {
  if (p.name === 'apply_patch') {
    const growing: string | undefined = p.arguments;
    void growing;
  }
});

// runTools() and toolSpecs() take the same tools.
bytes$.pipe(readToolCalls({ tools: asArray }), runTools(asArray)).subscribe();
const specs = toolSpecs(asArray, 'openai-responses');
void specs;
