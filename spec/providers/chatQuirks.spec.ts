/**
 * OpenAI-compatible quirks that no shared fixture covers, as small hand-written SSE streams run
 * through the whole pipeline (bytes → readStreamEvents → toolCalls) under every chunking of
 * `chunkings()` (whole, one byte per chunk, seeded random): each chunking must give the same outcome.
 */
import { from, map, toArray } from 'rxjs';
import { isToolStreamError, readToolCalls, type ToolCallResult } from 'rxjs-tool-calls';
import { tagSource } from 'rxjs-tool-calls/gateway';
import { openaiChunk, openaiDone, sseEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { chunkings } from '../helpers/chunking';
import { runChunks, type RunOutcome } from '../helpers/runStream';

/** A `chat.completion.chunk` with literal choices (the builders always write an `index`; these quirks need full control). */
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
  sseEvent({ data: JSON.stringify({ id: 'chatcmpl-q', object: 'chat.completion.chunk', model: 'm', choices, ...extra }) });
/** One choice's delta with tool calls (as the wire writes them), optionally with a finish reason. */
const calls = (toolCalls: unknown[], finish: string | null = null, choice = 0): string =>
  chunk([{ index: choice, delta: { role: 'assistant', content: '', tool_calls: toolCalls }, finish_reason: finish }]);
const finish = (reason: string, choice = 0): string => chunk([{ index: choice, delta: {}, finish_reason: reason }]);
const call = (fields: { index?: number | undefined; id?: string; name?: string; args?: string; extra?: unknown }): Record<string, unknown> => ({
  ...(fields.index === undefined ? {} : { index: fields.index }),
  ...(fields.id === undefined ? {} : { id: fields.id, type: 'function' }),
  function: { ...(fields.name === undefined ? {} : { name: fields.name }), arguments: fields.args ?? '' },
  ...(fields.extra === undefined ? {} : { extra_content: fields.extra }),
});

interface Summary {
  readonly results: unknown[];
  readonly finishes: string[];
  readonly error: string | undefined;
  readonly completed: boolean;
}

function describeResult(r: ToolCallResult): unknown {
  if (r.success) {
    const { id, name, index, choice, arguments: args, providerMetadata } = r.data;
    return { id, name, index, choice, args, ...(providerMetadata === undefined ? {} : { meta: providerMetadata }) };
  }
  const e = r.error;
  return { failed: e.code, id: e.toolCall.id, name: e.toolCall.name, choice: e.toolCall.choice, raw: e.toolCall.rawArguments, ...('reason' in e ? { reason: e.reason } : {}) };
}

function summary(outcome: RunOutcome): Summary {
  return {
    results: outcome.results.map(describeResult),
    finishes: outcome.events.flatMap((e) => (e.type === 'finish' ? [`${e.choice}:${e.reason}/${e.rawReason}`] : [])),
    error: isToolStreamError(outcome.error) ? outcome.error.code : outcome.error === undefined ? undefined : String(outcome.error),
    completed: outcome.completed,
  };
}

/** Run `wire` under every chunking; all must agree. Returns the summary. */
function run(...wire: string[]): Summary {
  const bytes = toBytes(wire.join(''));
  const outcomes = chunkings(bytes).map(([how, chunks]) => [how, summary(runChunks(chunks))] as const);
  const whole = outcomes[0]?.[1];
  if (whole === undefined) throw new Error('no chunking');
  for (const [how, got] of outcomes) expect({ how, got }).toEqual({ how, got: whole });
  return whole;
}

/** The order in which events and results come out (one subscription, readToolCalls' composition). */
function timeline(...wire: string[]): string[] {
  let out: string[] = [];
  from([wire.join('')])
    .pipe(
      tagSource('q', { generateId: () => 'gen' }),
      map((item) =>
        item.type === 'event'
          ? item.event.type === 'finish'
            ? `finish:${item.event.choice}`
            : ''
          : item.type === 'result'
            ? `result:${item.result.success ? item.result.data.id : item.result.error.toolCall.id}`
            : item.type,
      ),
      toArray(),
    )
    .subscribe((all) => (out = all.filter((s) => s !== '')));
  return out;
}

const W = { name: 'get_weather', args: '{"city":"Paris"}' };
const T = { name: 'get_time', args: '{"tz":"CET"}' };
const ok = (id: string, name: string, index: number, args: unknown, choice = 0, meta?: unknown) => ({ id, name, index, choice, args, ...(meta === undefined ? {} : { meta }) });

describe('Ollama /v1/chat/completions', () => {
  it('each call whole in one chunk without index, parallel calls in separate chunks, then finish_reason "stop"', () => {
    const out = run(calls([call({ id: 'call_w', ...W })]), calls([call({ id: 'call_t', ...T })]), finish('stop'), openaiDone());
    expect(out).toEqual({ results: [ok('call_w', 'get_weather', 0, { city: 'Paris' }), ok('call_t', 'get_time', 1, { tz: 'CET' })], finishes: ['0:stop/stop'], error: undefined, completed: true });
    expect(timeline(calls([call({ id: 'call_w', ...W })]), calls([call({ id: 'call_t', ...T })]), finish('stop'), openaiDone())).toEqual(['finish:0', 'result:call_w', 'result:call_t', 'complete']);
  });

  it('finish_reason "stop" in the same chunk as the last call, and no [DONE]', () => {
    const out = run(calls([call({ id: 'call_w', ...W })]), calls([call({ id: 'call_t', ...T })], 'stop'));
    expect(out.results).toEqual([ok('call_w', 'get_weather', 0, { city: 'Paris' }), ok('call_t', 'get_time', 1, { tz: 'CET' })]);
    expect([out.finishes, out.error, out.completed]).toEqual([['0:stop/stop'], undefined, true]);
  });

  it('the same tool twice without ids: two calls with generated ids', () => {
    const out = run(calls([call({ ...W })]), calls([call({ name: 'get_weather', args: '{"city":"Rome"}' })]), finish('stop'), openaiDone());
    expect(out.results).toEqual([ok('gen_0', 'get_weather', 0, { city: 'Paris' }, 0, { idGenerated: true }), ok('gen_1', 'get_weather', 1, { city: 'Rome' }, 0, { idGenerated: true })]);
  });
});

describe('gateways that re-emit every parallel call at index 0 with distinct ids', () => {
  it('two calls, streamed', () => {
    const out = run(
      calls([call({ index: 0, id: 'call_a', name: 'get_weather' })]),
      calls([call({ index: 0, args: '{"city":' })]),
      calls([call({ index: 0, args: '"Paris"}' })]),
      calls([call({ index: 0, id: 'call_b', name: 'get_time' })]),
      calls([call({ index: 0, args: T.args })]),
      finish('tool_calls'),
      openaiDone(),
    );
    expect(out.results).toEqual([ok('call_a', 'get_weather', 0, { city: 'Paris' }), ok('call_b', 'get_time', 0, { tz: 'CET' })]);
  });

  it('three calls, each whole in one chunk (Ollama behind a proxy)', () => {
    const out = run(
      calls([call({ index: 0, id: 'c1', ...W })]),
      calls([call({ index: 0, id: 'c2', ...T })]),
      calls([call({ index: 0, id: 'c3', name: 'get_weather', args: '{"city":"Rome"}' })]),
      finish('stop'),
      openaiDone(),
    );
    expect(out.results).toEqual([ok('c1', 'get_weather', 0, { city: 'Paris' }), ok('c2', 'get_time', 0, { tz: 'CET' }), ok('c3', 'get_weather', 0, { city: 'Rome' })]);
  });
});

describe("Gemini's OpenAI-compatibility endpoint", () => {
  const sig = { google: { thought_signature: 'c2lnLUE=' } };

  it('calls without index (ids present), the thought signature kept in providerMetadata', () => {
    const out = run(calls([call({ id: 'function-call-1', ...W, extra: sig }), call({ id: 'function-call-2', name: 'get_weather', args: '{"city":"Rome"}' })]), finish('tool_calls'), openaiDone());
    expect(out.results).toEqual([
      ok('function-call-1', 'get_weather', 0, { city: 'Paris' }, 0, { thoughtSignature: 'c2lnLUE=', extraContent: sig }),
      ok('function-call-2', 'get_weather', 1, { city: 'Rome' }),
    ]);
  });

  it('separate chunks per call, the signature only on the first', () => {
    const out = run(calls([call({ id: 'function-call-1', ...W, extra: sig })]), calls([call({ id: 'function-call-2', ...T })]), finish('stop'), openaiDone());
    expect(out.results).toEqual([
      ok('function-call-1', 'get_weather', 0, { city: 'Paris' }, 0, { thoughtSignature: 'c2lnLUE=', extraContent: sig }),
      ok('function-call-2', 'get_time', 1, { tz: 'CET' }),
    ]);
  });
});

describe('several choices (n > 1)', () => {
  const wire = [
    calls([call({ index: 0, id: 'a0', name: 'get_weather', args: '{"city":' })], null, 0),
    calls([call({ index: 0, id: 'b0', name: 'get_weather', args: '{"city":' })], null, 1),
    chunk([
      { index: 1, delta: { tool_calls: [call({ index: 0, args: '"Rome"}' })] }, finish_reason: null },
      { index: 0, delta: { tool_calls: [call({ index: 1, id: 'a1', name: 'get_time' })] }, finish_reason: null },
    ]),
    finish('tool_calls', 1),
    calls([call({ index: 0, args: '"Paris"}' }), call({ index: 1, args: T.args })], null, 0),
    finish('tool_calls', 0),
    openaiDone(),
  ];

  it('each choice keeps its own calls at the same indexes; results come at [DONE], choice by choice', () => {
    // Rule `when-complete`: a chat finish never closes calls (fragments may follow it); calls complete at [DONE].
    const out = run(...wire);
    expect(out.results).toEqual([ok('a0', 'get_weather', 0, { city: 'Paris' }, 0), ok('a1', 'get_time', 1, { tz: 'CET' }, 0), ok('b0', 'get_weather', 0, { city: 'Rome' }, 1)]);
    expect(out.finishes).toEqual(['0:tool-calls/tool_calls', '1:tool-calls/tool_calls']);
    expect(timeline(...wire)).toEqual(['finish:0', 'result:a0', 'result:a1', 'finish:1', 'result:b0', 'complete']);
  });
});

describe('identity quirks', () => {
  it('interleaved argument deltas across parallel calls (index 0, 1, 0, 1)', () => {
    const out = run(
      calls([call({ index: 0, id: 'c0', name: 'get_weather' }), call({ index: 1, id: 'c1', name: 'get_time' })]),
      calls([call({ index: 0, args: '{"ci' })]),
      calls([call({ index: 1, args: '{"tz"' })]),
      calls([call({ index: 0, args: 'ty":"Paris"}' })]),
      calls([call({ index: 1, args: ':"CET"}' })]),
      finish('tool_calls'),
      openaiDone(),
    );
    expect(out.results).toEqual([ok('c0', 'get_weather', 0, { city: 'Paris' }), ok('c1', 'get_time', 1, { tz: 'CET' })]);
  });

  it('id and name re-sent on every delta do not duplicate (with and without index)', () => {
    for (const index of [0, undefined]) {
      const out = run(
        calls([call({ index, id: 'c0', name: 'get_weather', args: '{"city"' })]),
        calls([call({ index, id: 'c0', name: 'get_weather', args: ':"Paris"}' })]),
        finish('tool_calls'),
        openaiDone(),
      );
      expect(out.results).toEqual([ok('c0', 'get_weather', 0, { city: 'Paris' })]);
    }
  });

  it('a name that arrives after the first delta (with and without index)', () => {
    for (const index of [0, undefined]) {
      const out = run(calls([call({ index, id: 'c0' })]), calls([call({ index, name: 'get_weather' })]), calls([call({ index, args: W.args })]), finish('tool_calls'), openaiDone());
      expect(out.results).toEqual([ok('c0', 'get_weather', 0, { city: 'Paris' })]);
    }
  });

  it('id: "" on continuations is absent (with and without index)', () => {
    for (const index of [0, undefined]) {
      const out = run(calls([call({ index, id: 'c0', name: 'get_weather', args: '{"city":' })]), calls([call({ index, id: '', name: '', args: '"Paris"}' })]), finish('tool_calls'), openaiDone());
      expect(out.results).toEqual([ok('c0', 'get_weather', 0, { city: 'Paris' })]);
    }
  });

  it('a call without any id gets a generated unique id', () => {
    const out = run(calls([call({ index: 0, ...W })]), calls([call({ index: 1, ...T })]), finish('tool_calls'), openaiDone());
    expect(out.results).toEqual([ok('gen_0', 'get_weather', 0, { city: 'Paris' }, 0, { idGenerated: true }), ok('gen_1', 'get_time', 1, { tz: 'CET' }, 0, { idGenerated: true })]);
  });

  it('two calls with the same id stay two calls with distinct ids (x, x_2)', () => {
    const out = run(
      calls([call({ index: 0, id: 'x', name: 'get_weather' })]),
      calls([call({ index: 1, id: 'x', name: 'get_time' })]),
      calls([call({ index: 0, args: W.args })]),
      calls([call({ index: 1, args: T.args })]),
      finish('tool_calls'),
      openaiDone(),
    );
    expect(out.results).toEqual([ok('x', 'get_weather', 0, { city: 'Paris' }), ok('x_2', 'get_time', 1, { tz: 'CET' }, 0, { wireId: 'x' })]);
  });
});

describe('failures mid-stream', () => {
  it('a connection cut mid-call (no [DONE], no finish): open calls incomplete (truncated), then the truncated error', () => {
    const out = run(calls([call({ index: 0, id: 'c0', ...W })]), calls([call({ index: 1, id: 'c1', name: 'get_time', args: '{"tz":"CE' })]));
    expect(out).toEqual({
      results: [
        { failed: 'incomplete', id: 'c0', name: 'get_weather', choice: 0, raw: W.args, reason: 'truncated' },
        { failed: 'incomplete', id: 'c1', name: 'get_time', choice: 0, raw: '{"tz":"CE', reason: 'truncated' },
      ],
      finishes: [],
      error: 'truncated',
      completed: false,
    });
  });

  it('a connection cut after choice 0 finished: its calls complete first, choice 1’s open call incomplete, then truncated', () => {
    const wire = [calls([call({ index: 0, id: 'a0', ...W })], null, 0), calls([call({ index: 0, id: 'b0', name: 'get_time', args: '{"tz":' })], null, 1), finish('tool_calls', 0)];
    const out = run(...wire);
    expect(out.results).toEqual([ok('a0', 'get_weather', 0, { city: 'Paris' }), { failed: 'incomplete', id: 'b0', name: 'get_time', choice: 1, raw: '{"tz":', reason: 'truncated' }]);
    expect([out.error, out.completed]).toEqual(['truncated', false]);
    expect(timeline(...wire)).toEqual(['finish:0', 'result:a0', 'result:b0', 'error']);
  });

  it('an error envelope mid-stream after choice 0 finished while choice 1 is open', () => {
    const wire = [
      calls([call({ index: 0, id: 'a0', ...W })], null, 0),
      calls([call({ index: 0, id: 'b0', name: 'get_time', args: '{"tz":' })], null, 1),
      finish('tool_calls', 0),
      sseEvent({ data: JSON.stringify({ error: { message: 'upstream overloaded', type: 'server_error', code: 'overloaded' } }) }),
      openaiDone(),
    ];
    const out = run(...wire);
    expect(out.results).toEqual([ok('a0', 'get_weather', 0, { city: 'Paris' }), { failed: 'incomplete', id: 'b0', name: 'get_time', choice: 1, raw: '{"tz":', reason: 'provider-error' }]);
    expect([out.error, out.completed]).toEqual(['provider-error', false]);
    expect(timeline(...wire)).toEqual(['finish:0', 'result:a0', 'result:b0', 'error']);
  });

  it('readToolCalls() alone gives the same results and error', () => {
    const results: unknown[] = [];
    let error: unknown;
    from([openaiChunk({ toolCalls: [{ id: 'c0', name: 'get_weather', arguments: '{"ci' }] })])
      .pipe(readToolCalls())
      .subscribe({ next: (r) => results.push(describeResult(r)), error: (e: unknown) => (error = e) });
    expect(results).toEqual([{ failed: 'incomplete', id: 'c0', name: 'get_weather', choice: 0, raw: '{"ci', reason: 'truncated' }]);
    expect(isToolStreamError(error) && error.code).toBe('truncated');
  });
});
