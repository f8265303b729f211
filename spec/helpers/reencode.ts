/**
 * Round trips for the encoders: read a stream (or take events), re-encode it in a target format,
 * read the encoded text back, and say what a reader of each side sees, plus what each target is
 * expected to keep of the original (the exclusions, stated once, here).
 */
import { concat, EMPTY, from, throwError, type Observable, type OperatorFunction } from 'rxjs';
import { type FinishReason, isToolStreamError, type ToolStreamError, readStreamEvents, type StreamEvent, type ToolCallUpdate, type UsageEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeGemini, encodeGeminiInteractions, encodeOpenAIChat, encodeOpenAIResponses, type EncodeOptions } from 'rxjs-tool-calls/gateway';
import { SseParser } from 'rxjs-tool-calls/advanced';
import { toolCallUpdates } from './updates';

export const TARGETS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'gemini-interactions'] as const;
export type Target = (typeof TARGETS)[number];

/** Deterministic ids, as `runChunks` generates them (`gen_0`, `gen_1`, …). */
export function genIds(): () => string {
  let n = 0;
  return () => `gen_${n++}`;
}

/** The encoder of a target, with fixed id, time (the OpenAI formats write one) and ids so that output is deterministic. */
export function encoderFor(target: Target, options: EncodeOptions = {}): OperatorFunction<StreamEvent, string> {
  const fixed = { id: 'enc_1', generateId: genIds(), ...options };
  const created = 1_700_000_000;
  switch (target) {
    case 'openai-chat':
      return encodeOpenAIChat({ ...fixed, created });
    case 'openai-responses':
      return encodeOpenAIResponses({ ...fixed, created });
    case 'anthropic':
      return encodeAnthropicMessages(fixed);
    case 'gemini':
      return encodeGemini(fixed);
    case 'gemini-interactions':
      return encodeGeminiInteractions(fixed);
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

/** A provider error's comparable part: its message and whether it is retryable. */
export function providerErrorView(error: unknown): { code: string; message?: string; retryable?: boolean } | undefined {
  if (error === undefined) return undefined;
  if (!isToolStreamError(error)) return { code: 'not a ToolStreamError' };
  if (error.code !== 'provider-error') return { code: error.code };
  const e = error as ToolStreamError<'provider-error'>;
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

/** What an encoder writes for `events` (then the source's `error`, when given): its output, the SSE events in it, and how it ended. */
export function writtenBy(
  encoder: OperatorFunction<StreamEvent, string>,
  events: readonly StreamEvent[],
  error?: unknown,
): { values: string[]; events: WrittenEvent[]; error: unknown; completed: boolean } {
  const source =
    error === undefined
      ? from(events)
      : concat(
          from(events),
          throwError(() => error),
        );
  const out = collect(source.pipe(encoder));
  return { ...out, events: out.values.flatMap(written) };
}
