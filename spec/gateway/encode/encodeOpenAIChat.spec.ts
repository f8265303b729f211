import { concat, from, map, throwError } from 'rxjs';
import { type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { encodeOpenAIChat, type EncodeOpenAIChatOptions } from 'rxjs-tool-calls/gateway';
import { testScheduler } from '../../helpers/marbles';
import { collect, genIds, view, written, writtenBy } from '../../helpers/reencode';

const fixed = { id: 'c1', model: 'm', created: 7 };
const encode = (extra: EncodeOpenAIChatOptions = {}) => encodeOpenAIChat({ ...fixed, generateId: genIds(), ...extra });
const chunk = (delta: unknown, finish: string | null = null, choice = 0) => ({
  event: 'message',
  data: { id: 'c1', object: 'chat.completion.chunk', created: 7, model: 'm', choices: [{ index: choice, delta, finish_reason: finish }] },
});
const usageChunk = (usage: unknown) => ({ event: 'message', data: { id: 'c1', object: 'chat.completion.chunk', created: 7, model: 'm', choices: [], usage } });
const DONE = { event: 'message', data: '[DONE]' };

const m: StreamEvent = { type: 'metadata', provider: 'anthropic', responseId: 'msg_9', model: 'claude' };
const t: StreamEvent = { type: 'text-delta', choice: 0, text: 'Hi' };
const x1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 1, id: 'toolu_x', name: 'get_weather', argumentsDelta: '{"city":' };
const y1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 2, id: 'toolu_y', name: 'get_time', argumentsDelta: '{}' };
const x2: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '"Paris"}' };
const f: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' };
const u: StreamEvent = { type: 'usage', inputTokens: 10, outputTokens: 5, cachedInputTokens: 2, raw: {} };
const d: StreamEvent = { type: 'done' };
const overloaded = new ToolStreamError('provider-error', {
  provider: 'anthropic',
  providerCode: undefined,
  type: 'overloaded_error',
  message: 'Overloaded',
  status: undefined,
  retryable: true,
  payload: {},
});

/** All SSE events the encoder writes for `events` (then `error`, when given). */
const writtenFor = (events: StreamEvent[], extra: EncodeOpenAIChatOptions = {}, error?: unknown) => writtenBy(encode(extra), events, error);

describe('encodeOpenAIChat', () => {
  it('follows the doc diagram: each piece at once, calls indexed 0 and 1 with id, type and name on their first delta only, usage and [DONE] at the end', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold('--m--t--x--y--z--f--u--d|', { m, t, x: x1, y: y1, z: x2, f, u, d });
      expectObservable(events.pipe(encode(), map(written))).toBe('-----a--b--c--e--g-----h|', {
        a: [chunk({ role: 'assistant', content: 'Hi' })],
        b: [chunk({ tool_calls: [{ index: 0, id: 'toolu_x', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] })],
        c: [chunk({ tool_calls: [{ index: 1, id: 'toolu_y', type: 'function', function: { name: 'get_time', arguments: '{}' } }] })],
        e: [chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] })],
        g: [chunk({}, 'tool_calls')],
        h: [usageChunk({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 2 } }), DONE],
      });
    });
  });

  it('follows the doc diagram: a provider error becomes the chat error object and the output completes', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold('--t--x--#', { t, x: x1 }, overloaded);
      expectObservable(events.pipe(encode(), map(written))).toBe('--a--b--(e|)', {
        a: [chunk({ role: 'assistant', content: 'Hi' })],
        b: [chunk({ tool_calls: [{ index: 0, id: 'toolu_x', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] })],
        e: [{ event: 'message', data: { error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: null } } }],
      });
    });
  });

  it("writes Groq's failed_generation with the error, where Groq puts it", () => {
    const failed = new ToolStreamError('provider-error', {
      provider: 'openai-chat',
      providerCode: 'tool_use_failed',
      type: 'invalid_request_error',
      message: 'bad call',
      status: 400,
      retryable: false,
      payload: {},
      failedGeneration: '<function=f>{}</function>',
    });
    const { events } = writtenFor([t], {}, failed);
    expect(events.at(-1)).toEqual({
      event: 'message',
      data: { error: { message: 'bad call', type: 'invalid_request_error', param: null, code: 'tool_use_failed', failed_generation: '<function=f>{}</function>' } },
    });
    const back = view(
      collect(
        concat(
          from([t]),
          throwError(() => failed),
        ).pipe(encode()),
      ).values.join(''),
    );
    expect(back.error).toMatchObject({ code: 'provider-error', providerCode: 'tool_use_failed', failedGeneration: '<function=f>{}</function>', retryable: false });
  });

  it('follows the doc diagram: truncated passes on as it is, with no [DONE]', () => {
    const cut = new ToolStreamError('truncated', { provider: 'anthropic', detail: 'no message_stop arrived' });
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold('--t--x--#', { t, x: x1 }, cut);
      expectObservable(
        events.pipe(
          encode(),
          map((s) => s.includes('[DONE]')),
        ),
      ).toBe('--a--a--#', { a: false }, cut);
    });
  });

  it('numbers calls per choice: the second choice starts again at index 0', () => {
    const { events } = writtenFor([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'a', name: 'f', argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 1, index: 0, id: 'b', name: 'g', argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 1, index: 1, id: 'c', name: 'h', argumentsDelta: '{}' },
    ]);
    expect(events.slice(0, 3).map((e) => (e.data as { choices: Array<{ index: number; delta: { tool_calls: Array<{ index: number; id: string }> } }> }).choices[0])).toEqual([
      { index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] }, finish_reason: null },
      { index: 1, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } }] }, finish_reason: null },
      { index: 1, delta: { tool_calls: [{ index: 1, id: 'c', type: 'function', function: { name: 'h', arguments: '{}' } }] }, finish_reason: null },
    ]);
    expect(events.slice(3)).toEqual([chunk({}, 'tool_calls'), chunk({}, 'tool_calls', 1), DONE]);
  });

  it("resolves identity as the readers do: Mistral's calls without index and Copilot's reused index 0 become indices 0 and 1", () => {
    const mistral = writtenFor([
      { type: 'tool-call-delta', choice: 0, id: 'a', name: 'f', argumentsDelta: '{"q":' },
      { type: 'tool-call-delta', choice: 0, argumentsDelta: '1}' },
      { type: 'tool-call-delta', choice: 0, id: 'b', name: 'g', argumentsDelta: '{}' },
    ]);
    const copilot = writtenFor([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'a', name: 'f', argumentsDelta: '{"q":' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'b', name: 'g', argumentsDelta: '{}' },
    ]);
    for (const { events } of [mistral, copilot]) {
      const calls = events.flatMap((e) => (e.data as { choices?: Array<{ delta: { tool_calls?: unknown[] } }> }).choices?.[0]?.delta.tool_calls ?? []);
      expect(calls).toEqual([
        { index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{"q":' } },
        { index: 0, function: { arguments: '1}' } },
        { index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } },
      ]);
    }
  });

  it('writes a name that arrives after the first delta once, where it arrives; a generated id for a source without ids', () => {
    const { events } = writtenFor([
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, name: 'f', argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 0, index: 0, name: 'f', argumentsDelta: '' },
    ]);
    expect(events.slice(0, 2).map((e) => (e.data as { choices: Array<{ delta: { tool_calls: unknown } }> }).choices[0]?.delta.tool_calls)).toEqual([
      [{ index: 0, id: 'gen_0', type: 'function', function: { arguments: '' } }],
      [{ index: 0, function: { name: 'f', arguments: '{}' } }],
    ]);
    expect(events).toHaveLength(4); // the repeated name adds nothing; then the finish and [DONE]
  });

  it('writes a whole value (replace) with the call’s next event, and a Gemini thought signature in extra_content', () => {
    const { events } = writtenFor([
      { type: 'tool-call-delta', choice: 0, index: 0, name: 'f', argumentsDelta: '{"a":1}', replace: true, metadata: { thoughtSignature: 'sig' } },
      { type: 'tool-call-end', choice: 0, index: 0 },
    ]);
    expect(events.slice(0, 2).map((e) => (e.data as { choices: Array<{ delta: { tool_calls: unknown } }> }).choices[0]?.delta.tool_calls)).toEqual([
      [{ index: 0, id: 'gen_0', type: 'function', extra_content: { google: { thought_signature: 'sig' } }, function: { name: 'f', arguments: '' } }],
      [{ index: 0, function: { arguments: '{"a":1}' } }],
    ]);
  });

  it('ends with invalid-event when a replace contradicts arguments already written (chat cannot take them back)', () => {
    const { events, error } = writtenFor([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'a', name: 'f', argumentsDelta: '{"a":1' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"b":2}', replace: true },
    ]);
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'invalid-event' });
    expect(error).toMatchObject({ code: 'invalid-event', provider: 'openai-chat', data: '{"b":2}' });
    expect(events.some((e) => e.data === '[DONE]')).toBe(false);
  });

  it('writes reasoning in reasoning_content, or reasoning, or leaves it out; a signature never', () => {
    const r: StreamEvent = { type: 'reasoning-delta', choice: 0, text: 'hmm', signature: 'sig' };
    expect(writtenFor([r]).events[0]).toEqual(chunk({ role: 'assistant', reasoning_content: 'hmm' }));
    expect(writtenFor([r], { reasoningField: 'reasoning' }).events[0]).toEqual(chunk({ role: 'assistant', reasoning: 'hmm' }));
    expect(writtenFor([r, t], { reasoning: 'drop' }).events[0]).toEqual(chunk({ role: 'assistant', content: 'Hi' }));
  });

  it('gives a choice the source never finished a finish (tool_calls with calls, else stop) and the role on it', () => {
    expect(writtenFor([x1, { type: 'text-delta', choice: 1, text: 'a' }, d]).events.slice(2)).toEqual([chunk({}, 'tool_calls'), chunk({}, 'stop', 1), DONE]);
    expect(writtenFor([m, d]).events).toEqual([chunk({ role: 'assistant' }, 'stop'), DONE]);
  });

  it('passes the source’s own string for `other`, computes a missing total, and leaves the usage chunk out on request', () => {
    const other: StreamEvent = { type: 'finish', choice: 0, reason: 'other', rawReason: 'MALFORMED_FUNCTION_CALL' };
    const usage: StreamEvent = { type: 'usage', inputTokens: 3, outputTokens: 4, reasoningTokens: 1, raw: {} };
    expect(writtenFor([t, other, usage, d]).events.slice(1)).toEqual([
      chunk({}, 'MALFORMED_FUNCTION_CALL'),
      usageChunk({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, completion_tokens_details: { reasoning_tokens: 1 } }),
      DONE,
    ]);
    expect(writtenFor([t, other, usage, d], { includeUsage: false }).events.slice(1)).toEqual([chunk({}, 'MALFORMED_FUNCTION_CALL'), DONE]);
  });

  it('takes the id and model from the source unless given, and ignores what follows done', () => {
    const out = collect(from([m, t, d, t, d]).pipe(encodeOpenAIChat({ created: 1 })));
    const events = out.values.flatMap(written);
    expect(events.map((e) => (e.data as { id?: string; model?: string }).model)).toEqual(['claude', 'claude', undefined]);
    expect((events[0]?.data as { id: string }).id).toBe('msg_9');
    expect(out.completed).toBe(true);
  });

  it('writes nothing for a source that completes without sending anything, and emits only whole SSE events', () => {
    expect(collect(from([]).pipe(encode())).values).toEqual([]);
    const { values } = collect(from([m, t, x1, x2, f, u, d]).pipe(encode()));
    for (const v of values) expect(v.endsWith('\n\n') && !v.includes('\n\n\n')).toBe(true);
  });

  it('reads back as what it was written from (calls, text, finish, usage)', () => {
    const text = collect(from([m, t, x1, y1, x2, f, u, d]).pipe(encode())).values.join('');
    const back = view(text);
    expect(back.calls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['toolu_x', 'get_weather', { city: 'Paris' }],
      ['toolu_y', 'get_time', {}],
    ]);
    expect([back.text, back.finish, back.usage]).toEqual(['Hi', 'tool-calls', { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 2 }]);
  });
});
