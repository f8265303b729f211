/**
 * Each syntax's own rules (forms, typing, ids, ordering), what stays text, and what is incomplete.
 */
import { from, lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { toolCalls } from 'rxjs-tool-calls';
import { textToolCalls } from 'rxjs-tool-calls/text';
import { SCHEMAS } from './conversations';
import { callsOf, finish, runText, text } from './helpers';

const lifted = (t: string, options?: Parameters<typeof runText>[1]): Array<{ name: string; arguments: unknown }> => callsOf(runText([t], options));

describe('Hermes / Qwen 2.5 / Qwen 3', () => {
  it('holds arguments written before the name until the name arrives, then sends them with it', () => {
    const run = runText(['<tool_call>{"arguments": {"a": 1}, ', '"name": "f"}</tool_call>']);
    const deltas = run.events.filter((e) => e.type === 'tool-call-delta');
    expect(deltas).toEqual([{ type: 'tool-call-delta', choice: 0, index: 0, name: 'f', argumentsDelta: '{"a": 1}', metadata: { textSyntax: 'hermes' } }]);
  });

  it('reads arguments written as a JSON string, several objects in one tag, and a list', () => {
    expect(lifted('<tool_call>{"name": "f", "arguments": "{\\"a\\": \\"\\u00e9\\\\n\\"}"}</tool_call>')).toEqual([{ name: 'f', arguments: { a: 'é\n' } }]);
    expect(lifted('<tool_call>{"name": "f", "arguments": {}}\n{"name": "g", "arguments": {"b": 2}}</tool_call>')).toEqual([
      { name: 'f', arguments: {} },
      { name: 'g', arguments: { b: 2 } },
    ]);
    expect(lifted('<tool_call>[{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}}]</tool_call>').map((c) => c.name)).toEqual(['f', 'g']);
  });

  it('reports an object that is not JSON as malformed arguments (its text as the arguments), not as a call with {}', () => {
    const run = runText(['<tool_call>{name: "f", ', 'arguments: {}}\n</tool_call>ok']);
    expect(run.results).toEqual([{ err: 'malformed-arguments', id: 'gen_0', name: '', raw: '{name: "f", arguments: {}}\n' }]);
    expect(run.visible).toBe('ok');
    const late = runText(['[TOOL_CALLS][{"name": "f", oops}]']);
    expect(late.results).toEqual([{ err: 'malformed-arguments', id: 'gen_0', name: 'f', raw: '{"name": "f", ' }]);
  });

  it('gives indices 0, 1, 2 in order and ends each call at its closing tag', () => {
    const run = runText(['<tool_call>{"name": "a"}</tool_call><tool_call>{"name": "b"}</tool_call>\n<tool_call>{"name": "c"}</tool_call>']);
    expect(run.events.filter((e) => e.type !== 'finish' && e.type !== 'done').map((e) => `${e.type}:${'index' in e ? e.index : ''}`)).toEqual([
      'tool-call-delta:0',
      'tool-call-end:0',
      'tool-call-delta:1',
      'tool-call-end:1',
      'tool-call-delta:2',
      'tool-call-end:2',
    ]);
  });
});

describe('Qwen3-Coder', () => {
  const qwen = (params: string, tools?: Readonly<Record<string, object>>): unknown =>
    lifted(`<tool_call>\n<function=forecast>\n${params}</function>\n</tool_call>`, tools === undefined ? {} : { tools })[0]?.arguments;

  it('types values by a JSON Schema, and leaves a value that does not fit its type a string', () => {
    expect(qwen('<parameter=days>\n4\n</parameter>\n<parameter=metric>\nFalse\n</parameter>\n<parameter=hours>\n[1, 2]\n</parameter>\n', SCHEMAS)).toEqual({ days: 4, metric: false, hours: [1, 2] });
    expect(qwen('<parameter=days>\nfour\n</parameter>\n<parameter=hours>\n[1,\n</parameter>\n', SCHEMAS)).toEqual({ days: 'four', hours: '[1,' });
  });

  it('types values by a Standard Schema that describes itself as JSON Schema (zod 4)', () => {
    const tools = { forecast: z.object({ city: z.string(), days: z.number().int(), when: z.union([z.number(), z.null()]) }) };
    expect(qwen('<parameter=city>\n42\n</parameter>\n<parameter=days>\n7\n</parameter>\n<parameter=when>\nnull\n</parameter>\n', tools)).toEqual({ city: '42', days: 7, when: null });
  });

  it('keeps every value a string without a schema, dropping one line feed at each end', () => {
    expect(qwen('<parameter=days>\n3\n</parameter>\n<parameter=text>\n\n two lines \n\n</parameter>\n')).toEqual({ days: '3', text: '\n two lines \n' });
  });

  it('tolerates a missing </parameter>, and reads several functions in one block as several calls', () => {
    expect(qwen('<parameter=a>\nx\n<parameter=b>\ny\n')).toEqual({ a: 'x', b: 'y' });
    const calls = lifted('<tool_call>\n<function=f>\n</function>\n<function=g>\n<parameter=k>\nv\n</parameter>\n</function>\n</tool_call>');
    expect(calls).toEqual([
      { name: 'f', arguments: {} },
      { name: 'g', arguments: { k: 'v' } },
    ]);
  });
});

describe('GLM 4.5', () => {
  it('reads values as JSON when they parse and as strings otherwise (no schema), or by the schema', () => {
    const t =
      '<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>42</arg_value>\n<arg_key>on</arg_key>\n<arg_value>true</arg_value>\n<arg_key>note</arg_key>\n<arg_value>  true story </arg_value>\n<arg_key>n</arg_key>\n<arg_value>nul</arg_value>\n</tool_call>';
    expect(lifted(t)).toEqual([{ name: 'search', arguments: { query: 42, on: true, note: 'true story', n: 'nul' } }]);
    expect(lifted(t, { tools: SCHEMAS })[0]?.arguments).toEqual({ query: '42', on: true, note: 'true story', n: 'nul' });
  });

  it('leaves a tag whose "name" no tool could have as text', () => {
    const run = runText(['<tool_call>get weather</tool_call> and <tool_call>x, y</tool_call>']);
    expect(run.results).toEqual([]);
    expect(run.visible).toBe('<tool_call>get weather</tool_call> and <tool_call>x, y</tool_call>');
  });
});

describe('Mistral', () => {
  it('keeps the ids the list form and [CALL_ID] carry', () => {
    const ids = (t: string): unknown[] => runText([t]).results.map((r) => (r as { ok: { id: string } }).ok.id);
    expect(ids('[TOOL_CALLS][{"name": "f", "arguments": {}, "id": "abc123def"}, {"id": "xyz987uvw", "name": "g", "arguments": {}}]')).toEqual(['abc123def', 'xyz987uvw']);
    expect(ids('[TOOL_CALLS]f[CALL_ID]abc123def[ARGS]{}')).toEqual(['abc123def']);
  });

  it('reads `NAME{…}` (control tokens dropped by the server) and a single bare object', () => {
    expect(lifted('[TOOL_CALLS]f{"a": 1}')).toEqual([{ name: 'f', arguments: { a: 1 } }]);
    expect(lifted('[TOOL_CALLS] {"name": "f", "arguments": {"a": 1}}')).toEqual([{ name: 'f', arguments: { a: 1 } }]);
  });

  it('leaves `[TOOL_CALLS]` followed by prose as text', () => {
    const run = runText(['The token [TOOL_CALLS] starts a call.']);
    expect([run.results, run.visible]).toEqual([[], 'The token [TOOL_CALLS] starts a call.']);
  });
});

describe('Llama 3.x', () => {
  it('leaves a message that is JSON but not a call unchanged, and JSON later in a message as text', () => {
    for (const t of [
      '{"name": "Alice", "age": 3}',
      '{"parameters": {}, "title": "x"}',
      '{"name": 3, "parameters": {}}',
      '{"name": "f", "parameters": "x"}',
      '{"name": "f"}',
      'Here: {"name": "f", "parameters": {}}',
      '{not json',
    ]) {
      const run = runText([t]);
      expect([t, run.results, run.visible]).toEqual([t, [], t]);
    }
  });

  it('leaves <|python_tag|> followed by code as text', () => {
    const run = runText(['<|python_tag|>brave_search.call(query="x")']);
    expect([run.results, run.visible]).toEqual([[], '<|python_tag|>brave_search.call(query="x")']);
  });

  it('does not look for bare JSON when llama3 is not enabled', () => {
    expect(runText(['{"name": "f", "parameters": {}}'], { syntaxes: ['hermes'] }).results).toEqual([]);
  });
});

describe('DeepSeek', () => {
  it('reads a block opened without <｜tool▁calls▁begin｜>, and text after the block', () => {
    const run = runText(['<｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜>Done.']);
    expect([callsOf(run), run.visible]).toEqual([[{ name: 'f', arguments: {} }], 'Done.']);
  });

  it('starts in reasoning when the template opened <think> in the prompt', () => {
    const run = runText(['Let me think.</think>\n\nOK.'], { startInReasoning: true });
    expect([run.reasoning, run.visible]).toEqual(['Let me think.', 'OK.']);
  });
});

describe('reasoning tags', () => {
  it('are text with thinkTags: false', () => {
    expect(runText(['<think>x</think>y'], { thinkTags: false }).visible).toBe('<think>x</think>y');
    expect(runText(['[THINK]x[/THINK]y'], { syntaxes: ['hermes'] }).visible).toBe('[THINK]x[/THINK]y');
  });

  it('hold calls written inside reasoning as reasoning', () => {
    const run = runText(['<think>maybe <tool_call>{"name": "f"}</tool_call>?</think>No.']);
    expect([run.results, run.reasoning, run.visible]).toEqual([[], 'maybe <tool_call>{"name": "f"}</tool_call>?', 'No.']);
  });
});

describe('text that only looks like a call', () => {
  it('stays text inside fenced code blocks (``` and ~~~) and inline code spans', () => {
    const t = 'Example:\n```xml\n<tool_call>{"name": "f"}</tool_call>\n```\n~~~\n[TOOL_CALLS]f[ARGS]{}\n~~~\nInline: `<|python_tag|>{"name": "f", "parameters": {}}` and ``<think>`` done.\n';
    const run = runText([t]);
    expect([run.results, run.visible, run.reasoning]).toEqual([[], t, '']);
  });

  it('is a call again after the fence closes', () => {
    expect(lifted('```\n<tool_call>{"name": "x"}</tool_call>\n```\n<tool_call>{"name": "f"}</tool_call>').map((c) => c.name)).toEqual(['f']);
  });

  it('stays text when the marker is followed by something no enabled syntax allows', () => {
    for (const t of ['Use `<tool_call>` tags.', 'a <tool_call> b', '<tool_call>!', '<tool_call><b>']) expect(runText([t]).visible).toBe(t);
    expect(runText(['<tool_call>f\n<arg_key>'], { syntaxes: ['hermes'] }).visible).toBe('<tool_call>f\n<arg_key>');
  });
});

describe('a marker never closed', () => {
  it.each([
    ['hermes', '<tool_call>{"name": "f", "arguments": {"a": 1}}', 'f', '{"a": 1}'],
    ['hermes (nothing after the tag)', '<tool_call>', '', ''],
    ['qwen3-coder', '<tool_call>\n<function=f>\n<parameter=a>\nx', 'f', '{"a": "x'],
    ['mistral', '[TOOL_CALLS]f[ARGS]{"a": 1', 'f', '{"a": 1'],
    ['mistral list', '[TOOL_CALLS][{"name": "f", "arguments": {}}, {"name": "g"', 'g', ''],
    ['llama3', '<|python_tag|>{"name": "f", "parameters": {"a": ', 'f', '{"a": '],
    ['deepseek', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": 1}', 'f', '{"a": 1}'],
    ['glm45', '<tool_call>f\n<arg_key>a</arg_key>', 'f', ''],
  ])('%s: an incomplete call', (_syntax, t, name, raw) => {
    const run = runText([t]);
    const failed = run.results.filter((r) => (r as { err?: string }).err !== undefined);
    expect(failed).toEqual([{ err: 'incomplete', id: expect.stringMatching(/^gen_\d$/) as unknown, name, raw, reason: 'not-closed' }]);
  });
});

describe('results', () => {
  it('name the syntax in providerMetadata.textSyntax', async () => {
    const results = await lastValueFrom(from([text('[TOOL_CALLS]f[ARGS]{}<tool_call>{"name": "g"}</tool_call>'), finish()]).pipe(textToolCalls(), toolCalls(), toArray()));
    expect(results.map((r) => r.success && r.data.providerMetadata?.['textSyntax'])).toEqual(['mistral', 'hermes']);
  });
});
