import { cohereChat, type FramedRecord, type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { normalizeCohereFinishReason } from '../../src/providers/cohere/decoder';
import { sse, testScheduler } from '../helpers/marbles';

const P = 'cohere';
const ev = (type: string, body: Record<string, unknown> = {}) => sse(type, { type, ...body });
const start = ev('message-start', { id: 'm1', delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [] } } });
const plan = (text: string) => ev('tool-plan-delta', { delta: { message: { tool_plan: text } } });
const callStart = (index: number, args = '') =>
  ev('tool-call-start', { index, delta: { message: { tool_calls: { id: `t_${index}`, type: 'function', function: { name: 'weather', arguments: args } } } } });
const callDelta = (index: number, args: string) => ev('tool-call-delta', { index, delta: { message: { tool_calls: { function: { arguments: args } } } } });
const callEnd = (index: number) => ev('tool-call-end', { index });
const usage = { billed_units: { input_tokens: 5, output_tokens: 3 }, tokens: { input_tokens: 50, output_tokens: 30 }, cached_tokens: 20 };
const messageEnd = (reason: string) => ev('message-end', { delta: { finish_reason: reason, usage } });

const meta: StreamEvent = { type: 'metadata', provider: P, responseId: 'm1' };
// Usage is normalised: the total is computed when the provider omits it.
const usageEvent: StreamEvent = { type: 'usage', inputTokens: 50, outputTokens: 30, totalTokens: 80, cachedInputTokens: 20, raw: usage };
const open = (index: number, argumentsDelta = ''): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, id: `t_${index}`, name: 'weather', argumentsDelta });

describe('cohereChat()', () => {
  it('maps the tool plan, a streamed tool call, its end, finish, usage and done', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-s-p-a-x-y-e-E-----|', {
        s: start,
        p: plan('I will'),
        a: callStart(0),
        x: callDelta(0, '{"location":'),
        y: callDelta(0, ' "SF"}'),
        e: callEnd(0),
        E: messageEnd('TOOL_CALL'),
      });
      expectObservable(source.pipe(cohereChat())).toBe('-m-p-a-x-y-e-(fud)-|', {
        m: meta,
        p: { type: 'reasoning-delta', choice: 0, text: 'I will' },
        a: open(0),
        x: { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"location":' },
        y: { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: ' "SF"}' },
        e: { type: 'tool-call-end', choice: 0, index: 0, id: 't_0' },
        f: { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'TOOL_CALL' },
        u: usageEvent,
        d: { type: 'done' },
      });
    });
  });

  it('an empty tool call (start then end, no delta) opens and ends the call with empty arguments', () => {
    const out: StreamEvent[] = [];
    const decoder = cohereChat.decoder();
    for (const event of [start, callStart(0), callEnd(0), messageEnd('TOOL_CALL')]) decoder.sse(event, (e) => out.push(e));
    expect(out.slice(1, 3)).toEqual([open(0, ''), { type: 'tool-call-end', choice: 0, index: 0, id: 't_0' }]);
    expect(() => decoder.end(() => undefined)).not.toThrow();
  });

  it('maps content text and thinking, and ends unended calls incomplete on message-end', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-t-h-a-E------|', {
        t: ev('content-delta', { index: 0, delta: { message: { content: { text: 'Hi' } } } }),
        h: ev('content-delta', { index: 0, delta: { message: { content: { type: 'thinking', thinking: 'hmm' } } } }),
        a: callStart(1, '{"a"'),
        E: messageEnd('MAX_TOKENS'),
      });
      expectObservable(source.pipe(cohereChat())).toBe('-t-h-a-(efud)-|', {
        t: { type: 'text-delta', choice: 0, text: 'Hi' },
        h: { type: 'reasoning-delta', choice: 0, text: 'hmm' },
        a: open(1, '{"a"'),
        e: { type: 'tool-call-end', choice: 0, index: 1, id: 't_1', incomplete: true, finishReason: 'length' },
        f: { type: 'finish', choice: 0, reason: 'length', rawReason: 'MAX_TOKENS' },
        u: usageEvent,
        d: { type: 'done' },
      });
    });
  });

  it('normalises finish reasons', () => {
    expect(['COMPLETE', 'STOP_SEQUENCE', 'TOOL_CALL', 'MAX_TOKENS', 'ERROR', 'ERROR_TOXIC', 'TIMEOUT'].map(normalizeCohereFinishReason)).toEqual([
      'stop',
      'stop',
      'tool-calls',
      'length',
      'error',
      'content-filter',
      'other',
    ]);
  });

  it('ends with a provider-error on event: error and invalid-event on non-object data', () => {
    expect(() => cohereChat.decoder().sse(sse('error', { message: 'too many requests', status: 429 }), () => undefined)).toThrow(
      expect.objectContaining({ code: 'provider-error', status: 429, retryable: true }),
    );
    expect(() => cohereChat.decoder().sse(sse('message-start', 'null'), () => undefined)).toThrow(expect.objectContaining({ name: 'ToolStreamError', code: 'invalid-event' }));
  });

  it('standard cases: empty source and a missing message-end are truncated, source errors pass through, unsubscribing unsubscribes', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      expectObservable(cold<FramedRecord>('|').pipe(cohereChat())).toBe('#', {}, new ToolStreamError('truncated', { provider: P, detail: 'no message-end arrived' }));
      expectObservable(cold('-a-|', { a: callStart(0) }).pipe(cohereChat())).toBe(
        '-a-#',
        { a: open(0) },
        new ToolStreamError('truncated', { provider: P, detail: 'no message-end arrived (1 tool call still open)' }),
      );
      expectObservable(cold('-s-#', { s: start }, new Error('network')).pipe(cohereChat())).toBe('-m-#', { m: meta }, new Error('network'));
      const source = cold('-s-a-', { s: start, a: callStart(0) });
      expectObservable(source.pipe(cohereChat()), '^-!').toBe('-m-', { m: meta });
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });
});
