/**
 * Helpers for the framing specs: AWS's own event-stream codec (`@smithy/eventstream-codec`, a
 * codec no one here wrote) to make and read frames, and a driver that runs any framing parser over
 * chunks and says what it handed over and how it ended.
 */
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import type { FramedRecord } from 'rxjs-tool-calls';

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** AWS's codec, with plain UTF-8 conversions. */
export const awsCodec = new EventStreamCodec(
  (bytes: Uint8Array) => utf8Decoder.decode(bytes),
  (text: string) => utf8Encoder.encode(text),
);

/** One frame made by AWS's codec with string headers. */
export function awsFrame(headers: Readonly<Record<string, string>>, payload: string | Uint8Array): Uint8Array {
  const typed: MessageHeaders = {};
  for (const [name, value] of Object.entries(headers)) typed[name] = { type: 'string', value };
  return awsCodec.encode({ headers: typed, body: typeof payload === 'string' ? utf8Encoder.encode(payload) : payload });
}

/** An `event` frame (`:message-type: event`, JSON content) made by AWS's codec. */
export function awsEvent(eventType: string, payload: unknown): Uint8Array {
  return awsFrame({ ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' }, JSON.stringify(payload));
}

/** An `exception` frame made by AWS's codec. */
export function awsException(exceptionType: string, payload: unknown): Uint8Array {
  return awsFrame({ ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' }, JSON.stringify(payload));
}

/** The bytes of `parts`, one after the other. */
export function concatBytes(parts: ReadonlyArray<Uint8Array>): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** What every framing parser offers. */
export interface FramingParser {
  push(chunk: Uint8Array | string, out: (event: FramedRecord) => void): void;
  end(out: (event: FramedRecord) => void): void;
  readonly bytesRead: number;
}

/** What a parser handed over for a sequence of chunks, and the error it threw (from `push` or `end`). */
export function parseChunks(parser: FramingParser, chunks: ReadonlyArray<Uint8Array | string>): { events: FramedRecord[]; error: unknown } {
  const events: FramedRecord[] = [];
  const out = (event: FramedRecord): void => {
    events.push(event);
  };
  try {
    for (const chunk of chunks) parser.push(chunk, out);
    parser.end(out);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

/** A record as the text framings hand it over. */
export function message(data: string): FramedRecord {
  return { event: 'message', data, id: undefined, retry: undefined };
}
