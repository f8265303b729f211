/**
 * `textToolCalls()` as an operator: marble tests (events come out in the frame of the delta that
 * made them known), the standard operator cases, pass-through, finish rewriting, choices, errors.
 */
import { concat, from, throwError } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { textToolCalls } from 'rxjs-tool-calls/text';
import { standardCases } from '../helpers/standardCases';
import { done, finish, runEvents, text } from './helpers';
import { testScheduler } from '../helpers/marbles';

const scheduler = (): TestScheduler => testScheduler();
const call = (index: number, name: string, argumentsDelta: string, syntax: string, choice = 0): StreamEvent => ({
  type: 'tool-call-delta',
  choice,
  index,
  name,
  argumentsDelta,
  metadata: { textSyntax: syntax },
});
const args = (index: number, argumentsDelta: string, choice = 0): StreamEvent => ({ type: 'tool-call-delta', choice, index, argumentsDelta });
const end = (index: number, choice = 0): StreamEvent => ({ type: 'tool-call-end', choice, index });
const toolFinish = (choice = 0): StreamEvent => ({ type: 'finish', choice, reason: 'tool-calls', rawReason: 'stop' });

describe('textToolCalls()', () => {
  standardCases(() => textToolCalls(), [text('Hi <tool_call>{"name": "f", "arguments": {}}</tool_call>'), finish('stop'), done]);

  it('lifts a Hermes call while it streams: name, then argument fragments, then the end at the closing tag', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<StreamEvent>('-a-b-c-d-----F-D|', {
        a: text('Sure. <tool_'),
        b: text('call>\n{"name": "f", "argu'),
        c: text('ments": {"a": [1, 2'),
        d: text(']}}\n</tool_call>'),
        F: finish('stop'),
        D: done,
      });
      expectObservable(source.pipe(textToolCalls())).toBe('-t-o-p-(qe)--G-D|', {
        t: text('Sure. '),
        o: call(0, 'f', '', 'hermes'),
        p: args(0, '{"a": [1, 2'),
        q: args(0, ']}'),
        e: end(0),
        G: toolFinish(),
        D: done,
      });
    });
  });

  it('streams a Qwen3-Coder string value as escaped JSON before its closing tag', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<StreamEvent>('-a-b-c-d-----F|', {
        a: text('<tool_call>\n<function=write>\n<parameter=body>\nsay "hi"'),
        b: text('\nand <b>bye</b>\n</para'),
        c: text('meter>\n</function>'),
        d: text('\n</tool_call>'),
        F: finish('stop'),
      });
      expectObservable(source.pipe(textToolCalls())).toBe('-a-b-(ce)----F|', {
        a: call(0, 'write', '{"body": "say \\"hi\\"', 'qwen3-coder'),
        b: args(0, '\\nand <b>bye</b>'),
        c: args(0, '"}'),
        e: end(0),
        F: toolFinish(),
      });
    });
  });

  it('holds back only what may begin a marker: `<tool` that becomes `<toolbar>` is text at the next delta', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<StreamEvent>('-a-b-c|', { a: text('Use the <tool'), b: text('bar> or ['), c: text('TOOL_CALLSIGN]') });
      expectObservable(source.pipe(textToolCalls())).toBe('-x-y-z|', { x: text('Use the '), y: text('<toolbar> or '), z: text('[TOOL_CALLSIGN]') });
    });
  });

  it('holds a message that starts with `{` until it is known not to be a Llama call, then releases it unchanged', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<StreamEvent>('-a-b-c-F|', { a: text(' {"name": "Al'), b: text('ice", "age"'), c: text(': 3}'), F: finish('stop') });
      expectObservable(source.pipe(textToolCalls())).toBe('---x-y-F|', { x: text(' {"name": "Alice", "age"'), y: text(': 3}'), F: finish('stop') });
    });
  });

  it('lifts Mistral, Llama, DeepSeek and GLM calls in the frame their text arrives', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<StreamEvent>('-a-b------c-d----e-f----|', {
        a: text('[TOOL_CALLS]get_weather[ARGS]{"city": '),
        b: text('"Paris"}<|python_tag|>{"name": "g", "parameters": {}}'),
        c: text('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>h<｜tool▁sep｜>{"x"'),
        d: text(': 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'),
        e: text('<tool_call>k\n<arg_key>n</arg_key><arg_value>'),
        f: text('7</arg_value></tool_call>'),
      });
      expectObservable(source.pipe(textToolCalls())).toBe('-a-(bBcC)-d-(eE)-f-(gG)-|', {
        a: call(0, 'get_weather', '{"city": ', 'mistral'),
        b: args(0, '"Paris"}'),
        B: end(0),
        c: call(1, 'g', '{}', 'llama3'),
        C: end(1),
        d: call(2, 'h', '{"x"', 'deepseek'),
        e: args(2, ': 1}'),
        E: end(2),
        f: call(3, 'k', '{"n": ', 'glm45'),
        g: args(3, '7}'),
        G: end(3),
      });
    });
  });

  it('passes every other event through untouched and in order', () => {
    const native: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 5, id: 'call_x', name: 'native', argumentsDelta: '{}' };
    const others: StreamEvent[] = [
      { type: 'metadata', provider: 'openai-chat', responseId: 'r1', model: 'm' },
      { type: 'reasoning-delta', choice: 0, text: 'native reasoning <tool_call>' },
      native,
      { type: 'usage', inputTokens: 1, outputTokens: 2, raw: {} },
      finish('length'),
      done,
    ];
    expect(runEvents(from(others)).events).toEqual(others);
  });

  it('rewrites `stop` to `tool-calls` (keeping rawReason) only for a choice with lifted calls', () => {
    const events = runEvents(from([text('a', 0), text('<tool_call>{"name": "f"}</tool_call>', 1), finish('stop', 0), finish('stop', 1), done])).events;
    expect(events.filter((e) => e.type === 'finish')).toEqual([finish('stop', 0), toolFinish(1)]);
    const cut = runEvents(from([text('<tool_call>{"name": "f", "arguments": {'), finish('length'), done]));
    expect(cut.finishes).toEqual(['length']);
    expect(cut.results).toEqual([{ err: 'incomplete', id: 'gen_0', name: 'f', raw: '{', reason: 'not-closed' }]);
  });

  it('keeps choices apart: each has its own indices, held text and state', () => {
    const run = runEvents(
      from([text('<tool_call>{"name": "a", ', 0), text('[TOOL_CALLS]b[ARGS]{"x"', 1), text('"arguments": {"y": 2}}</tool_call>', 0), text(': 1}', 1), finish('stop', 0), finish('stop', 1), done]),
    );
    expect(run.events).toEqual([
      call(0, 'a', '', 'hermes', 0),
      call(0, 'b', '{"x"', 'mistral', 1),
      args(0, '{"y": 2}', 0),
      end(0, 0),
      args(0, ': 1}', 1),
      end(0, 1),
      toolFinish(0),
      toolFinish(1),
      done,
    ]);
  });

  it('on a source error: releases held text, leaves open calls to toolCalls() (incomplete with the error reason), then errors', () => {
    const error = new ToolStreamError('provider-error', { provider: 'openai-chat', providerCode: undefined, type: 'server_error', message: 'boom', status: 500, retryable: true, payload: {} });
    const held = runEvents(
      concat(
        from([text('Hi <tool')]),
        throwError(() => error),
      ),
    );
    expect(held.visible).toBe('Hi <tool');
    expect(held.error).toBe(error);
    const open = runEvents(
      concat(
        from([text('<tool_call>{"name": "f", "arguments": {"a": 1')]),
        throwError(() => error),
      ),
    );
    expect(open.events.filter((e) => e.type === 'tool-call-end')).toEqual([]);
    expect(open.results).toEqual([{ err: 'incomplete', id: 'gen_0', name: 'f', raw: '{"a": 1', reason: 'provider-error' }]);
    expect(open.error).toBe(error);
  });

  it('rejects an unknown syntax name at once', () => {
    expect(() => textToolCalls({ syntaxes: ['hermes', 'nope' as 'hermes'] })).toThrow(expect.objectContaining({ code: 'invalid-option', function: 'textToolCalls', option: 'options.syntaxes' }));
  });
});
