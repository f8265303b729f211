/**
 * AWS Bedrock `ConverseStream` (every model Bedrock hosts, in one event vocabulary), framed as an
 * AWS event stream.
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { wireFormat, type WireFormat } from '../format';
import { BedrockConverseDecoder } from './decoder';
import { converseUsage, isBedrockException, normalizeConverseStopReason } from './mapping';

const EVENTS = /* @__PURE__ */ new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop']);

/** A Converse stream: its event names (`:event-type`), a `metadata` event with usage or metrics, or a Bedrock exception. */
function detect(event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  if (EVENTS.has(event.event)) return true;
  if (event.event === 'metadata') return payload !== undefined && ('usage' in payload || 'metrics' in payload);
  return isBedrockException(event.event);
}

/**
 * Read AWS Bedrock `ConverseStream` events as {@link StreamEvent}s: after `decodeAwsEventStream()`
 * on the HTTP body, or fed the AWS SDK's events with their names.
 *
 * <span class="informal">Event-stream records in; one normalised event per text piece, reasoning
 * piece, signature, tool-input fragment, block stop, stop reason and usage report out.</span>
 *
 * ```text
 * --s--b--j--j--e--S--M|      s: messageStart, b: contentBlockStart (toolUse), j: contentBlockDelta (toolUse.input),
 *                             e: contentBlockStop, S: messageStop (tool_use), M: metadata (usage)
 *   bedrockConverse()
 * --m--x--x--x--e--f--(ud|)   m: metadata, x: tool-call-delta, e: tool-call-end, f: finish, u: usage, d: done
 *
 * --s--b--T|                  T: throttlingException
 *   bedrockConverse()
 * --m--x--#                   #: provider-error (type 'throttlingException', status 429, retryable)
 * ```
 *
 * 1. Emits `metadata` (`messageStart`; Converse streams carry no response id or model),
 *    `text-delta` (`delta.text`), `reasoning-delta` (`delta.reasoningContent.text`, and its
 *    `signature` as an empty-text delta with `signature`), `reasoning-end` at each reasoning block's
 *    `contentBlockStop` (its whole text, signature and `redactedContent` as `redacted`, base64),
 *    `tool-call-delta` (`start.toolUse` with `toolUseId` and `name`, then each `delta.toolUse.input`
 *    fragment) and `tool-call-end` (`contentBlockStop`), `finish` (`messageStop`), `usage`
 *    (`metadata`) and `done`. The choice is always 0; a call's `index` is its `contentBlockIndex`.
 * 2. `stopReason`: `end_turn` and `stop_sequence` → `stop`, `tool_use` → `tool-calls`,
 *    `max_tokens` and `model_context_window_exceeded` → `length`, `guardrail_intervened` and
 *    `content_filtered` → `content-filter`, anything else → `other`. A tool block without
 *    `contentBlockStop` at `messageStop` ends `incomplete` (with that finish).
 * 3. Usage: `inputTokens` leaves the cache out, so the normalised input is `inputTokens +
 *    cacheReadInputTokens + cacheWriteInputTokens` (cache reads as `cachedInputTokens`, writes as
 *    `cacheWriteInputTokens`); `totalTokens` is Bedrock's own (it counts the cache).
 * 4. The stream is complete at `metadata` after `messageStop` (`done`), or when the source ends
 *    after `messageStop`; ending before it is `truncated`. An exception frame ends the stream with a
 *    `provider-error` whose `type` is the exception (`throttlingException` 429,
 *    `serviceUnavailableException` 503, `internalServerException` 500, `modelStreamErrorException`
 *    424, `modelTimeoutException` 408: retryable; `validationException` 400 and the rest: not), an
 *    unmodeled `error` frame with one built from its `:error-code` and `:error-message`; a payload
 *    that is not a JSON object with `invalid-event`.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeAwsEventStream, bedrockConverse, toolCalls } from 'rxjs-tool-calls';
 *
 * declare const signedRequest: Request; // POST https://bedrock-runtime.<region>.amazonaws.com/model/<modelId>/converse-stream (SigV4-signed)
 *
 * fromResponse(await fetch(signedRequest)).pipe(decodeAwsEventStream(), bedrockConverse(), toolCalls()).subscribe(console.log);
 * // displays: { success: true, data: { id: 'tooluse_…', name: 'get_weather', arguments: { city: 'Paris' }, … } }
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: bedrockConverse })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const bedrockConverse: WireFormat<'bedrock-converse'> = /* @__PURE__ */ wireFormat({
  format: 'bedrock-converse',
  framing: 'aws-event-stream',
  detect,
  decoder: () => new BedrockConverseDecoder(),
  finishReason: normalizeConverseStopReason,
  usage: converseUsage,
});
