/**
 * Round trip of generated event sequences (text, reasoning, calls interleaved or not, fragments
 * split anywhere, sometimes cut short, a finish, usage) through every encoder: reading the encoded
 * text gives what reading the events gives, except what the target cannot carry (`reencode.ts`).
 */
import fc from 'fast-check';
import { isToolStreamError, ToolStreamError } from 'rxjs-tool-calls';
import { eventsOf, streamModel } from '../../helpers/eventArbitraries';
import { reencode, TARGETS, view, viewEvents } from '../../helpers/reencode';
import { actualCalls, actualClosing, expectedCalls, expectedClosing, expectedFinish, expectedUsage } from '../../helpers/targetExpectations';

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

describe.each(TARGETS.map((t) => [t] as const))('%s, source cut anywhere', (target) => {
  it('fails with the same error, reads back as truncated, and reports no call a success that the source had not completed', () => {
    fc.assert(
      fc.property(streamModel, fc.nat(), (model, at) => {
        const all = eventsOf(model);
        const events = all.slice(0, at % all.length); // never the terminator
        const cut = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'cut by the test' });
        const original = viewEvents(events, cut);
        const encoded = reencode(events, cut, target);
        expect(encoded.error).toBe(cut);
        const back = view(encoded.text);
        // Nothing written (cut before the first piece): a reader cannot even tell the format. Cut
        // after the finish: chat and Gemini readers take a stream whose every choice finished as
        // complete without its terminator (only the usage is missing then).
        const finished = events.some((e) => e.type === 'finish');
        const expected = encoded.text === '' ? 'unknown-format' : finished && (target === 'openai-chat' || target === 'gemini') ? undefined : 'truncated';
        expect(isToolStreamError(back.error) ? back.error.code : back.error).toBe(expected);
        expect(encoded.text).not.toMatch(/\[DONE\]|message_stop|response\.completed|usageMetadata|interaction\.completed/);
        const completed = new Map(original.calls.filter((c) => c.outcome === 'ok').map((c) => [c.id, c]));
        for (const call of back.calls.filter((c) => c.outcome === 'ok')) {
          if (target === 'gemini' && back.generated.has(call.id))
            expect([...completed.values()].some((c) => c.name === call.name && JSON.stringify(c.arguments) === JSON.stringify(call.arguments))).toBe(true);
          else expect(completed.get(call.id)).toMatchObject({ name: call.name, arguments: call.arguments });
        }
      }),
      { numRuns: 150 },
    );
  });
});
