/**
 * `openaiRealtime()`: a Realtime session's server events (our own streams, written after the API
 * reference) as StreamEvents and results: calls identified by `call_id` response after response,
 * the most final arguments, each response's finish and usage, cancelled and cut responses, the
 * session's errors, and auto-detection telling Realtime's `response.*` events from Responses'.
 */
import { from, lastValueFrom, materialize, Observable, toArray } from 'rxjs';
import { isToolStreamError, openaiRealtime, readStreamEvents, readToolCalls, toolCalls, type StreamEvent, type ToolCallResult } from 'rxjs-tool-calls';
import { plain } from '../helpers/plain';
import { RealtimeSession, records, type RealtimeEvent } from '../helpers/realtimeWire';

const weather = { callId: 'call_w', name: 'get_weather', arguments: '{"city":"Zürich"}' };
const time = { callId: 'call_t', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}', piece: 3 };

async function eventsOf(events: ReadonlyArray<RealtimeEvent>, end: 'complete' | Error = 'complete'): Promise<{ events: StreamEvent[]; error?: unknown }> {
  const source = new Observable<ReturnType<typeof records>[number]>((s) => {
    for (const record of records(events)) s.next(record);
    if (end === 'complete') s.complete();
    else s.error(end);
  });
  const seen = await lastValueFrom(source.pipe(openaiRealtime(), materialize(), toArray()));
  const error = seen.find((n) => n.kind === 'E');
  return { events: seen.flatMap((n) => (n.kind === 'N' ? [n.value] : [])), ...(error === undefined ? {} : { error: error.error }) };
}

async function resultsOf(events: ReadonlyArray<RealtimeEvent>): Promise<{ results: ToolCallResult[]; error?: unknown }> {
  const seen = await lastValueFrom(from(records(events)).pipe(readToolCalls(), materialize(), toArray()));
  const error = seen.find((n) => n.kind === 'E');
  return { results: seen.flatMap((n) => (n.kind === 'N' ? [n.value] : [])), ...(error === undefined ? {} : { error: error.error }) };
}

describe('openaiRealtime()', () => {
  it('reads a session of two responses: parallel calls, then a spoken answer; done when the socket closes', async () => {
    const s = new RealtimeSession();
    const wire = [...s.created(), ...s.response({ calls: [weather, time] }), ...s.response({ transcript: 'It is 18 degrees in Zürich.' })];
    const { events, error } = await eventsOf(wire);
    expect(error).toBeUndefined();
    const kinds = events.map((e) => e.type);
    expect(kinds.filter((k) => k === 'metadata')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'finish')).toEqual([
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'completed' },
      { type: 'finish', choice: 0, reason: 'stop', rawReason: 'completed' },
    ]);
    expect(events[0]).toEqual({ type: 'metadata', provider: 'openai-realtime', responseId: 'resp_1', model: 'gpt-realtime' });
    expect(events.find((e) => e.type === 'tool-call-delta')).toEqual({
      type: 'tool-call-delta',
      choice: 0,
      index: 0,
      id: 'call_w',
      name: 'get_weather',
      argumentsDelta: '',
      metadata: { itemId: 'item_call_w', responseId: 'resp_1' },
    });
    expect(
      events
        .filter((e): e is Extract<StreamEvent, { type: 'text-delta' }> => e.type === 'text-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('It is 18 degrees in Zürich.');
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(2);
    expect(kinds.at(-1)).toBe('done');
    expect(kinds.filter((k) => k === 'done')).toHaveLength(1);

    const { results } = await resultsOf(wire);
    expect(results.map(plain)).toEqual([
      { ok: { id: 'call_w', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Zürich' }, rawArguments: '{"city":"Zürich"}' } },
      { ok: { id: 'call_t', name: 'get_time', index: 1, choice: 0, arguments: { tz: 'Asia/Tokyo' }, rawArguments: '{"tz":"Asia/Tokyo"}' } },
    ]);
    expect(results[0]?.success === true && results[0].data.providerMetadata).toEqual({ itemId: 'item_call_w', responseId: 'resp_1' });
  });

  it('a later response may reuse output index 0: its call is a call of its own (rule index-binds)', async () => {
    const s = new RealtimeSession();
    const wire = [...s.response({ calls: [weather] }), ...s.response({ calls: [{ ...weather, callId: 'call_w2', arguments: '{"city":"Bern"}' }] })];
    const { results } = await resultsOf(wire);
    expect(results.map((r) => (r.success ? [r.data.id, r.data.index, r.data.arguments] : r.error.code))).toEqual([
      ['call_w', 0, { city: 'Zürich' }],
      ['call_w2', 0, { city: 'Bern' }],
    ]);
  });

  it('the most final arguments win: .done and the item over the deltas, response.done over all (rule final-arguments-win)', async () => {
    const s = new RealtimeSession();
    const wire = s.response({ calls: [weather] }).map((event) => {
      if (event.type === 'response.function_call_arguments.delta') return { ...event, delta: 'x' }; // garbled deltas
      return event;
    });
    expect((await resultsOf(wire)).results.map(plain)).toEqual([expect.objectContaining({ ok: expect.objectContaining({ arguments: { city: 'Zürich' } }) })]);
    // A server that only sends response.done: the calls come from its output.
    const only = s.response({ calls: [time] }).filter((e) => e.type === 'response.created' || e.type === 'response.done');
    expect((await resultsOf(only)).results.map(plain)).toEqual([expect.objectContaining({ ok: expect.objectContaining({ id: 'call_t', arguments: { tz: 'Asia/Tokyo' } }) })]);
  });

  it('a cancelled response (the user spoke over it) ends its open call incomplete, finish other; the session goes on', async () => {
    const s = new RealtimeSession();
    const cancelled = s
      .response({ calls: [weather], status: 'cancelled', reason: 'turn_detected' })
      .filter((e) => e.type !== 'response.output_item.done' && e.type !== 'response.function_call_arguments.done');
    const done = cancelled.at(-1) as RealtimeEvent & { response: Record<string, unknown> };
    const wire = [...cancelled.slice(0, -1), { ...done, response: { ...done.response, output: [] } }, ...s.response({ text: 'Sure.' })];
    const { events } = await eventsOf(wire);
    expect(events.filter((e) => e.type === 'finish').map((e) => (e.type === 'finish' ? e.rawReason : ''))).toEqual(['cancelled', 'completed']);
    expect(events.find((e) => e.type === 'tool-call-end')).toEqual({ type: 'tool-call-end', choice: 0, index: 0, id: 'call_w', incomplete: true });
    const { results, error } = await resultsOf(wire);
    expect(error).toBeUndefined();
    expect(results.map(plain)).toEqual([{ err: 'incomplete', id: 'call_w', name: 'get_weather', raw: '{"city":"Zürich"}', reason: 'not-closed' }]);
  });

  it('a response cut by its token limit: incomplete calls with reason length', async () => {
    const s = new RealtimeSession();
    const wire = s
      .response({ calls: [weather], status: 'incomplete', reason: 'max_output_tokens' })
      .filter((e) => e.type !== 'response.output_item.done' && e.type !== 'response.function_call_arguments.done');
    const done = wire.at(-1) as RealtimeEvent & { response: Record<string, unknown> };
    wire[wire.length - 1] = { ...done, response: { ...done.response, output: [] } };
    const { results } = await resultsOf(wire);
    expect(results.map(plain)).toEqual([expect.objectContaining({ err: expect.stringMatching(/incomplete|malformed/), reason: 'length' })]);
  });

  it('error events: a provider-error with the code after the complete calls; the two a session outlives are passed over', async () => {
    const s = new RealtimeSession();
    const harmless = [
      s.error('conversation_already_has_active_response', 'Conversation already has an active response in progress'),
      s.error('response_cancel_not_active', 'Cancellation failed: no active response found'),
    ];
    const wire = [...s.response({ calls: [weather] }), ...harmless, ...s.response({ text: 'ok' })];
    expect((await resultsOf(wire)).error).toBeUndefined();
    const failing = [...s.response({ calls: [time] }), s.error('invalid_value', "Invalid value: 'nope'.")];
    const { results, error } = await resultsOf(failing);
    expect(results.map((r) => r.success)).toEqual([true]);
    expect(isToolStreamError(error, 'provider-error') && [error.provider, error.providerCode, error.type, error.message]).toEqual([
      'openai-realtime',
      'invalid_value',
      'invalid_request_error',
      "openai-realtime error invalid_value (invalid_request_error): Invalid value: 'nope'.",
    ]);
  });

  it('a failed response is a provider-error with its status details', async () => {
    const s = new RealtimeSession();
    const wire = s.response({ text: 'x' });
    const done = wire.at(-1) as RealtimeEvent & { response: Record<string, unknown> };
    wire[wire.length - 1] = { ...done, response: { ...done.response, status: 'failed', status_details: { type: 'failed', error: { type: 'server_error', code: 'internal_error', message: 'boom' } } } };
    const { error } = await eventsOf(wire);
    expect(error).toMatchObject({ code: 'provider-error', providerCode: 'internal_error', type: 'server_error', retryable: true });
  });

  it('the socket closing during a response: truncated, open calls incomplete; a cut connection goes on as it is', async () => {
    const s = new RealtimeSession();
    const wire = s.response({ calls: [weather] }).slice(0, 4);
    const { results, error } = await resultsOf(wire);
    expect(results.map(plain)).toEqual([expect.objectContaining({ err: 'incomplete', id: 'call_w', reason: 'truncated' })]);
    expect(error).toMatchObject({ code: 'truncated', provider: 'openai-realtime' });
    const lost = await eventsOf([...s.created(), ...s.response({ text: 'hi' })], Object.assign(new Error('cut'), { code: 'ECONNRESET' }));
    expect(lost.error).toMatchObject({ message: 'cut' }); // the source's error: the socket's source makes it a connection-lost
  });

  it("the beta's names: response.text.delta and response.audio_transcript.delta are text too", async () => {
    const s = new RealtimeSession();
    const wire = s.response({ transcript: 'abc' }).map((e) => (e.type === 'response.output_audio_transcript.delta' ? { ...e, type: 'response.audio_transcript.delta' } : e));
    wire.splice(1, 0, { type: 'response.text.delta', event_id: 'event_x', delta: 'T:' });
    const { events } = await eventsOf(wire);
    expect(
      events
        .filter((e): e is Extract<StreamEvent, { type: 'text-delta' }> => e.type === 'text-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('T:abc');
  });

  it('auto-detection: Realtime by its event_id, Responses without one; both read from records', async () => {
    const s = new RealtimeSession();
    const detected = await lastValueFrom(from(records(s.response({ calls: [weather] }))).pipe(readStreamEvents(), toArray()));
    expect(detected[0]).toMatchObject({ type: 'metadata', provider: 'openai-realtime' });
    const responses = [
      { type: 'response.created', sequence_number: 0, response: { id: 'resp_9', status: 'in_progress', output: [] } },
      { type: 'response.completed', sequence_number: 1, response: { id: 'resp_9', status: 'completed', output: [] } },
    ];
    const read = await lastValueFrom(from(records(responses as RealtimeEvent[])).pipe(readStreamEvents(), toArray()));
    expect(read[0]).toMatchObject({ type: 'metadata', provider: 'openai-responses' });
  });

  it('the composed card agrees with the fused reader on a session', async () => {
    const s = new RealtimeSession();
    const wire = [...s.created(), ...s.response({ calls: [weather, time], text: 'Checking.' }), ...s.response({ transcript: 'Done.' })];
    const composed = await lastValueFrom(from(records(wire)).pipe(openaiRealtime(), toolCalls(), toArray()));
    expect(composed.map(plain)).toEqual((await resultsOf(wire)).results.map(plain));
  });
});
