/**
 * The tools wing checks what it is given when it is made: a tool's definition (a misspelt `execute`
 * would leave a tool that is declared only), the options of `toolSpecs()`, `toGeminiSchema()`,
 * `runTools()`, `toolMessages()` and every group of `toolLoop()`, and the format of the functions
 * that write one. A key a function does not take is an `invalid-option` error naming it, the keys
 * it takes and the closest one; a value it cannot use says what it must be; valid options work as
 * before.
 */
import { lastValueFrom, NEVER, of, toArray } from 'rxjs';
import { z } from 'zod';
import type { ToolCall, ToolCallResult } from 'rxjs-tool-calls';
import { assistantTextMessage, customTool, runTools, toGeminiSchema, tool, toolLoop, toolMessages, toolSpecs, type MessageFormat, type ToolStep } from 'rxjs-tool-calls/tools';
import { describeOptionChecks, invalidOption } from '../helpers/optionChecks';

const step: ToolStep = { results: [] };

describeOptionChecks([
  ['tool', (d) => tool(d), 'execute', () => 1, { path: 'definition' }],
  ['tool', (d) => tool(d), 'description', 'What it does', { path: 'definition', typo: 'descripton' }],
  ['customTool', (d) => customTool(d), 'format', { type: 'text' }, { path: 'definition' }],
  ['toolSpecs', (o) => toolSpecs({}, 'anthropic', o), 'strict', false],
  ['toGeminiSchema', (o) => toGeminiSchema({}, o), 'onDrop', () => undefined],
  ['runTools', (o) => runTools({}, o), 'concurrency', 2],
  ['toolMessages', (o) => toolMessages('anthropic', step, o), 'stringify', String],
  ['toolLoop', (o) => toolLoop(() => NEVER, {}, o), 'maxSteps', 3],
  ['toolLoop', (o) => toolLoop(() => NEVER, {}, { run: o }), 'timeoutMs', 100, { path: 'options.run' }],
  ['toolLoop', (o) => toolLoop(() => NEVER, {}, { reply: o }), 'sendReasoning', false, { path: 'options.reply' }],
  ['toolLoop', (o) => toolLoop(() => NEVER, {}, { specs: o }), 'onSchemaDrop', () => undefined, { path: 'options.specs' }],
  ['toolLoop', (o) => toolLoop(() => NEVER, {}, { read: o }), 'repairArguments', false, { path: 'options.read' }],
]);

describe('values the tools wing cannot use', () => {
  it.each([
    ['execute: a string', () => tool({ execute: 'run' } as never), 'definition.execute'],
    ['schema: not a Standard Schema', () => tool({ schema: { type: 'object' } } as never), 'definition.schema'],
    ['timeoutMs: -1', () => tool({ timeoutMs: -1, execute: () => 1 }), 'definition.timeoutMs'],
    ['name: 1', () => tool({ name: 1 } as never), 'definition.name'],
    ['parameters: a string', () => tool({ parameters: 'object' } as never), 'definition.parameters'],
    ['format: an unknown syntax', () => customTool({ format: { type: 'grammar', syntax: 'ebnf', definition: 'x' } } as never), 'definition.format'],
    ['strict: true', () => toolSpecs({}, 'openai-chat', { strict: true as never }), 'options.strict'],
    ['maxDepth: 0', () => toolSpecs({}, 'gemini', { maxDepth: 0 }), 'options.maxDepth'],
    ['maxDepth: 1.5', () => toGeminiSchema({}, { maxDepth: 1.5 }), 'options.maxDepth'],
    ['path: 1', () => toGeminiSchema({}, { path: 1 as never }), 'options.path'],
    ['concurrency: 0', () => runTools({}, { concurrency: 0 }), 'options.concurrency'],
    ['timeoutMs: NaN', () => runTools({}, { timeoutMs: Number.NaN }), 'options.timeoutMs'],
    ['failFast: 1', () => runTools({}, { failFast: 1 as never }), 'options.failFast'],
    ['reasoningField: thinking', () => toolMessages('openai-chat', step, { reasoningField: 'thinking' as never }), 'options.reasoningField'],
    ['a loop format: openai', () => toolLoop(() => NEVER, {}, { format: 'openai' as never }), 'options.format'],
    ['messages: a string', () => toolLoop(() => NEVER, {}, { messages: 'hi' as never }), 'options.messages'],
    ['maxSteps: 0', () => toolLoop(() => NEVER, {}, { maxSteps: 0 }), 'options.maxSteps'],
    ['steer: a string', () => toolLoop(() => NEVER, {}, { steer: 'Use Celsius.' as never }), 'options.steer'],
    ['steer: a promise', () => toolLoop(() => NEVER, {}, { steer: Promise.resolve('Use Celsius.') as never }), 'options.steer'],
    [
      'resume: a checkpoint whose steer is not a list',
      () => toolLoop(() => NEVER, {}, { resume: { format: 'openai-chat', step: 0, messages: [], turn: { text: '', content: [] }, results: [], pending: [], steer: 'x' as never } }),
      'options.resume',
    ],
    ['read: a string', () => toolLoop(() => NEVER, {}, { read: 'openai-chat' as never }), 'options.read'],
    ['read.provider: openai', () => toolLoop(() => NEVER, {}, { read: { provider: 'openai' as never } }), 'options.read.provider'],
    ['run.concurrency: 0', () => toolLoop(() => NEVER, {}, { run: { concurrency: 0 } }), 'options.run.concurrency'],
    ['reply.sendReasoning: no', () => toolLoop(() => NEVER, {}, { reply: { sendReasoning: 'no' as never } }), 'options.reply.sendReasoning'],
    ['specs.strict: true', () => toolLoop(() => NEVER, {}, { specs: { strict: true as never } }), 'options.specs.strict'],
  ])('%s', (_what, make, option) => {
    expect(invalidOption(make).option).toBe(option);
  });

  it.each([
    ['toolSpecs', () => toolSpecs({}, 'openai' as MessageFormat)],
    ['toolMessages', () => toolMessages('openai' as MessageFormat, step)],
    ['assistantTextMessage', () => assistantTextMessage('openai' as MessageFormat, 'Hi')],
  ])('%s: a format it does not write names the formats it writes', (fn, make) => {
    const error = invalidOption(make);
    expect({ function: error.function, option: error.option, value: error.value }).toEqual({ function: fn, option: 'format', value: 'openai' });
    for (const format of ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'bedrock-converse', 'bedrock-invoke-model', 'ollama']) expect(error.expected).toContain(`'${format}'`);
  });

  it.each([['provider'], ['concurrency'], ['stringify'], ['maxDepth']])('toolLoop: a stage option given flat (%s) names the group it goes in', (key) => {
    const error = invalidOption(() => toolLoop(() => NEVER, {}, { [key]: 1 } as never));
    const group = { provider: 'read', concurrency: 'run', stringify: 'reply', maxDepth: 'specs' }[key] as string;
    expect(error.expected).toContain(`'${key}' is an option of ${group}: options.${group}.${key}`);
  });

  it('toolLoop: a misspelt key of its own names the closest', () => {
    expect(invalidOption(() => toolLoop(() => NEVER, {}, { maxStep: 3 } as never)).expected).toContain("did you mean 'maxSteps'?");
  });
});

describe('valid options work as before', () => {
  const call: ToolCall = { id: 'call_1', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' };

  it('tool() and customTool() return the definition, with every key a definition has', () => {
    const definition = { name: 'get_weather', description: 'Weather', schema: z.object({ city: z.string() }), parameters: { type: 'object' }, execute: () => 21, timeoutMs: 1000 };
    expect(tool(definition)).toBe(definition);
    const patch = customTool({ name: 'apply_patch', description: 'Patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' }, execute: (text) => text.length, timeoutMs: 5 });
    expect(patch.kind).toBe('custom');
    expect(customTool({ ...patch, description: 'Another' }).kind).toBe('custom'); // a custom tool spread into a new one
  });

  it('toolSpecs(), toGeminiSchema() and toolMessages() with their options', () => {
    const tools = { get_weather: tool({ schema: z.strictObject({ city: z.string() }) }) };
    expect(toolSpecs(tools, 'openai-responses', { strict: false, maxDepth: 16, onSchemaDrop: () => undefined })[0]).toMatchObject({ strict: false });
    const drops: string[] = [];
    expect(toGeminiSchema({ type: 'string', format: 'uuid' }, { path: 'p', maxDepth: 4, onDrop: (d) => drops.push(d.path) })).toEqual({ type: 'STRING' });
    expect(drops).toEqual(['p.format']);
    const replied = toolMessages('openai-chat', { results: [{ success: true, data: { name: 'get_weather', call, output: 21 } }] }, { stringify: (o) => `${String(o)}°C`, sendReasoning: false });
    expect(replied.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '21°C' });
  });

  it('runTools() with its options runs the call', async () => {
    const results = await lastValueFrom(
      of<ToolCallResult>({ success: true, data: call }).pipe(runTools({ get_weather: tool({ execute: () => 21 }) }, { concurrency: 1, timeoutMs: 1000, failFast: true }), toArray()),
    );
    expect(results.map((r) => r.success && r.data.output)).toEqual([21]);
  });
});
