import { concat, from, map, throwError, toArray, type OperatorFunction } from 'rxjs';
import * as v from 'valibot';
import { z } from 'zod';
import { type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { partialObject, type PartialObjectOptions, type PartialObjectUpdate } from '../../src/operators/partialObject';
import { isSettled } from '../../src/operators/partialToolCalls';
import type { StandardSchemaV1 } from '../../src/parse/standardSchema';
import { testScheduler } from '../helpers/marbles';
import { standardCases } from '../helpers/standardCases';

const t = (text: string, choice = 0): StreamEvent => ({ type: 'text-delta', choice, text });
const finish = (reason: 'stop' | 'length' | 'content-filter' | 'tool-calls' = 'stop', choice = 0): StreamEvent => ({ type: 'finish', choice, reason, rawReason: reason });
const done: StreamEvent = { type: 'done' };
const open = (index: number, id: string, name: string): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, id, name, argumentsDelta: '' });
const frag = (index: number, argumentsDelta: string): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, argumentsDelta });

function run<S extends StandardSchemaV1, E extends StandardSchemaV1>(events: StreamEvent[], options?: PartialObjectOptions<S, E>): PartialObjectUpdate[] {
  let out: PartialObjectUpdate[] = [];
  let failure: unknown;
  from(events)
    .pipe(partialObject(options) as unknown as OperatorFunction<StreamEvent, PartialObjectUpdate>, toArray())
    .subscribe({ next: (v) => (out = v), error: (e: unknown) => (failure = e) });
  if (failure !== undefined) throw failure;
  return out;
}
const last = (updates: PartialObjectUpdate[]) => updates.at(-1) as PartialObjectUpdate;
const resultOf = (updates: PartialObjectUpdate[]) => {
  const u = last(updates);
  if (u.type !== 'result') throw new Error(`last update is ${u.type}`);
  return u.result;
};
const errorOf = (updates: PartialObjectUpdate[]) => {
  const r = resultOf(updates);
  if (r.success) throw new Error('expected a failure');
  return r.error;
};
const values = (updates: PartialObjectUpdate[]) => updates.filter((u) => u.type === 'partial').map((u) => u.value);

const City = z.object({ city: z.string(), days: z.array(z.number()).optional() });

describe('partialObject()', () => {
  standardCases(() => partialObject(), [t('{"a": "x'), t('y"}')]);

  it('emits growing typed values, then the validated result (the doc diagram)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const src = cold<StreamEvent>('--a--b--c--d--F--|', { a: t('{"ci'), b: t('ty": "San'), c: t(' Fran'), d: t('cisco"}'), F: finish() });
      const view = src.pipe(
        partialObject({ schema: City }),
        map((u) => (u.type === 'result' ? { result: u.result } : { value: u.value, open: u.openPath })),
      );
      expectObservable(view).toBe('--p--q--r--s--R--|', {
        p: { value: {}, open: [] },
        q: { value: { city: 'San' }, open: ['city'] },
        r: { value: { city: 'San Fran' }, open: ['city'] },
        s: { value: { city: 'San Francisco' }, open: undefined },
        R: { result: { success: true, data: { city: 'San Francisco' } } },
      });
    });
  });

  it('a finish at length: partial values, then an incomplete result keeping the text (the doc diagram)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const src = cold<StreamEvent>('--a--b--L--|', { a: t('{"city": "Pa'), b: t('ris", "da'), L: finish('length') });
      const view = src.pipe(
        partialObject({ schema: City }),
        map((u) =>
          u.type === 'result'
            ? u.result.success
              ? 'ok'
              : `${u.result.error.code}:${u.result.error.code === 'incomplete' ? u.result.error.reason : ''}:${u.result.error.toolCall.rawArguments}`
            : u.value,
        ),
      );
      expectObservable(view).toBe('--p--q--I--|', { I: 'incomplete:length:{"city": "Paris", "da', p: { city: 'Pa' }, q: { city: 'Paris' } });
    });
  });

  it('a stream error: the incomplete result (the error code as reason), then the error', () => {
    const error = new ToolStreamError('provider-error', { provider: 'openai-chat', providerCode: undefined, type: 'server_error', message: 'boom', status: 500, retryable: true, payload: {} });
    testScheduler().run(({ cold, expectObservable }) => {
      const src = cold<StreamEvent>('-a-#', { a: t('{"city": "Pa') }, error);
      const view = src.pipe(
        partialObject(),
        map((u) => (u.type === 'result' && !u.result.success && u.result.error.code === 'incomplete' ? u.result.error.reason : u.value)),
      );
      expectObservable(view).toBe('-p-(R#)', { p: { city: 'Pa' }, R: 'provider-error' }, error);
    });
  });

  it('strips leading whitespace and one ```json fence (split anywhere)', () => {
    const text = ' \n```json\n{"city": "Oslo"}\n```\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const out = run([t(text.slice(0, cut)), t(text.slice(cut)), finish()], { schema: City });
      expect(resultOf(out)).toEqual({ success: true, data: { city: 'Oslo' } });
    }
    expect(resultOf(run([t('```\n[1, 2]\n```'), finish()]))).toEqual({ success: true, data: [1, 2] });
    expect(resultOf(run([t('```JSON\n{"a": true}'), finish()]))).toEqual({ success: true, data: { a: true } }); // no closing fence: the document is complete
    expect(resultOf(run([t('```json\n4'), t('2```'), finish()]))).toEqual({ success: true, data: 42 });
  });

  it('anything else around the document is malformed-arguments with the raw text and where', () => {
    const cases: Array<[string, number]> = [
      ['Here it is: {"a": 1}', 0],
      ['{"a": 1} Hope this helps', 9],
      ['{"a": 1}\n{"b": 2}', 9],
      ['```python\n{"a": 1}\n```', 0],
      ['```json\n{"a": 1}\n```\nDone.', 21],
      ['{"a": 1}\n```', 9],
      ['```json\n{"a": 1}\n``', 17],
      ['```json {"a": 1}```', 0],
    ];
    for (const [text, position] of cases) {
      const error = errorOf(run([t(text), finish()]));
      expect({ text, code: error.code, raw: error.toolCall.rawArguments, position: error.code === 'malformed-arguments' ? error.position : undefined, source: error.source }).toEqual({
        text,
        code: 'malformed-arguments',
        raw: text,
        position,
        source: 'text',
      });
    }
  });

  it('partial values stop once the text is malformed', () => {
    const out = run([t('{"a": "x"'), t(', oops'), t(', "b": 2}'), finish()]);
    expect(values(out)).toEqual([{ a: 'x' }]);
    expect(errorOf(out)).toMatchObject({ code: 'malformed-arguments', position: 11, source: 'text' });
  });

  it('the model stopping inside the document is malformed; the input ending there is incomplete', () => {
    expect(errorOf(run([t('{"a": [1, 2'), finish('stop')]))).toMatchObject({ code: 'malformed-arguments' });
    expect(errorOf(run([t('{"a": [1, 2'), done]))).toMatchObject({ code: 'malformed-arguments' });
    expect(errorOf(run([t('{"a": [1, 2')]))).toMatchObject({ code: 'incomplete', reason: 'stream-ended' });
    expect(errorOf(run([t('{"a": [1, 2'), finish('content-filter')]))).toMatchObject({ code: 'incomplete', reason: 'content-filter' });
    expect(errorOf(run([t('  '), finish('stop')]))).toMatchObject({ code: 'malformed-arguments', parseError: 'no JSON document in the text' });
    expect(errorOf(run([finish('stop')]))).toMatchObject({ code: 'malformed-arguments', toolCall: { id: 'text', name: '', rawArguments: '' } });
    expect(resultOf(run([t('{"a": 1}'), finish('length')]))).toEqual({ success: true, data: { a: 1 } }); // complete before the cut
    expect(resultOf(run([t('12')]))).toEqual({ success: true, data: 12 }); // a root number ends with the input
  });

  it('text past maxArgumentsSize ends with arguments-too-large, and nothing more is read', () => {
    const out = run([t('{"a": "'), t('xxxx'), t('yyyy"}'), finish()], { maxArgumentsSize: 12 });
    expect(values(out)).toEqual([{ a: '' }, { a: 'xxxx' }]);
    const error = errorOf(out);
    expect(error).toMatchObject({ code: 'arguments-too-large', limit: 12, source: 'text', toolCall: { rawArguments: '{"a": "xxxx' } });
    expect(error.message).toBe('The JSON text of choice 0 exceeds the limit of 12 chars');
    expect(out.filter((u) => u.type === 'result')).toHaveLength(1);
  });

  it('reads only its choice, and stops at its finish', () => {
    const out = run([t('{"a": ', 1), t('{"b": 1}', 0), t('"x"}', 1), finish('stop', 1), finish('stop', 0), t('junk')], { choice: 1 });
    expect(values(out)).toEqual([{}, { a: 'x' }]); // a key shows once its value starts
    expect(resultOf(out)).toEqual({ success: true, data: { a: 'x' } });
    expect(out.every((u) => u.choice === 1)).toBe(true);
  });

  it('invalid-arguments with the issue paths (zod and valibot)', () => {
    const text = '{"city": 5, "days": [1, "two"]}';
    const zodError = errorOf(run([t(text), finish()], { schema: City }));
    expect(zodError.code).toBe('invalid-arguments');
    if (zodError.code !== 'invalid-arguments') return;
    expect(zodError.issues.map((i) => i.path)).toEqual([['city'], ['days', 1]]);
    expect(zodError.value).toEqual(JSON.parse(text));
    expect(zodError.message).toMatch(/^The JSON text of choice 0 has invalid text: city: /);
    const valibotError = errorOf(run([t(text), finish()], { schema: v.object({ city: v.string(), days: v.array(v.number()) }) }));
    expect(valibotError.code === 'invalid-arguments' && valibotError.issues.map((i) => i.path)).toEqual([['city'], ['days', 1]]);
  });

  it('the data is the schema output (transforms applied); the value is the parsed JSON', () => {
    const out = run([t('{"n": "41"}'), finish()], { schema: z.object({ n: z.string().transform((s) => Number(s) + 1) }) });
    const u = last(out);
    expect(u.type === 'result' && u.result).toEqual({ success: true, data: { n: 42 } });
    expect(u.value).toEqual({ n: '41' });
    expect(u.openPath).toBeUndefined();
  });

  it('elements: each element of the root array once, as soon as it is complete, validated', () => {
    const item = v.object({ name: v.string() });
    const out = run([t('[{"name": "a"}, {"na'), t('me": 1}, {"name": "c"'), t('}]'), finish()], { elements: true, elementSchema: item, schema: v.array(item) });
    const elements = out.filter((u) => u.type === 'element');
    expect(elements.map((u) => [u.index, u.result.success ? u.result.data : u.result.error.code])).toEqual([
      [0, { name: 'a' }],
      [1, 'invalid-arguments'],
      [2, { name: 'c' }],
    ]);
    // element 0 comes with the value that completed it, before the later partials
    expect(out.map((u) => u.type)).toEqual(['partial', 'element', 'partial', 'element', 'partial', 'element', 'result']);
    const bad = elements[1];
    expect(bad?.type === 'element' && !bad.result.success && bad.result.error.code === 'invalid-arguments' && bad.result.error.issues[0]?.path).toEqual(['name']);
    expect(errorOf(out)).toMatchObject({ code: 'invalid-arguments' });
  });

  it('elements at a path, including numbers only complete at the end', () => {
    const out = run([t('{"title": "x", "items": [1, 2'), t('3, 4'), t(']}'), finish()], { elements: ['items'] });
    expect(out.filter((u) => u.type === 'element').map((u) => (u.type === 'element' && u.result.success ? [u.index, u.result.data] : undefined))).toEqual([
      [0, 1],
      [1, 23],
      [2, 4],
    ]);
    expect(last(out).type).toBe('result');
  });

  it('isSettled() and openPath tell which fields are final', () => {
    const out = run([t('{"city": "Par'), t('is", "days": [1, 2'), t(']}'), finish()]);
    const [first, second] = out;
    expect(isSettled(first!, ['city'])).toBe(false);
    expect(isSettled(second!, ['city'])).toBe(true);
    expect(isSettled(second!, ['days'])).toBe(false);
    expect(isSettled(second!, ['days', 0])).toBe(true);
    expect(isSettled(last(out), [])).toBe(true);
  });

  it('immutable snapshots by default; live values on request, at the same moments', () => {
    const events = [t('{"a": {"b": "x'), t('y"}, "c": [1'), t(', 2]}'), finish()];
    const immutable = run(events);
    expect(values(immutable)).toEqual([{ a: { b: 'x' } }, { a: { b: 'xy' }, c: [] }, { a: { b: 'xy' }, c: [1, 2] }]); // 1 shows once complete
    const [p, q] = values(immutable) as Array<{ a: unknown }>;
    expect(q!.a).not.toBe(p!.a); // a changed: a new object
    const shown: string[] = [];
    from(events)
      .pipe(partialObject({ snapshots: 'live' }))
      .subscribe((u) => shown.push(JSON.stringify(u.value)));
    expect(shown).toEqual(immutable.map((u) => JSON.stringify(u.value)));
  });

  it('allowPartialLiterals shows numbers and literals as they arrive', () => {
    expect(values(run([t('{"n": 12'), t('3, "ok": tr'), t('ue}'), finish()], { allowPartialLiterals: true }))).toEqual([{ n: 12 }, { n: 123, ok: true }, { n: 123, ok: true }]);
  });

  it('fromTool: reads the arguments of that tool call, with its identity', () => {
    const events = [open(0, 'c0', 'other'), frag(0, '{"x": 1}'), open(1, 'c1', 'answer'), frag(1, '{"city": "Li'), frag(1, 'ma"}'), finish('tool-calls')];
    const out = run(events, { fromTool: 'answer', schema: City });
    expect(values(out)).toEqual([{ city: 'Li' }, { city: 'Lima' }]);
    expect(resultOf(out)).toEqual({ success: true, data: { city: 'Lima' } });
    expect(out.every((u) => u.toolCall?.id === 'c1' && u.toolCall.name === 'answer' && u.toolCall.index === 1)).toBe(true);
  });

  it('fromTool: malformed, cut and missing calls are typed errors about the call', () => {
    const malformed = errorOf(run([open(0, 'c1', 'answer'), frag(0, '{"a": 1} x'), finish('tool-calls')], { fromTool: 'answer' }));
    expect(malformed).toMatchObject({ code: 'malformed-arguments', toolCall: { id: 'c1', name: 'answer', rawArguments: '{"a": 1} x' } });
    expect(malformed.source).toBeUndefined();
    expect(errorOf(run([open(0, 'c1', 'answer'), frag(0, '{"a": 1'), finish('length')], { fromTool: 'answer' }))).toMatchObject({ code: 'incomplete', reason: 'length', toolCall: { id: 'c1' } });
    expect(errorOf(run([t('I cannot'), finish()], { fromTool: 'answer' }))).toMatchObject({
      code: 'malformed-arguments',
      parseError: 'no call of the tool "answer"',
      toolCall: { name: 'answer', rawArguments: '' },
    });
    const invalid = errorOf(run([open(0, 'c1', 'answer'), frag(0, '{"city": 1}'), finish('tool-calls')], { fromTool: 'answer', schema: City }));
    expect(invalid).toMatchObject({ code: 'invalid-arguments', toolCall: { id: 'c1' } });
    expect(invalid.message).toMatch(/^Tool call answer \(c1\) has invalid arguments/);
    const large = errorOf(run([open(0, 'c1', 'answer'), frag(0, '{"a": "long"}'), finish('tool-calls')], { fromTool: 'answer', maxArgumentsSize: 5 }));
    expect([large.code, large.message, large.source]).toEqual(['arguments-too-large', 'Tool call answer (c1) arguments exceed the limit of 5 chars', undefined]);
  });

  it('a restart starts the document over and clears what was shown', () => {
    const restart: StreamEvent = { type: 'restart', attempt: 2, error: new Error('cut') };
    const out = run([t('{"a": "fi'), restart, t('{"a": "second"}'), finish()]);
    expect(out.map((u) => u.value)).toEqual([{ a: 'fi' }, undefined, { a: 'second' }, { a: 'second' }]);
    expect(resultOf(out)).toEqual({ success: true, data: { a: 'second' } });
  });

  it('asynchronous validators delay later updates, never reorder them', async () => {
    const asyncSchema: StandardSchemaV1<unknown, { ok: true }> = {
      '~standard': { version: 1, vendor: 'test', validate: (value) => new Promise((resolve) => setTimeout(() => resolve({ value: { ok: true, of: value } as never }), 5)) },
    };
    const updates: string[] = [];
    await new Promise<void>((resolve, reject) =>
      concat(from([t('[{"a": 1}, {"a": 2}]'), finish()]))
        .pipe(partialObject({ elements: true, elementSchema: asyncSchema, schema: asyncSchema }))
        .subscribe({ next: (u) => updates.push(u.type === 'element' ? `element ${u.index}` : u.type), error: reject, complete: resolve }),
    );
    expect(updates).toEqual(['partial', 'element 0', 'element 1', 'result']);
  });

  it('a source error before anything arrived passes through alone; a plain Error reads as stream-ended', () => {
    const error = new Error('network');
    let received: unknown;
    const out: PartialObjectUpdate[] = [];
    concat(
      from([t('{"a": 1')]),
      throwError(() => error),
    )
      .pipe(partialObject())
      .subscribe({ next: (u) => out.push(u), error: (e: unknown) => (received = e) });
    expect(received).toBe(error);
    expect(errorOf(out)).toMatchObject({ code: 'incomplete', reason: 'stream-ended', source: 'text' });
  });
});
