/**
 * What a wire format declares about itself. Each format is one folder under `providers/` whose
 * `index.ts` builds its {@link WireFormat} with {@link wireFormat}; the list in `list.ts` is the only
 * other place that lists it (its name is also one of the vocabulary's `ProviderName`s), and
 * auto-detection, `provider` names and the CLI's `--provider` values derive from that list.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { FinishReason, SseEvent, StreamEvent } from '../events';
import { decodeSseWith, type WireDecoder } from './decoder';
import type { UsageCounts } from './wire';

/** Everything the library needs to know about one wire format. */
export interface WireFormatDefinition<Name extends string = string> {
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
}

/**
 * A wire format: the operator factory that reads it (`pipe(decodeSse(), openaiChat())`), carrying
 * its definition, so it is accepted wherever a provider name is (`readToolCalls({ provider: openaiChat })`).
 */
export type WireFormat<Name extends string = string> = (() => OperatorFunction<SseEvent, StreamEvent>) & WireFormatDefinition<Name>;

/** Build a format's operator factory from its definition. */
export function wireFormat<Name extends string>(definition: WireFormatDefinition<Name>): WireFormat<Name> {
  const read = (): OperatorFunction<SseEvent, StreamEvent> => decodeSseWith(definition.decoder);
  return Object.assign(read, definition);
}

/** Normalise a finish reason through a format's table (`other` when it is not in it). */
export function finishFrom(table: Readonly<Record<string, FinishReason>>): (raw: string) => FinishReason {
  return (raw) => (Object.prototype.hasOwnProperty.call(table, raw) ? (table[raw] as FinishReason) : 'other');
}
