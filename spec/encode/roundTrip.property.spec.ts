/**
 * Round trip of generated event sequences (text, reasoning, calls interleaved or not, fragments
 * split anywhere, sometimes cut short, a finish, usage) through every encoder: reading the encoded
 * text gives what reading the events gives, except what the target cannot carry (`reencode.ts`).
 */
import fc from 'fast-check';
import { eventsOf, streamModel } from '../helpers/eventArbitraries';
import { reencode, TARGETS, view, viewEvents } from '../helpers/reencode';
import { actualCalls, actualClosing, expectedCalls, expectedClosing, expectedFinish, expectedUsage } from '../helpers/targetExpectations';

describe.each(TARGETS.map((t) => [t] as const))('%s', (target) => {
  it('reading the encoded stream gives the calls, text, reasoning, finish and usage of the events', () => {
    fc.assert(
      fc.property(streamModel, (model) => {
        const events = eventsOf(model);
        const original = viewEvents(events);
        const encoded = reencode(events, undefined, target);
        expect(encoded.error).toBeUndefined();
        const back = view(encoded.text);
        expect(back.error).toBeUndefined();
        expect(actualCalls(target, back)).toEqual(expectedCalls(target, original));
        expect(actualClosing(target, back)).toEqual(expectedClosing(target, original));
        expect(back.text).toBe(original.text);
        expect(back.reasoning).toBe(original.reasoning);
        expect(expectedFinish(target, original, back.calls.length > 0)).toContain(back.finish);
        expect(back.usage).toEqual(expectedUsage(target, original));
      }),
      { numRuns: 200 },
    );
  });
});
