import { anthropicMessages, type FramedRecord, type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { normalizeAnthropicStopReason } from '../../src/providers/anthropic/decoder';
import { sse, testScheduler } from '../helpers/marbles';

const P = 'anthropic';
const ev = (type: string, body: Record<string, unknown> = {}) => sse(type, { type, ...body });
const start = ev('message_start', { message: { id: 'msg_1', model: 'claude-x', usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 4 } } });
const toolStart = (index: number, input: unknown = {}, type = 'tool_use', caller?: unknown) =>
  ev('content_block_start', { index, content_block: { type, id: `toolu_${index}`, name: 'get_weather', input, ...(caller === undefined ? {} : { caller }) } });
const json = (index: number, partial: string) => ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
const stop = (index: number) => ev('content_block_stop', { index });
const messageDelta = (stopReason: string) => ev('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } });
const messageStop = ev('message_stop');

const meta: StreamEvent = { type: 'metadata', provider: P, responseId: 'msg_1', model: 'claude-x' };
// Usage is normalised: the input counts the cache reads too, the total is computed.
const startUsage: StreamEvent = { type: 'usage', inputTokens: 14, outputTokens: 1, totalTokens: 15, cachedInputTokens: 4, raw: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 4 } };
const endUsage: StreamEvent = { type: 'usage', inputTokens: 14, outputTokens: 20, totalTokens: 34, cachedInputTokens: 4, raw: { output_tokens: 20 } };
const open = (index: number, extra: Partial<StreamEvent> = {}): StreamEvent =>
  ({ type: 'tool-call-delta', choice: 0, index, id: `toolu_${index}`, name: 'get_weather', argumentsDelta: '', metadata: { type: 'tool_use' }, ...extra }) as StreamEvent;
const frag = (index: number, argumentsDelta: string, replace = false): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, argumentsDelta, ...(replace ? { replace: true } : {}) });

describe('anthropicMessages()', () => {
  it('maps text, a streamed tool_use block, stop reason, usage and message_stop (ping ignored)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-s---p-b-t-e-B-j-k-E-D------S-|', {
        s: start,
        p: ev('ping'),
        b: ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        t: ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Checking.' } }),
        e: stop(0),
        B: toolStart(1, {}, 'tool_use', { type: 'direct' }),
        j: json(1, ''),
        k: json(1, '{"city":"Paris"}'),
        E: stop(1),
        D: messageDelta('tool_use'),
        S: messageStop,
      });
      expectObservable(source.pipe(anthropicMessages())).toBe('-(mu)----t---B-j-k-E-(fv)---S-|', {
        m: meta,
        u: startUsage,
        t: { type: 'text-delta', choice: 0, text: 'Checking.' },
        B: open(1, { metadata: { type: 'tool_use', caller: { type: 'direct' } } }),
        j: frag(1, ''),
        k: frag(1, '{"city":"Paris"}'),
        E: { type: 'tool-call-end', choice: 0, index: 1, id: 'toolu_1' },
        f: { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' },
        v: endUsage,
        S: { type: 'done' },
      });
    });
  });

  it('overloaded_error mid-stream ends with a retryable provider-error', () => {
    const payload = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-s----B-j-x-|', { s: start, B: toolStart(0), j: json(0, '{"a"'), x: sse('error', payload) });
      expectObservable(source.pipe(anthropicMessages())).toBe(
        '-(mu)-B-j-#',
        { m: meta, u: startUsage, B: open(0), j: frag(0, '{"a"') },
        new ToolStreamError('provider-error', { provider: P, providerCode: undefined, type: 'overloaded_error', message: 'Overloaded', status: undefined, retryable: true, payload }),
      );
    });
    const thrown = (() => {
      try {
        anthropicMessages.decoder().sse(sse('error', payload), () => undefined);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toMatchObject({ code: 'provider-error', type: 'overloaded_error', retryable: true });
    expect(() => anthropicMessages.decoder().sse(sse('error', { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }), () => undefined)).toThrow(
      expect.objectContaining({ retryable: false }),
    );
  });

  it('max_tokens with an unstopped tool block ends the call incomplete before the finish', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-B-j-D------S-|', { B: toolStart(1), j: json(1, '{"filename": "tax'), D: messageDelta('max_tokens'), S: messageStop });
      expectObservable(source.pipe(anthropicMessages())).toBe('-B-j-(efv)--S-|', {
        B: open(1),
        j: frag(1, '{"filename": "tax'),
        e: { type: 'tool-call-end', choice: 0, index: 1, id: 'toolu_1', incomplete: true, finishReason: 'length' },
        f: { type: 'finish', choice: 0, reason: 'length', rawReason: 'max_tokens' },
        v: { type: 'usage', outputTokens: 20, raw: { output_tokens: 20 } },
        S: { type: 'done' },
      });
    });
  });

  it('emits a complete input from the block start as a replace delta (programmatic tool calling)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const caller = { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' };
      const source = cold('-B-E-|', { B: toolStart(2, { player: 'player1' }, 'tool_use', caller), E: stop(2) });
      expectObservable(source.pipe(anthropicMessages())).toBe(
        '-B-E-#',
        {
          B: open(2, { argumentsDelta: '{"player":"player1"}', replace: true, metadata: { type: 'tool_use', caller } }),
          E: { type: 'tool-call-end', choice: 0, index: 2, id: 'toolu_2' },
        },
        new ToolStreamError('truncated', { provider: P, detail: 'no message_stop arrived' }),
      );
    });
  });

  it('streamed partial_json wins over a block-start input; a {} placeholder just appends', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const prefilled = cold('-B-e-j-k-|', { B: toolStart(0, { a: 1 }), e: json(0, ''), j: json(0, '{"a":'), k: json(0, '2}') });
      expectObservable(prefilled.pipe(anthropicMessages())).toBe(
        '-B-e-j-k-#',
        {
          B: open(0, { argumentsDelta: '{"a":1}', replace: true }),
          e: frag(0, ''),
          j: frag(0, '{"a":', true),
          k: frag(0, '2}'),
        },
        new ToolStreamError('truncated', { provider: P, detail: 'no message_stop arrived (1 tool_use block still open)' }),
      );
      const placeholder = cold('-B-j-k-|', { B: toolStart(0, {}), j: json(0, '{"a":'), k: json(0, '2}') });
      expectObservable(placeholder.pipe(anthropicMessages())).toBe(
        '-B-j-k-#',
        { B: open(0), j: frag(0, '{"a":'), k: frag(0, '2}') },
        new ToolStreamError('truncated', { provider: P, detail: 'no message_stop arrived (1 tool_use block still open)' }),
      );
    });
  });

  it('maps thinking and signature_delta to reasoning, ends the block with its whole part; a server_tool_use block is a provider-tool event, never a call', () => {
    const out: StreamEvent[] = [];
    const decoder = anthropicMessages.decoder();
    for (const event of [
      ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'sig==' } }),
      stop(0),
      toolStart(1, {}, 'server_tool_use'),
    ]) {
      decoder.sse(event, (e) => out.push(e));
    }
    expect(out).toEqual([
      { type: 'reasoning-delta', choice: 0, text: 'Hmm' },
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'sig==' },
      { type: 'reasoning-end', choice: 0, index: 0, text: 'Hmm', signature: 'sig==' },
      {
        type: 'provider-tool',
        choice: 0,
        provider: P,
        index: 1,
        id: 'toolu_1',
        tool: 'get_weather',
        status: 'running',
        raw: { type: 'server_tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
      },
    ]);
  });

  it('reads data lines with trailing whitespace padding and the payload type when the event name is absent', () => {
    const out: StreamEvent[] = [];
    const decoder = anthropicMessages.decoder();
    decoder.sse({ event: 'message', data: '{"type":"message_stop" }      ', id: undefined, retry: undefined }, (e) => out.push(e));
    expect(out).toEqual([{ type: 'done' }]);
    expect(() => decoder.end(() => undefined)).not.toThrow();
  });

  it('normalises stop reasons', () => {
    expect(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'pause_turn', 'model_context_window_exceeded', 'weird'].map(normalizeAnthropicStopReason)).toEqual([
      'stop',
      'tool-calls',
      'length',
      'stop',
      'content-filter',
      'stop',
      'length',
      'other',
    ]);
  });

  it('rejects data that is not a JSON object', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-|', { a: sse('message_start', '"hello"') }).pipe(anthropicMessages())).toBe(
        '-#',
        {},
        new ToolStreamError('invalid-event', { provider: P, data: 'hello', detail: 'an event must be a JSON object' }),
      );
    });
  });

  it('standard cases: empty source is truncated, source errors pass through, unsubscribing unsubscribes the source', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      expectObservable(cold<FramedRecord>('|').pipe(anthropicMessages())).toBe('#', {}, new ToolStreamError('truncated', { provider: P, detail: 'no message_stop arrived' }));
      expectObservable(cold('-s---#', { s: start }, new Error('network')).pipe(anthropicMessages())).toBe('-(mu)#', { m: meta, u: startUsage }, new Error('network'));
      const source = cold('-s---B-j-', { s: start, B: toolStart(0), j: json(0, '{') });
      expectObservable(source.pipe(anthropicMessages()), '^-----!').toBe('-(mu)B', { m: meta, u: startUsage, B: open(0) });
      expectSubscriptions(source.subscriptions).toBe('^-----!');
    });
  });
});
