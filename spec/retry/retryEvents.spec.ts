/**
 * The `retry` and `restart` events through every stage that reads events: `toolCalls()` and the
 * tracker ignore `retry` and start over at `restart`; `accumulateToolCalls()`, `partialToolCalls()`,
 * `textToolCalls()` and `totalUsage()` likewise; the encoders write nothing for either.
 */
import { from, lastValueFrom, toArray, type Observable } from 'rxjs';
import { accumulateToolCalls, partialToolCalls, toolCalls, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeGemini, encodeOpenAIChat, encodeOpenAIResponses, totalUsage } from 'rxjs-tool-calls/gateway';
import { textToolCalls } from 'rxjs-tool-calls/text';
import { cut, httpError } from '../helpers/retryWire';

const retry: StreamEvent = { type: 'retry', attempt: 2, error: cut(), delayMs: 5 };
const restart: StreamEvent = { type: 'restart', attempt: 2, error: cut() };
const call = (argumentsDelta: string, first = false): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta, ...(first ? { id: 'call_1', name: 'get_weather' } : {}) });
const finish: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' };
const done: StreamEvent = { type: 'done' };

/** A cut attempt (call half sent), then a whole new one. */
const RESTARTED: StreamEvent[] = [call('{"city":"Pa', true), retry, restart, call('', true), call('{"city":"Paris"}'), finish, done];

const all = <T>(events: readonly StreamEvent[], operator: (source: Observable<StreamEvent>) => Observable<T>): Promise<T[]> => lastValueFrom(operator(from(events)).pipe(toArray()));

describe('retry events', () => {
  it('toolCalls(): a retry changes nothing', async () => {
    const withRetry = await all([call('{"city":', true), retry, call('"Paris"}'), finish, done], (s) => s.pipe(toolCalls()));
    const without = await all([call('{"city":', true), call('"Paris"}'), finish, done], (s) => s.pipe(toolCalls()));
    expect(withRetry).toEqual(without);
  });

  it('toolCalls(): a restart closes the open calls incomplete (the error code as reason) and reads the new attempt afresh (ids unique)', async () => {
    const [abandoned, fresh, ...rest] = await all(RESTARTED, (s) => s.pipe(toolCalls()));
    expect(rest).toEqual([]);
    expect(abandoned?.error).toMatchObject({ name: 'ToolStreamError', code: 'incomplete' });
    expect(abandoned?.error).toMatchObject({ reason: 'connection-lost', toolCall: { id: 'call_1', rawArguments: '{"city":"Pa' } });
    expect(fresh).toEqual({
      success: true,
      data: { id: 'call_1_2', name: 'get_weather', index: 0, choice: 0, arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}', providerMetadata: { wireId: 'call_1' } },
    });
  });

  it('toolCalls(): a restart of a provider error uses its code', async () => {
    const [abandoned] = await all([call('{', true), { type: 'restart', attempt: 2, error: httpError(503) }, done], (s) => s.pipe(toolCalls()));
    expect(abandoned?.error).toMatchObject({ code: 'incomplete', reason: 'provider-error' });
  });

  it('accumulateToolCalls(): the abandoned call is closed with its incomplete error, the new one is read afresh', async () => {
    const snapshots = await all(RESTARTED, (s) => s.pipe(accumulateToolCalls()));
    const last = snapshots[snapshots.length - 1] ?? [];
    expect(last.map((c) => [c.id, c.status, c.result?.success, c.result?.error?.code])).toEqual([
      ['call_1', 'complete', false, 'incomplete'],
      ['call_1_2', 'complete', true, undefined],
    ]);
  });

  it('partialToolCalls(): the abandoned call ends incomplete, the new one is complete', async () => {
    const partials = await all(RESTARTED, (s) => s.pipe(partialToolCalls()));
    const finals = partials.filter((p) => p.result !== undefined).map((p) => [p.id, p.result?.success]);
    expect(finals).toEqual([
      ['call_1', false],
      ['call_1_2', true],
    ]);
  });

  it('textToolCalls(): text held back by an abandoned attempt is released before the restart, and the new attempt is read from scratch', async () => {
    const text = (t: string): StreamEvent => ({ type: 'text-delta', choice: 0, text: t });
    const events = await all(
      [text('Sure. <tool_call>{"name": "get_weather", "argum'), restart, text('<tool_call>{"name": "get_time", "arguments": {}}</tool_call>'), { ...finish, reason: 'stop' }, done],
      (s) => s.pipe(textToolCalls({ syntaxes: ['hermes'] })),
    );
    const restartAt = events.indexOf(restart);
    expect(restartAt).toBeGreaterThan(0);
    expect(events.slice(restartAt + 1).filter((e) => e.type === 'tool-call-delta')).toEqual([expect.objectContaining({ name: 'get_time' })]);
    const results = await all(events, (s) => s.pipe(toolCalls()));
    expect(results.filter((r) => r.success).map((r) => r.data?.name)).toEqual(['get_time']);
  });

  it('totalUsage(): the abandoned attempt usage still counts (a restart starts a new stream of usage)', async () => {
    const usage = (outputTokens: number): StreamEvent => ({ type: 'usage', inputTokens: 10, outputTokens, totalTokens: 10 + outputTokens, raw: {} });
    const totals = await all([usage(1), usage(3), retry, restart, usage(1), usage(4), done], (s) => s.pipe(totalUsage()));
    expect(totals[totals.length - 1]).toEqual({ inputTokens: 20, outputTokens: 7, totalTokens: 27 });
  });

  it.each([
    ['encodeOpenAIChat', () => encodeOpenAIChat({ id: 'c', model: 'm', created: 1 })],
    ['encodeOpenAIResponses', () => encodeOpenAIResponses({ id: 'r', model: 'm', created: 1 })],
    ['encodeAnthropicMessages', () => encodeAnthropicMessages({ id: 'msg', model: 'm' })],
    ['encodeGemini', () => encodeGemini({ id: 'g', model: 'm' })],
  ] as const)('%s writes nothing for retry and restart', async (_, encoder) => {
    const plain = [call('{"city":"Paris"}', true), finish, done];
    const noticed = [retry, call('{"city":"Paris"}', true), retry, finish, restart, done];
    expect(await all(noticed, (s) => s.pipe(encoder()))).toEqual(await all(plain, (s) => s.pipe(encoder())));
    expect(await all([retry, restart], (s) => s.pipe(encoder()))).toEqual([]);
  });
});
