/**
 * Every public function (and class) with an options argument checks it when it is made: a key it
 * does not take is an `invalid-option` error naming the function and the key, never a default taken
 * silently. The functions are found from the entries' TypeScript signatures (a parameter named
 * `options`, or a last parameter of an object type with optional properties: `tool(definition)`,
 * `sseEvent(fields)`), then the real ones are called with `{ __notAnOption: 1 }` in that place. A
 * function found here must be in {@link CALLS}, with the other arguments it needs, so a new one is
 * never left out; a few take data, not options, and say so.
 */
import path from 'node:path';
import { NEVER } from 'rxjs';
import ts from 'typescript';

// Angular's packages are ESM only (jest runs CommonJS): stand-ins for the names the angular entry
// imports. None is reached here: `injectChatStream()` checks its options before anything else.
jest.mock('@angular/core', () => ({ assertInInjectionContext: jest.fn(), DestroyRef: class {}, inject: jest.fn(), Injector: class {}, signal: jest.fn() }));
jest.mock('@angular/common/http', () => ({ HttpClient: class {} }));

const root = path.resolve(__dirname, '../..');

const ENTRIES = {
  'rxjs-tool-calls': 'src/index.ts',
  'rxjs-tool-calls/advanced': 'src/advanced.ts',
  'rxjs-tool-calls/async': 'src/async.ts',
  'rxjs-tool-calls/marbles': 'marbles/index.ts',
  'rxjs-tool-calls/gateway': 'src/gateway/index.ts',
  'rxjs-tool-calls/tools': 'src/tools/index.ts',
  'rxjs-tool-calls/text': 'src/text/index.ts',
  'rxjs-tool-calls/sdk': 'src/sdk/index.ts',
  'rxjs-tool-calls/angular': 'src/angular/index.ts',
  'rxjs-tool-calls/websocket': 'src/websocket/index.ts',
} as const;

type Entry = keyof typeof ENTRIES;

/** Where the bad options go among the arguments. */
const BAD = Symbol('the options');

/** How to call a function found: its arguments (`BAD` where the options go), or why it takes data, not options. */
type Call = { readonly args: readonly unknown[]; readonly construct?: true } | { readonly data: string };

const chatRequest = { model: 'm', messages: [] };
const anthropicRequest = { model: 'm', max_tokens: 1, messages: [] };
const http = { request: () => NEVER };

/** Every function with an options argument, by `entry:name`. */
const CALLS: Readonly<Record<string, Call>> = {
  'rxjs-tool-calls:fromResponse': { args: [new Response(''), BAD] },
  'rxjs-tool-calls:responseBody': { args: [BAD] },
  'rxjs-tool-calls:readToolCalls': { args: [BAD] },
  'rxjs-tool-calls:readStreamEvents': { args: [BAD] },
  'rxjs-tool-calls:decodeSse': { args: [BAD] },
  'rxjs-tool-calls:decodeAwsEventStream': { args: [BAD] },
  'rxjs-tool-calls:decodeNdjson': { args: [BAD] },
  'rxjs-tool-calls:decodeJsonArray': { args: [BAD] },
  'rxjs-tool-calls:accumulateToolCalls': { args: [BAD] },
  'rxjs-tool-calls:groupToolCalls': { args: [BAD] },
  'rxjs-tool-calls:toolCalls': { args: [BAD] },
  'rxjs-tool-calls:partialToolCalls': { args: [BAD] },
  'rxjs-tool-calls:partialObject': { args: [BAD] },
  'rxjs-tool-calls:chatState': { args: [BAD] },
  'rxjs-tool-calls:retryStream': { args: [() => NEVER, BAD] },
  'rxjs-tool-calls/advanced:SseParser': { args: [BAD], construct: true },
  'rxjs-tool-calls/advanced:EventStreamParser': { args: [BAD], construct: true },
  'rxjs-tool-calls/advanced:NdjsonParser': { args: [BAD], construct: true },
  'rxjs-tool-calls/advanced:JsonArrayParser': { args: [BAD], construct: true },
  'rxjs-tool-calls/advanced:PartialJsonParser': { args: [BAD], construct: true },
  'rxjs-tool-calls/advanced:wireFormat': { data: "a format's definition: its members become the format value's own" },
  'rxjs-tool-calls/advanced:validateToolCall': { data: 'a tool call' },
  'rxjs-tool-calls/async:eachToolCall': { args: [NEVER, BAD] },
  'rxjs-tool-calls/marbles:sseEvent': { args: [BAD] },
  'rxjs-tool-calls/marbles:openaiChunk': { args: [BAD] },
  'rxjs-tool-calls/marbles:openaiChunkObject': { args: [BAD] },
  'rxjs-tool-calls/marbles:geminiChunk': { args: [BAD] },
  'rxjs-tool-calls/marbles:wireChunks': { args: ['-', {}, BAD] },
  'rxjs-tool-calls/gateway:encodeOpenAIChat': { args: [BAD] },
  'rxjs-tool-calls/gateway:encodeOpenAIResponses': { args: [BAD] },
  'rxjs-tool-calls/gateway:encodeAnthropicMessages': { args: [BAD] },
  'rxjs-tool-calls/gateway:encodeGemini': { args: [BAD] },
  'rxjs-tool-calls/gateway:encodeGeminiInteractions': { args: [BAD] },
  'rxjs-tool-calls/gateway:encodeBedrockConverse': { args: [BAD] },
  'rxjs-tool-calls/gateway:encodeOllamaChat': { args: [BAD] },
  'rxjs-tool-calls/gateway:encodeAiSdkUi': { args: [BAD] },
  'rxjs-tool-calls/gateway:encodeAgUi': { args: [BAD] },
  'rxjs-tool-calls/gateway:toAnthropicRequest': { args: [chatRequest, BAD] },
  'rxjs-tool-calls/gateway:toResponsesRequest': { args: [chatRequest, BAD] },
  'rxjs-tool-calls/gateway:toGeminiRequest': { args: [chatRequest, BAD] },
  'rxjs-tool-calls/gateway:toGeminiInteractionsRequest': { args: [chatRequest, BAD] },
  'rxjs-tool-calls/gateway:toConverseRequest': { args: [chatRequest, BAD] },
  'rxjs-tool-calls/gateway:toOllamaRequest': { args: [chatRequest, BAD] },
  'rxjs-tool-calls/gateway:fromAnthropicRequest': { args: [anthropicRequest, BAD] },
  'rxjs-tool-calls/gateway:fromAiSdkUiRequest': { args: [{ messages: [] }, BAD] },
  'rxjs-tool-calls/gateway:fromAgUiRequest': { args: [{ threadId: 't', runId: 'r', messages: [] }, BAD] },
  'rxjs-tool-calls/gateway:fromResponsesRequest': { args: [{ model: 'm', input: [] }, BAD] },
  'rxjs-tool-calls/gateway:mergeStreams': { args: [{}, BAD] },
  'rxjs-tool-calls/gateway:tagSource': { args: ['a', BAD] },
  'rxjs-tool-calls/gateway:hedge': { args: [[], BAD] },
  'rxjs-tool-calls/gateway:totalUsage': { args: [BAD] },
  'rxjs-tool-calls/gateway:costOf': { args: [{}, { input: 1, output: 1 }, BAD] },
  'rxjs-tool-calls/gateway:addUsage': { data: 'two usage counts' },
  'rxjs-tool-calls/tools:tool': { args: [BAD] },
  'rxjs-tool-calls/tools:customTool': { args: [BAD] },
  'rxjs-tool-calls/tools:runTools': { args: [{}, BAD] },
  'rxjs-tool-calls/tools:toolLoop': { args: [() => NEVER, {}, BAD] },
  'rxjs-tool-calls/tools:toolSpecs': { args: [{}, 'anthropic', BAD] },
  'rxjs-tool-calls/tools:toGeminiSchema': { args: [{}, BAD] },
  'rxjs-tool-calls/tools:toolMessages': { args: ['openai-chat', { results: [] }, BAD] },
  'rxjs-tool-calls/tools:answerRealtimeCalls': { args: [{}, BAD] },
  'rxjs-tool-calls/tools:mcpTools': { args: [{ listTools: () => NEVER, callTool: () => NEVER }, BAD] },
  'rxjs-tool-calls/text:textToolCalls': { args: [BAD] },
  'rxjs-tool-calls/text:TextToolCallParser': { args: [0, () => undefined, BAD], construct: true },
  'rxjs-tool-calls/angular:angularTextChunks': { args: [BAD] },
  'rxjs-tool-calls/angular:streamFrom': { args: [http, '/chat', null, BAD] },
  'rxjs-tool-calls/angular:injectChatStream': { args: [BAD] },
  'rxjs-tool-calls/angular:injectChat': { args: [BAD] },
  'rxjs-tool-calls/websocket:fromWebSocket': { args: ['ws://127.0.0.1:1', BAD] },
  'rxjs-tool-calls/websocket:responsesWebSocket': { args: ['ws://127.0.0.1:1', BAD] },
};

/** One function found: where its options are (parameter index and name, over all its signatures). */
interface Found {
  readonly key: string;
  readonly entry: Entry;
  readonly name: string;
  readonly params: ReadonlyMap<number, string>;
}

/** An object type with optional properties (a union: any member), not a function or an array. */
function optionLike(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (type.isUnion()) return type.types.some((member) => optionLike(checker, member));
  if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) return false;
  if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0 || checker.isArrayLikeType(type)) return false;
  return checker.getPropertiesOfType(type).some((property) => (property.flags & ts.SymbolFlags.Optional) !== 0);
}

/** Every exported function and class of every entry that takes options, from the TypeScript program. */
function findOptionTakers(): Found[] {
  const files = Object.values(ENTRIES).map((f) => path.join(root, f));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const found: Found[] = [];
  for (const [entry, file] of Object.entries(ENTRIES) as Array<[Entry, string]>) {
    const source = program.getSourceFile(path.join(root, file));
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${file} not found`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const isClass = (target.flags & ts.SymbolFlags.Class) !== 0;
      const declaration = target.valueDeclaration;
      if (!(isClass || target.flags & ts.SymbolFlags.Function) || declaration === undefined) continue;
      const type = checker.getTypeOfSymbolAtLocation(target, declaration);
      const params = new Map<number, string>();
      const signatures = checker.getSignaturesOfType(type, isClass ? ts.SignatureKind.Construct : ts.SignatureKind.Call);
      // The last parameter of the longest form (`fromResponse(response)` is a shorter form of `fromResponse(response, options)`).
      const last = Math.max(...signatures.map((signature) => signature.getParameters().length)) - 1;
      for (const signature of signatures) {
        signature.getParameters().forEach((parameter, i) => {
          const parameterType = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(parameter, declaration));
          if (parameter.name === 'options' || (i === last && optionLike(checker, parameterType))) params.set(i, parameter.name);
        });
      }
      if (params.size > 0) found.push({ key: `${entry}:${exported.name}`, entry, name: exported.name, params });
    }
  }
  return found;
}

const found = findOptionTakers();

async function load(entry: Entry): Promise<Record<string, unknown>> {
  switch (entry) {
    case 'rxjs-tool-calls':
      return import('rxjs-tool-calls');
    case 'rxjs-tool-calls/advanced':
      return import('rxjs-tool-calls/advanced');
    case 'rxjs-tool-calls/async':
      return import('rxjs-tool-calls/async');
    case 'rxjs-tool-calls/marbles':
      return import('rxjs-tool-calls/marbles');
    case 'rxjs-tool-calls/gateway':
      return import('rxjs-tool-calls/gateway');
    case 'rxjs-tool-calls/tools':
      return import('rxjs-tool-calls/tools');
    case 'rxjs-tool-calls/text':
      return import('rxjs-tool-calls/text');
    case 'rxjs-tool-calls/sdk':
      return import('rxjs-tool-calls/sdk');
    case 'rxjs-tool-calls/angular':
      return import('rxjs-tool-calls/angular');
    case 'rxjs-tool-calls/websocket':
      return import('rxjs-tool-calls/websocket');
  }
}

describe('functions with options', () => {
  it('are found in every entry (the search itself works)', () => {
    const keys = found.map((f) => f.key);
    for (const known of [
      'rxjs-tool-calls:readToolCalls',
      'rxjs-tool-calls/tools:tool',
      'rxjs-tool-calls/marbles:sseEvent',
      'rxjs-tool-calls/text:TextToolCallParser',
      'rxjs-tool-calls/gateway:costOf',
    ])
      expect(keys).toContain(known);
  });

  it('are each in the table of calls, and the table lists no other', () => {
    expect(found.map((f) => f.key).sort()).toEqual(Object.keys(CALLS).sort());
  });

  const checked = found.filter((f) => 'args' in (CALLS[f.key] ?? { data: '' }));

  it.each(checked.map((f) => [f.key, f] as const))('%s refuses { __notAnOption: 1 } when it is made', async (_key, f) => {
    const call = CALLS[f.key] as Extract<Call, { args: unknown }>;
    const at = call.args.indexOf(BAD);
    expect([...f.params.keys()]).toEqual([at]);
    const fn = (await load(f.entry))[f.name] as (...args: unknown[]) => unknown;
    const args = call.args.map((arg) => (arg === BAD ? { __notAnOption: 1 } : arg));
    let thrown: unknown;
    try {
      if (call.construct === true) new (fn as unknown as new (...args: unknown[]) => unknown)(...args);
      else fn(...args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'ToolStreamError', code: 'invalid-option', function: f.name, option: `${f.params.get(at) as string}.__notAnOption`, value: 1 });
  });
});
