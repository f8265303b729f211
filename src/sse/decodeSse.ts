/**
 * Bytes or text of a `text/event-stream` body → {@link FramedRecord}s.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { FramedRecord } from '../events';
import { operate } from '../internal/operate';
import { asConnectionLost } from '../internal/networkError';
import { aCount, checkOptions } from '../internal/options';
import { SseParser, type DecodeSseOptions } from './parser';

export type { DecodeSseOptions } from './parser';

/**
 * Parse a Server-Sent Events stream, chunk by chunk, into one {@link FramedRecord} per dispatched event.
 *
 * <span class="informal">Like `scan` with a line splitter as the accumulator: chunks cut anywhere
 * go in, whole events come out as soon as their blank line arrives.</span>
 *
 * ```text
 * --a------b----------c--|     a: 'data: {"x"'  b: ':1}\n\nda'  c: 'ta: [DONE]\n\n'
 *   decodeSse()
 * ---------X----------D--|     X: { event: 'message', data: '{"x":1}' }, D: { …, data: '[DONE]' }
 * ```
 *
 * Follows the WHATWG "event stream interpretation" rules:
 *
 * 1. `Uint8Array` chunks are decoded as streaming UTF-8 (a character split across chunks decodes
 *    once; invalid bytes become U+FFFD); `string` chunks are taken as already-decoded text. One
 *    leading BOM is stripped, even when its bytes arrive in separate chunks.
 * 2. Lines end with CR, LF or CRLF; a CRLF split across two chunks is one line end, and a line ended
 *    by a final CR is processed.
 * 3. Lines starting with `:` are comments. `name: value` sets a field (one space after the colon is
 *    stripped; a line without a colon is a field with an empty value); unknown fields are ignored.
 * 4. `data` lines are joined with `\n`. An event is dispatched at a blank line, and only when it had
 *    at least one `data` line (`data:` alone dispatches `data: ''`).
 * 5. `event` defaults to `message`. `id` persists to later events (an `id` containing U+0000 is
 *    ignored). `retry` is set on its event when it is all ASCII digits, else `undefined`.
 * 6. At the end of input, an event that no blank line completed is dropped (per spec).
 * 7. An event larger than `maxEventSize` chars (pending line + data so far) ends the stream with an
 *    `event-too-large` error (`event-too-large`, with the byte offset where the event started);
 *    nothing past the limit is buffered.
 * 8. A source failure that is a network error (fetch's `TypeError: terminated`, `ECONNRESET`, …)
 *    becomes `connection-lost` (with the bytes read before it, `source: 'decodeSse'`); other source
 *    errors pass through. One parser per subscription; unsubscribing unsubscribes the source.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import { decodeSse } from 'rxjs-tool-calls';
 *
 * of('event: ping\ndata: {"a"', ':1}\n\nid: 7\ndata: one\ndata: two\n\n').pipe(decodeSse()).subscribe(console.log);
 * // displays:
 * // { event: 'ping', data: '{"a":1}', id: undefined, retry: undefined }
 * // { event: 'message', data: 'one\ntwo', id: '7', retry: undefined }
 * ```
 *
 * @param options `maxEventSize`: the largest event accepted, in chars (default 16 MiB).
 * @return An operator from byte or text chunks to {@link FramedRecord}s.
 */
export function decodeSse(options: DecodeSseOptions = {}): OperatorFunction<Uint8Array | string, FramedRecord> {
  checkOptions('decodeSse', options, { maxEventSize: /* @__PURE__ */ aCount(1) });
  return operate((subscriber) => {
    const parser = new SseParser(options);
    return {
      next: (chunk) => parser.push(chunk, subscriber),
      complete: () => parser.end(subscriber),
      error: (error) => subscriber.error(asConnectionLost(error, 'decodeSse', parser.bytesRead)),
    };
  });
}
