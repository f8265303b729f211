/**
 * Round trips through the non-SSE encoders: events → `encodeBedrockConverse()` (frames) or
 * `encodeOllamaChat()` (NDJSON) → read back with the format's framing and decoder; and what each
 * target keeps of a stream, stated once (the counterpart of targetExpectations.ts for these two).
 */
import { concat, EMPTY, from, throwError } from 'rxjs';
import { bedrockConverse, decodeAwsEventStream, decodeNdjson, ollamaChat, type FinishReason, type StreamEvent } from 'rxjs-tool-calls';
import { encodeBedrockConverse, encodeOllamaChat, type EncodeOptions } from 'rxjs-tool-calls/gateway';
import { concatBytes } from './framing';
import { collect, genIds, viewEvents, type CallView, type View } from './reencode';

export const FRAMED_TARGETS = ['bedrock-converse', 'ollama'] as const;
export type FramedTarget = (typeof FRAMED_TARGETS)[number];

/** Encode `events` (and the source's final error) for `target`, with deterministic ids and time. */
export function reencodeFramed(
  events: readonly StreamEvent[],
  sourceError: unknown,
  target: FramedTarget,
  options: EncodeOptions = {},
): { bytes: Uint8Array; chunks: Array<Uint8Array | string>; error: unknown; completed: boolean } {
  const source = concat(from(events), sourceError === undefined ? EMPTY : throwError(() => sourceError));
  const fixed = { generateId: genIds(), ...options };
  if (target === 'bedrock-converse') {
    const { values, error, completed } = collect(source.pipe(encodeBedrockConverse(fixed)));
    return { bytes: concatBytes(values), chunks: values, error, completed };
  }
  const { values, error, completed } = collect(source.pipe(encodeOllamaChat({ ...fixed, model: 'enc-model', createdAt: '2025-01-01T00:00:00.000Z' })));
  return { bytes: new TextEncoder().encode(values.join('')), chunks: values, error, completed };
}

/** What a reader of the encoded bytes (whole, or cut in chunks) sees, through the target's framing and decoder. */
export function viewFramed(bytes: Uint8Array | readonly Uint8Array[], target: FramedTarget): View {
  const chunks = bytes instanceof Uint8Array ? [bytes] : bytes;
  const read = target === 'bedrock-converse' ? from(chunks).pipe(decodeAwsEventStream(), bedrockConverse()) : from(chunks).pipe(decodeNdjson(), ollamaChat());
  const { values, error } = collect(read);
  return viewEvents(values, error);
}

/**
 * The calls a reader of the encoded stream gets (in the message's order), from the original's:
 * - Converse marks a cut call itself (no `contentBlockStop`, as Anthropic): every outcome is kept.
 * - Ollama carries only runnable calls with object arguments, whole, in the order they closed (the
 *   arguments re-serialised); ids only where the source sent them (compared as `(generated)`).
 */
export function expectedFramedCalls(target: FramedTarget, original: View): CallView[] {
  if (target === 'bedrock-converse') return original.calls;
  const byId = new Map(original.calls.map((c) => [c.id, c]));
  return original.closing
    .map((id) => byId.get(id))
    .filter((c): c is CallView => c !== undefined && c.outcome === 'ok' && typeof c.arguments === 'object' && c.arguments !== null && !Array.isArray(c.arguments))
    .map((c) => ({ ...c, id: original.generated.has(c.id) ? '(generated)' : c.id, rawArguments: JSON.stringify(c.arguments) }));
}

/** The calls of a reader of the encoded stream (Ollama: generated ids as `(generated)`). */
export function actualFramedCalls(target: FramedTarget, encoded: View): CallView[] {
  if (target === 'bedrock-converse') return encoded.calls;
  return encoded.calls.map((c) => (encoded.generated.has(c.id) ? { ...c, id: '(generated)' } : c));
}

/**
 * The closing order a reader of the encoded stream gets: Converse closes each call as the source did
 * (cut calls at the end, left out); Ollama writes each call when it closes.
 */
export function expectedFramedClosing(target: FramedTarget, original: View): string[] {
  const expected = expectedFramedCalls(target, original);
  if (target === 'ollama') return expected.map((c) => c.id);
  const cut = new Set(expected.filter((c) => c.outcome === 'incomplete').map((c) => c.id));
  return original.closing.filter((id) => !cut.has(id));
}

/** The closing order of a reader of the encoded stream, as {@link expectedFramedClosing} states it. */
export function actualFramedClosing(target: FramedTarget, encoded: View): string[] {
  if (target === 'ollama') return encoded.closing.map((id) => (encoded.generated.has(id) ? '(generated)' : id));
  const cut = new Set(encoded.calls.filter((c) => c.outcome === 'incomplete').map((c) => c.id));
  return encoded.closing.filter((id) => !cut.has(id));
}

/**
 * The finish a reader of the encoded stream gets. A source that never finished gets `tool-calls`
 * (calls) or `stop`. Converse has no `error` stop reason (the source's string is passed, read as
 * `other`); Ollama has only `stop` (read as `tool-calls` when the turn has calls) and `length`: the
 * rest is the source's own string, read as `other`.
 */
export function expectedFramedFinish(target: FramedTarget, original: View, encodedHasCalls: boolean): FinishReason {
  const reason: FinishReason = original.finish ?? (original.calls.length > 0 ? 'tool-calls' : 'stop');
  if (target === 'bedrock-converse') return reason === 'error' ? 'other' : reason;
  if (reason === 'stop' || reason === 'tool-calls') return encodedHasCalls ? 'tool-calls' : 'stop';
  return reason === 'length' ? 'length' : 'other';
}

/**
 * The usage a reader of the encoded stream gets: Converse keeps input (its uncached part beside the
 * cache reads and writes), output, total, cache reads and writes, and no reasoning count; Ollama only
 * input and output (the total computed). No usage in, no usage out.
 */
export function expectedFramedUsage(target: FramedTarget, original: View): View['usage'] {
  const u = original.usage;
  if (u === undefined) return undefined;
  const total = (input: number | undefined, output: number | undefined, given?: number): { totalTokens?: number } => {
    const t = given ?? (input !== undefined && output !== undefined ? input + output : undefined);
    return t === undefined ? {} : { totalTokens: t };
  };
  const field = <K extends string>(key: K, value: number | undefined): { [P in K]?: number } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: number }));
  if (target === 'ollama') {
    if (u.inputTokens === undefined && u.outputTokens === undefined) return undefined;
    return { ...field('inputTokens', u.inputTokens), ...field('outputTokens', u.outputTokens), ...total(u.inputTokens, u.outputTokens) };
  }
  // Converse's input is read back as its uncached part plus the cache counts.
  const input = u.inputTokens ?? (u.cachedInputTokens !== undefined || u.cacheWriteInputTokens !== undefined ? (u.cachedInputTokens ?? 0) + (u.cacheWriteInputTokens ?? 0) : undefined);
  const out = {
    ...field('inputTokens', input),
    ...field('outputTokens', u.outputTokens),
    ...total(input, u.outputTokens, u.totalTokens),
    ...field('cachedInputTokens', u.cachedInputTokens),
    ...field('cacheWriteInputTokens', u.cacheWriteInputTokens),
  };
  return Object.keys(out).length === 0 ? undefined : out;
}
