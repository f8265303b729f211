/**
 * The liveness rule for Gemini's Interactions API: each of our own streams (spec/fixtures/sse), and
 * random turns, fed one SSE event per chunk; after every chunk, every view shows each call's arguments as the wire's own
 * prefix at that event (see `harness.ts`).
 */
import fc from 'fast-check';
import { geminiInteractionsEvent } from 'rxjs-tool-calls/marbles';
import { interactionsEvents, interactionsStream, interactionsTurnArb, type InteractionsTurn } from '../helpers/interactionsWire';
import { liveness, sseRecords } from './harness';
import { geminiInteractionsReference } from './references';
import { liveStreams } from './streams';

const streams = liveStreams('gemini-interactions');

describe('liveness: Gemini Interactions', () => {
  it('has streams', () => {
    expect(streams.length).toBeGreaterThan(0);
  });

  it.each(streams.map((s) => [s.name, s] as const))('%s: every argument fragment is visible in every view at the chunk that completed its record', (_name, stream) => {
    expect(stream.records).toHaveLength(stream.chunks.length);
    expect(liveness(stream, geminiInteractionsReference)).toEqual([]);
  });

  // Arguments given whole in the step's start (as a step replayed from `interaction.completed` holds them), then streamed again or not.
  const turn: InteractionsTurn = {
    text: ['Checking.'],
    calls: [
      { id: 'call_1', name: 'get_weather', pieces: ['{"city":', '"Oslo"}'] },
      { id: 'call_2', name: 'get_time', pieces: ['{"tz":"CET"}'] },
    ],
  };
  const prefilled = (streamAgain: boolean): Uint8Array => {
    const events = interactionsEvents(turn);
    const out = events.flatMap(([type, payload], i): string[] => {
      const step = payload['step'] as Record<string, unknown> | undefined;
      if (type === 'step.start' && step?.['type'] === 'function_call') {
        const pieces = events.slice(i + 1).flatMap(([t, p]) => (t === 'step.delta' && p['index'] === payload['index'] ? [(p['delta'] as { arguments: string }).arguments] : []));
        return [geminiInteractionsEvent(type, { ...payload, step: { ...step, arguments: JSON.parse(pieces.join('')) as unknown } })];
      }
      if (!streamAgain && type === 'step.delta' && (payload['delta'] as { type: string }).type === 'arguments_delta') return [];
      return [geminiInteractionsEvent(type, payload)];
    });
    return new TextEncoder().encode(out.join(''));
  };
  it.each([
    ['arguments whole in the step start', false],
    ['arguments whole in the step start, then streamed again', true],
  ] as const)('%s: shown at once; the append-only encoders write them with the call’s next event', (_name, again) => {
    const stream = { name: 'prefilled', provider: 'gemini-interactions' as const, ...sseRecords(prefilled(again)) };
    expect(geminiInteractionsReference(stream.records).map((c) => c.superseded !== undefined)).toEqual([again, again]);
    expect(liveness(stream, geminiInteractionsReference)).toEqual([]);
  });

  it('random turns (thoughts, text, calls cut at random points, awkward strings): live at every event', () => {
    fc.assert(
      fc.property(interactionsTurnArb, (turn) => {
        const stream = { name: 'random', provider: 'gemini-interactions' as const, ...sseRecords(new TextEncoder().encode(interactionsStream(turn))) };
        expect(liveness(stream, geminiInteractionsReference)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
