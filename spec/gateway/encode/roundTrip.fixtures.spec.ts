/**
 * Round trip of every recorded stream in ../shared/fixtures, and of our own streams of the formats
 * they lack (spec/fixtures/sse), through every encoder:
 * `readStreamEvents()` → `encodeX()` → `readToolCalls()` / `readStreamEvents()` gives the same calls
 * (id, name, arguments, outcome, order), text, reasoning, finish and usage as reading the original,
 * except what a target cannot carry (see `expectedCalls`, `expectedFinish`, `expectedUsage`).
 */
import { isToolStreamError } from 'rxjs-tool-calls';
import { loadFixtures, loadOwnFixtures } from '../../helpers/fixtures';
import { eventsOf, providerErrorView, reencode, TARGETS, view, type Target } from '../../helpers/reencode';
import { actualCalls, actualClosing, expectedCalls, expectedClosing, expectedFinish, expectedUsage } from '../../helpers/targetExpectations';

const shared = loadFixtures();
const fixtures = [...shared, ...loadOwnFixtures()];
const cases = fixtures.flatMap((f) => TARGETS.map((target): [string, Target, Uint8Array] => [f.name, target, f.bytes]));

it('covers every fixture for every target', () => {
  expect(shared).toHaveLength(40);
  expect(cases).toHaveLength(fixtures.length * 5);
  expect(fixtures.length).toBeGreaterThanOrEqual(45);
});

describe.each(cases)('%s → %s', (_name, target, bytes) => {
  const original = view(bytes);
  const { events, error } = eventsOf(bytes);
  const encoded = reencode(events, error, target);
  const back = view(encoded.text);

  it('the encoded stream ends as the source did: completes (a provider error written in the target shape) or fails with the same error', () => {
    if (error === undefined || (isToolStreamError(error) && error.code === 'provider-error')) {
      expect(encoded.error).toBeUndefined();
      expect(encoded.completed).toBe(true);
    } else {
      expect(encoded.error).toBe(error);
    }
    expect(providerErrorView(back.error)).toEqual(providerErrorView(original.error));
  });

  it("gives the same calls, in the message's order and in the order their results come", () => {
    expect(actualCalls(target, back)).toEqual(expectedCalls(target, original));
    expect(actualClosing(target, back)).toEqual(expectedClosing(target, original));
  });

  it('gives the same text and reasoning', () => {
    expect(back.text).toBe(original.text);
    expect(back.reasoning).toBe(original.reasoning);
  });

  it('gives the same finish reason (normalised) and usage', () => {
    if (original.error !== undefined) {
      // A finish that came before the error: chat and Gemini write it at once; Anthropic and
      // Responses only in their final event (`message_delta`, `response.completed`), which a failed
      // stream never gets.
      expect(back.finish).toBe(target === 'openai-chat' || target === 'gemini' ? original.finish : undefined);
      return;
    }
    expect(expectedFinish(target, original, back.calls.length > 0)).toContain(back.finish);
    expect(back.usage).toEqual(expectedUsage(target, original));
  });
});
