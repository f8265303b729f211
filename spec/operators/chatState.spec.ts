import { concat, from, map, throwError, toArray } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { z } from 'zod';
import { chatState, type ChatState, type ChatStateOptions, type ChatStateCall } from '../../src/operators/chatState';
import type { ToolSchemas } from '../../src/parse/validate';
import { ToolStreamError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';
import type { StandardSchemaV1 } from '../../src/parse/standardSchema';
import { standardCases } from '../helpers/standardCases';
import { testScheduler } from '../helpers/marbles';

const text = (t: string, choice = 0): StreamEvent => ({ type: 'text-delta', choice, text: t });
const open = (index: number, id: string, name: string, choice = 0): StreamEvent => ({ type: 'tool-call-delta', choice, index, id, name, argumentsDelta: '' });
const frag = (index: number, argumentsDelta: string, choice = 0): StreamEvent => ({ type: 'tool-call-delta', choice, index, argumentsDelta });
const finish = (reason: 'tool-calls' | 'stop' = 'tool-calls', choice = 0): StreamEvent => ({ type: 'finish', choice, reason, rawReason: reason });
const done: StreamEvent = { type: 'done' };
const usage = (fields: Record<string, number>): StreamEvent => ({ type: 'usage', ...fields, raw: fields });

const scheduler = (): TestScheduler => testScheduler();

/** Every state of a synchronous run. */
function states(events: StreamEvent[], options: ChatStateOptions & { readonly tools?: ToolSchemas } = {}): ChatState[] {
  let out: ChatState[] = [];
  const operator = options.tools === undefined ? chatState(options) : chatState({ ...options, tools: options.tools });
  from(events)
    .pipe(operator, toArray())
    .subscribe((v) => (out = v));
  return out;
}

/** A call without its result, for comparisons. */
const view = (call: ChatStateCall | undefined) =>
  call && { id: call.id, name: call.name, args: call.partialArguments, openPath: call.openPath, result: call.result === undefined ? undefined : call.result.success ? 'ok' : call.result.error.code };

describe('chatState()', () => {
  standardCases(() => chatState(), [text('Hi'), open(0, 'c1', 'f'), frag(0, '{"a": 1}')], {
    endsWith: {
      completed: { status: 'done', text: '', reasoning: '', calls: [], finishReason: undefined, usage: undefined },
      failed: (error) => expect.objectContaining({ status: 'error', error }),
    },
  });

  it('the doc diagram: text, a call growing, its result and the finish, then done', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<StreamEvent>('--t--o--a--b--F--d--|', { t: text('Hi'), o: open(0, 'c1', 'get_weather'), a: frag(0, '{"city": "Pa'), b: frag(0, 'ris"}'), F: finish(), d: done });
      const base = { text: 'Hi', reasoning: '', finishReason: undefined, usage: undefined };
      const call = { id: 'c1', name: 'get_weather', index: 0, choice: 0 };
      const final = { ...call, partialArguments: { city: 'Paris' }, result: { success: true, data: { ...call, arguments: { city: 'Paris' }, rawArguments: '{"city": "Paris"}' } } };
      expectObservable(source.pipe(chatState())).toBe('--1--2--3--4--5-----(6|)', {
        1: { ...base, status: 'streaming', calls: [] },
        2: { ...base, status: 'streaming', calls: [{ ...call, partialArguments: {}, openPath: [] }] },
        3: { ...base, status: 'streaming', calls: [{ ...call, partialArguments: { city: 'Pa' }, openPath: ['city'] }] },
        4: { ...base, status: 'streaming', calls: [{ ...call, partialArguments: { city: 'Paris' } }] },
        5: { ...base, status: 'streaming', finishReason: 'tool-calls', calls: [final] },
        6: { ...base, status: 'done', finishReason: 'tool-calls', calls: [final] },
      });
    });
  });

  it('the doc diagram: a truncated stream keeps the text and the partial arguments, with an incomplete result, and completes', () => {
    const truncated = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no finish_reason and no [DONE]' });
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<StreamEvent>('--t--o--a--#', { t: text('Hi'), o: open(0, 'c1', 'get_weather'), a: frag(0, '{"city": "Pa') }, truncated);
      const out = source.pipe(
        chatState(),
        map((s) => ({
          status: s.status,
          text: s.text,
          error: s.error,
          calls: s.calls.map((c) => [c.partialArguments, c.result?.success === false && c.result.error.code === 'incomplete' ? `${c.result.error.code}:${c.result.error.reason}` : c.result?.success]),
        })),
      );
      expectObservable(out).toBe('--1--2--3--(4|)', {
        1: { status: 'streaming', text: 'Hi', error: undefined, calls: [] },
        2: { status: 'streaming', text: 'Hi', error: undefined, calls: [[{}, undefined]] },
        3: { status: 'streaming', text: 'Hi', error: undefined, calls: [[{ city: 'Pa' }, undefined]] },
        4: { status: 'error', text: 'Hi', error: truncated, calls: [[{ city: 'Pa' }, 'incomplete:truncated']] },
      });
    });
  });

  it('keeps the identity of what did not change; copies calls only when one changes', () => {
    const out = states([open(0, 'a', 'f'), open(1, 'b', 'g'), frag(0, '{"x": "1'), text('one'), frag(1, '{"y": 2'), text('two'), usage({ inputTokens: 5 }), finish(), done]);
    for (let i = 1; i < out.length; i++) {
      const [prev, next] = [out[i - 1]!, out[i]!];
      expect(next).not.toBe(prev);
      const callsChanged = next.calls.some((c, k) => c !== prev.calls[k]) || next.calls.length !== prev.calls.length;
      expect(next.calls === prev.calls).toBe(!callsChanged);
      if (next.usage !== undefined && prev.usage !== undefined) expect(next.usage).toBe(prev.usage);
    }
    const [, , afterX, afterText, afterY] = out;
    expect(afterText!.calls).toBe(afterX!.calls); // text only: the same array
    expect(afterY!.calls[0]).toBe(afterX!.calls[0]); // call b changed: call a is the same object
    expect(afterY!.calls[1]).not.toBe(afterX!.calls[1]);
  });

  it('emits nothing for events that change nothing: metadata, whitespace, half a number, empty text', () => {
    const out = states([{ type: 'metadata', provider: 'openai-chat', model: 'm' }, open(0, 'a', 'f'), frag(0, '  '), frag(0, '{"n": 1'), frag(0, '2'), text(''), frag(0, '}'), done]);
    expect(out.map((s) => [s.status, view(s.calls[0])?.args])).toEqual([
      ['streaming', {}],
      ['streaming', {}], // '{"n": 1…': the root opened and `n` is being received (openPath ['n'])
      ['streaming', { n: 12 }],
      ['streaming', { n: 12 }], // done: the result
      ['done', { n: 12 }],
    ]);
    expect(out[1]!.calls[0]!.openPath).toEqual(['n']);
    expect(out[2]!.calls[0]!.openPath).toBeUndefined();
    expect('openPath' in out[2]!.calls[0]!).toBe(false);
  });

  it('shows one choice: the others’ text, calls and finish are ignored', () => {
    const out = states([text('zero'), text('one', 1), open(0, 'a', 'f', 1), frag(0, '{}', 1), open(0, 'b', 'g'), frag(0, '{}'), finish('stop', 1), finish('tool-calls')]);
    const last = out.at(-1)!;
    expect([last.text, last.calls.map((c) => c.id), last.finishReason]).toEqual(['zero', ['b'], 'tool-calls']);
    const second = states([text('zero'), text('one', 1), open(0, 'a', 'f', 1), frag(0, '{}', 1), finish('stop', 1)], { choice: 1 }).at(-1)!;
    expect([second.text, second.calls.map((c) => [c.id, c.choice, c.result?.success]), second.finishReason]).toEqual(['one', [['a', 1, true]], 'stop']);
  });

  it('a malformed call stops growing and gets its typed error; its sibling goes on', () => {
    const out = states([open(0, 'a', 'f'), open(1, 'b', 'g'), frag(0, '{"a": "b'), frag(0, '" x'), frag(1, '{"ok": tr'), frag(1, 'ue}'), frag(0, '}'), finish()]);
    const last = out.at(-1)!;
    expect(last.calls.map(view)).toEqual([
      { id: 'a', name: 'f', args: { a: 'b' }, openPath: ['a'], result: 'malformed-arguments' },
      { id: 'b', name: 'g', args: { ok: true }, openPath: undefined, result: 'ok' },
    ]);
  });

  it('merges usage: later counts win, counts a later event omits are kept', () => {
    const last = states([usage({ inputTokens: 10 }), usage({ outputTokens: 3 }), usage({ outputTokens: 7, totalTokens: 17 })]).at(-1)!;
    expect(last.usage).toEqual({ inputTokens: 10, outputTokens: 7, totalTokens: 17, raw: { outputTokens: 7, totalTokens: 17 } });
  });

  it('collects reasoning apart from the text', () => {
    const last = states([{ type: 'reasoning-delta', choice: 0, text: 'think' }, { type: 'reasoning-delta', choice: 0, text: '', signature: 's' }, text('say')]).at(-1)!;
    expect([last.reasoning, last.text, last.status]).toEqual(['think', 'say', 'done']);
  });

  it('too-many-tool-calls: the open calls are incomplete, the last state has the error, and it completes', () => {
    const values: ChatState[] = [];
    let completed = false;
    let errored = false;
    from([open(0, 'a', 'f'), frag(0, '{"q": "x'), open(1, 'b', 'g')])
      .pipe(chatState({ maxToolCalls: 1 }))
      .subscribe({ next: (s) => values.push(s), error: () => (errored = true), complete: () => (completed = true) });
    const last = values.at(-1)!;
    expect([completed, errored, last.status]).toEqual([true, false, 'error']);
    expect(last.error).toMatchObject({ name: 'ToolStreamError', code: 'too-many-tool-calls' });
    expect(last.calls.map(view)).toEqual([{ id: 'a', name: 'f', args: { q: 'x' }, openPath: ['q'], result: 'incomplete' }]);
  });

  it('arguments past maxArgumentsSize: arguments-too-large, the stream goes on', () => {
    const last = states([open(0, 'a', 'f'), frag(0, '{"q": "xxxxxxxx'), open(1, 'b', 'g'), frag(1, '{}'), finish()], { maxArgumentsSize: 8 }).at(-1)!;
    expect(last.calls.map((c) => (c.result?.success === false ? c.result.error.code : 'ok'))).toEqual(['arguments-too-large', 'ok']);
    expect(last.status).toBe('done');
  });

  it('a replace delta starts the arguments over', () => {
    const replace: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"q":"full"}', replace: true };
    const out = states([open(0, 'a', 'f'), frag(0, '{"q":"fu'), replace, finish()]);
    expect(out.map((s) => s.calls[0]?.partialArguments)).toEqual([{}, { q: 'fu' }, { q: 'full' }, { q: 'full' }, { q: 'full' }]);
  });

  it("a custom tool's call shows its text as it grows, as partialToolCalls() shows it", () => {
    const custom: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'p', name: 'apply_patch', argumentsDelta: '', kind: 'custom' };
    const out = states([custom, frag(0, '*** Begin'), frag(0, ' Patch\n'), finish()]);
    expect(out.map((s) => [s.calls[0]?.partialArguments, s.calls[0]?.openPath])).toEqual([
      ['', []],
      ['*** Begin', []],
      ['*** Begin Patch\n', []],
      ['*** Begin Patch\n', undefined],
      ['*** Begin Patch\n', undefined],
    ]);
    expect(out.at(-1)?.calls[0]?.result).toMatchObject({ success: true, data: { arguments: '*** Begin Patch\n' } });
  });

  it('allowPartialLiterals shows numbers before they are complete', () => {
    const args = (options: ChatStateOptions) => states([open(0, 'a', 'f'), frag(0, '{"n": 1'), frag(0, '2'), frag(0, '3}')], options).map((s) => s.calls[0]?.partialArguments);
    // the last value: the source completed (the result and status 'done' in one state)
    expect(args({ allowPartialLiterals: true })).toEqual([{}, { n: 1 }, { n: 12 }, { n: 123 }, { n: 123 }]);
    expect(args({})).toEqual([{}, {}, { n: 123 }, { n: 123 }]);
  });

  describe('with tools', () => {
    const tools = { get_weather: z.object({ city: z.string(), days: z.number().default(1) }) };

    it('validates each call when it closes: the schema output, invalid-arguments, unknown-tool', () => {
      const last = states([open(0, 'a', 'get_weather'), frag(0, '{"city": "Oslo"}'), open(1, 'b', 'get_weather'), frag(1, '{"city": 5}'), open(2, 'c', 'get_stock'), frag(2, '{}'), finish()], {
        tools,
      }).at(-1)!;
      expect(last.calls.map((c) => [c.partialArguments, c.result?.success ? 'ok' : c.result?.error.code])).toEqual([
        [{ city: 'Oslo', days: 1 }, 'ok'],
        [{ city: 5 }, 'invalid-arguments'],
        [{}, 'unknown-tool'],
      ]);
    });

    it('an asynchronous validator: the result shows when it settles, and the last state waits for it', async () => {
      const slow: StandardSchemaV1<unknown, { q: string }> = {
        '~standard': { version: 1, vendor: 'test', validate: (value) => new Promise((resolve) => setTimeout(() => resolve({ value: value as { q: string } }), 5)) },
      };
      const values: ChatState[] = [];
      await new Promise<void>((resolve, reject) =>
        concat(
          from([open(0, 'a', 'search'), frag(0, '{"q": "x"}'), finish()]),
          throwError(() => new Error('cut')),
        )
          .pipe(chatState({ tools: { search: slow } }))
          .subscribe({ next: (s) => values.push(s), error: reject, complete: resolve }),
      );
      expect(values.map((s) => [s.status, s.calls[0]?.result?.success])).toEqual([
        ['streaming', undefined],
        ['streaming', undefined],
        ['streaming', undefined], // the call closed: final arguments, validation pending
        ['error', true], // the error waited for the validation
      ]);
    });

    it('a validator that throws gives invalid-arguments', () => {
      const throwing: StandardSchemaV1 = {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: () => {
            throw new Error('boom');
          },
        },
      };
      const last = states([open(0, 'a', 't'), frag(0, '{}'), finish()], { tools: { t: throwing } }).at(-1)!;
      expect(last.calls[0]?.result?.success === false && last.calls[0].result.error.message).toMatch(/the validator threw: boom/);
    });
  });
});
