// What the docs promise about a call that closes at the terminator: it keeps its choice's finish
// reason. A call whose arguments were cut, after its choice finished with `length` (or
// `content_filter`), is `incomplete` with that reason, not `malformed-arguments`; after a finish
// that cuts nothing (`tool_calls`), its broken arguments are `malformed-arguments`; each call keeps
// the reason of its own choice. Angles: events through toolCalls(), chat bytes through
// readToolCalls(), two choices at once, and partialToolCalls().
import { from, lastValueFrom, toArray } from 'rxjs';
import { partialToolCalls, readToolCalls, toolCalls, type FinishReason, type StreamEvent, type ToolCallResult } from 'rxjs-tool-calls';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const outcome = (r: ToolCallResult | undefined): string => (r === undefined ? 'none' : r.success ? 'success' : `${r.error.code}${r.error.code === 'incomplete' ? ` (${r.error.reason})` : ''}`);

/** A finish for `choice`, then a call on it cut mid-arguments, then the terminator (which closes the call). */
function lateCall(reason: FinishReason, raw: string, choice = 0): StreamEvent[] {
  return [
    { type: 'finish', choice, reason, rawReason: raw },
    { type: 'tool-call-delta', choice, index: 0, id: `c${choice}`, name: 'f', argumentsDelta: '{"city":"Par' },
  ];
}

describe('toolCalls(): the terminator closes the call with its choice finish reason', () => {
  it.each([
    ['length', 'length', 'incomplete (length)'],
    ['content-filter', 'content_filter', 'incomplete (content-filter)'],
    ['tool-calls', 'tool_calls', 'malformed-arguments'],
    ['stop', 'stop', 'malformed-arguments'],
  ] as const)('after %s: %s', async (reason, raw, expected) => {
    const results = await lastValueFrom(from([...lateCall(reason, raw), { type: 'done' } as StreamEvent]).pipe(toolCalls(), toArray()));
    expect(results.map(outcome)).toEqual([expected]);
  });

  it('each call keeps the reason of its own choice', async () => {
    const events: StreamEvent[] = [...lateCall('length', 'length', 0), ...lateCall('tool-calls', 'tool_calls', 1), { type: 'done' }];
    const results = await lastValueFrom(from(events).pipe(toolCalls(), toArray()));
    expect(results.map((r) => [r.success ? r.data.choice : r.error.toolCall.choice, outcome(r)])).toEqual([
      [0, 'incomplete (length)'],
      [1, 'malformed-arguments'],
    ]);
  });

  it('a call whose arguments are whole succeeds whatever the reason', async () => {
    const events: StreamEvent[] = [
      { type: 'finish', choice: 0, reason: 'length', rawReason: 'length' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'c0', name: 'f', argumentsDelta: '{"city":"Paris"}' },
      { type: 'done' },
    ];
    expect((await lastValueFrom(from(events).pipe(toolCalls(), toArray()))).map(outcome)).toEqual(['success']);
  });
});

describe('readToolCalls(): the same on chat bytes ([DONE] closes the call)', () => {
  it.each([
    ['length', 'incomplete (length)'],
    ['content_filter', 'incomplete (content-filter)'],
    ['tool_calls', 'malformed-arguments'],
  ])('finish_reason %s, then a cut call, then [DONE]: %s', async (reason, expected) => {
    const wire = [openaiChunk({ finishReason: reason }), openaiChunk({ toolCalls: [{ index: 0, id: 'c0', name: 'f', arguments: '{"city":"Par' }] }), openaiDone()];
    expect((await lastValueFrom(from(wire).pipe(readToolCalls(), toArray()))).map(outcome)).toEqual([expected]);
  });

  it('two choices: each call its own choice reason', async () => {
    const wire = [
      openaiChunk({ finishReason: 'length', choice: 0 }),
      openaiChunk({ finishReason: 'tool_calls', choice: 1 }),
      openaiChunk({ choice: 0, toolCalls: [{ index: 0, id: 'a', name: 'f', arguments: '{"x":' }] }),
      openaiChunk({ choice: 1, toolCalls: [{ index: 0, id: 'b', name: 'f', arguments: '{"x":' }] }),
      openaiDone(),
    ];
    const results = await lastValueFrom(from(wire).pipe(readToolCalls(), toArray()));
    expect(Object.fromEntries(results.map((r) => [r.success ? r.data.id : r.error.toolCall.id, outcome(r)]))).toEqual({ a: 'incomplete (length)', b: 'malformed-arguments' });
  });
});

it('partialToolCalls(): the last value carries the same result', async () => {
  const values = await lastValueFrom(from([...lateCall('length', 'length'), { type: 'done' } as StreamEvent]).pipe(partialToolCalls(), toArray()));
  expect(outcome(values.at(-1)?.result)).toBe('incomplete (length)');
});
