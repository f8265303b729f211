import { from, map } from 'rxjs';
import { type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import type { ErrorInit } from '../../../src/errors';
import { encodeAnthropicMessages, type EncodeAnthropicMessagesOptions } from 'rxjs-tool-calls/gateway';
import { testScheduler } from '../../helpers/marbles';
import { collect, genIds, view, written, writtenBy } from '../../helpers/reencode';

const encode = (extra: EncodeAnthropicMessagesOptions = {}) => encodeAnthropicMessages({ id: 'msg_1', model: 'm', generateId: genIds(), ...extra });
const ev = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, ...data } });
const start = (index: number, block: unknown) => ev('content_block_start', { index, content_block: block });
const delta = (index: number, d: unknown) => ev('content_block_delta', { index, delta: d });
const stop = (index: number) => ev('content_block_stop', { index });
const messageStart = (usage: unknown) => ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage } });

const m: StreamEvent = { type: 'metadata', provider: 'anthropic', responseId: 'msg_9', model: 'claude' };
const u0: StreamEvent = { type: 'usage', inputTokens: 20, outputTokens: 1, raw: {} };
const r: StreamEvent = { type: 'reasoning-delta', choice: 0, text: 'think' };
const t: StreamEvent = { type: 'text-delta', choice: 0, text: 'Hi' };
const x1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_x', name: 'get_weather', argumentsDelta: '{"city":' };
const x2: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' };
const e: StreamEvent = { type: 'tool-call-end', choice: 0, index: 0 };
const f: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' };
const d: StreamEvent = { type: 'done' };

/** All SSE events the encoder writes for `events` (then `error`, when given). */
const writtenFor = (events: StreamEvent[], extra: EncodeAnthropicMessagesOptions = {}, error?: unknown) => writtenBy(encode(extra), events, error);

describe('encodeAnthropicMessages', () => {
  it('follows the doc diagram: one sequence of block indices for thinking, text and tool_use; a text block after a tool block is a new one', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold('--m--u--r--t--x--y--e--t--f--d|', { m, u: u0, r, t, x: x1, y: x2, e, f, d });
      expectObservable(events.pipe(encode(), map(written))).toBe('--------a--b--c--g--h--i-----k|', {
        a: [messageStart({ input_tokens: 20, output_tokens: 1 }), start(0, { type: 'thinking', thinking: '', signature: '' }), delta(0, { type: 'thinking_delta', thinking: 'think' })],
        b: [stop(0), start(1, { type: 'text', text: '' }), delta(1, { type: 'text_delta', text: 'Hi' })],
        c: [stop(1), start(2, { type: 'tool_use', id: 'call_x', name: 'get_weather', input: {} }), delta(2, { type: 'input_json_delta', partial_json: '{"city":' })],
        g: [delta(2, { type: 'input_json_delta', partial_json: '"Paris"}' })],
        h: [stop(2)],
        i: [start(3, { type: 'text', text: '' }), delta(3, { type: 'text_delta', text: 'Hi' })],
        k: [stop(3), ev('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 1, input_tokens: 20 } }), ev('message_stop', {})],
      });
    });
  });

  it('follows the doc diagram: a provider error becomes event: error and the output completes; truncated passes on without message_stop', () => {
    const overloaded = new ToolStreamError('provider-error', { provider: 'openai-chat', providerCode: undefined, type: undefined, message: 'busy', status: 529, retryable: true, payload: {} });
    const cut = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no [DONE]' });
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(
        cold('--t--x--#', { t, x: x1 }, overloaded).pipe(
          encode(),
          map((s) => written(s).map((w) => w.event)),
        ),
      ).toBe('--a--b--(e|)', {
        a: ['message_start', 'content_block_start', 'content_block_delta'],
        b: ['content_block_stop', 'content_block_start', 'content_block_delta'],
        e: ['error'],
      });
      expectObservable(
        cold('--t--x--#', { t, x: x1 }, cut).pipe(
          encode(),
          map((s) => s.includes('message_stop')),
        ),
      ).toBe('--a--a--#', { a: false }, cut);
    });
    expect(writtenFor([t], {}, overloaded).events.at(-1)).toEqual({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'busy' } } });
  });

  it('maps provider errors to Anthropic types: its own, by status, else by retryability', () => {
    const typeOf = (info: Partial<ErrorInit<'provider-error'>>) =>
      (
        writtenFor([], {}, new ToolStreamError('provider-error', { provider: 'x', providerCode: undefined, type: undefined, message: 'm', status: undefined, retryable: false, payload: {}, ...info }))
          .events[0]?.data as {
          error: { type: string };
        }
      ).error.type;
    expect([typeOf({ type: 'rate_limit_error' }), typeOf({ status: 429 }), typeOf({ status: 503 }), typeOf({ retryable: true }), typeOf({ type: 'insufficient_quota' })]).toEqual([
      'rate_limit_error',
      'rate_limit_error',
      'overloaded_error',
      'api_error',
      'invalid_request_error',
    ]);
  });

  it('keeps interleaved calls in their own open blocks and writes signatures as signature_delta', () => {
    const { events } = writtenFor([
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'sig' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'a', name: 'f', argumentsDelta: '{"x":' },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'b', name: 'g', argumentsDelta: '{"y":' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '2}' },
      d,
    ]);
    expect(events.slice(1, 9)).toEqual([
      start(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'signature_delta', signature: 'sig' }),
      stop(0),
      start(1, { type: 'tool_use', id: 'a', name: 'f', input: {} }),
      delta(1, { type: 'input_json_delta', partial_json: '{"x":' }),
      start(2, { type: 'tool_use', id: 'b', name: 'g', input: {} }),
      delta(2, { type: 'input_json_delta', partial_json: '{"y":' }),
      delta(1, { type: 'input_json_delta', partial_json: '1}' }),
    ]);
    expect(view(collect(from([x1, x2, e, { ...x1, index: 1, id: 'b' }, d]).pipe(encode())).values.join('')).calls.map((c) => c.id)).toEqual(['call_x', 'b']);
  });

  it('leaves a cut call without content_block_stop, so readers report it incomplete; a failed one is stopped', () => {
    const cut: StreamEvent[] = [x1, { type: 'tool-call-end', choice: 0, index: 0, incomplete: true }, { type: 'finish', choice: 0, reason: 'length', rawReason: 'length' }, d];
    const { events } = writtenFor(cut);
    expect(events.filter((w) => w.event === 'content_block_stop')).toEqual([]);
    expect(view(collect(from(cut).pipe(encode())).values.join('')).calls.map((c) => c.outcome)).toEqual(['incomplete']);
    const failed = writtenFor([{ ...x1, argumentsDelta: '{oops' }, f, d]).events;
    expect(failed.filter((w) => w.event === 'content_block_stop')).toEqual([stop(0)]);
  });

  it('waits for a name before starting a tool_use block (so an id that comes with it is kept), and keeps a source’s server_tool_use type and caller', () => {
    const { events } = writtenFor([
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'srv_1', name: 'code_execution', argumentsDelta: '{}', metadata: { type: 'server_tool_use', caller: { type: 'direct' } } },
    ]);
    expect(events[1]).toEqual(start(0, { type: 'server_tool_use', id: 'srv_1', name: 'code_execution', input: {}, caller: { type: 'direct' } }));
  });

  it('writes only its choice, the source’s string for other finish reasons, and the whole-message usage at the end', () => {
    const { events } = writtenFor([
      { type: 'text-delta', choice: 1, text: 'other choice' },
      t,
      { type: 'finish', choice: 0, reason: 'other', rawReason: 'pause_turn_x' },
      { type: 'usage', inputTokens: 5, outputTokens: 6, cachedInputTokens: 2, reasoningTokens: 3, raw: {} },
      d,
    ]);
    expect(events.filter((w) => w.event === 'content_block_delta')).toEqual([delta(0, { type: 'text_delta', text: 'Hi' })]);
    // Anthropic's input_tokens leaves the cache reads out: normalised input 5 with 2 cached → 3.
    expect(events.at(-2)).toEqual(
      ev('message_delta', {
        delta: { stop_reason: 'pause_turn_x', stop_sequence: null },
        usage: { output_tokens: 6, input_tokens: 3, cache_read_input_tokens: 2, output_tokens_details: { thinking_tokens: 3 } },
      }),
    );
    expect(writtenFor([t, d], { choice: 1 }).events.map((w) => w.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
  });
});
