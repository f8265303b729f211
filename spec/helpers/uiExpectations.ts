/**
 * What the UI protocols keep of a stream, stated once: the re-encoding used by the UI round-trip
 * specs and what a reader of the encoded stream is expected to get back.
 */
import { concat, from, throwError } from 'rxjs';
import type { FinishReason, StreamEvent } from 'rxjs-tool-calls';
import { encodeAgUi, encodeAiSdkUi } from 'rxjs-tool-calls/gateway';
import { parseArguments } from 'rxjs-tool-calls/advanced';
import { collect, genIds, type CallView, type View } from './reencode';

export const UI_TARGETS = ['ai-sdk-ui', 'ag-ui'] as const;
export type UiTarget = (typeof UI_TARGETS)[number];

/** Events (and the source's error) re-encoded for `target`: ids generated as the views generate them, the AI SDK's usage in the finish metadata. */
export function reencodeUi(events: readonly StreamEvent[], sourceError: unknown, target: UiTarget): { text: string; error: unknown; completed: boolean } {
  const source = concat(from(events), sourceError === undefined ? [] : throwError(() => sourceError));
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
export function expectedUiCalls(target: UiTarget, original: View): unknown[] {
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
export function expectedUiFinish(target: UiTarget, original: View, encodedCalls: number): FinishReason {
  if (target === 'ag-ui') return encodedCalls > 0 ? 'tool-calls' : 'stop';
  return original.finish ?? (original.calls.length > 0 ? 'tool-calls' : 'stop');
}

/** The usage a reader of the encoded stream gets: every count the source had (the protocols carry them all), the total computed when it had none. */
export function expectedUiUsage(original: View): View['usage'] {
  const u = original.usage;
  if (u === undefined) return undefined;
  const total = u.totalTokens ?? (u.inputTokens !== undefined && u.outputTokens !== undefined ? u.inputTokens + u.outputTokens : undefined);
  return total === undefined ? u : { ...u, totalTokens: total };
}
