/**
 * Round trip of generated event sequences (text, reasoning, calls interleaved or not, in every wire
 * style, fragments split anywhere, sometimes cut short, a finish, usage) through the UI encoders:
 * reading the encoded text gives what reading the events gives, except what a protocol cannot carry
 * (`uiExpectations.ts`); a source cut anywhere reads back as cut, never as a success it was not.
 */
import fc from 'fast-check';
import { isToolStreamError, ToolStreamError } from 'rxjs-tool-calls';
import { eventsOf, streamModel } from '../../helpers/eventArbitraries';
import { view, viewEvents } from '../../helpers/reencode';
import { expectedUiCalls, expectedUiFinish, expectedUiUsage, reencodeUi, UI_TARGETS } from '../../helpers/uiExpectations';

describe.each(UI_TARGETS.map((t) => [t] as const))('%s', (target) => {
  it('reading the encoded stream gives the calls, text, reasoning, finish and usage of the events', () => {
    fc.assert(
      fc.property(streamModel, (model) => {
        const events = eventsOf(model);
        const original = viewEvents(events);
        const encoded = reencodeUi(events, undefined, target);
        expect(encoded.error).toBeUndefined();
        const back = view(encoded.text);
        expect(back.error).toBeUndefined();
        expect(back.calls).toEqual(expectedUiCalls(target, original));
        expect(back.text).toBe(original.text);
        expect(back.reasoning).toBe(original.reasoning);
        expect(back.finish).toBe(expectedUiFinish(target, original, back.calls.length));
        expect(back.usage).toEqual(expectedUiUsage(original));
      }),
      { numRuns: 200 },
    );
  });

  it('a source cut anywhere fails with the same error, reads back as truncated, and reports no call a success the source had not completed', () => {
    fc.assert(
      fc.property(streamModel, fc.nat(), (model, at) => {
        const all = eventsOf(model);
        const events = all.slice(0, at % all.length); // never the terminator
        const cut = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'cut by the test' });
        const original = viewEvents(events, cut);
        const encoded = reencodeUi(events, cut, target);
        expect(encoded.error).toBe(cut);
        const back = view(encoded.text);
        expect(isToolStreamError(back.error) ? back.error.code : back.error).toBe(encoded.text === '' ? 'unknown-format' : 'truncated');
        expect(encoded.text).not.toMatch(/\[DONE\]|RUN_FINISHED/);
        const completed = new Map(original.calls.filter((c) => c.outcome === 'ok').map((c) => [c.id, c]));
        for (const call of back.calls.filter((c) => c.outcome === 'ok')) expect(completed.get(call.id)).toMatchObject({ name: call.name, arguments: call.arguments });
      }),
      { numRuns: 150 },
    );
  });
});
