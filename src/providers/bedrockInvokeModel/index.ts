/**
 * AWS Bedrock `InvokeModelWithResponseStream`: the model's own streaming events, base64 inside AWS
 * event-stream `chunk` frames (for Claude: the Anthropic Messages events).
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { anthropicUsage, normalizeAnthropicStopReason } from '../anthropic/decoder';
import { isBedrockException } from '../bedrockConverse/mapping';
import { wireFormat, type WireFormat } from '../format';
import { BedrockInvokeModelDecoder } from './decoder';

/** An InvokeModel stream: a `chunk` record whose payload carries base64 `bytes`, or a Bedrock exception. */
function detect(event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  if (event.event === 'chunk') return typeof payload?.['bytes'] === 'string';
  return isBedrockException(event.event);
}

/**
 * Read AWS Bedrock `InvokeModelWithResponseStream` answers of Claude models as
 * {@link StreamEvent}s: after `decodeAwsEventStream()` on the HTTP body.
 *
 * <span class="informal">Each `chunk` record's `bytes` is one Anthropic Messages event; this
 * decodes it and reads it exactly as `anthropicMessages()` does.</span>
 *
 * ```text
 * --c----c----c----c--|      c: chunk {"bytes":"<base64 of an Anthropic event>"}
 *   bedrockInvokeModel()
 * --m----x----e----(fd)|     as anthropicMessages() would emit for the decoded events (metadata names bedrock-invoke-model)
 * ```
 *
 * 1. `chunk` payloads are `{"bytes": <base64>}`; the bytes are UTF-8 JSON of one event of the
 *    model's own stream, handed to the inner decoder (Anthropic Messages): every rule of
 *    `anthropicMessages()` holds, including `truncated` without `message_stop` and its errors
 *    (named `anthropic`). `metadata` events name `bedrock-invoke-model`.
 * 2. A Bedrock exception frame (`throttlingException`, `modelStreamErrorException`,
 *    `modelTimeoutException`, …) ends the stream with a `provider-error`, as for `bedrockConverse()`;
 *    a chunk without base64 `bytes` with `invalid-event`.
 * 3. Another model family's native stream: build a format with its decoder inside,
 *    `wireFormat({ ...bedrockInvokeModel, decoder: () => new BedrockInvokeModelDecoder(openaiChat.decoder) })`
 *    (`rxjs-tool-calls/advanced`), e.g. for the OpenAI models Bedrock hosts.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeAwsEventStream, bedrockInvokeModel, toolCalls } from 'rxjs-tool-calls';
 *
 * declare const signedRequest: Request; // POST …/model/anthropic.claude-…/invoke-with-response-stream (SigV4-signed), body: an Anthropic Messages request
 *
 * fromResponse(await fetch(signedRequest)).pipe(decodeAwsEventStream(), bedrockInvokeModel(), toolCalls()).subscribe(console.log);
 * // displays: { success: true, data: { id: 'toolu_…', name: 'get_weather', arguments: { city: 'Paris' }, … } }
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: bedrockInvokeModel })` reads only this format.
 * Its messages for a tool loop are Anthropic's (the request body is an Anthropic Messages request).
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const bedrockInvokeModel: WireFormat<'bedrock-invoke-model'> = /* @__PURE__ */ wireFormat({
  format: 'bedrock-invoke-model',
  framing: 'aws-event-stream',
  detect,
  decoder: () => new BedrockInvokeModelDecoder(),
  finishReason: normalizeAnthropicStopReason,
  usage: anthropicUsage,
});
