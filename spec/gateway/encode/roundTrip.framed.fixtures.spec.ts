/**
 * Round trip of every recorded stream in ../shared/fixtures through the non-SSE encoders:
 * `readStreamEvents()` → `encodeBedrockConverse()` / `encodeOllamaChat()` → the target's framing and
 * decoder gives the same calls (id, name, arguments, outcome, order), text, reasoning, finish and
 * usage as reading the original, except what a target cannot carry (see spec/helpers/framedTargets.ts).
 */
import { isToolStreamError } from 'rxjs-tool-calls';
import { chunkings } from '../../helpers/chunking';
import { loadFixtures } from '../../helpers/fixtures';
import {
  actualFramedCalls,
  actualFramedClosing,
  expectedFramedCalls,
  expectedFramedClosing,
  expectedFramedFinish,
  expectedFramedUsage,
  FRAMED_TARGETS,
  reencodeFramed,
  viewFramed,
  type FramedTarget,
} from '../../helpers/framedTargets';
import { eventsOf, providerErrorView, view } from '../../helpers/reencode';

const fixtures = loadFixtures();
const cases = fixtures.flatMap((f) => FRAMED_TARGETS.map((target): [string, FramedTarget, Uint8Array] => [f.name, target, f.bytes]));

it('covers every fixture for both targets', () => {
  expect(fixtures).toHaveLength(40);
  expect(cases).toHaveLength(80);
});

describe.each(cases)('%s → %s', (_name, target, bytes) => {
  const original = view(bytes);
  const { events, error } = eventsOf(bytes);
  const encoded = reencodeFramed(events, error, target);
  const back = viewFramed(encoded.bytes, target);

  it('the encoded stream ends as the source did: completes (a provider error written in the target shape) or fails with the same error', () => {
    if (error === undefined || (isToolStreamError(error) && error.code === 'provider-error')) {
      expect(encoded.error).toBeUndefined();
      expect(encoded.completed).toBe(true);
    } else {
      expect(encoded.error).toBe(error);
    }
    const expectedError = providerErrorView(original.error);
    expect(providerErrorView(back.error)).toEqual(expectedError);
  });

  it("gives the same calls, in the message's order and in the order their results come", () => {
    expect(actualFramedCalls(target, back)).toEqual(expectedFramedCalls(target, original));
    expect(actualFramedClosing(target, back)).toEqual(expectedFramedClosing(target, original));
  });

  it('gives the same text and reasoning', () => {
    expect(back.text).toBe(original.text);
    expect(back.reasoning).toBe(original.reasoning);
  });

  it('gives the same finish reason (normalised) and usage', () => {
    if (original.error !== undefined) {
      // Converse writes its stop reason only at the end (messageStop), which a failed stream never
      // gets; Ollama only on its last line.
      expect(back.finish).toBeUndefined();
      return;
    }
    expect(back.finish).toBe(expectedFramedFinish(target, original, back.calls.length > 0));
    expect(back.usage).toEqual(expectedFramedUsage(target, original));
  });

  it('reads the same when the encoded bytes arrive cut anywhere', () => {
    for (const [name, chunks] of chunkings(encoded.bytes).slice(1)) expect([name, viewFramed(chunks, target)]).toEqual([name, back]);
  });
});
