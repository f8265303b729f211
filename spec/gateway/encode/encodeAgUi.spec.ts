/**
 * `encodeAgUi()`: what it writes for each kind of event, arguments only appended and written as a
 * client parses them (repaired calls as their repaired text), every call ended before the run,
 * results and approvals, the end, the errors and the options.
 */
import { isToolStreamError, type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { encodeAgUi } from 'rxjs-tool-calls/gateway';
import { writtenBy } from '../../helpers/reencode';
import { readWithAgUi, startBytesServer, type BytesServer } from '../../helpers/uiClients';

const ids = { threadId: 'thread-1', runId: 'run-1', id: 'msg-1' };
const call = (argumentsDelta: string, index = 0): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, argumentsDelta });
const open = (id: string, name: string, argumentsDelta = '', index = 0): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, id, name, argumentsDelta });
const end = (index = 0): StreamEvent => ({ type: 'tool-call-end', choice: 0, index });
const done: StreamEvent = { type: 'done' };

function events(input: readonly StreamEvent[], options: Parameters<typeof encodeAgUi>[0] = ids, error?: unknown): Array<Record<string, unknown>> {
  return writtenBy(encodeAgUi(options), input, error).events.map((e) => e.data as Record<string, unknown>);
}

/** The arguments a client concatenates for `id`. */
const argsOf = (written: ReadonlyArray<Record<string, unknown>>, id: string): string =>
  written
    .filter((e) => e['type'] === 'TOOL_CALL_ARGS' && e['toolCallId'] === id)
    .map((e) => e['delta'])
    .join('');

describe('encodeAgUi()', () => {
  it('writes the run: RUN_STARTED, text in the assistant message, its calls, RUN_FINISHED with the usage', () => {
    expect(
      events([
        { type: 'metadata', provider: 'anthropic', responseId: 'msg_src', model: 'claude-x' },
        { type: 'text-delta', choice: 0, text: 'Checking.' },
        open('toolu_1', 'get_weather', '{"city":'),
        call('"Zürich"}'),
        end(),
        { type: 'usage', inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, raw: {} },
        done,
      ]),
    ).toEqual([
      { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'msg-1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-1', delta: 'Checking.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'msg-1' },
      { type: 'TOOL_CALL_START', toolCallId: 'toolu_1', toolCallName: 'get_weather', parentMessageId: 'msg-1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'toolu_1', delta: '{"city":' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'toolu_1', delta: '"Zürich"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'toolu_1' },
      { type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'run-1', usage: [{ provider: 'anthropic', model: 'claude-x', inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, totalTokens: 15 }] },
    ]);
  });

  it('the run id is the source’s response id unless given; the thread and message ids are generated', () => {
    const written = events([{ type: 'metadata', provider: 'openai-chat', responseId: 'chatcmpl-9' }, { type: 'text-delta', choice: 0, text: 'x' }, done], {});
    expect(written[0]).toEqual({ type: 'RUN_STARTED', threadId: expect.stringMatching(/^thread_/), runId: 'chatcmpl-9' });
    expect(written[1]).toEqual({ type: 'TEXT_MESSAGE_START', messageId: 'msg_chatcmpl-9', role: 'assistant' });
  });

  it('a call the readers repair is written as its repaired text: copies of one document once, cumulative resends as the last; no arguments as {}', () => {
    const written = events([
      open('rep', 'search', '{"q":"a"}'),
      call('{"q":"a"}'),
      end(),
      open('cum', 'search', '{"q":', 1),
      call('{"q":"a', 1),
      call('{"q":"ab"}', 1),
      end(1),
      open('none', 'ping', '', 2),
      end(2),
      done,
    ]);
    expect(argsOf(written, 'rep')).toBe('{"q":"a"}');
    expect(argsOf(written, 'cum')).toBe('{"q":"ab"}');
    expect(argsOf(written, 'none')).toBe('{}');
  });

  it('a fragment chain that breaks is not a resend: the text is written as it came', () => {
    const written = events([open('c', 'search', '{"q":'), call('{"q":"a'), call('bc"}'), end(), done]);
    expect(argsOf(written, 'c')).toBe('{"q":{"q":"abc"}');
  });

  it('arguments a source replaces after others were written cannot be taken back: invalid-event', () => {
    const result = writtenBy(encodeAgUi(ids), [open('c', 'search', '{"q":"draft"}'), { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"q":"final"}', replace: true }, end(), done]);
    expect(isToolStreamError(result.error, 'invalid-event') && result.error.provider).toBe('ag-ui');
  });

  it('a custom tool’s call is written as {"input": text}', () => {
    const written = events([{ ...open('p', 'apply_patch', '*** Begin'), kind: 'custom' } as StreamEvent, call(' "x"'), end(), done]);
    expect(JSON.parse(argsOf(written, 'p'))).toEqual({ input: '*** Begin "x"' });
  });

  it('a cut call is ended before RUN_FINISHED (a run ends with no call open), and left open by a failed run', () => {
    const finished = events([open('cut', 'search', '{"q":"x'), { type: 'finish', choice: 0, reason: 'length', rawReason: 'length' }, done]);
    expect(finished.slice(-2)).toEqual([{ type: 'TOOL_CALL_END', toolCallId: 'cut' }, expect.objectContaining({ type: 'RUN_FINISHED' })]);
    const provider = new ToolStreamError('provider-error', {
      provider: 'anthropic',
      providerCode: 'overloaded',
      type: 'overloaded_error',
      message: 'Overloaded',
      status: 529,
      retryable: true,
      payload: {},
    });
    const failed = events([open('cut', 'search', '{"q":"x')], ids, provider);
    expect(failed.at(-1)).toEqual({ type: 'RUN_ERROR', message: expect.stringContaining('Overloaded'), code: 'overloaded' });
    expect(failed.some((e) => e['type'] === 'TOOL_CALL_END')).toBe(false);
  });

  it('results become TOOL_CALL_RESULT (JSON unless text, an error or a denial as its text), progress values are left out; approvals the interrupt outcome', () => {
    const written = events([
      open('c1', 'get_weather', '{}'),
      end(),
      { type: 'tool-result', choice: 0, id: 'c1', output: { celsius: 4 }, preliminary: true },
      { type: 'tool-result', choice: 0, id: 'c1', output: { celsius: 5 } },
      open('c2', 'ask', '{}', 1),
      end(1),
      { type: 'tool-result', choice: 0, id: 'c2', output: 'plain text' },
      { type: 'tool-result', choice: 0, id: 'c2', error: 'offline' },
      { type: 'tool-approval-request', choice: 0, id: 'c2', approvalId: 'ap-1' },
      { type: 'tool-result', choice: 0, id: 'nobody', output: 1 },
      done,
    ]);
    expect(written.filter((e) => e['type'] === 'TOOL_CALL_RESULT').map((e) => [e['toolCallId'], e['content']])).toEqual([
      ['c1', '{"celsius":5}'],
      ['c2', 'plain text'],
      ['c2', 'offline'],
    ]);
    expect(written.at(-1)).toEqual({
      type: 'RUN_FINISHED',
      threadId: 'thread-1',
      runId: 'run-1',
      outcome: { type: 'interrupt', interrupts: [{ id: 'ap-1', reason: 'tool_approval', toolCallId: 'c2' }] },
    });
  });

  it('reasoning is a reasoning message in its span, its encrypted value before its end', () => {
    const written = events([
      { type: 'reasoning-delta', choice: 0, text: 'Think.' },
      { type: 'reasoning-end', choice: 0, text: 'Think.', encryptedContent: 'enc' },
      { type: 'text-delta', choice: 0, text: 'Yes.' },
      done,
    ]);
    expect(written.slice(1, 7)).toEqual([
      { type: 'REASONING_START', messageId: 'msg-1-reasoning-0' },
      { type: 'REASONING_MESSAGE_START', messageId: 'msg-1-reasoning-0', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'msg-1-reasoning-0', delta: 'Think.' },
      { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'msg-1-reasoning-0', encryptedValue: 'enc' },
      { type: 'REASONING_MESSAGE_END', messageId: 'msg-1-reasoning-0' },
      { type: 'REASONING_END', messageId: 'msg-1-reasoning-0' },
    ]);
  });

  it('any other error is passed on without RUN_FINISHED; options are checked when it is made', () => {
    const cut = new ToolStreamError('truncated', { provider: 'anthropic', detail: 'cut' });
    const broken = writtenBy(encodeAgUi(ids), [{ type: 'text-delta', choice: 0, text: 'Part' }], cut);
    expect(broken.error).toBe(cut);
    expect(broken.values.join('')).not.toContain('RUN_FINISHED');
    let error: unknown;
    try {
      encodeAgUi({ threadID: 'x' } as never);
    } catch (e) {
      error = e;
    }
    expect(isToolStreamError(error, 'invalid-option') && error.message).toContain("did you mean 'threadId'");
  });

  describe('read by HttpAgent', () => {
    let server: BytesServer;
    beforeAll(async () => {
      server = await startBytesServer();
    });
    afterAll(() => server.close());

    it('verifies the run, and parses the repaired calls’ arguments to the readers’ values', async () => {
      const text = writtenBy(encodeAgUi(ids), [
        open('rep', 'search', '{"q":"a"}'),
        call('{"q":"a"}'),
        end(),
        open('cum', 'search', '{"q":', 1),
        call('{"q":"a', 1),
        call('{"q":"ab"}', 1),
        end(1),
        open('none', 'ping', '', 2),
        end(2),
        { type: 'tool-result', choice: 0, id: 'rep', output: { hits: 1 } },
        open('cut', 'search', '{"q":"x', 3),
        { type: 'finish', choice: 0, reason: 'length', rawReason: 'length' },
        done,
      ]).values.join('');
      const client = await readWithAgUi(server.serve('/repaired', [text]));
      expect(client.error).toBeUndefined();
      const assistant = client.messages.find((m) => m.role === 'assistant') as { toolCalls: Array<{ id: string; function: { arguments: string } }> };
      expect(assistant.toolCalls.slice(0, 3).map((c) => [c.id, JSON.parse(c.function.arguments)])).toEqual([
        ['rep', { q: 'a' }],
        ['cum', { q: 'ab' }],
        ['none', {}],
      ]);
      expect(client.messages.find((m) => m.role === 'tool')).toMatchObject({ toolCallId: 'rep', content: '{"hits":1}' });
    });
  });
});
