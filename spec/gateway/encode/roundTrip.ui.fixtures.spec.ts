/**
 * Round trip of every recorded stream in ../shared/fixtures through the UI encoders and back through
 * the readers: `readStreamEvents()` → `encodeAiSdkUi()` / `encodeAgUi()` → `readToolCalls()` /
 * `readStreamEvents()` (auto-detected, in any chunking) gives the same calls (id, name, arguments,
 * outcome), text, reasoning, finish and usage as reading the original, except what a protocol cannot
 * carry (stated here).
 */
import { from } from 'rxjs';
import { isToolStreamError, readStreamEvents, type StreamEvent } from 'rxjs-tool-calls';
import { SseParser } from 'rxjs-tool-calls/advanced';
import { seededRandom, splitRandom } from 'rxjs-tool-calls/marbles';
import { loadFixtures } from '../../helpers/fixtures';
import { collect, eventsOf, providerErrorView, view, viewEvents } from '../../helpers/reencode';
import { expectedUiCalls, expectedUiFinish, expectedUiUsage, reencodeUi, UI_TARGETS, type UiTarget } from '../../helpers/uiExpectations';

const fixtures = loadFixtures();
const cases = fixtures.flatMap((f) => UI_TARGETS.map((target): [string, UiTarget, Uint8Array] => [f.name, target, f.bytes]));

it('covers every fixture for both UI protocols', () => {
  expect(fixtures).toHaveLength(40);
  expect(cases).toHaveLength(80);
});

describe.each(cases)('%s → %s', (name, target, bytes) => {
  const original = view(bytes);
  const { events, error } = eventsOf(bytes);
  const encoded = reencodeUi(events, error, target);
  const back = view(encoded.text);

  it('is recognised from its bytes, and ends as the source did (a provider error in the protocol’s error shape)', () => {
    const first = new SseParser();
    const records: string[] = [];
    first.push(encoded.text, (record) => records.push(record.data));
    // A stream that failed before any output starts with the protocol's error.
    const opening = target === 'ai-sdk-ui' ? ['start', 'error'] : ['RUN_STARTED', 'RUN_ERROR'];
    expect(opening).toContain((JSON.parse(records[0] ?? '{}') as { type?: string }).type);
    if (error === undefined || isToolStreamError(error, 'provider-error')) expect(encoded).toMatchObject({ error: undefined, completed: true });
    else expect(encoded.error).toBe(error);
    const expectedError = providerErrorView(original.error);
    // The protocols carry the provider's message, not whether a retry may help.
    const { retryable: _retryable, ...withoutRetryable } = expectedError ?? { code: '' };
    expect(providerErrorView(back.error)).toEqual(expectedError === undefined ? undefined : expect.objectContaining(withoutRetryable));
  });

  it('gives the same calls (id, name, arguments, outcome), text and reasoning', () => {
    expect(back.calls).toEqual(expectedUiCalls(target, original));
    expect(back.text).toBe(original.text);
    expect(back.reasoning).toBe(original.reasoning);
  });

  it('gives the same finish reason and usage', () => {
    if (original.error !== undefined) return;
    expect(back.finish).toBe(expectedUiFinish(target, original, back.calls.length));
    expect(back.usage).toEqual(expectedUiUsage(original));
  });

  it('reads the same in any chunking', () => {
    const bytesOf = new TextEncoder().encode(encoded.text);
    const seed = Math.floor(seededRandom(name.length + (target === 'ag-ui' ? 1 : 0))() * 1000);
    const { events, error: rechunked } = eventsOfChunks(splitRandom(bytesOf, seed, 24));
    const again = viewEvents(events, rechunked);
    expect(again.calls).toEqual(back.calls);
    expect(again.text).toBe(back.text);
  });
});

/** The events a reader gets from `chunks`, and the error it ended with. */
function eventsOfChunks(chunks: Uint8Array[]): { events: StreamEvent[]; error: unknown } {
  const { values, error } = collect(from(chunks).pipe(readStreamEvents()));
  return { events: values, error };
}
