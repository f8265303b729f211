/**
 * What a wire format declares about itself. Each format is one folder under `providers/` whose
 * `index.ts` builds its {@link WireFormat} with {@link wireFormat}; the list in `list.ts` is the only
 * other place that names it, and auto-detection, `provider` names, the CLI's `--provider` values
 * and `toolLoop`'s message formats all derive from that list.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { FinishReason, SseEvent, StreamEvent } from '../events';
import { decodeSseWith, type WireDecoder } from './decoder';
import type { MessageBuilder } from './messages';
import type { UsageCounts } from './wire';

/** Everything the library needs to know about one wire format. */
export interface WireFormatDefinition<Name extends string = string, Message = unknown> {
  /** The format's name, as `provider` options, `metadata` events and errors spell it (e.g. `'openai-chat'`). */
  readonly format: Name;
  /**
   * Whether one SSE event of a stream shows this format; `payload` is its data parsed, when that is
   * a JSON object (`undefined` otherwise).
   */
  readonly detect: (event: SseEvent, payload: Record<string, unknown> | undefined) => boolean;
  /** A decoder for one stream (one per subscription). */
  readonly decoder: () => WireDecoder;
  /** The format's own finish reason → the normalised one. */
  readonly finishReason: (raw: string) => FinishReason;
  /** The format's usage object → token counts. */
  readonly usage: (raw: Record<string, unknown>) => UsageCounts;
  /** How a tool loop writes a step's calls and results in this format (`undefined`: `toolLoop` cannot speak it). */
  readonly messages: MessageBuilder<Message> | undefined;
  /**
   * A short stream of this format (the project's own) that stops inside a tool call:
   * `readToolCalls()` and `readStreamEvents()` keep one subscription reading it, never completed, per
   * format they are used with, so that V8 keeps the optimised code of the format's path across a
   * full GC (README, "Many open streams"). A format without one has no resident stream.
   */
  readonly warmup?: string;
  /**
   * What ends `warmup`'s stream (the call's last fragment, its end, the finish): the first
   * subscription of a pipeline for this format reads `warmup + warmupEnd` once, to its end, in a
   * microtask, so that the first real stream (whose bytes come later, from a socket) finds the
   * whole path compiled. Absent: only the resident stream warms the path.
   */
  readonly warmupEnd?: string;
}

/**
 * A wire format: the operator factory that reads it (`pipe(decodeSse(), openaiChat())`), carrying
 * its definition, so it is accepted wherever a provider name is (`readToolCalls({ provider: openaiChat })`).
 */
export type WireFormat<Name extends string = string, Message = unknown> = (() => OperatorFunction<SseEvent, StreamEvent>) & WireFormatDefinition<Name, Message>;

/** Build a format's operator factory from its definition. */
export function wireFormat<Name extends string, Message>(definition: WireFormatDefinition<Name, Message>): WireFormat<Name, Message> {
  const read = (): OperatorFunction<SseEvent, StreamEvent> => decodeSseWith(definition.decoder);
  return Object.assign(read, definition);
}

/** Normalise a finish reason through a format's table (`other` when it is not in it). */
export function finishFrom(table: Readonly<Record<string, FinishReason>>): (raw: string) => FinishReason {
  return (raw) => (Object.prototype.hasOwnProperty.call(table, raw) ? (table[raw] as FinishReason) : 'other');
}
