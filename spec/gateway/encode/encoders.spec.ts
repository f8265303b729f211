/**
 * What every encoder of the gateway wing promises, one table over all seven (OpenAI chat, Responses,
 * Anthropic, Gemini, Gemini Interactions, Bedrock Converse, Ollama): the standard operator cases; a provider error is
 * written in the target's error shape and the output completes; any other error passes on with no
 * terminator; a source that sends nothing gets nothing; what follows the terminator is ignored;
 * `retry` / `restart` notices write nothing; `reasoning: 'drop'` leaves reasoning out; and reading
 * the output back gives the calls, text and finish it was written from. Each format's own wire
 * details are in its spec beside this one.
 */
import { concat, from, throwError, type Observable, type OperatorFunction } from 'rxjs';
import { readStreamEvents, ToolStreamError, type StreamEvent } from 'rxjs-tool-calls';
import { encodeBedrockConverse, encodeOllamaChat, type EncodeOptions } from 'rxjs-tool-calls/gateway';
import { concatBytes } from '../../helpers/framing';
import { collect, encoderFor, genIds, viewEvents, type View } from '../../helpers/reencode';
import { standardCases } from '../../helpers/standardCases';

type Out = string | Uint8Array;

interface Encoder {
  /** The encoder, with deterministic ids and time. */
  readonly make: (options?: EncodeOptions) => OperatorFunction<StreamEvent, Out>;
  /** Read the output back (auto-detected, as a client of the gateway would). */
  readonly read: (out: readonly Out[]) => View;
  /** Whether the format writes the model's reasoning. */
  readonly reasoning: boolean;
}

const readBack = (out: readonly Out[]): View => {
  const bytes = out.every((o) => typeof o === 'string') ? new TextEncoder().encode(out.join('')) : concatBytes(out as Uint8Array[]);
  const { values, error } = collect(from([bytes]).pipe(readStreamEvents()));
  return viewEvents(values, error);
};

const ENCODERS: ReadonlyArray<[string, Encoder]> = [
  ['openai-chat', { make: (o) => encoderFor('openai-chat', o), read: readBack, reasoning: true }],
  ['openai-responses', { make: (o) => encoderFor('openai-responses', o), read: readBack, reasoning: true }],
  ['anthropic', { make: (o) => encoderFor('anthropic', o), read: readBack, reasoning: true }],
  ['gemini', { make: (o) => encoderFor('gemini', o), read: readBack, reasoning: true }],
  ['gemini-interactions', { make: (o) => encoderFor('gemini-interactions', o), read: readBack, reasoning: true }],
  ['bedrock-converse', { make: (o) => encodeBedrockConverse({ generateId: genIds(), ...o }), read: readBack, reasoning: true }],
  ['ollama', { make: (o) => encodeOllamaChat({ generateId: genIds(), model: 'enc-model', createdAt: '2025-01-01T00:00:00.000Z', ...o }), read: readBack, reasoning: true }],
];

const t: StreamEvent = { type: 'text-delta', choice: 0, text: 'Checking Zürich.' };
const r: StreamEvent = { type: 'reasoning-delta', choice: 0, text: 'The user wants the weather.' };
const x1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":' };
const x2: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Zürich"}' };
const e: StreamEvent = { type: 'tool-call-end', choice: 0, index: 0 };
const f: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' };
const d: StreamEvent = { type: 'done' };

function run(encoder: Encoder, events: readonly StreamEvent[], error?: unknown, options?: EncodeOptions) {
  const source: Observable<StreamEvent> =
    error === undefined
      ? from(events)
      : concat(
          from(events),
          throwError(() => error),
        );
  return collect(source.pipe(encoder.make(options)));
}

describe.each(ENCODERS)('%s', (_name, encoder) => {
  standardCases(() => encoder.make(), [t, x1, x2, e, f, d]);

  it('reads back as the calls, text and finish it was written from', () => {
    const out = run(encoder, [t, x1, x2, e, f, d]);
    expect([out.error, out.completed]).toEqual([undefined, true]);
    const back = encoder.read(out.values);
    expect(back.error).toBeUndefined();
    expect(back.text).toBe('Checking Zürich.');
    expect(back.calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Zürich' }]]);
    expect(back.finish).toBe('tool-calls');
  });

  it('writes a provider error in the format’s error shape and completes: a reader gets the provider error', () => {
    const overloaded = new ToolStreamError('provider-error', { provider: 'anthropic', type: 'overloaded_error', message: 'Overloaded', status: 529, retryable: true, payload: {} });
    const out = run(encoder, [t, x1], overloaded);
    expect([out.error, out.completed]).toEqual([undefined, true]);
    expect(encoder.read(out.values).error).toMatchObject({ code: 'provider-error', message: expect.stringContaining('Overloaded') });
  });

  it('passes any other error on as it is, with no terminator: a reader sees a cut stream', () => {
    const cut = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no [DONE]' });
    const out = run(encoder, [t, x1], cut);
    expect(out.error).toBe(cut);
    expect(encoder.read(out.values).error).toMatchObject({ code: 'truncated' });
  });

  it('writes nothing for a source that completes without sending anything', () => {
    expect(run(encoder, [])).toEqual({ values: [], error: undefined, completed: true });
  });

  it('ignores what follows the terminator, and writes nothing for retry and restart notices', () => {
    const notices: StreamEvent[] = [
      { type: 'retry', attempt: 2, error: new Error('cut'), delayMs: 5 },
      { type: 'restart', attempt: 2, error: new Error('cut') },
    ];
    const plain = run(encoder, [t, x1, x2, e, f, d]).values;
    expect(run(encoder, [...notices, t, x1, x2, e, f, d, t, x1]).values).toEqual(plain);
  });

  it("leaves reasoning out with reasoning: 'drop', and writes it by default", () => {
    const kept = encoder.read(run(encoder, [r, t, f, d]).values);
    const dropped = encoder.read(run(encoder, [r, t, f, d], undefined, { reasoning: 'drop' }).values);
    expect(kept.reasoning).toBe(encoder.reasoning ? 'The user wants the weather.' : '');
    expect([dropped.reasoning, dropped.text]).toEqual(['', 'Checking Zürich.']);
  });
});
