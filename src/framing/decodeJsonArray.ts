/**
 * Bytes or text of one streamed JSON array → {@link FramedRecord}s, one per element.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { FramedRecord } from '../events';
import { aBoolean, aCount, checkOptions } from '../internal/options';
import { operate } from '../internal/operate';
import { JsonArrayParser, type DecodeJsonArrayOptions } from './jsonArray';

export type { DecodeJsonArrayOptions } from './jsonArray';

/**
 * Read one JSON array streamed element by element (Gemini's `streamGenerateContent` without
 * `alt=sse`), chunk by chunk, into one {@link FramedRecord} per element, so that a wire format reads it
 * as it reads SSE.
 *
 * <span class="informal">Like `decodeSse()` for `[{…}\n,\r\n{…}]`: chunks cut anywhere go in, each
 * element comes out as soon as its closing brace arrives.</span>
 *
 * ```text
 * --a--------b-------c--|     a: '[{"t":"[,"', b: '}\r\n,\r\n{"u"', c: ':1}]'
 *   decodeJsonArray()
 * -----------X-------Y--|     X: { event: 'message', data: '{"t":"[,"}' }, Y: { event: 'message', data: '{"u":1}' }
 *
 * --a--b--|                   b: '{"x":2} {' (no comma)
 *   decodeJsonArray()
 * --A--#                      #: invalid-frame (byteOffset: the unexpected "{")
 * ```
 *
 * 1. Elements may be cut anywhere; brackets, commas and escaped quotes inside strings are text.
 *    Whitespace (CRLF included) around elements is dropped; one leading BOM too.
 * 2. Each element is `{ event: 'message', data: <its JSON text>, id: undefined, retry: undefined }`;
 *    the wire decoder parses it (`invalid-event` when it is not JSON).
 * 3. Text outside the array, an empty element, a missing comma or a bracket that closes nothing
 *    ends the stream with `invalid-frame` (with the `byteOffset` of the character); input that ends
 *    inside the array with `truncated`; an element over `maxElementSize` chars (default 16 MiB)
 *    with `event-too-large`.
 * 4. One parser per subscription; source errors pass through; unsubscribing unsubscribes the source.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeJsonArray, gemini, toolCalls } from 'rxjs-tool-calls';
 *
 * declare const base: string; // https://generativelanguage.googleapis.com
 * declare const init: RequestInit;
 *
 * const url = `${base}/v1beta/models/gemini-2.5-flash:streamGenerateContent`; // no alt=sse
 * fromResponse(await fetch(url, init)).pipe(decodeJsonArray(), gemini(), toolCalls()).subscribe(console.log);
 * // displays: { success: true, data: { name: 'get_weather', arguments: { city: 'Paris' }, … } }
 * ```
 *
 * @param options `maxElementSize`: the largest element accepted, in chars.
 * @return An operator from byte or text chunks to {@link FramedRecord}s.
 */
export function decodeJsonArray(options: DecodeJsonArrayOptions = {}): OperatorFunction<Uint8Array | string, FramedRecord> {
  checkOptions('decodeJsonArray', options, { maxElementSize: /* @__PURE__ */ aCount(1), sequence: aBoolean });
  return operate((subscriber) => {
    const parser = new JsonArrayParser(options);
    return {
      next: (chunk) => parser.push(chunk, subscriber),
      complete: () => parser.end(subscriber),
    };
  });
}
