// What the docs promise about the default limits, pinned at their exact boundaries (at, one under,
// one over) through the public operators, WITHOUT passing the limit: `maxToolCalls` 1,024,
// `maxArgumentsSize` 64 MiB, `maxEventSize` 16 MiB, Gemini's work budget of 10,000 and
// `costOf`'s 30 decimal places. (The request translators' `maxDepth` 512 is pinned the same way in
// spec/providers/hostileRequests.spec.ts.)
import { from, lastValueFrom, materialize, toArray, type Observable } from 'rxjs';
import { decodeSse, isToolStreamError, readToolCalls, toolCalls, type StreamEvent, type ToolCallResult } from 'rxjs-tool-calls';
import { costOf } from 'rxjs-tool-calls/gateway';
import { toGeminiSchema } from 'rxjs-tool-calls/tools';
import { anthropicEvent, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const MAX_TOOL_CALLS = 1024;
const MAX_ARGUMENTS_SIZE = 64 * 1024 * 1024;
const MAX_EVENT_SIZE = 16 * 1024 * 1024;

/** The values and the error (if any) of a finite observable. */
async function settle<T>(source: Observable<T>): Promise<{ values: T[]; error: unknown }> {
  const notes = await lastValueFrom(source.pipe(materialize(), toArray()));
  const values: T[] = [];
  let error: unknown;
  for (const note of notes) {
    if (note.kind === 'N') values.push(note.value);
    else if (note.kind === 'E') error = note.error;
  }
  return { values, error };
}

const finish: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' };
const done: StreamEvent = { type: 'done' };

/** `n` calls as events, each complete with `{}`. */
function callEvents(n: number): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (let i = 0; i < n; i++) events.push({ type: 'tool-call-delta', choice: 0, index: i, id: `c${i}`, name: 'f', argumentsDelta: '{}' });
  return [...events, finish, done];
}

/**
 * The stream ended with too-many-tool-calls (limit 1024) when the 1,025th call opened. The 1,024
 * before it end as they were: still open (every chat call waits for the finish) → incomplete with
 * the stream's reason; already closed (each Anthropic block stops before the next) → successes.
 */
function expectTooMany(run: { values: ToolCallResult[]; error: unknown }, before: 'open' | 'closed'): void {
  expect(isToolStreamError(run.error, 'too-many-tool-calls')).toBe(true);
  expect((run.error as { limit: number }).limit).toBe(MAX_TOOL_CALLS);
  expect(run.values).toHaveLength(MAX_TOOL_CALLS);
  if (before === 'closed') expect(run.values.every((r) => r.success)).toBe(true);
  else expect(run.values.every((r) => !r.success && r.error.code === 'incomplete' && r.error.reason === 'too-many-tool-calls')).toBe(true);
}

describe('maxToolCalls: 1,024 by default', () => {
  it.each([MAX_TOOL_CALLS - 1, MAX_TOOL_CALLS])('toolCalls(): %i calls all succeed', async (n) => {
    const run = await settle(from(callEvents(n)).pipe(toolCalls()));
    expect(run.error).toBeUndefined();
    expect(run.values.filter((r) => r.success)).toHaveLength(n);
  });

  it('toolCalls(): the 1,025th call ends the stream with too-many-tool-calls (limit 1024)', async () => {
    expectTooMany(await settle(from(callEvents(MAX_TOOL_CALLS + 1)).pipe(toolCalls())), 'open');
  });

  /** `n` chat calls on the wire. */
  const chatWire = (n: number): string[] => [
    ...Array.from({ length: n }, (_, i) => openaiChunk({ toolCalls: [{ index: i, id: `c${i}`, name: 'f', arguments: '{}' }] })),
    openaiChunk({ finishReason: 'tool_calls' }),
    openaiDone(),
  ];
  /** `n` Anthropic tool_use blocks on the wire. */
  const anthropicWire = (n: number): string[] => [
    anthropicEvent('message_start', { message: { id: 'm', model: 'claude', usage: { input_tokens: 1, output_tokens: 1 } } }),
    ...Array.from({ length: n }, (_, i) => [
      anthropicEvent('content_block_start', { index: i, content_block: { type: 'tool_use', id: `t${i}`, name: 'f', input: {} } }),
      anthropicEvent('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: '{}' } }),
      anthropicEvent('content_block_stop', { index: i }),
    ]).flat(),
    anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 1 } }),
    anthropicEvent('message_stop', {}),
  ];

  describe.each([
    ['openai chat', chatWire, 'open'],
    ['anthropic', anthropicWire, 'closed'],
  ] as const)('readToolCalls() on %s bytes', (_name, wire, before) => {
    it.each([MAX_TOOL_CALLS - 1, MAX_TOOL_CALLS])('%i calls all succeed', async (n) => {
      const run = await settle(from(wire(n)).pipe(readToolCalls()));
      expect(run.error).toBeUndefined();
      expect(run.values.filter((r) => r.success)).toHaveLength(n);
    });

    it('1,025 calls end the stream with too-many-tool-calls (limit 1024)', async () => {
      expectTooMany(await settle(from(wire(MAX_TOOL_CALLS + 1)).pipe(readToolCalls())), before);
    });
  });
});

describe('maxArgumentsSize: 64 MiB (67,108,864 chars) by default', () => {
  /** One call whose arguments are exactly `size` chars (`{"d":"xxx…"}`), in `pieces` fragments, and a small sibling. */
  function bigCall(size: number, pieces: number): { events: StreamEvent[]; text: string } {
    const text = `{"d":"${'x'.repeat(size - 8)}"}`;
    const step = Math.ceil(text.length / pieces);
    const events: StreamEvent[] = [{ type: 'tool-call-delta', choice: 0, index: 0, id: 'big', name: 'upload', argumentsDelta: '' }];
    for (let at = 0; at < text.length; at += step) events.push({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: text.slice(at, at + step) });
    events.push({ type: 'tool-call-delta', choice: 0, index: 1, id: 'small', name: 'ping', argumentsDelta: '{}' }, finish, done);
    return { events, text };
  }

  it.each([MAX_ARGUMENTS_SIZE - 1, MAX_ARGUMENTS_SIZE])('toolCalls(): arguments of %i chars succeed', async (size) => {
    const { events } = bigCall(size, 3);
    const run = await settle(from(events).pipe(toolCalls()));
    expect(run.error).toBeUndefined();
    const [big, small] = run.values;
    expect(big?.success === true && big.data.rawArguments.length).toBe(size);
    expect(small?.success).toBe(true);
  });

  it('toolCalls(): one char more fails that call with arguments-too-large (limit 67108864), its sibling succeeds', async () => {
    const run = await settle(from(bigCall(MAX_ARGUMENTS_SIZE + 1, 3).events).pipe(toolCalls()));
    expect(run.error).toBeUndefined();
    const [big, small] = run.values;
    expect(big?.success === false && { code: big.error.code, limit: (big.error as { limit?: number }).limit }).toEqual({ code: 'arguments-too-large', limit: MAX_ARGUMENTS_SIZE });
    expect(small?.success).toBe(true);
  });

  /** The same call on the chat wire, in 1 MiB fragments (each SSE event well under maxEventSize). */
  function chatWire(size: number): string[] {
    const { events } = bigCall(size, 64);
    const wire: string[] = [];
    for (const event of events) {
      if (event.type === 'tool-call-delta')
        wire.push(openaiChunk({ toolCalls: [{ index: event.index ?? 0, ...(event.id === undefined ? {} : { id: event.id, name: event.name }), arguments: event.argumentsDelta }] }));
    }
    return [...wire, openaiChunk({ finishReason: 'tool_calls' }), openaiDone()];
  }

  it.each([
    [MAX_ARGUMENTS_SIZE, 'success'],
    [MAX_ARGUMENTS_SIZE + 1, 'arguments-too-large'],
  ])('readToolCalls(): %i chars of arguments on the wire: %s', async (size, expected) => {
    const run = await settle(from(chatWire(size)).pipe(readToolCalls()));
    expect(run.error).toBeUndefined();
    const [big, small] = run.values;
    expect(big?.success === true ? 'success' : big?.error.code).toBe(expected);
    expect(small?.success).toBe(true);
  });
});

describe('maxEventSize: 16 MiB (16,777,216 chars of a line and the data before it) by default', () => {
  /** One event whose data line is `length` chars long, `data: ` included. */
  const line = (length: number): string => `data: ${'x'.repeat(length - 6)}\n\n`;

  it.each([MAX_EVENT_SIZE - 1, MAX_EVENT_SIZE])('decodeSse(): a %i-char line is one event', async (length) => {
    const run = await settle(from([line(length)]).pipe(decodeSse()));
    expect(run.error).toBeUndefined();
    expect(run.values.map((e) => e.data.length)).toEqual([length - 6]);
  });

  it('decodeSse(): one char more is event-too-large (limit 16777216)', async () => {
    const run = await settle(from([line(MAX_EVENT_SIZE + 1)]).pipe(decodeSse()));
    expect(isToolStreamError(run.error, 'event-too-large')).toBe(true);
    expect((run.error as { limit: number }).limit).toBe(MAX_EVENT_SIZE);
  });
});

describe("toGeminiSchema's work budget: 10,000 units by default", () => {
  /** A root object with one property at the end of a `$ref` chain of `hops` hops: `hops + 2` units (two nodes, each hop one). */
  function chain(hops: number): Record<string, unknown> {
    const defs: Record<string, unknown> = { D0: { type: 'string' } };
    for (let i = 1; i < hops; i++) defs[`D${i}`] = { $ref: `#/$defs/D${i - 1}` };
    return { type: 'object', properties: { a: { $ref: `#/$defs/D${hops - 1}` } }, $defs: defs };
  }

  it.each([9_997, 9_998])('%i hops (one unit under, at the budget) convert', (hops) => {
    expect(toGeminiSchema(chain(hops))).toEqual({ type: 'OBJECT', properties: { a: { type: 'STRING' } } });
  });

  it('9,999 hops (one unit over) are unsupported-request', () => {
    expect(() => toGeminiSchema(chain(9_999))).toThrow(expect.objectContaining({ code: 'unsupported-request', detail: 'the schema has more than 10000 nodes once references are inlined' }));
  });
});

describe("costOf's round.places: 0 to 30", () => {
  it.each([0, 29, 30])('%i places are accepted', (places) => {
    expect(costOf({ outputTokens: 1 }, { input: 0, output: 1 }, { round: { places } }).total).toBe(places === 0 ? '0' : `0.${'0'.repeat(5)}1`.padEnd(places + 2, '0'));
  });

  it.each([-1, 31])('%i places are invalid-option', (places) => {
    expect(() => costOf({}, { input: 0, output: 1 }, { round: { places } })).toThrow(expect.objectContaining({ code: 'invalid-option', option: 'options.round.places' }));
  });
});
