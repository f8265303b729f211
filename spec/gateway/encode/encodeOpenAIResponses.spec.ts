import { from, map } from 'rxjs';
import { type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { encodeOpenAIResponses, type EncodeOpenAIResponsesOptions } from 'rxjs-tool-calls/gateway';
import { testScheduler } from '../../helpers/marbles';
import { collect, genIds, view, written, type WrittenEvent, writtenBy } from '../../helpers/reencode';

const encode = (extra: EncodeOpenAIResponsesOptions = {}) => encodeOpenAIResponses({ id: 'resp_r', model: 'm', created: 7, generateId: genIds(), ...extra });
const types = (s: string) => written(s).map((w) => w.event);

const m: StreamEvent = { type: 'metadata', provider: 'anthropic', responseId: 'msg_9', model: 'claude' };
const t: StreamEvent = { type: 'text-delta', choice: 0, text: 'Hi' };
const x1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 3, id: 'toolu_x', name: 'get_weather', argumentsDelta: '{"city":' };
const x2: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 3, argumentsDelta: '"Paris"}' };
const e: StreamEvent = { type: 'tool-call-end', choice: 0, index: 3 };
const f: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' };
const u: StreamEvent = { type: 'usage', inputTokens: 10, outputTokens: 5, reasoningTokens: 1, raw: {} };
const d: StreamEvent = { type: 'done' };

/** All SSE events the encoder writes for `events` (then `error`, when given). */
const writtenFor = (events: StreamEvent[], extra: EncodeOpenAIResponsesOptions = {}, error?: unknown) => writtenBy(encode(extra), events, error);
const data = (w: WrittenEvent | undefined) => w?.data as Record<string, unknown>;

describe('encodeOpenAIResponses', () => {
  it('follows the doc diagram: items added, streamed and done in order, response.completed last', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold('--m--t--x--y--e--f--u--d|', { m, t, x: x1, y: x2, e, f, u, d });
      expectObservable(events.pipe(encode(), map(types))).toBe('--c--a--b--g--h--------k|', {
        c: ['response.created', 'response.in_progress'],
        a: ['response.output_item.added', 'response.content_part.added', 'response.output_text.delta'],
        b: ['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.output_item.added', 'response.function_call_arguments.delta'],
        g: ['response.function_call_arguments.delta'],
        h: ['response.function_call_arguments.done', 'response.output_item.done'],
        k: ['response.completed'],
      });
    });
  });

  it('follows the doc diagram: a provider error becomes error + response.failed; truncated passes on without response.completed', () => {
    const quota = new ToolStreamError('provider-error', {
      provider: 'openai-chat',
      providerCode: 'insufficient_quota',
      type: 'insufficient_quota',
      message: 'no quota',
      status: 429,
      retryable: true,
      payload: {},
    });
    const cut = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no [DONE]' });
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('--t--x--#', { t, x: x1 }, quota).pipe(encode(), map(types))).toBe('--a--b--(e|)', {
        a: ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta'],
        b: ['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.output_item.added', 'response.function_call_arguments.delta'],
        e: ['error', 'response.failed'],
      });
      expectObservable(
        cold('--t--x--#', { t, x: x1 }, cut).pipe(
          encode(),
          map((s) => s.includes('response.completed')),
        ),
      ).toBe('--a--a--#', { a: false }, cut);
    });
    const failed = writtenFor([t], {}, quota).events;
    expect(data(failed.at(-2))).toEqual({ type: 'error', code: 'insufficient_quota', message: 'no quota', param: null, sequence_number: 5 });
    expect(data(failed.at(-1))).toMatchObject({ type: 'response.failed', response: { id: 'resp_r', status: 'failed', error: { code: 'insufficient_quota', message: 'no quota' } } });
  });

  it('numbers every event, keeps output_index in the order items are added, and builds item ids from the response id', () => {
    const { events } = writtenFor([t, x1, x2, e, { type: 'reasoning-delta', choice: 0, text: 'r' }, f, u, d]);
    expect(events.map((w) => data(w)['sequence_number'])).toEqual(events.map((_, i) => i));
    const added = events.filter((w) => w.event === 'response.output_item.added').map((w) => [data(w)['output_index'], (data(w)['item'] as { id: string }).id]);
    expect(added).toEqual([
      [0, 'msg_r_0'],
      [1, 'fc_r_1'],
      [2, 'rs_r_2'],
    ]);
    expect(data(events[8])).toMatchObject({ item: { type: 'function_call', call_id: 'toolu_x', name: 'get_weather', arguments: '', status: 'in_progress' } });
    const completed = data(events.at(-1))['response'] as { output: Array<{ type: string; status?: string; arguments?: string; content?: unknown }>; usage: unknown; status: string };
    expect(completed.status).toBe('completed');
    expect(completed.output.map((o) => o.type)).toEqual(['message', 'function_call', 'reasoning']);
    expect(completed.output[1]).toMatchObject({ status: 'completed', arguments: '{"city":"Paris"}' });
    expect(completed.output[2]).toEqual({ id: 'rs_r_2', type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'r' }] });
    expect(completed.usage).toEqual({ input_tokens: 10, output_tokens: 5, output_tokens_details: { reasoning_tokens: 1 }, total_tokens: 15 });
  });

  it("keeps a Responses source's fc_ item id; a replace that continues the text is streamed, one that contradicts it is set right by .done", () => {
    const fragments = (events: StreamEvent[]) =>
      writtenFor(events)
        .events.filter((w) => w.event.startsWith('response.function_call_arguments'))
        .map((w) => [w.event.slice('response.function_call_arguments.'.length), data(w)['item_id'], data(w)['delta'] ?? data(w)['arguments']]);
    const first: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'f', argumentsDelta: '{"a":', metadata: { itemId: 'fc_src' } };
    const end: StreamEvent = { type: 'tool-call-end', choice: 0, index: 0 };
    expect(fragments([first, { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"a":2}', replace: true }, end])).toEqual([
      ['delta', 'fc_src', '{"a":'],
      ['delta', 'fc_src', '2}'],
      ['done', 'fc_src', '{"a":2}'],
    ]);
    expect(fragments([first, { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"b":3}', replace: true }, end])).toEqual([
      ['delta', 'fc_src', '{"a":'],
      ['done', 'fc_src', '{"b":3}'],
    ]);
  });

  it('after a replace that contradicts what was written, the deltas wait until the text continues it again, or .done (they never add up to no JSON)', () => {
    const fragments = (events: StreamEvent[]) =>
      writtenFor(events)
        .events.filter((w) => w.event.startsWith('response.function_call_arguments'))
        .map((w) => [w.event.slice('response.function_call_arguments.'.length), data(w)['delta'] ?? data(w)['arguments']]);
    // Whole arguments first (Anthropic `input` in the block start), then the same value streamed again from its start.
    const whole: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'f', argumentsDelta: '{"city":"Oslo"}', replace: true };
    const again: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"city":', replace: true };
    const rest = (text: string): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: text });
    const end: StreamEvent = { type: 'tool-call-end', choice: 0, index: 0 };
    expect(fragments([whole, again, rest('"Oslo"}'), end])).toEqual([
      ['delta', '{"city":"Oslo"}'],
      ['done', '{"city":"Oslo"}'],
    ]);
    expect(fragments([whole, again, rest('"Oslo", '), rest('"days":2}'), end])).toEqual([
      ['delta', '{"city":"Oslo"}'],
      ['done', '{"city":"Oslo", "days":2}'],
    ]);
    expect(fragments([whole, again, rest('"Oslo"'), rest(', "days":2}'), end])).toEqual([
      ['delta', '{"city":"Oslo"}'],
      ['done', '{"city":"Oslo", "days":2}'],
    ]);
  });

  it('ends with response.incomplete for length and content-filter, a cut call left without .done', () => {
    const { events } = writtenFor([x1, { type: 'tool-call-end', choice: 0, index: 3, incomplete: true }, { type: 'finish', choice: 0, reason: 'length', rawReason: 'max_tokens' }, d]);
    expect(events.map((w) => w.event).slice(-2)).toEqual(['response.function_call_arguments.delta', 'response.incomplete']);
    expect(data(events.at(-1))['response']).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [{ status: 'incomplete', arguments: '{"city":' }] });
    const filtered = writtenFor([t, { type: 'finish', choice: 0, reason: 'content-filter', rawReason: 'SAFETY' }, d]).events;
    expect(data(filtered.at(-1))['response']).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
  });

  it('writes reasoning as a summary on request, leaves signatures out, and writes only its choice', () => {
    const { events } = writtenFor([{ type: 'reasoning-delta', choice: 0, text: 'r', signature: 's' }, { type: 'text-delta', choice: 1, text: 'no' }, d], { reasoningAs: 'summary' });
    expect(events.map((w) => w.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(JSON.stringify(events)).not.toContain('"s"');
    expect(view(collect(from([{ type: 'reasoning-delta', choice: 0, text: 'r' } as StreamEvent, d]).pipe(encode({ reasoningAs: 'summary' }))).values.join('')).reasoning).toBe('r');
  });
});
