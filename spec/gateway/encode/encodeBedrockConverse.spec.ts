/**
 * `encodeBedrockConverse()`: the frames it writes (read back by AWS's own codec, header by header),
 * block numbering, live fragments, reasoning with signatures and redacted parts, cut calls, the
 * stop reason, usage, exceptions for provider errors, and the standard operator cases.
 */
import { concat, from, throwError } from 'rxjs';
import { type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { encodeBedrockConverse, type EncodeBedrockConverseOptions } from 'rxjs-tool-calls/gateway';
import { awsCodec } from '../../helpers/framing';
import { collect, genIds } from '../../helpers/reencode';

const encode = (extra: EncodeBedrockConverseOptions = {}) => encodeBedrockConverse({ generateId: genIds(), ...extra });

/** The frames of the encoded chunks, as AWS's codec reads them: message type, name, payload. */
function framesOf(chunks: Uint8Array[]): Array<[string, string, unknown]> {
  const out: Array<[string, string, unknown]> = [];
  for (const chunk of chunks) {
    let pos = 0;
    while (pos < chunk.length) {
      const total = new DataView(chunk.buffer, chunk.byteOffset + pos).getUint32(0);
      const message = awsCodec.decode(chunk.subarray(pos, pos + total));
      const header = (name: string): string => String(message.headers[name]?.value);
      expect(header(':content-type')).toBe('application/json');
      const type = header(':message-type');
      out.push([type, type === 'event' ? header(':event-type') : header(':exception-type'), JSON.parse(new TextDecoder().decode(message.body))]);
      pos += total;
    }
  }
  return out;
}

function encoded(events: StreamEvent[], extra: EncodeBedrockConverseOptions = {}, error?: unknown) {
  const source =
    error === undefined
      ? from(events)
      : concat(
          from(events),
          throwError(() => error),
        );
  const out = collect(source.pipe(encode(extra)));
  return { ...out, frames: framesOf(out.values) };
}

const t: StreamEvent = { type: 'text-delta', choice: 0, text: 'Hi' };
const x1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_x', name: 'get_weather', argumentsDelta: '{"city":' };
const x2: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' };
const e: StreamEvent = { type: 'tool-call-end', choice: 0, index: 0 };
const f: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' };
const d: StreamEvent = { type: 'done' };

describe('encodeBedrockConverse', () => {
  it('follows the doc diagram: one frame chunk per event that says something, blocks numbered in order', () => {
    const { values, frames, completed } = encoded([t, x1, x2, e, f, { type: 'usage', inputTokens: 10, outputTokens: 5, raw: {} }, d]);
    expect(completed).toBe(true);
    expect(values).toHaveLength(5); // t, x1, x2, e, d (finish and usage are written at the end)
    expect(frames).toEqual([
      ['event', 'messageStart', { role: 'assistant' }],
      ['event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }],
      ['event', 'contentBlockStop', { contentBlockIndex: 0 }],
      ['event', 'contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'call_x', name: 'get_weather' } } }],
      ['event', 'contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } } }],
      ['event', 'contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"Paris"}' } } }],
      ['event', 'contentBlockStop', { contentBlockIndex: 1 }],
      ['event', 'messageStop', { stopReason: 'tool_use' }],
      ['event', 'metadata', { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } }],
    ]);
  });

  it('writes reasoning with its signature, a new block after a signature, and redacted parts', () => {
    const { frames } = encoded([
      { type: 'reasoning-delta', choice: 0, text: 'think' },
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'sig1' },
      { type: 'reasoning-end', choice: 0, index: 0, text: 'think', signature: 'sig1' },
      { type: 'reasoning-end', choice: 0, index: 1, text: '', redacted: 'UkVEQUNURUQ=' },
      { type: 'reasoning-delta', choice: 0, text: 'more' },
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'sig2' },
      { type: 'reasoning-delta', choice: 0, text: 'after a signature' },
      d,
    ]);
    expect(frames.slice(1, -1)).toEqual([
      ['event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'think' } } }],
      ['event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig1' } } }],
      ['event', 'contentBlockStop', { contentBlockIndex: 0 }],
      ['event', 'contentBlockDelta', { contentBlockIndex: 1, delta: { reasoningContent: { redactedContent: 'UkVEQUNURUQ=' } } }],
      ['event', 'contentBlockStop', { contentBlockIndex: 1 }],
      ['event', 'contentBlockDelta', { contentBlockIndex: 2, delta: { reasoningContent: { text: 'more' } } }],
      ['event', 'contentBlockDelta', { contentBlockIndex: 2, delta: { reasoningContent: { signature: 'sig2' } } }],
      ['event', 'contentBlockStop', { contentBlockIndex: 2 }],
      ['event', 'contentBlockDelta', { contentBlockIndex: 3, delta: { reasoningContent: { text: 'after a signature' } } }],
      ['event', 'contentBlockStop', { contentBlockIndex: 3 }],
    ]);
    expect(frames.at(-1)).toEqual(['event', 'messageStop', { stopReason: 'end_turn' }]);
    expect(encoded([{ type: 'reasoning-delta', choice: 0, text: 'x' }, d], { reasoning: 'drop' }).frames).toEqual([
      ['event', 'messageStart', { role: 'assistant' }],
      ['event', 'messageStop', { stopReason: 'end_turn' }],
    ]);
  });

  it('leaves a cut call without contentBlockStop and writes the stop reason of its finish', () => {
    const cut: StreamEvent = { type: 'tool-call-end', choice: 0, index: 0, incomplete: true, finishReason: 'length' };
    const { frames } = encoded([x1, cut, { type: 'finish', choice: 0, reason: 'length', rawReason: 'max_tokens' }, d]);
    expect(frames.map(([, name]) => name)).toEqual(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'messageStop']);
    expect(frames.at(-1)).toEqual(['event', 'messageStop', { stopReason: 'max_tokens' }]);
  });

  it.each([
    ['stop', 'end_turn', 'end_turn'],
    ['content-filter', 'refusal', 'content_filtered'],
    ['error', 'MALFORMED_FUNCTION_CALL', 'MALFORMED_FUNCTION_CALL'],
    ['other', '', 'end_turn'],
  ] as const)('finish %s (%s) is stopReason %s', (reason, rawReason, stopReason) => {
    expect(encoded([t, { type: 'finish', choice: 0, reason, rawReason }, d]).frames.at(-1)).toEqual(['event', 'messageStop', { stopReason }]);
  });

  it('writes usage with the input split from the cache reads and writes', () => {
    const { frames } = encoded([t, { type: 'usage', inputTokens: 100, outputTokens: 7, cachedInputTokens: 60, cacheWriteInputTokens: 30, reasoningTokens: 2, raw: {} }, d]);
    expect(frames.at(-1)).toEqual(['event', 'metadata', { usage: { inputTokens: 10, outputTokens: 7, totalTokens: 107, cacheReadInputTokens: 60, cacheWriteInputTokens: 30 } }]);
  });

  it.each([
    [{ status: 429, retryable: true }, 'throttlingException'],
    [{ status: 529, retryable: true }, 'serviceUnavailableException'],
    [{ status: 500, retryable: true }, 'internalServerException'],
    [{ status: 424, retryable: true }, 'modelStreamErrorException'],
    [{ status: 400, retryable: false }, 'validationException'],
    [{ retryable: true }, 'serviceUnavailableException'],
    [{ retryable: false }, 'validationException'],
    [{ retryable: true, type: 'throttlingException', status: 400 }, 'throttlingException'],
  ])('a provider error %j is a %s frame, then the output completes', (fields, exception) => {
    const error = new ToolStreamError('provider-error', { provider: 'anthropic', message: 'Overloaded', ...fields });
    const { frames, completed } = encoded([t], {}, error);
    expect(completed).toBe(true);
    expect(frames.at(-1)).toEqual(['exception', exception, { message: 'Overloaded' }]);
  });

  it('passes any other error on without messageStop', () => {
    const error = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'cut' });
    const out = encoded([t, x1], {}, error);
    expect(out.error).toBe(error);
    expect(out.frames.map(([, name]) => name)).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockStop', 'contentBlockStart', 'contentBlockDelta']);
  });

  it('writes a whole value (replace) with the call’s next event, and ends the output with invalid-event when arguments cannot be taken back', () => {
    const whole: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'c', name: 'f', argumentsDelta: '{"a":1}', replace: true };
    expect(encoded([whole, { type: 'tool-call-end', choice: 0, index: 0 }, d]).frames.slice(1, 4)).toEqual([
      ['event', 'contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'c', name: 'f' } } }],
      ['event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"a":1}' } } }],
      ['event', 'contentBlockStop', { contentBlockIndex: 0 }],
    ]);
    const contradicting: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"b":2}', replace: true };
    const out = encoded([x1, contradicting]);
    expect(out.error).toMatchObject({ code: 'invalid-event', provider: 'bedrock-converse' });
  });

  it('writes only its choice', () => {
    const other: StreamEvent = { type: 'text-delta', choice: 1, text: 'elsewhere' };
    expect(encoded([other, t, d]).frames.filter(([, name]) => name === 'contentBlockDelta')).toEqual([['event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }]]);
    expect(encoded([other, t, d], { choice: 1 }).frames.filter(([, name]) => name === 'contentBlockDelta')).toEqual([
      ['event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'elsewhere' } }],
    ]);
  });
});
