/**
 * `encodeAiSdkUi()`: what it writes for each kind of event, the final input of a call whatever its
 * fragments said, results and approvals on their call, the end, the errors and the options.
 */
import { isToolStreamError, type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { encodeAiSdkUi } from 'rxjs-tool-calls/gateway';
import { writtenBy } from '../../helpers/reencode';
import { readWithAiSdk, startBytesServer, type BytesServer } from '../../helpers/uiClients';

const call = (argumentsDelta: string, extra: Partial<StreamEvent> = {}): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta, ...extra }) as StreamEvent;
const open = (id: string, name: string, argumentsDelta = '', index = 0): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, id, name, argumentsDelta });
const end = (index = 0): StreamEvent => ({ type: 'tool-call-end', choice: 0, index });
const done: StreamEvent = { type: 'done' };

/** The chunks written (the `[DONE]` as the string). */
function chunks(events: readonly StreamEvent[], options: Parameters<typeof encodeAiSdkUi>[0] = {}, error?: unknown): unknown[] {
  return writtenBy(encodeAiSdkUi(options), events, error).events.map((e) => e.data);
}

describe('encodeAiSdkUi()', () => {
  it('writes the message: start, a step, text parts ended when a call starts, the call, its final input, the finish and [DONE]', () => {
    expect(
      chunks([
        { type: 'metadata', provider: 'anthropic', responseId: 'msg_1' },
        { type: 'text-delta', choice: 0, text: 'Checking.' },
        open('toolu_1', 'get_weather', '{"city":'),
        call('"Zürich"}'),
        end(),
        { type: 'text-delta', choice: 0, text: 'Done.' },
        { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' },
        done,
      ]),
    ).toEqual([
      { type: 'start', messageId: 'msg_1' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-0' },
      { type: 'text-delta', id: 'text-0', delta: 'Checking.' },
      { type: 'text-end', id: 'text-0' },
      { type: 'tool-input-start', toolCallId: 'toolu_1', toolName: 'get_weather' },
      { type: 'tool-input-delta', toolCallId: 'toolu_1', inputTextDelta: '{"city":' },
      { type: 'tool-input-delta', toolCallId: 'toolu_1', inputTextDelta: '"Zürich"}' },
      { type: 'tool-input-available', toolCallId: 'toolu_1', toolName: 'get_weather', input: { city: 'Zürich' } },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Done.' },
      { type: 'text-end', id: 'text-1' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'tool-calls' },
      '[DONE]',
    ]);
  });

  it('reasoning is a part of its own; the message id option wins over the source’s', () => {
    const out = chunks(
      [
        { type: 'metadata', provider: 'anthropic', responseId: 'msg_1' },
        { type: 'reasoning-delta', choice: 0, text: 'Think.' },
        { type: 'reasoning-end', choice: 0, text: 'Think.', signature: 'sig' },
        { type: 'text-delta', choice: 0, text: 'Yes.' },
        done,
      ],
      { id: 'chat-msg-7' },
    );
    expect(out.slice(0, 6)).toEqual([
      { type: 'start', messageId: 'chat-msg-7' },
      { type: 'start-step' },
      { type: 'reasoning-start', id: 'reasoning-0' },
      { type: 'reasoning-delta', id: 'reasoning-0', delta: 'Think.' },
      { type: 'reasoning-end', id: 'reasoning-0' },
      { type: 'text-start', id: 'text-1' },
    ]);
  });

  it('a call the readers repair is written with its repaired input: tool-input-available carries the value (the deltas as they came)', () => {
    const out = chunks([open('c1', 'search', '{"q":'), call('{"q":"a'), call('{"q":"ab"}'), end(), done]);
    expect(out).toContainEqual({ type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { q: 'ab' } });
  });

  it('arguments a source replaces after others were written are restated at the call’s end (never an error)', () => {
    const result = writtenBy(encodeAiSdkUi(), [open('c1', 'search', '{"q":"draft"}'), { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"q":"final"}', replace: true }, end(), done]);
    expect(result.error).toBeUndefined();
    expect(result.events.map((e) => e.data)).toContainEqual({ type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { q: 'final' } });
  });

  it('a call that does not parse, or has no name, ends with tool-input-error (its raw text and the reader’s error); a cut call is left streaming', () => {
    const out = chunks([
      open('bad', 'search', '{"q":'),
      end(0),
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'anon', argumentsDelta: '{}' },
      end(1),
      open('cut', 'search', '{"q":"x', 2),
      { type: 'finish', choice: 0, reason: 'length', rawReason: 'length' },
      done,
    ]);
    expect(out).toContainEqual({ type: 'tool-input-error', toolCallId: 'bad', toolName: 'search', input: '{"q":', errorText: expect.stringContaining('search') });
    expect(out).toContainEqual({ type: 'tool-input-error', toolCallId: 'anon', toolName: '', input: '{}', errorText: expect.any(String) });
    expect(out.filter((c) => (c as { toolCallId?: string }).toolCallId === 'cut').map((c) => (c as { type: string }).type)).toEqual(['tool-input-start', 'tool-input-delta']);
    expect(out.at(-2)).toEqual({ type: 'finish', finishReason: 'length' });
  });

  it('a custom tool’s call is text (inputEncoding: text), its input the text', () => {
    const out = chunks([{ ...open('p1', 'apply_patch', '*** Begin'), kind: 'custom' } as StreamEvent, call(' Patch'), end(), done]);
    expect(out).toContainEqual({ type: 'tool-input-start', toolCallId: 'p1', toolName: 'apply_patch', inputEncoding: 'text' });
    expect(out).toContainEqual({ type: 'tool-input-available', toolCallId: 'p1', toolName: 'apply_patch', input: '*** Begin Patch' });
  });

  it('results and approvals are written on their call (progress values, errors, denials); one for a call it did not write is left out', () => {
    const out = chunks([
      open('c1', 'get_weather', '{}'),
      end(),
      { type: 'tool-approval-request', choice: 0, id: 'c1', approvalId: 'ap-1' },
      { type: 'tool-result', choice: 0, id: 'c1', output: { status: 'looking' }, preliminary: true },
      { type: 'tool-result', choice: 0, id: 'c1', output: { celsius: 4 } },
      { type: 'tool-result', choice: 0, id: 'c1', error: 'offline' },
      { type: 'tool-result', choice: 0, id: 'c1', denied: true },
      { type: 'tool-result', choice: 0, id: 'nobody', output: 1 },
      { type: 'tool-approval-request', choice: 0, id: 'nobody', approvalId: 'ap-2' },
      done,
    ]);
    expect(out.slice(5, 10)).toEqual([
      { type: 'tool-approval-request', approvalId: 'ap-1', toolCallId: 'c1' },
      { type: 'tool-output-available', toolCallId: 'c1', output: { status: 'looking' }, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'c1', output: { celsius: 4 } },
      { type: 'tool-output-error', toolCallId: 'c1', errorText: 'offline' },
      { type: 'tool-output-denied', toolCallId: 'c1' },
    ]);
    expect(JSON.stringify(out)).not.toContain('nobody');
  });

  it('a tool the provider ran is a call with providerExecuted: its input, then its output', () => {
    const out = chunks([
      { type: 'provider-tool', choice: 0, provider: 'openai-responses', id: 'ws_1', tool: 'web_search', status: 'running' },
      { type: 'provider-tool', choice: 0, provider: 'openai-responses', id: 'ws_1', tool: 'web_search', status: 'completed', input: { query: 'x' }, result: { hits: 2 } },
      done,
    ]);
    expect(out.slice(2, 5)).toEqual([
      { type: 'tool-input-start', toolCallId: 'ws_1', toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-available', toolCallId: 'ws_1', toolName: 'web_search', input: { query: 'x' }, providerExecuted: true },
      { type: 'tool-output-available', toolCallId: 'ws_1', output: { hits: 2 }, providerExecuted: true },
    ]);
  });

  it('sendUsage puts the usage in the finish’s message metadata, in the AI SDK’s names', () => {
    const out = chunks([{ type: 'usage', inputTokens: 120, outputTokens: 40, reasoningTokens: 15, cachedInputTokens: 90, raw: {} }, { type: 'text-delta', choice: 0, text: 'Hi' }, done], {
      sendUsage: true,
    });
    expect(out.at(-2)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: { usage: { inputTokens: 120, outputTokens: 40, totalTokens: 160, outputTokenDetails: { reasoningTokens: 15 }, inputTokenDetails: { cacheReadTokens: 90 } } },
    });
    expect(chunks([{ type: 'usage', inputTokens: 1, outputTokens: 2, raw: {} }, done]).at(-2)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('a provider error becomes an error chunk and [DONE]; any other error is passed on without [DONE]', () => {
    const provider = new ToolStreamError('provider-error', {
      provider: 'anthropic',
      providerCode: undefined,
      type: 'overloaded_error',
      message: 'Overloaded',
      status: 529,
      retryable: true,
      payload: {},
    });
    const failed = writtenBy(encodeAiSdkUi(), [{ type: 'text-delta', choice: 0, text: 'Part' }], provider);
    expect(failed.completed).toBe(true);
    expect(failed.events.map((e) => e.data).slice(-3)).toEqual([{ type: 'text-end', id: 'text-0' }, { type: 'error', errorText: expect.stringContaining('Overloaded') }, '[DONE]']);
    const cut = new ToolStreamError('truncated', { provider: 'anthropic', detail: 'cut' });
    const broken = writtenBy(encodeAiSdkUi(), [{ type: 'text-delta', choice: 0, text: 'Part' }], cut);
    expect(broken.error).toBe(cut);
    expect(broken.values.join('')).not.toContain('[DONE]');
  });

  it('writes only its choice; checks its options when it is made', () => {
    const out = chunks([{ type: 'text-delta', choice: 1, text: 'other' }, { type: 'text-delta', choice: 0, text: 'mine' }, done]);
    expect(JSON.stringify(out)).not.toContain('other');
    expect(JSON.stringify(chunks([{ type: 'text-delta', choice: 1, text: 'other' }, done], { choice: 1 }))).toContain('other');
    let error: unknown;
    try {
      encodeAiSdkUi({ sendUsag: true } as never);
    } catch (e) {
      error = e;
    }
    expect(isToolStreamError(error, 'invalid-option') && error.message).toContain("did you mean 'sendUsage'");
  });

  describe('read by useChat’s transport', () => {
    let server: BytesServer;
    beforeAll(async () => {
      server = await startBytesServer();
    });
    afterAll(() => server.close());

    it('the message holds the repaired input, the outputs and the approval', async () => {
      const text = writtenBy(encodeAiSdkUi(), [
        open('c1', 'search', '{"q":"a"}'),
        call('{"q":"a"}'),
        end(),
        { type: 'tool-result', choice: 0, id: 'c1', output: { hits: 1 } },
        open('c2', 'delete', '{"path":"/x"}', 1),
        end(1),
        { type: 'tool-approval-request', choice: 0, id: 'c2', approvalId: 'ap-1' },
        done,
      ]).values.join('');
      const client = await readWithAiSdk(server.serve('/repaired', [text]));
      expect(client.errors).toEqual([]);
      expect(client.message?.parts.filter((p) => p.type.startsWith('tool-'))).toEqual([
        expect.objectContaining({ type: 'tool-search', toolCallId: 'c1', state: 'output-available', input: { q: 'a' }, output: { hits: 1 } }),
        expect.objectContaining({ type: 'tool-delete', toolCallId: 'c2', state: 'approval-requested', input: { path: '/x' }, approval: { id: 'ap-1' } }),
      ]);
    });
  });
});
