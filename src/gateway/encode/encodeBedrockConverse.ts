/**
 * `encodeBedrockConverse()`: any provider's {@link StreamEvent}s → AWS Bedrock `ConverseStream`
 * event-stream frames.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../../events';
import { EventStreamWriter } from '../../framing/eventStream';
import { operate } from '../../internal/operate';
import { BedrockConverseEncoder, converseFrames, type BedrockConverseEncoderOptions } from '../../providers/bedrockConverse/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeBedrockConverse}. */
export interface EncodeBedrockConverseOptions extends BedrockConverseEncoderOptions, EncodeOptions {}

/**
 * Write any provider's stream as an AWS Bedrock `ConverseStream` answer, live: the
 * `application/vnd.amazon.eventstream` frames an AWS SDK client (`BedrockRuntimeClient` with
 * `ConverseStreamCommand`) reads, for a gateway that speaks Bedrock to its clients.
 *
 * <span class="informal">Normalised events in, binary frames out (one `Uint8Array` per event that
 * has something to say, ready for `response.write()`), each frame checksummed.</span>
 *
 * ```text
 * --t--x--x--e--f--u--d|     t: text-delta, x: fragments of call X, e: X's end, f: finish (tool-calls), u: usage, d: done
 *   encodeBedrockConverse()
 * --a--b--c--g--------h|     a: messageStart + contentBlockDelta (text, block 0), b: contentBlockStop 0 +
 *                            contentBlockStart 1 (toolUse: toolUseId, name) + contentBlockDelta (toolUse.input),
 *                            c: contentBlockDelta (toolUse.input), g: contentBlockStop 1,
 *                            h: messageStop (stopReason tool_use) + metadata (usage)
 *
 * --t--x--#                  #: a provider error (`provider-error` error)
 *   encodeBedrockConverse()
 * --a--b--(e|)               e: an exception frame (throttlingException, …, {"message"}), then complete
 * ```
 *
 * 1. Every frame has `:message-type: event`, its `:event-type` and `:content-type:
 *    application/json`; the payload is the event's JSON. Blocks are numbered 0, 1, 2, … in the
 *    order they start (`contentBlockIndex`); a text or reasoning block is stopped when another block
 *    starts; text blocks have no `contentBlockStart` (as Bedrock sends them), tool blocks open with
 *    `start.toolUse` (`toolUseId`: the source's id, or the generated one; `name`).
 * 2. Live: text (`delta.text`), reasoning (`delta.reasoningContent.text`, signatures as
 *    `reasoningContent.signature`, a redacted part as `reasoningContent.redactedContent`) and
 *    argument fragments (`delta.toolUse.input`) are written as they arrive; a whole value
 *    (`replace`) with the call's next event. A call ends with `contentBlockStop`; a call the source
 *    cut gets none, so readers report it `incomplete`.
 * 3. The end: `messageStop` with `stopReason` (`end_turn`, `tool_use`, `max_tokens`,
 *    `content_filtered`; the source's own string for `error` and `other`; a choice the source never
 *    finished gets `tool_use` or `end_turn`), then `metadata` with `usage` when the source reported
 *    any (`inputTokens` without the cache, `cacheReadInputTokens`, `cacheWriteInputTokens`,
 *    `outputTokens`, `totalTokens`): at the source's `done`, or when it completes after sending
 *    anything. Converse carries no model, response id or metrics: none are written.
 * 4. Errors: a `provider-error` error becomes an exception frame (`:message-type: exception`) of
 *    the union's exceptions (its own when it is one; else by status: 429 `throttlingException`,
 *    424 `modelStreamErrorException`, 503 `serviceUnavailableException`, 5xx
 *    `internalServerException`, 4xx `validationException`; without a status by `retryable`) with
 *    `{"message"}`, and the output completes; the AWS SDK throws it as that exception. Any other
 *    error is passed on without `messageStop` (destroy the response: a client sees a cut).
 *    Arguments a source replaces after others were written cannot be taken back: that ends the
 *    output with `invalid-event`. Only `choice` (default 0) is written.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { fromResponse, readStreamEvents, encodeBedrockConverse } from 'rxjs-tool-calls';
 *
 * http.createServer(async (req, res) => {
 *   const upstream = await fetch('https://api.openai.com/v1/chat/completions', openaiInit);
 *   res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
 *   const subscription = fromResponse(upstream)
 *     .pipe(readStreamEvents(), encodeBedrockConverse())
 *     .subscribe({ next: (frames) => res.write(frames), complete: () => res.end(), error: () => res.destroy() });
 *   res.on('close', () => subscription.unsubscribe());
 * }).listen(8080);
 * ```
 *
 * @param options `choice`, `reasoning`, and the tracker's `generateId`, `maxToolCalls`,
 *   `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to event-stream bytes (one or more whole frames per chunk).
 */
export function encodeBedrockConverse(options: EncodeBedrockConverseOptions = {}): OperatorFunction<StreamEvent, Uint8Array> {
  const lines = encodeWith(() => new BedrockConverseEncoder(options), options);
  const frames = operate<string, Uint8Array>((subscriber) => {
    const writer = new EventStreamWriter();
    return { next: (text) => subscriber.next(converseFrames(writer, text)) };
  });
  return (source) => frames(lines(source));
}
