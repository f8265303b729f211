import { openaiResponses, type FramedRecord, type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { sse, testScheduler } from '../helpers/marbles';

const P = 'openai-responses';
const response = (status: string, extra: Record<string, unknown> = {}) => ({ id: 'resp_1', model: 'gpt-5', status, output: [], ...extra });
const created = sse('response.created', { type: 'response.created', sequence_number: 0, response: response('in_progress') });
const added = (outputIndex: number, callId: string, name: string, args = '') =>
  sse('response.output_item.added', {
    type: 'response.output_item.added',
    output_index: outputIndex,
    item: { type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: args, status: 'in_progress' },
  });
const argDelta = (outputIndex: number, delta: string) =>
  sse('response.function_call_arguments.delta', { type: 'response.function_call_arguments.delta', output_index: outputIndex, item_id: 'fc_x', delta });
const argDone = (outputIndex: number, args: string) => sse('response.function_call_arguments.done', { type: 'response.function_call_arguments.done', output_index: outputIndex, arguments: args });
const itemDone = (outputIndex: number, callId: string, name: string, args: string) =>
  sse('response.output_item.done', {
    type: 'response.output_item.done',
    output_index: outputIndex,
    item: { type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: args, status: 'completed' },
  });
const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 2 }, output_tokens_details: { reasoning_tokens: 1 } };
const completed = sse('response.completed', { type: 'response.completed', response: response('completed', { usage }) });

const meta: StreamEvent = { type: 'metadata', provider: P, responseId: 'resp_1', model: 'gpt-5' };
const usageEvent: StreamEvent = { type: 'usage', inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 2, reasoningTokens: 1, raw: usage };
const done: StreamEvent = { type: 'done' };

describe('openaiResponses()', () => {
  it('maps text, a streamed function call, its end, usage, finish and done', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-c-t-a-x-y-X-o-C-----|', {
        c: created,
        t: sse('response.output_text.delta', { type: 'response.output_text.delta', output_index: 0, delta: 'Hi' }),
        a: added(1, 'call_1', 'get_weather'),
        x: argDelta(1, '{"city":'),
        y: argDelta(1, '"Paris"}'),
        X: argDone(1, '{"city":"Paris"}'),
        o: itemDone(1, 'call_1', 'get_weather', '{"city":"Paris"}'),
        C: completed,
      });
      expectObservable(source.pipe(openaiResponses())).toBe('-m-t-a-x-y-X-o-(ufd)-|', {
        m: meta,
        t: { type: 'text-delta', choice: 0, text: 'Hi' },
        a: { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_1', name: 'get_weather', argumentsDelta: '', metadata: { itemId: 'fc_call_1' } },
        x: { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_1', argumentsDelta: '{"city":' },
        y: { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_1', argumentsDelta: '"Paris"}' },
        X: { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_1', argumentsDelta: '{"city":"Paris"}', replace: true },
        o: { type: 'tool-call-end', choice: 0, index: 1, id: 'call_1' },
        u: usageEvent,
        f: { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'completed' },
        d: done,
      });
    });
  });

  it('emits a replace delta when only .done carries the arguments (LM Studio)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-X-o-|', { a: added(2, 'call_9', 'weather'), X: argDone(2, '{"location":"SF"}'), o: itemDone(2, 'call_9', 'weather', '{"location":"SF"}') });
      expectObservable(source.pipe(openaiResponses())).toBe(
        '-a-X-o-#',
        {
          a: { type: 'tool-call-delta', choice: 0, index: 2, id: 'call_9', name: 'weather', argumentsDelta: '', metadata: { itemId: 'fc_call_9' } },
          X: { type: 'tool-call-delta', choice: 0, index: 2, id: 'call_9', argumentsDelta: '{"location":"SF"}', replace: true },
          o: { type: 'tool-call-end', choice: 0, index: 2, id: 'call_9' },
        },
        new ToolStreamError('truncated', { provider: P, detail: 'no response.completed, response.incomplete or response.failed arrived' }),
      );
    });
  });

  it('the full arguments of .done or output_item.done replace the streamed text, once', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-x-o----C------|', { a: added(0, 'c', 'f'), x: argDelta(0, '{"a":1'), o: itemDone(0, 'c', 'f', '{"a":1}'), C: completed });
      expectObservable(source.pipe(openaiResponses())).toBe('-a-x-(ro)-(mufd)-|', {
        m: meta,
        a: { type: 'tool-call-delta', choice: 0, index: 0, id: 'c', name: 'f', argumentsDelta: '', metadata: { itemId: 'fc_c' } },
        x: { type: 'tool-call-delta', choice: 0, index: 0, id: 'c', argumentsDelta: '{"a":1' },
        r: { type: 'tool-call-delta', choice: 0, index: 0, id: 'c', argumentsDelta: '{"a":1}', replace: true },
        o: { type: 'tool-call-end', choice: 0, index: 0, id: 'c' },
        u: usageEvent,
        f: { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'completed' },
        d: done,
      });
    });
  });

  it('reads the payload type when the SSE event name is missing (Bedrock Mantle data-before-event)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-C-----|', {
        a: sse('message', { type: 'response.reasoning_summary_text.delta', delta: 'thinking' }),
        C: sse('message', { type: 'response.completed', response: response('completed') }),
      });
      expectObservable(source.pipe(openaiResponses())).toBe('-a-(mfd)-|', {
        a: { type: 'reasoning-delta', choice: 0, text: 'thinking' },
        m: meta,
        f: { type: 'finish', choice: 0, reason: 'stop', rawReason: 'completed' },
        d: done,
      });
    });
  });

  it('response.incomplete ends open calls incomplete and finishes with length', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-x-I------|', {
        a: added(0, 'c', 'f'),
        x: argDelta(0, '{"a":'),
        I: sse('response.incomplete', { type: 'response.incomplete', response: response('incomplete', { incomplete_details: { reason: 'max_output_tokens' } }) }),
      });
      expectObservable(source.pipe(openaiResponses())).toBe('-a-x-(mefd)-|', {
        a: { type: 'tool-call-delta', choice: 0, index: 0, id: 'c', name: 'f', argumentsDelta: '', metadata: { itemId: 'fc_c' } },
        x: { type: 'tool-call-delta', choice: 0, index: 0, id: 'c', argumentsDelta: '{"a":' },
        m: meta,
        e: { type: 'tool-call-end', choice: 0, index: 0, id: 'c', incomplete: true, finishReason: 'length' },
        f: { type: 'finish', choice: 0, reason: 'length', rawReason: 'incomplete' },
        d: done,
      });
    });
  });

  it('an error event ends the stream with a provider-error (insufficient_quota is not retryable)', () => {
    const payload = { type: 'error', sequence_number: 2, error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota', param: null } };
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-c-e-|', { c: created, e: sse('error', payload) });
      expectObservable(source.pipe(openaiResponses())).toBe(
        '-m-#',
        { m: meta },
        new ToolStreamError('provider-error', {
          provider: P,
          providerCode: 'insufficient_quota',
          type: 'insufficient_quota',
          message: 'You exceeded your current quota',
          status: undefined,
          retryable: false,
          payload,
        }),
      );
    });
  });

  it('response.failed and flat error payloads carry a correct retryable', () => {
    const decoder = openaiResponses.decoder();
    const failed = { type: 'response.failed', response: response('failed', { error: { code: 'server_error', message: 'boom' } }) };
    expect(() => decoder.payload('response.failed', failed, () => undefined)).toThrow(
      expect.objectContaining({ code: 'provider-error', providerCode: 'server_error', retryable: true, message: expect.stringContaining('boom') }),
    );
    const flat = { type: 'error', code: 'rate_limit_exceeded', message: 'slow down', param: null };
    expect(() => openaiResponses.decoder().sse(sse('error', flat), () => undefined)).toThrow(expect.objectContaining({ providerCode: 'rate_limit_exceeded', type: undefined, retryable: true }));
    expect(() => openaiResponses.decoder().sse(sse('error', 'upstream gone'), () => undefined)).toThrow(expect.objectContaining({ message: expect.stringContaining('upstream gone') }));
  });

  it('rejects data that is not JSON or not an object with invalid-event', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-|', { a: sse('response.created', '[1,2]') }).pipe(openaiResponses())).toBe(
        '-#',
        {},
        new ToolStreamError('invalid-event', { provider: P, data: '[1,2]', detail: 'an event must be a JSON object' }),
      );
    });
    expect(() => openaiResponses.decoder().sse(sse('response.created', '{oops'), () => undefined)).toThrow();
  });

  it('takes events in arrival order whatever their sequence_number', () => {
    const out: StreamEvent[] = [];
    const decoder = openaiResponses.decoder();
    const text = (n: number, delta: string) => sse('response.output_text.delta', { type: 'response.output_text.delta', sequence_number: n, delta });
    for (const event of [text(1, 'a'), text(0, 'b'), text(0, 'c')]) decoder.sse(event, (e) => out.push(e));
    expect(out.map((e) => (e.type === 'text-delta' ? e.text : '')).join('')).toBe('abc');
  });

  it('emits calls that only appear in the final response', () => {
    const out: StreamEvent[] = [];
    openaiResponses
      .decoder()
      .payload(
        'response.completed',
        { type: 'response.completed', response: response('completed', { output: [{ type: 'message' }, { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' }] }) },
        (e) => out.push(e),
      );
    expect(out).toEqual([
      meta,
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_1', name: 'f', argumentsDelta: '{}', replace: true, metadata: { itemId: 'fc_1' } },
      { type: 'tool-call-end', choice: 0, index: 1, id: 'call_1' },
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'completed' },
      done,
    ]);
  });

  it('ignores everything after the terminator', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-C-t-----|', { C: completed, t: sse('response.output_text.delta', { delta: 'late' }) }).pipe(openaiResponses())).toBe('-(mufd)--|', {
        m: meta,
        u: usageEvent,
        f: { type: 'finish', choice: 0, reason: 'stop', rawReason: 'completed' },
        d: done,
      });
    });
  });

  it('standard cases: empty source is truncated, source errors pass through, unsubscribing unsubscribes the source', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      expectObservable(cold<FramedRecord>('|').pipe(openaiResponses())).toBe(
        '#',
        {},
        new ToolStreamError('truncated', { provider: P, detail: 'no response.completed, response.incomplete or response.failed arrived' }),
      );
      expectObservable(cold('-c-#', { c: created }, new Error('network')).pipe(openaiResponses())).toBe('-m-#', { m: meta }, new Error('network'));
      const source = cold('-c-a-x-', { c: created, a: added(0, 'c', 'f'), x: argDelta(0, '{') });
      expectObservable(source.pipe(openaiResponses()), '^--!').toBe('-m-', { m: meta });
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('a truncated stream names the open calls', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-|', { a: added(0, 'c', 'f') }).pipe(openaiResponses())).toBe(
        '-a-#',
        {
          a: { type: 'tool-call-delta', choice: 0, index: 0, id: 'c', name: 'f', argumentsDelta: '', metadata: { itemId: 'fc_c' } },
        },
        new ToolStreamError('truncated', { provider: P, detail: 'no response.completed, response.incomplete or response.failed arrived (1 function call still open)' }),
      );
    });
  });
});
