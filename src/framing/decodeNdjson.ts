/**
 * Bytes or text of an `application/x-ndjson` body → {@link FramedRecord}s.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { FramedRecord } from '../events';
import { aCount, checkOptions } from '../internal/options';
import { operate } from '../internal/operate';
import { NdjsonParser, type DecodeNdjsonOptions } from './ndjson';

export type { DecodeNdjsonOptions } from './ndjson';

/**
 * Read newline-delimited JSON (Ollama's `/api/chat` stream), chunk by chunk, into one
 * {@link FramedRecord} per line, so that a wire format reads it as it reads SSE.
 *
 * <span class="informal">Like `decodeSse()` for one JSON value per line: chunks cut anywhere go
 * in, one record per line comes out as soon as its line end arrives.</span>
 *
 * ```text
 * --a------b-------c--|     a: '{"x":', b: '1}\r\n\n{"y"', c: ':2}' (no final line end)
 *   decodeNdjson()
 * ---------X----------(Y|)  X: { event: 'message', data: '{"x":1}' }, Y: { event: 'message', data: '{"y":2}' }
 * ```
 *
 * 1. Lines end with LF (a CR before it is dropped); blank lines are skipped; the last line needs
 *    no line end. One leading BOM is dropped; byte chunks are decoded as streaming UTF-8.
 * 2. Each line is `{ event: 'message', data: <the line>, id: undefined, retry: undefined }`; the
 *    wire decoder parses it (`invalid-event` when it is not JSON).
 * 3. A line longer than `maxLineSize` chars (default 16 MiB) ends the stream with `event-too-large`
 *    (`framing: 'ndjson'`, the line's `byteOffset`); nothing past the limit is kept.
 * 4. One parser per subscription; source errors pass through; unsubscribing unsubscribes the source.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import { decodeNdjson } from 'rxjs-tool-calls';
 *
 * of('{"a":1}\n\n{"b"', ':2}').pipe(decodeNdjson()).subscribe(console.log);
 * // displays:
 * // { event: 'message', data: '{"a":1}', id: undefined, retry: undefined }
 * // { event: 'message', data: '{"b":2}', id: undefined, retry: undefined }
 * ```
 *
 * @param options `maxLineSize`: the longest line accepted, in chars.
 * @return An operator from byte or text chunks to {@link FramedRecord}s.
 */
export function decodeNdjson(options: DecodeNdjsonOptions = {}): OperatorFunction<Uint8Array | string, FramedRecord> {
  checkOptions('decodeNdjson', options, { maxLineSize: /* @__PURE__ */ aCount(1) });
  return operate((subscriber) => {
    const parser = new NdjsonParser(options);
    return {
      next: (chunk) => parser.push(chunk, subscriber),
      complete: () => parser.end(subscriber),
    };
  });
}
