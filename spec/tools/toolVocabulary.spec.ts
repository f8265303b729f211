/**
 * One tool vocabulary at run time: a record of `tool()` definitions, an array of named `tool()`
 * definitions and a record of bare schemas give the same results in every function that takes
 * tools; a malformed `tools` option is an `invalid-option` error when the operator is made.
 */
import { from, lastValueFrom, of, toArray, type Observable } from 'rxjs';
import { z } from 'zod';
import { chatState, isToolStreamError, partialObject, partialToolCalls, readToolCalls, toolCalls, validateResults, type StreamEvent, type ToolCallResult, type ToolsInput } from 'rxjs-tool-calls';
import { eachToolCall } from 'rxjs-tool-calls/async';
import { mergeStreams } from 'rxjs-tool-calls/gateway';
import { runTools, tool, toolSpecs } from 'rxjs-tool-calls/tools';

const weather = z.object({ city: z.string(), days: z.number().default(1) });
const asTools = { get_weather: tool({ schema: weather, execute: ({ city, days }) => `${city}:${days}` }), ping: tool({ execute: () => 'pong' }) };
const asArray = [tool({ name: 'get_weather', schema: weather, execute: ({ city, days }) => `${city}:${days}` }), tool({ name: 'ping', execute: () => 'pong' })];
const asSchemas = { get_weather: weather, ping: z.unknown() };
const spellings: ReadonlyArray<[string, ToolsInput]> = [
  ['a record of tool()s', asTools],
  ['an array of named tool()s', asArray],
  ['a record of schemas', asSchemas],
];

/** One chat stream's events: calls of get_weather (valid, then invalid), ping and an unknown tool. */
function turn(): StreamEvent[] {
  const call = (index: number, name: string, args: string): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, id: `c${index}`, name, argumentsDelta: args });
  return [
    call(0, 'get_weather', '{"city":"Paris"}'),
    call(1, 'get_weather', '{"city":5}'),
    call(2, 'ping', '{"x":1}'),
    call(3, 'get_stock', '{}'),
    { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
  ];
}

/** The same turn as OpenAI chat SSE. */
function turnBytes(): string {
  const chunk = (index: number, name: string, args: string): string =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index, id: `c${index}`, type: 'function', function: { name, arguments: args } }] }, finish_reason: null }] })}\n\n`;
  const finish = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\n`;
  return chunk(0, 'get_weather', '{"city":"Paris"}') + chunk(1, 'get_weather', '{"city":5}') + chunk(2, 'ping', '{"x":1}') + chunk(3, 'get_stock', '{}') + finish + 'data: [DONE]\n\n';
}

/** A result as `name: arguments` or `name: code (detail)`. */
function summary(result: ToolCallResult): string {
  if (result.success) return `${result.data.name}: ${JSON.stringify(result.data.arguments)}`;
  const error = result.error;
  const detail = isToolStreamError(error, 'unknown-tool') ? error.availableTools.join(',') : isToolStreamError(error, 'invalid-arguments') ? error.issues.map((i) => i.path.join('.')).join(',') : '';
  return `${error.toolCall.name}: ${error.code} (${detail})`;
}

const expected = ['get_weather: {"city":"Paris","days":1}', 'get_weather: invalid-arguments (city)', 'ping: {"x":1}', 'get_stock: unknown-tool (get_weather,ping)'];

const all = <T>(source: Observable<T>): Promise<T[]> => lastValueFrom(source.pipe(toArray()));

describe.each(spellings)('tools as %s', (_name, tools) => {
  it('readToolCalls validates, passes a schema-less tool as parsed and names the tools of an unknown one', async () => {
    expect((await all(of(turnBytes()).pipe(readToolCalls({ tools })))).map(summary)).toEqual(expected);
  });

  it('toolCalls and validateResults give the same', async () => {
    expect((await all(from(turn()).pipe(toolCalls({ tools })))).map(summary)).toEqual(expected);
    expect((await all(from(turn()).pipe(toolCalls(), validateResults(tools)))).map(summary)).toEqual(expected);
  });

  it('eachToolCall gives the same', async () => {
    const seen: string[] = [];
    for await (const result of eachToolCall(of(turnBytes()), { tools })) seen.push(summary(result));
    expect(seen).toEqual(expected);
  });

  it("partialToolCalls' last values and chatState's results give the same", async () => {
    const lasts = (await all(from(turn()).pipe(partialToolCalls({ tools })))).flatMap((p) => (p.result === undefined ? [] : [p.result]));
    expect(lasts.map(summary)).toEqual(expected);
    const states = await all(from(turn()).pipe(chatState({ tools })));
    const final = states[states.length - 1];
    expect(final?.calls.map((c) => (c.result === undefined ? 'open' : summary(c.result)))).toEqual(expected);
  });

  it('mergeStreams gives the same for every source', async () => {
    const items = await all(mergeStreams({ a: of(turnBytes()), b: of(turnBytes()) }, { tools, events: false }));
    for (const source of ['a', 'b']) expect(items.flatMap((i) => (i.type === 'result' && i.source === source ? [summary(i.result)] : []))).toEqual(expected);
  });

  it('toolSpecs writes one definition per tool, by name', () => {
    expect(toolSpecs(tools, 'anthropic').map((spec) => spec.name)).toEqual(['get_weather', 'ping']);
  });
});

describe('runTools with an array of tools', () => {
  it('runs each by name, as with the record', async () => {
    const results = await all(from(turn()).pipe(toolCalls()));
    const runs = (tools: typeof asTools | typeof asArray): Promise<string[]> =>
      all(from(results).pipe(runTools(tools))).then((r) => r.map((run) => (run.success ? `${run.data.name}=${String(run.data.output)}` : `${run.error.code}`)));
    const expectedRuns = ['get_weather=Paris:1', 'invalid-arguments', 'ping=pong', 'unknown-tool'];
    expect(await runs(asArray)).toEqual(expectedRuns);
    expect(await runs(asTools)).toEqual(expectedRuns);
  });
});

describe('partialObject({ fromTool: tool })', () => {
  const answer = tool({ name: 'answer', schema: z.object({ title: z.string(), n: z.number().default(3) }) });
  const events = (args: string): StreamEvent[] => [
    { type: 'tool-call-delta', choice: 0, index: 0, id: 'c0', name: 'answer', argumentsDelta: args },
    { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
  ];

  it("reads that tool's call and validates with its schema", async () => {
    const updates = await all(from(events('{"title":"Hi"}')).pipe(partialObject({ fromTool: answer })));
    expect(updates[updates.length - 1]).toMatchObject({ type: 'result', result: { success: true, data: { title: 'Hi', n: 3 } } });
    const bad = await all(from(events('{"title":1}')).pipe(partialObject({ fromTool: answer })));
    expect(bad[bad.length - 1]).toMatchObject({ type: 'result', result: { success: false, error: { code: 'invalid-arguments' } } });
  });

  it('a schema given beside it wins', async () => {
    const updates = await all(from(events('{"title":1}')).pipe(partialObject({ fromTool: { name: 'answer' }, schema: z.object({ title: z.number() }) })));
    expect(updates[updates.length - 1]).toMatchObject({ type: 'result', result: { success: true, data: { title: 1 } } });
  });

  it('refuses a tool without a name', () => {
    expect(() => partialObject({ fromTool: { name: '' } })).toThrow(expect.objectContaining({ code: 'invalid-option', function: 'partialObject', option: 'options.fromTool.name' }));
  });
});

describe('a malformed tools option', () => {
  const cases: ReadonlyArray<[string, unknown, string]> = [
    ['an array tool without a name', [tool({ schema: weather })], 'options.tools[0]'],
    ['a bare schema in an array', [weather], 'options.tools[0]'],
    ['a name twice in an array', [tool({ name: 'a', schema: weather }), tool({ name: 'a' })], 'options.tools[1]'],
    ['a record tool named unlike its key', { a: tool({ name: 'b', schema: weather }) }, 'options.tools.a'],
    ['a schema that is not a Standard Schema', { a: { schema: { type: 'object' } } }, 'options.tools.a'],
    ['a value that is neither schema nor tool', { a: 'string' }, 'options.tools.a'],
  ];
  const makers: ReadonlyArray<[string, (tools: ToolsInput) => unknown]> = [
    ['readToolCalls', (tools) => readToolCalls({ tools })],
    ['toolCalls', (tools) => toolCalls({ tools })],
    ['partialToolCalls', (tools) => partialToolCalls({ tools })],
    ['chatState', (tools) => chatState({ tools })],
    ['validateResults', (tools) => validateResults(tools)],
    ['mergeStreams', (tools) => mergeStreams({ a: of('') }, { tools })],
  ];
  it.each(cases)('is an invalid-option error when the operator is made: %s', (_name, tools, option) => {
    for (const [fn, make] of makers) expect(() => make(tools as ToolsInput)).toThrow(expect.objectContaining({ name: 'ToolStreamError', code: 'invalid-option', function: fn, option }));
  });

  it('is an invalid-option error of runTools', () => {
    expect(() => runTools([tool({ execute: () => 1 })] as never)).toThrow(expect.objectContaining({ code: 'invalid-option', function: 'runTools', option: 'options.tools[0]' }));
  });
});
