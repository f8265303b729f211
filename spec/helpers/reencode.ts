/**
 * Round trips for the encoders: read a stream (or take events), re-encode it in a target format,
 * read the encoded text back, and say what a reader of each side sees, plus what each target is
 * expected to keep of the original (the exclusions, stated once, here).
 */
import { concat, EMPTY, from, throwError, type Observable, type OperatorFunction } from 'rxjs';
import { encodeAnthropicMessages } from '../../src/encode/encodeAnthropicMessages';
import { encodeGemini } from '../../src/encode/encodeGemini';
import { encodeOpenAIChat } from '../../src/encode/encodeOpenAIChat';
import { encodeOpenAIResponses } from '../../src/encode/encodeOpenAIResponses';
import type { EncodeOptions } from '../../src/encode/encodeWith';
import { isToolStreamError, type ProviderError } from '../../src/errors';
import type { FinishReason, StreamEvent, UsageEvent } from '../../src/events';
import { toolCallUpdates, type ToolCallUpdate } from '../../src/accumulate/toolCalls';
import { parseArguments } from '../../src/parse/arguments';
import { readStreamEvents } from '../../src/readStreamEvents';
import { SseParser } from '../../src/sse/parser';

export const TARGETS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;
export type Target = (typeof TARGETS)[number];

/** Deterministic ids, as `runChunks` generates them (`gen_0`, `gen_1`, …). */
export function genIds(): () => string {
  let n = 0;
  return () => `gen_${n++}`;
}

/** The encoder of a target, with fixed id, model and time so that output is deterministic. */
export function encoderFor(target: Target, options: EncodeOptions = {}): OperatorFunction<StreamEvent, string> {
  const fixed = {
    id: 'enc_1',
    created: 1_700_000_000,
    generateId: genIds(),
    ...options,
  };
  switch (target) {
    case 'openai-chat':
      return encodeOpenAIChat(fixed);
    case 'openai-responses':
      return encodeOpenAIResponses(fixed);
    case 'anthropic':
      return encodeAnthropicMessages(fixed);
    case 'gemini':
      return encodeGemini(fixed);
  }
}

/** Synchronously collect an observable's values and how it ended. */
export function collect<T>(source: Observable<T>): {
  values: T[];
  error: unknown;
  completed: boolean;
} {
  const values: T[] = [];
  let error: unknown;
  let completed = false;
  source.subscribe({
    next: (v) => values.push(v),
    error: (e: unknown) => (error = e),
    complete: () => (completed = true),
  });
  return { values, error, completed };
}

/** The events a reader gets from `bytes`, and the error it ended with. */
export function eventsOf(bytes: Uint8Array | string): {
  events: StreamEvent[];
  error: unknown;
} {
  const { values, error } = collect(from([bytes]).pipe(readStreamEvents()));
  return { events: values, error };
}

/** Re-encode events (and the source's final error) for `target`. */
export function reencode(events: readonly StreamEvent[], sourceError: unknown, target: Target, options: EncodeOptions = {}): { text: string; chunks: string[]; error: unknown; completed: boolean } {
  const source = concat(from(events), sourceError === undefined ? EMPTY : throwError(() => sourceError));
  const { values, error, completed } = collect(source.pipe(encoderFor(target, options)));
  return { text: values.join(''), chunks: values, error, completed };
}

/** One call as compared across a round trip. */
export interface CallView {
  readonly id: string;
  readonly name: string;
  readonly rawArguments: string;
  /** The parsed arguments on success. */
  readonly arguments?: unknown;
  /** `'ok'` or the error code. */
  readonly outcome: string;
}

/** What a reader sees of one stream. */
export interface View {
  /** The calls in order of first sight (their order in the message). */
  readonly calls: CallView[];
  /** The call ids in the order their results were emitted (a call's result comes when it is closed). */
  readonly closing: string[];
  /** Ids the reader generated (the wire sent none). */
  readonly generated: ReadonlySet<string>;
  readonly text: string;
  readonly reasoning: string;
  readonly finish: FinishReason | undefined;
  readonly usage: Omit<UsageEvent, 'raw' | 'type'> | undefined;
  readonly error: unknown;
}

/** Read `bytes` with `readStreamEvents()`, then as {@link viewEvents}. */
export function view(bytes: Uint8Array | string): View {
  const { events, error } = eventsOf(bytes);
  return viewEvents(events, error);
}

/** Read events (and the error the stream ended with) with `toolCalls()`' tracker (ids `gen_n` where the wire has none). */
export function viewEvents(events: readonly StreamEvent[], sourceError?: unknown): View {
  const source = concat(from(events), sourceError === undefined ? EMPTY : throwError(() => sourceError));
  const { values: updates, error } = collect(source.pipe(toolCallUpdates({ generateId: genIds() })));
  const closed = updates.filter((u) => u.result !== undefined);
  const generated = new Set<string>();
  const callOf = (u: ToolCallUpdate): CallView => {
    const r = u.result;
    if (r === undefined) throw new Error('not a closing update');
    if (r.success) {
      if (r.data.providerMetadata?.['idGenerated'] === true) generated.add(r.data.id);
      return {
        id: r.data.id,
        name: r.data.name,
        rawArguments: r.data.rawArguments,
        arguments: r.data.arguments,
        outcome: 'ok',
      };
    }
    const call = r.error.toolCall;
    return {
      id: call.id,
      name: call.name,
      rawArguments: call.rawArguments,
      outcome: r.error.code,
    };
  };
  const usage = events.filter((e): e is UsageEvent => e.type === 'usage').at(-1);
  const finish = events.filter((e) => e.type === 'finish').at(-1);
  return {
    calls: [...closed].sort((a, b) => a.key - b.key).map(callOf),
    closing: closed.map((u) => u.id),
    generated,
    text: events.map((e) => (e.type === 'text-delta' ? e.text : '')).join(''),
    reasoning: events.map((e) => (e.type === 'reasoning-delta' ? e.text : '')).join(''),
    finish: finish?.type === 'finish' ? finish.reason : undefined,
    usage: usage === undefined ? undefined : counts(usage),
    error,
  };
}

function counts(usage: UsageEvent): Omit<UsageEvent, 'raw' | 'type'> {
  const { raw: _raw, type: _type, ...rest } = usage;
  return rest;
}

// ---------------------------------------------------------------------------------------------
// What each target keeps: the exclusions.
// ---------------------------------------------------------------------------------------------

/** Finish reasons that explain arguments cut short (the readers' rule): `incomplete`, not malformed. */
const CUT: ReadonlyArray<FinishReason | undefined> = ['length', 'content-filter', 'error'];

/**
 * The calls a reader of the encoded stream gets (in the message's order), from the original's:
 * - Gemini carries only runnable calls, and their arguments as a JSON object (re-serialised: the
 *   raw text is not kept, the parsed value is), in the order they closed. Failed and cut calls are
 *   left out; ids the source did not send are not invented.
 * - Anthropic marks a cut call itself (no `content_block_stop`): every outcome is kept.
 * - Responses marks cut calls only with `response.incomplete` (length, content-filter): a call the
 *   source cut under another finish is read as it is.
 * - Chat has no end of a call: every call closes with its choice's finish, so a call whose text does
 *   not parse is `incomplete` when that finish explains a cut (length, content-filter, error), else
 *   `malformed-arguments`, whatever the source said; a cut call whose text parses is a success.
 */
export function expectedCalls(target: Target, original: View): CallView[] {
  if (target === 'gemini') {
    // Written whole when they close: a reader sees them in closing order. Ids the source never sent
    // are not invented (the reader generates its own): compared as `(generated)`.
    const byId = new Map(original.calls.map((c) => [c.id, c]));
    return original.closing
      .map((id) => byId.get(id))
      .filter((c): c is CallView => c !== undefined && c.outcome === 'ok' && isObject(c.arguments))
      .map((c) => ({
        ...c,
        id: original.generated.has(c.id) ? '(generated)' : c.id,
        rawArguments: JSON.stringify(c.arguments),
      }));
  }
  if (target === 'anthropic') return original.calls;
  if (target === 'openai-responses') {
    return original.calls.map((c) => (c.outcome !== 'incomplete' || original.finish === 'length' || original.finish === 'content-filter' ? c : readAsItIs(c, undefined)));
  }
  // Chat: every call closes with its choice's finish, so the finish decides for every unparseable text.
  return original.calls.map((c) => (c.outcome === 'incomplete' || c.outcome === 'malformed-arguments' ? readAsItIs(c, original.finish) : c));
}

/** A call's text read as it is, closed by `finish`: a success when it parses, cut when the finish explains it, else malformed. */
function readAsItIs(c: CallView, finish: FinishReason | undefined): CallView {
  const parsed = parseArguments(c.rawArguments);
  if (parsed.ok) return { ...c, arguments: parsed.value, outcome: 'ok' };
  return { ...c, outcome: CUT.includes(finish) ? 'incomplete' : 'malformed-arguments' };
}

/**
 * The order in which a reader of the encoded stream gets its results (each when its call closes),
 * cut calls left out (Anthropic and Responses close those at the very end). Chat closes every call
 * at its choice's end, so its results come in order of first sight; Anthropic and Responses close
 * each call as the source did; Gemini writes each call when it closes.
 */
export function expectedClosing(target: Target, original: View): string[] {
  const expected = expectedCalls(target, original);
  if (target === 'openai-chat' || target === 'gemini') return expected.filter((c) => c.outcome !== 'incomplete').map((c) => c.id);
  const cut = new Set(expected.filter((c) => c.outcome === 'incomplete').map((c) => c.id));
  return original.closing.filter((id) => !cut.has(id));
}

/** The closing order of a reader of the encoded stream, as {@link expectedClosing} states it. */
export function actualClosing(target: Target, encoded: View): string[] {
  if (target === 'gemini') return encoded.closing.map((id) => (encoded.generated.has(id) ? '(generated)' : id));
  const cut = new Set(encoded.calls.filter((c) => c.outcome === 'incomplete').map((c) => c.id));
  return encoded.closing.filter((id) => !cut.has(id));
}

/** The calls of a reader of the encoded stream, as {@link expectedCalls} states them (Gemini: generated ids as `(generated)`). */
export function actualCalls(target: Target, encoded: View): CallView[] {
  if (target !== 'gemini') return encoded.calls;
  return encoded.calls.map((c) => (encoded.generated.has(c.id) ? { ...c, id: '(generated)' } : c));
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The finish a reader of the encoded stream gets. A source that never finished gets `tool-calls`
 * (calls) or `stop`. Then per target: Anthropic has no `error` stop reason (the source's string is
 * passed, read as `other`); Responses has only `completed` (read as `tool-calls` when the output has
 * a call, else `stop`) and `incomplete` (length, content-filter); Gemini ends tool calls with `STOP`
 * (read as `stop`; as `tool-calls` by a decoder that applies issue 11 rule 5) and has no `error`.
 */
export function expectedFinish(target: Target, original: View, encodedHasCalls: boolean): ReadonlyArray<FinishReason> {
  const reason: FinishReason = original.finish ?? (original.calls.length > 0 ? 'tool-calls' : 'stop');
  switch (target) {
    case 'openai-chat':
      return [reason];
    case 'anthropic':
      return [reason === 'error' ? 'other' : reason];
    case 'openai-responses':
      return [reason === 'length' || reason === 'content-filter' ? reason : encodedHasCalls ? 'tool-calls' : 'stop'];
    case 'gemini':
      if (reason === 'stop' || reason === 'tool-calls') return encodedHasCalls ? ['stop', 'tool-calls'] : ['stop'];
      return [reason === 'error' ? 'other' : reason];
  }
}

/**
 * The usage a reader of the encoded stream gets (the last usage event): the same counts; the total
 * computed as input + output where the target has a total and the source sent none (Anthropic has
 * none); Anthropic always writes input and output counts (0 when unknown).
 */
export function expectedUsage(target: Target, original: View): View['usage'] {
  const u = original.usage;
  if (target === 'anthropic') {
    const { totalTokens: _total, ...rest } = u ?? {};
    return {
      ...rest,
      inputTokens: u?.inputTokens ?? 0,
      outputTokens: u?.outputTokens ?? 0,
    };
  }
  if (u === undefined) return undefined;
  const total = u.totalTokens ?? (u.inputTokens !== undefined && u.outputTokens !== undefined ? u.inputTokens + u.outputTokens : undefined);
  return total === undefined ? u : { ...u, totalTokens: total };
}

/** A provider error's comparable part: its message and whether it is retryable. */
export function providerErrorView(error: unknown): { code: string; message?: string; retryable?: boolean } | undefined {
  if (error === undefined) return undefined;
  if (!isToolStreamError(error)) return { code: 'not a ToolStreamError' };
  if (error.code !== 'provider-error') return { code: error.code };
  const e = error as ProviderError;
  return {
    code: e.code,
    message: e.message.slice(e.message.indexOf(': ') + 2),
    retryable: e.retryable,
  };
}

/** One SSE event of encoded text: its `event:` name (`message` when absent) and its data, parsed when JSON. */
export interface WrittenEvent {
  readonly event: string;
  readonly data: unknown;
}

/** The SSE events of one encoded string (asserting that it holds whole events only). */
export function written(text: string): WrittenEvent[] {
  const out: WrittenEvent[] = [];
  const parser = new SseParser();
  parser.push(text, (e) => {
    let data: unknown = e.data;
    try {
      data = JSON.parse(e.data);
    } catch {
      // `[DONE]`
    }
    out.push({ event: e.event, data });
  });
  // Whole events only: nothing may wait for a later string.
  expect(text.endsWith('\n\n')).toBe(true);
  return out;
}
