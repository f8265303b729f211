/**
 * Bytes of an `application/vnd.amazon.eventstream` body → {@link FramedRecord}s.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { FramedRecord } from '../events';
import { aCount, checkOptions } from '../internal/options';
import { operate } from '../internal/operate';
import { EventStreamParser, type DecodeAwsEventStreamOptions } from './eventStream';

export type { DecodeAwsEventStreamOptions } from './eventStream';

/**
 * Read an AWS event stream (Bedrock `ConverseStream`, `InvokeModelWithResponseStream`), chunk by
 * chunk, into one {@link FramedRecord} per frame, so that a wire format reads it as it reads SSE.
 *
 * <span class="informal">Like `decodeSse()` for AWS's binary framing: bytes cut anywhere go in,
 * one record per checked frame comes out as soon as its last byte arrives.</span>
 *
 * ```text
 * --a------b-----c--|     a: the first 40 bytes of frame F, b: the rest of F and half of G, c: the rest of G
 *   decodeAwsEventStream()
 * ---------F-----G--|     F: { event: 'messageStart', data: '{"role":"assistant"}' }, G: { event: 'contentBlockDelta', … }
 *
 * --a--b--|               b: a frame whose message CRC does not match
 *   decodeAwsEventStream()
 * --A--#                  #: invalid-frame (byteOffset: where the bad frame starts)
 * ```
 *
 * 1. Each frame's prelude CRC, total length (at most `maxFrameSize`, default 25,296,912 bytes: the
 *    largest frame a service may send) and message CRC are checked; every header type the
 *    specification defines is read.
 * 2. `event` is the `:event-type` header for `:message-type: event`, the `:exception-type` header
 *    for `exception` (`throttlingException`, …), `'error'` for `error` (its `data` is then
 *    `{"code":…,"message":…}` from the `:error-code` and `:error-message` headers); `data` is the
 *    payload as UTF-8 text; `id` and `retry` are `undefined`.
 * 3. A bad checksum, length, header or message type ends the stream with `invalid-frame`; a frame
 *    over `maxFrameSize` with `event-too-large`; input that ends inside a frame with `truncated`:
 *    each with the `byteOffset` of the frame.
 * 4. One parser per subscription; source errors pass through; unsubscribing unsubscribes the source.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeAwsEventStream, bedrockConverse, toolCalls } from 'rxjs-tool-calls';
 *
 * declare const signedConverseStreamRequest: Request; // POST …/model/{modelId}/converse-stream, SigV4-signed
 *
 * fromResponse(await fetch(signedConverseStreamRequest)).pipe(decodeAwsEventStream(), bedrockConverse(), toolCalls()).subscribe(console.log);
 * // displays: { success: true, data: { id: 'tooluse_…', name: 'get_weather', arguments: { city: 'Paris' }, … } }
 * ```
 *
 * @param options `maxFrameSize`: the largest frame accepted, in bytes.
 * @return An operator from byte chunks to {@link FramedRecord}s.
 */
export function decodeAwsEventStream(options: DecodeAwsEventStreamOptions = {}): OperatorFunction<Uint8Array | string, FramedRecord> {
  checkOptions('decodeAwsEventStream', options, { maxFrameSize: /* @__PURE__ */ aCount(1) });
  return operate((subscriber) => {
    const parser = new EventStreamParser(options);
    return {
      next: (chunk) => parser.push(chunk, subscriber),
      complete: () => parser.end(subscriber),
    };
  });
}
