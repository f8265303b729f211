/**
 * Round trip of every recorded stream in ../shared/fixtures through the UI encoders and back through
 * the readers: `readStreamEvents()` → `encodeAiSdkUi()` / `encodeAgUi()` → `readToolCalls()` /
 * `readStreamEvents()` (auto-detected, in any chunking) gives the same calls (id, name, arguments,
 * outcome), text, reasoning, finish and usage as reading the original, except what a protocol cannot
 * carry (stated here).
 */
import { concat, from, throwError } from 'rxjs';
import { isToolStreamError, readStreamEvents, type FinishReason, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAgUi, encodeAiSdkUi } from 'rxjs-tool-calls/gateway';
import { parseArguments, SseParser } from 'rxjs-tool-calls/advanced';
import { seededRandom, splitRandom } from 'rxjs-tool-calls/marbles';
import { loadFixtures } from '../../helpers/fixtures';
import { collect, eventsOf, genIds, providerErrorView, view, viewEvents, type CallView, type View } from '../../helpers/reencode';

const TARGETS = ['ai-sdk-ui', 'ag-ui'] as const;
type UiTarget = (typeof TARGETS)[number];

const fixtures = loadFixtures();
const cases = fixtures.flatMap((f) => TARGETS.map((target): [string, UiTarget, Uint8Array] => [f.name, target, f.bytes]));

/** The fixture's events re-encoded for `target` (ids generated as the view generates them; the AI SDK's usage in the finish metadata). */
function reencodeUi(bytes: Uint8Array, target: UiTarget): { text: string; error: unknown; completed: boolean } {
  const { events, error } = eventsOf(bytes);
  const source = concat(from(events), error === undefined ? [] : throwError(() => error));
  const encoder = target === 'ai-sdk-ui' ? encodeAiSdkUi({ generateId: genIds(), sendUsage: true }) : encodeAgUi({ generateId: genIds(), threadId: 'thread-1', runId: 'run-1' });
  const out = collect(source.pipe(encoder));
  return { text: out.values.join(''), error: out.error, completed: out.completed };
}

/** Whether a call's text, as it came, parses to its arguments (it was not repaired). */
function parsesAsItIs(c: CallView): boolean {
  const parsed = parseArguments(c.rawArguments);
  return c.rawArguments.trim() !== '' && parsed.ok && JSON.stringify(parsed.value) === JSON.stringify(c.arguments);
}

/**
 * The calls a reader of the encoded stream gets:
 * - AI SDK UI: `tool-input-available` carries the final input, so a repaired call reads back as its
 *   value (its text: the value's JSON), a call without arguments as `{}`; a failed call's raw text
 *   is its `tool-input-error` input; a cut call is left open and read back cut.
 * - AG-UI: the argument text is written as the client parses it (a repaired call as its repaired
 *   text: compared by value; a call without arguments as `{}`); a cut call is ended before the run
 *   finishes (the protocol has none open at its end) and read back as its text (AG-UI has no finish
 *   reason that explains a cut); a finish that promised calls that never came is not carried.
 */
function expectedCalls(target: UiTarget, original: View): unknown[] {
  return original.calls.flatMap((c): unknown[] => {
    if (c.outcome === 'ok') {
      if (parsesAsItIs(c)) return [c];
      return [target === 'ai-sdk-ui' ? { ...c, rawArguments: JSON.stringify(c.arguments) } : { ...c, rawArguments: expect.any(String) }];
    }
    if (target === 'ai-sdk-ui') return [c];
    if (c.outcome === 'missing-tool-calls') return [];
    if (c.outcome !== 'incomplete' && c.outcome !== 'arguments-too-large') return [c];
    const parsed = parseArguments(c.rawArguments);
    return [
      parsed.ok
        ? { ...c, arguments: parsed.value, outcome: 'ok', rawArguments: c.rawArguments.trim() === '' ? JSON.stringify(parsed.value) : c.rawArguments }
        : { ...c, outcome: 'malformed-arguments' },
    ];
  });
}

/** The finish a reader of the encoded stream gets: the AI SDK's names are the vocabulary's; AG-UI has none (a run that left calls is `tool-calls`). */
function expectedFinish(target: UiTarget, original: View, encodedCalls: number): FinishReason {
  if (target === 'ag-ui') return encodedCalls > 0 ? 'tool-calls' : 'stop';
  return original.finish ?? (original.calls.length > 0 ? 'tool-calls' : 'stop');
}

it('covers every fixture for both UI protocols', () => {
  expect(fixtures).toHaveLength(40);
  expect(cases).toHaveLength(80);
});

describe.each(cases)('%s → %s', (name, target, bytes) => {
  const original = view(bytes);
  const { error } = eventsOf(bytes);
  const encoded = reencodeUi(bytes, target);
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
    expect(back.calls).toEqual(expectedCalls(target, original));
    expect(back.text).toBe(original.text);
    expect(back.reasoning).toBe(original.reasoning);
  });

  it('gives the same finish reason and usage', () => {
    if (original.error !== undefined) return;
    expect(back.finish).toBe(expectedFinish(target, original, back.calls.length));
    expect(back.usage).toEqual(original.usage);
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
