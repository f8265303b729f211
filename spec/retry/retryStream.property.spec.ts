/**
 * Property: a stream cut at random points (any byte, several times, each attempt in random chunks)
 * and resumed gives the uncut stream's events and results exactly once. Streams are generated as
 * events and written by the encoders: chat and Anthropic with an SSE `id:` on every event (resumed
 * with `Last-Event-ID`), Responses with its `sequence_number`s (resumed with `starting_after`).
 */
import fc from 'fast-check';
import { concat, from, lastValueFrom, type Observable, throwError, toArray } from 'rxjs';
import { retryStream, toolCalls, type RetryContext, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { eventsOf as modelEvents, streamModel } from '../helpers/eventArbitraries';
import { cut, eventsBefore, eventsOf, resultsOf, virtualTime } from '../helpers/retryWire';
import { splitText } from '../helpers/sseArbitraries';

type Format = 'chat' | 'anthropic' | 'responses';

/** The model's events written in `format`, one SSE event per entry (with ids, except Responses). */
async function wireOf(events: StreamEvent[], format: Format): Promise<string[]> {
  const encoder =
    format === 'chat'
      ? encodeOpenAIChat({ id: 'c', model: 'm', created: 1 })
      : format === 'anthropic'
        ? encodeAnthropicMessages({ id: 'msg', model: 'm' })
        : encodeOpenAIResponses({ id: 'resp', model: 'm', created: 1 });
  const text = (await lastValueFrom(from(events).pipe(encoder, toArray()))).join('');
  const sse = text.split('\n\n').filter((event) => event !== '');
  return sse.map((event, i) => (format === 'responses' ? `${event}\n\n` : `id: ${i + 1}\n${event}\n\n`));
}

/**
 * How a server resumes: `after` the last event received (as it should), from that event `again`
 * (dropped by its id or sequence number), or (a Responses server ignoring `starting_after`) from the
 * `start` of the stored response.
 */
type Replay = 'after' | 'again' | 'start';

/** Where a resumed attempt starts: after (or at) the event with that id or that sequence number. */
function resumeAt(wire: readonly string[], context: RetryContext, replay: Replay): number {
  const again = replay === 'again' ? 1 : 0;
  if (context.lastEventId !== undefined) return Number(context.lastEventId) - again;
  const sequence = context.lastSequenceNumber;
  if (sequence !== undefined) return replay === 'start' ? 0 : wire.findIndex((event) => event.includes(`"sequence_number":${sequence + 1 - again}`));
  return 0;
}

/** The server: attempt k sends from its resume point up to the k-th cut (a character offset of the whole text), in chunks. */
function server(wire: readonly string[], cutsAt: readonly number[], splits: readonly number[], replay: Replay): (context: RetryContext) => Observable<string> {
  const offsets = wire.reduce<number[]>((acc, event) => [...acc, (acc[acc.length - 1] ?? 0) + event.length], [0]);
  const whole = wire.join('');
  return (context) => {
    const start = offsets[resumeAt(wire, context, replay)] ?? whole.length;
    // A cut before the resume point cuts the attempt before its first byte.
    const end = cutsAt[context.attempt - 1];
    const text = whole.slice(start, end === undefined ? whole.length : Math.max(start, end));
    const chunks = splitText(text, splits).filter((chunk) => chunk !== '');
    return end === undefined
      ? from(chunks)
      : concat(
          from(chunks),
          throwError(() => cut()),
        );
  };
}

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

/** The character offset where the first event that brings output (not metadata or usage) ends. */
async function firstOutputAt(wire: readonly string[]): Promise<number> {
  let offset = 0;
  for (let i = 0; i < wire.length; i++) {
    offset += (wire[i] as string).length;
    if ((await eventsBefore(wire.slice(0, i + 1))).some((e) => e.type !== 'metadata' && e.type !== 'usage')) return offset;
  }
  return offset;
}

describe('retryStream() resumes at any cut, exactly once (property)', () => {
  it.each<Format>(['chat', 'anthropic', 'responses'])('%s', async (format) => {
    const replays = fc.constantFrom<Replay>(...(format === 'responses' ? (['after', 'again', 'start'] as const) : (['after', 'again'] as const)));
    await fc.assert(
      fc.asyncProperty(streamModel, fraction, fc.array(fraction, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 8 }), replays, async (model, early, late, splits, replay) => {
        const wire = await wireOf(modelEvents(model), format);
        const length = wire.join('').length;
        // One cut anywhere (often before any output: a retry from the start), the others after the first output (resumes).
        const output = await firstOutputAt(wire);
        const cutsAt = [Math.floor(early * length), ...late.map((f) => output + Math.floor(f * (length - output)))].sort((a, b) => a - b);
        const events: StreamEvent[] = [];
        let failure: unknown;
        let completed = false;
        const scheduler = virtualTime();
        scheduler.run(() => {
          retryStream(server(wire, cutsAt, splits, replay), { scheduler, maxAttempts: cutsAt.length + 1, backoff: () => 1 }).subscribe({
            next: (e) => events.push(e),
            error: (e: unknown) => (failure = e),
            complete: () => (completed = true),
          });
        });
        expect(failure).toBeUndefined();
        expect(completed).toBe(true);
        expect(events.filter((e) => e.type !== 'retry')).toEqual(await eventsOf(wire));
        expect(await lastValueFrom(from(events).pipe(toolCalls(), toArray()))).toEqual(await resultsOf(wire));
      }),
      { numRuns: 60 },
    );
  });
});
