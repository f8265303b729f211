/**
 * The provider formats have no tool results and no approvals: their encoders leave `tool-result`
 * and `tool-approval-request` out. A UI stream re-encoded for a provider's client is written
 * exactly as the same stream without them, and reads back with its calls.
 */
import { from, lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { readStreamEvents, readToolCalls, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeBedrockConverse, encodeGemini, encodeOllamaChat, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { genIds } from '../../helpers/reencode';

/** Our own AI SDK UI message stream: a call run by the backend (a progress value, then its output), a call that needs approval, a failed one. */
const UI_STREAM = [
  { type: 'start', messageId: 'msg_ui_1' },
  { type: 'start-step' },
  { type: 'text-start', id: 't0' },
  { type: 'text-delta', id: 't0', delta: 'Checking both.' },
  { type: 'text-end', id: 't0' },
  { type: 'tool-input-start', toolCallId: 'call_w', toolName: 'get_weather' },
  { type: 'tool-input-delta', toolCallId: 'call_w', inputTextDelta: '{"city":' },
  { type: 'tool-input-delta', toolCallId: 'call_w', inputTextDelta: '"Oslo"}' },
  { type: 'tool-input-available', toolCallId: 'call_w', toolName: 'get_weather', input: { city: 'Oslo' } },
  { type: 'tool-output-available', toolCallId: 'call_w', output: { status: 'loading' }, preliminary: true },
  { type: 'tool-output-available', toolCallId: 'call_w', output: { celsius: 4 } },
  { type: 'tool-input-start', toolCallId: 'call_p', toolName: 'pay' },
  { type: 'tool-input-delta', toolCallId: 'call_p', inputTextDelta: '{"amount":12}' },
  { type: 'tool-input-available', toolCallId: 'call_p', toolName: 'pay', input: { amount: 12 } },
  { type: 'tool-approval-request', approvalId: 'appr_1', toolCallId: 'call_p' },
  { type: 'tool-input-start', toolCallId: 'call_f', toolName: 'lookup' },
  { type: 'tool-input-available', toolCallId: 'call_f', toolName: 'lookup', input: {} },
  { type: 'tool-output-error', toolCallId: 'call_f', errorText: 'lookup is down' },
  { type: 'finish-step' },
  { type: 'finish', finishReason: 'tool-calls' },
]
  .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
  .concat('data: [DONE]\n\n')
  .join('');

const created = 1_700_000_000;
/** Each provider encoder with fixed ids and times, its output as text (Bedrock's binary frames as base64), and how its output is read back. */
const ENCODERS: ReadonlyArray<[string, () => OperatorFunction<StreamEvent, string | Uint8Array>]> = [
  ['openai-chat', () => encodeOpenAIChat({ id: 'enc_1', generateId: genIds(), created })],
  ['openai-responses', () => encodeOpenAIResponses({ id: 'enc_1', generateId: genIds(), created })],
  ['anthropic', () => encodeAnthropicMessages({ id: 'enc_1', generateId: genIds() })],
  ['gemini', () => encodeGemini({ id: 'enc_1', generateId: genIds() })],
  ['bedrock-converse', () => encodeBedrockConverse({ generateId: genIds() })],
  ['ollama', () => encodeOllamaChat({ generateId: genIds(), createdAt: '2025-01-01T00:00:00.000Z' })],
];

const bytes = (text: string) => new TextEncoder().encode(text);
const asBytes = (out: string | Uint8Array) => (typeof out === 'string' ? bytes(out) : out);

describe('provider encoders leave tool results and approvals out', () => {
  let events: StreamEvent[];
  beforeAll(async () => {
    events = await lastValueFrom(from([bytes(UI_STREAM)]).pipe(readStreamEvents(), toArray()));
  });

  it('the UI stream has results (a progress value, an output, an error) and an approval', () => {
    expect(events.filter((e) => e.type === 'tool-result' || e.type === 'tool-approval-request').map((e) => [e.type, e.id])).toEqual([
      ['tool-result', 'call_w'],
      ['tool-result', 'call_w'],
      ['tool-approval-request', 'call_p'],
      ['tool-result', 'call_f'],
    ]);
  });

  it.each(ENCODERS)('%s: written exactly as the stream without them, and read back with its calls', async (provider, encoder) => {
    const without = events.filter((e) => e.type !== 'tool-result' && e.type !== 'tool-approval-request');
    const written = await lastValueFrom(from(events).pipe(encoder(), toArray()));
    const plain = await lastValueFrom(from(without).pipe(encoder(), toArray()));
    expect(Buffer.concat(written.map(asBytes)).toString('base64')).toBe(Buffer.concat(plain.map(asBytes)).toString('base64'));
    const calls = await lastValueFrom(from(written.map(asBytes)).pipe(readToolCalls({ provider: provider as never }), toArray()));
    expect(calls.map((r) => (r.success ? [r.data.name, r.data.arguments] : r.error.code))).toEqual([
      ['get_weather', { city: 'Oslo' }],
      ['pay', { amount: 12 }],
      ['lookup', {}],
    ]);
  });
});
