/**
 * `textToolCalls()` and `TextToolCallParser` check their options when they are made: a key they do
 * not take is an `invalid-option` error naming it and the closest key, an unknown syntax names the
 * syntaxes there are, a value of the wrong kind says what it must be; valid options work as before.
 */
import { from } from 'rxjs';
import type { StreamEvent } from 'rxjs-tool-calls';
import { TextToolCallParser, textToolCalls } from 'rxjs-tool-calls/text';
import { describeOptionChecks, invalidOption } from '../helpers/optionChecks';
import { done, finish, runEvents, text } from './helpers';

const emit = (): void => undefined;

describeOptionChecks([
  ['textToolCalls', (o) => textToolCalls(o), 'syntaxes', ['hermes']],
  ['textToolCalls', (o) => textToolCalls(o), 'startInReasoning', true, { typo: 'startInReasonig' }],
  ['TextToolCallParser', (o) => new TextToolCallParser(0, emit, o), 'thinkTags', false],
]);

describe('values textToolCalls() cannot use', () => {
  it.each([
    ['an unknown syntax', () => textToolCalls({ syntaxes: ['hermes', 'qwen' as 'hermes'] }), 'options.syntaxes'],
    ['syntaxes: a string', () => textToolCalls({ syntaxes: 'hermes' as never }), 'options.syntaxes'],
    ['thinkTags: 1', () => textToolCalls({ thinkTags: 1 as never }), 'options.thinkTags'],
    ['tools: an array', () => textToolCalls({ tools: [] as never }), 'options.tools'],
    ['startInReasoning: yes (the parser)', () => new TextToolCallParser(0, emit, { startInReasoning: 'yes' as never }), 'options.startInReasoning'],
  ])('%s', (_what, make, option) => {
    expect(invalidOption(make).option).toBe(option);
  });

  it('an unknown syntax: the error names it and the syntaxes there are', () => {
    const error = invalidOption(() => textToolCalls({ syntaxes: ['qwen' as 'hermes'] }));
    expect(error.expected).toContain('"qwen"');
    for (const name of ['hermes', 'qwen3-coder', 'mistral', 'llama3', 'deepseek', 'glm45']) expect(error.expected).toContain(`'${name}'`);
  });
});

describe('valid options work as before', () => {
  it('textToolCalls() with every option lifts the syntax asked for, and leaves the others as text', () => {
    const source = from<StreamEvent[]>([text('<think>hm</think><tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'), finish('stop'), done]);
    const run = runEvents(source, { syntaxes: ['hermes'], thinkTags: true, startInReasoning: false, tools: { f: { type: 'object' } } });
    expect({ reasoning: run.reasoning, results: run.results.length, finishes: run.finishes }).toEqual({ reasoning: 'hm', results: 1, finishes: ['tool-calls'] });
    const other = runEvents(from<StreamEvent[]>([text('[TOOL_CALLS]f[ARGS]{}'), finish('stop'), done]), { syntaxes: ['hermes'] });
    expect(other.visible).toBe('[TOOL_CALLS]f[ARGS]{}');
  });

  it('TextToolCallParser with its options', () => {
    const events: StreamEvent[] = [];
    const parser = new TextToolCallParser(0, (e) => events.push(e), { syntaxes: ['hermes'], thinkTags: false });
    parser.push('<think>x</think>');
    parser.end();
    expect(events.filter((e) => e.type === 'reasoning-delta')).toEqual([]);
  });
});
