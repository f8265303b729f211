import { from, Observable, take } from 'rxjs';
import { openaiChat, type FramedRecord, type StreamEvent, type ToolStreamError } from 'rxjs-tool-calls';
import { testScheduler } from '../helpers/marbles';

const sse = (data: unknown, event = 'message'): FramedRecord => ({ event, data: typeof data === 'string' ? data : JSON.stringify(data), id: undefined, retry: undefined });
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => sse({ object: 'chat.completion.chunk', choices, ...extra });
const DONE = sse('[DONE]');

/** Run events through the adapter synchronously; collect the values and the error. */
function run(events: FramedRecord[]): { out: StreamEvent[]; error: unknown } {
  const out: StreamEvent[] = [];
  let error: unknown;
  from(events)
    .pipe(openaiChat())
    .subscribe({ next: (v) => out.push(v), error: (e: unknown) => (error = e) });
  return { out, error };
}

describe('openaiChat()', () => {
  it('maps text, tool-call deltas, finish, usage, metadata and [DONE]', () => {
    const { out, error } = run([
      chunk([{ index: 0, delta: { role: 'assistant', content: 'Hi' } }], { id: 'chatcmpl-1', model: 'gpt' }),
      chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] } }]),
      chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] } }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
      chunk([], { usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }),
      DONE,
    ]);
    expect(error).toBeUndefined();
    expect(out).toEqual([
      { type: 'metadata', provider: 'openai-chat', responseId: 'chatcmpl-1', model: 'gpt' },
      { type: 'text-delta', choice: 0, text: 'Hi' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'f', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"a":1}' },
      // The finish is held until [DONE] (rule `when-complete`): fragments may still follow it.
      { type: 'usage', inputTokens: 3, outputTokens: 4, totalTokens: 7, raw: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } },
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
      { type: 'done' },
    ]);
  });

  it('ignores empty choices, missing choices, choices without delta, tool_calls: null and content: null', () => {
    const { out, error } = run([
      sse({ choices: [], prompt_filter_results: [{ prompt_index: 0 }] }),
      sse({ object: 'x' }),
      chunk([{ index: 0 }]),
      chunk([{ index: 0, delta: { content: null, tool_calls: null } }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      DONE,
    ]);
    expect(error).toBeUndefined();
    expect(out).toEqual([{ type: 'finish', choice: 0, reason: 'stop', rawReason: 'stop' }, { type: 'done' }]);
  });

  it('reads reasoning_content and reasoning (the latter, and Mistral thinking parts, marked with their field)', () => {
    const { out } = run([
      chunk([{ index: 0, delta: { reasoning_content: 'think' } }]),
      chunk([{ index: 0, delta: { reasoning: 'more' } }]),
      chunk([{ index: 0, delta: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'mistral' }] }] } }]),
      DONE,
    ]);
    expect(out).toEqual([
      { type: 'reasoning-delta', choice: 0, text: 'think' },
      { type: 'reasoning-delta', choice: 0, text: 'more', metadata: { field: 'reasoning' } },
      { type: 'reasoning-delta', choice: 0, text: 'mistral', metadata: { field: 'thinking' } },
      { type: 'done' },
    ]);
  });

  it('reads legacy delta.function_call as a call without index or id', () => {
    const { out } = run([chunk([{ index: 0, delta: { function_call: { name: 'f', arguments: '' } } }]), chunk([{ index: 0, delta: { function_call: { arguments: '{}' } } }]), DONE]);
    expect(out.slice(0, 2)).toEqual([
      { type: 'tool-call-delta', choice: 0, name: 'f', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, argumentsDelta: '{}' },
    ]);
  });

  it('serialises arguments sent as a JSON object, and keeps ids and names strings', () => {
    const { out } = run([chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: 7, function: { name: { evil: 1 }, arguments: { city: 'Paris' } } }] } }]), DONE]);
    expect(out[0]).toEqual({ type: 'tool-call-delta', choice: 0, index: 0, id: '7', argumentsDelta: '{"city":"Paris"}' });
  });

  it("passes a call's extra_content (Gemini compatibility) as metadata, with the thought signature", () => {
    const extra = { google: { thought_signature: 'sig' } };
    const { out } = run([
      chunk([
        {
          index: 0,
          delta: {
            tool_calls: [
              { id: 'f1', function: { name: 'f', arguments: '{}' }, extra_content: extra },
              { id: 'f2', function: { name: 'f', arguments: '{}' }, extra_content: { other: 1 } },
            ],
          },
        },
      ]),
      DONE,
    ]);
    expect(out.slice(0, 2)).toEqual([
      { type: 'tool-call-delta', choice: 0, id: 'f1', name: 'f', argumentsDelta: '{}', metadata: { extraContent: extra, thoughtSignature: 'sig' } },
      { type: 'tool-call-delta', choice: 0, id: 'f2', name: 'f', argumentsDelta: '{}', metadata: { extraContent: { other: 1 } } },
    ]);
  });

  it('keeps choices apart (n > 1) and finishes each at the end, in order of first sight', () => {
    const { out } = run([
      chunk([
        { index: 0, delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] } },
        { index: 1, delta: { tool_calls: [{ index: 0, id: 'b', function: { name: 'f', arguments: '{}' } }] } },
      ]),
      chunk([
        { index: 1, delta: {}, finish_reason: 'tool_calls' },
        { index: 0, delta: {}, finish_reason: 'tool_calls' },
      ]),
    ]);
    // Every choice finished and the stream ended without [DONE]: complete.
    expect(out.map((e) => `${e.type}:${'choice' in e ? e.choice : ''}`)).toEqual(['tool-call-delta:0', 'tool-call-delta:1', 'finish:0', 'finish:1', 'done:']);
  });

  it('emits usage once per change (vLLM repeats it on every chunk)', () => {
    const u = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    const { out } = run([chunk([{ index: 0, delta: { content: 'a' } }], { usage: u }), chunk([{ index: 0, delta: { content: 'b' } }], { usage: u }), DONE]);
    expect(out.filter((e) => e.type === 'usage')).toHaveLength(1);
  });

  it('turns an error envelope in a data line into a provider-error', () => {
    const { out, error } = run([chunk([{ index: 0, delta: { content: 'a' } }]), sse({ error: { message: 'Rate limit', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }), DONE]);
    expect(out).toEqual([{ type: 'text-delta', choice: 0, text: 'a' }]);
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
    const e = error as ToolStreamError<'provider-error'>;
    expect([e.code, e.providerCode, e.type, e.message.includes('Rate limit'), e.retryable]).toEqual(['provider-error', 'rate_limit_exceeded', 'rate_limit_error', true, true]);
  });

  it('turns event: error into a provider-error, also when its data is plain text', () => {
    expect(run([sse({ error: { message: 'bad', type: 'invalid_request_error', code: 'tool_use_failed' } }, 'error')]).error).toMatchObject({
      code: 'provider-error',
      providerCode: 'tool_use_failed',
      retryable: false,
    });
    expect(run([sse('upstream exploded', 'error')]).error).toMatchObject({ code: 'provider-error', message: expect.stringContaining('upstream exploded') });
  });

  it('reads a numeric error code as an HTTP status (OpenRouter)', () => {
    const { error } = run([chunk([{ index: 0, delta: {} }], { error: { code: 503, message: 'down' } })]);
    expect(error).toMatchObject({ code: 'provider-error', status: 503, retryable: true });
  });

  it('ignores placeholder errors with only empty fields (Copilot)', () => {
    expect(run([chunk([], { error: { code: '', message: '' } }), chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]), DONE]).error).toBeUndefined();
  });

  it('rejects data that is not JSON or not an object with invalid-event', () => {
    for (const data of ['not json', '[]', 'null', '"x"', '5']) {
      const { error } = run([sse(data)]);
      expect(error).toMatchObject({ name: 'ToolStreamError', code: 'invalid-event' });
      expect((error as ToolStreamError<'invalid-event'>).data).toBe(data);
    }
    expect(run([sse({ choices: 5 })]).error).toMatchObject({ name: 'ToolStreamError', code: 'invalid-event' });
  });

  it('ends with truncated when a choice never finished and no [DONE] came', () => {
    expect(run([chunk([{ index: 0, delta: { content: 'a' } }])]).error).toMatchObject({ name: 'ToolStreamError', code: 'truncated' });
    expect(run([]).error).toMatchObject({ name: 'ToolStreamError', code: 'truncated' });
    expect(run([chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]), chunk([{ index: 1, delta: { content: 'b' } }])]).error).toMatchObject({ name: 'ToolStreamError', code: 'truncated' });
  });

  it('completes without [DONE] when every choice finished', () => {
    const { error } = run([chunk([{ index: 0, delta: { content: 'a' } }]), chunk([{ index: 0, delta: {}, finish_reason: 'stop' }])]);
    expect(error).toBeUndefined();
  });

  it('ignores everything after [DONE]', () => {
    const { out, error } = run([chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]), DONE, sse('garbage')]);
    expect(error).toBeUndefined();
    expect(out.at(-1)).toEqual({ type: 'done' });
  });

  it('normalises finish reasons', () => {
    const reasons = ['stop', 'length', 'tool_calls', 'function_call', 'content_filter', 'weird'].map((r) => {
      const { out } = run([chunk([{ index: 0, delta: {}, finish_reason: r }]), DONE]);
      return out[0]?.type === 'finish' ? out[0].reason : undefined;
    });
    expect(reasons).toEqual(['stop', 'length', 'tool-calls', 'tool-calls', 'content-filter', 'other']);
  });

  it('marble: passes values in time, unsubscribes the source on early unsubscribe', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<FramedRecord>('-a--b--c---|', { a: chunk([{ index: 0, delta: { content: 'x' } }]), b: chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]), c: DONE }); // the finish is held until [DONE]
      expectObservable(src.pipe(openaiChat())).toBe('-t-----(fd)|', {
        t: { type: 'text-delta', choice: 0, text: 'x' },
        f: { type: 'finish', choice: 0, reason: 'stop', rawReason: 'stop' },
        d: { type: 'done' },
      });
      const src2 = cold<FramedRecord>('-a--b--c|', { a: chunk([{ index: 0, delta: { content: 'x' } }]), b: DONE, c: DONE });
      expectObservable(src2.pipe(openaiChat()), '--!').toBe('-t-', { t: { type: 'text-delta', choice: 0, text: 'x' } });
      expectSubscriptions(src2.subscriptions).toBe('^-!');
    });
  });

  it('stops a synchronous source cut by take', () => {
    let produced = 0;
    const endless = new Observable<FramedRecord>((subscriber) => {
      while (!subscriber.closed && produced < 100_000) {
        produced++;
        subscriber.next(chunk([{ index: 0, delta: { content: 'x' } }]));
      }
    });
    const seen: StreamEvent[] = [];
    endless.pipe(openaiChat(), take(2)).subscribe((e) => seen.push(e));
    expect(seen).toHaveLength(2);
    expect(produced).toBeLessThanOrEqual(2);
  });

  it('marble: a source error passes through', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<FramedRecord>('-#', undefined, new Error('net')).pipe(openaiChat())).toBe('-#', undefined, new Error('net'));
    });
  });
});
