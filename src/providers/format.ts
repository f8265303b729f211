/**
 * What a wire format declares about itself. Each format is one folder under `providers/` whose
 * `index.ts` builds its {@link WireFormat} with {@link wireFormat}; the list in `list.ts` is the only
 * other place that lists it (its name is also one of the vocabulary's `ProviderName`s), and
 * auto-detection, `provider` names and the CLI's `--provider` values derive from that list.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { FinishReason, FramedRecord, StreamEvent } from '../events';
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
  readonly detect: (event: FramedRecord, payload: Record<string, unknown> | undefined) => boolean;
  /** A decoder for one stream (one per subscription). */
  readonly decoder: () => WireDecoder;
  /** The format's own finish reason → the normalised one. */
  readonly finishReason: (raw: string) => FinishReason;
  /** The format's usage object → token counts. */
  readonly usage: (raw: Record<string, unknown>) => UsageCounts;
  /**
   * How its bytes are framed: `'sse'` (the default: the readers take SSE, and JSON — a whole JSON
   * body, Gemini's streamed array — by the content type or the first bytes), `'aws-event-stream'`
   * (Bedrock) or `'ndjson'` (Ollama). The format's operator itself (`pipe(decodeSse(), gemini())`)
   * reads records of any framing.
   */
  readonly framing?: 'sse' | 'aws-event-stream' | 'ndjson';
  /**
   * A whole JSON response of this format (what a server that ignored `stream: true` answers: a
   * Responses `response`, an Anthropic `message`) as the records a stream of it would carry, or
   * `undefined` when `payload` is not one. The format's decoder then reads those records, so the
   * events and results are the ones the stream would have given. Absent: the decoder reads such a
   * body itself (chat completions, Gemini), or the format has none.
   */
  readonly whole?: (payload: Record<string, unknown>) => ReadonlyArray<FramedRecord> | undefined;
}

/**
 * A wire format: the operator factory that reads it (`pipe(decodeSse(), openaiChat())`), carrying
 * its definition, so it is accepted wherever a provider name is (`readToolCalls({ provider: openaiChat })`).
 */
export type WireFormat<Name extends string = string> = (() => OperatorFunction<FramedRecord, StreamEvent>) & WireFormatDefinition<Name>;

/** Build a format's operator factory from its definition. */
export function wireFormat<Name extends string>(definition: WireFormatDefinition<Name>): WireFormat<Name> {
  const read = (): OperatorFunction<FramedRecord, StreamEvent> => decodeSseWith(definition.decoder, definition.whole);
  return Object.assign(read, definition);
}

/** Normalise a finish reason through a format's table (`other` when it is not in it). */
export function finishFrom(table: Readonly<Record<string, FinishReason>>): (raw: string) => FinishReason {
  return (raw) => (Object.prototype.hasOwnProperty.call(table, raw) ? (table[raw] as FinishReason) : 'other');
}
