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
import { parseArguments } from '../../src/parse/arguments';
import { readStreamEvents } from '../../src/readStreamEvents';
import { runChunks } from './runStream';

export const TARGETS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;
export type Target = (typeof TARGETS)[number];

/** Deterministic ids, as `runChunks` generates them (`gen_0`, `gen_1`, …). */
export function genIds(): () => string {
  let n = 0;
  return () => `gen_${n++}`;
}

/** The encoder of a target, with fixed id, model and time so that output is deterministic. */
export function encoderFor(target: Target, options: EncodeOptions = {}): OperatorFunction<StreamEvent, string> {
  const fixed = { id: 'enc_1', created: 1_700_000_000, generateId: genIds(), ...options };
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
export function collect<T>(source: Observable<T>): { values: T[]; error: unknown; completed: boolean } {
  const values: T[] = [];
  let error: unknown;
  let completed = false;
  source.subscribe({ next: (v) => values.push(v), error: (e: unknown) => (error = e), complete: () => (completed = true) });
  return { values, error, completed };
}

/** The events a reader gets from `bytes`, and the error it ended with. */
export function eventsOf(bytes: Uint8Array | string): { events: StreamEvent[]; error: unknown } {
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
  readonly calls: CallView[];
  readonly text: string;
  readonly reasoning: string;
  readonly finish: FinishReason | undefined;
  readonly usage: Omit<UsageEvent, 'raw' | 'type'> | undefined;
  readonly error: unknown;
}

/** Read `bytes` with `readStreamEvents()` + `toolCalls()` (ids `gen_n` where the wire has none). */
export function view(bytes: Uint8Array | string): View {
  const run = runChunks([bytes]);
  const usage = run.events.filter((e): e is UsageEvent => e.type === 'usage').at(-1);
  const finish = run.events.filter((e) => e.type === 'finish').at(-1);
  return {
    calls: run.results.map((r) => {
      if (r.success) return { id: r.data.id, name: r.data.name, rawArguments: r.data.rawArguments, arguments: r.data.arguments, outcome: 'ok' };
      const call = r.error.toolCall;
      return { id: call.id, name: call.name, rawArguments: call.rawArguments, outcome: r.error.code };
    }),
    text: run.text,
    reasoning: run.reasoning,
    finish: finish?.type === 'finish' ? finish.reason : undefined,
    usage: usage === undefined ? undefined : counts(usage),
    error: run.error,
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
 * The calls a reader of the encoded stream gets, from the original's:
 * - Gemini carries only runnable calls, and their arguments as a JSON object (re-serialised: the
 *   raw text is not kept, the parsed value is). Failed and cut calls are left out.
 * - Anthropic marks a cut call itself (no `content_block_stop`): every outcome is kept.
 * - Chat has no end of a call, Responses only `response.incomplete`: a call the source cut reads
 *   back `incomplete` only when its choice finished with a reason that explains a cut (chat:
 *   length, content-filter, error; Responses: length, content-filter); else its text is read as it
 *   is (a success when it happens to parse, else `malformed-arguments`).
 */
export function expectedCalls(target: Target, original: View): CallView[] {
  if (target === 'gemini') {
    return original.calls.filter((c) => c.outcome === 'ok' && isObject(c.arguments)).map(({ rawArguments: _raw, ...c }) => ({ ...c, rawArguments: JSON.stringify(c.arguments) }));
  }
  if (target === 'anthropic') return original.calls;
  const cuts: ReadonlyArray<FinishReason | undefined> = target === 'openai-chat' ? CUT : ['length', 'content-filter'];
  return original.calls.map((c) => {
    if (c.outcome !== 'incomplete' || cuts.includes(original.finish)) return c;
    const parsed = parseArguments(c.rawArguments);
    return parsed.ok ? { ...c, arguments: parsed.value, outcome: 'ok' } : { ...c, outcome: 'malformed-arguments' };
  });
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
    return { ...rest, inputTokens: u?.inputTokens ?? 0, outputTokens: u?.outputTokens ?? 0 };
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
  return { code: e.code, message: e.message.slice(e.message.indexOf(': ') + 2), retryable: e.retryable };
}
