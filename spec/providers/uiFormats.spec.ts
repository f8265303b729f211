/**
 * The UI formats among the others: recognised from their first event (and never a provider's
 * stream), named by the `provider` option and the CLI, and their results and approvals shown:
 * `chatState()` puts them on their call (the latest with that wire id), the CLI prints them.
 */
import { from, lastValueFrom, toArray } from 'rxjs';
import { agUi, aiSdkUi, chatState, isToolStreamError, readStreamEvents, readToolCalls, type StreamEvent } from 'rxjs-tool-calls';
import { detectFormat } from 'rxjs-tool-calls/advanced';
import { main, PROVIDERS, type CliIo } from '../../src/cli';

const record = (data: unknown) => ({ event: 'message', data: typeof data === 'string' ? data : JSON.stringify(data), id: undefined, retry: undefined });
const ui = (chunks: unknown[]): string => `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const ag = (events: unknown[]): string => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

describe('detection', () => {
  it.each([
    [{ type: 'start', messageId: 'm' }, 'ai-sdk-ui'],
    [{ type: 'start-step' }, 'ai-sdk-ui'],
    [{ type: 'tool-input-start', toolCallId: 'c', toolName: 'x' }, 'ai-sdk-ui'],
    [{ type: 'data-weather', data: { c: 1 } }, 'ai-sdk-ui'],
    [{ type: 'error', errorText: 'An error occurred.' }, 'ai-sdk-ui'],
    [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, 'ag-ui'],
    [{ type: 'TEXT_MESSAGE_CHUNK', delta: 'hi' }, 'ag-ui'],
    [{ type: 'RUN_ERROR', message: 'x' }, 'ag-ui'],
    // What the provider formats start with is theirs still.
    [{ type: 'error', code: 'insufficient_quota', message: 'x' }, 'openai-responses'],
    [{ type: 'error', error: { type: 'overloaded_error', message: 'x' } }, 'anthropic'],
    [{ type: 'message-start', id: 'x' }, 'cohere'],
    [{ id: 'c', choices: [] }, 'openai-chat'],
  ])('%j is %s', (payload, format) => {
    expect(detectFormat(record(payload))?.format).toBe(format);
  });

  it('a data-* chunk without data, and types of neither protocol, are no UI stream', () => {
    expect(detectFormat(record({ type: 'data-x' }))).toBeNull();
    expect(detectFormat(record({ type: 'text-delta-v9' }))).toBeNull();
  });

  it('the provider option names them, and so does the CLI', async () => {
    const text = ui([{ type: 'start' }, { type: 'tool-input-available', toolCallId: 'c1', toolName: 'f', input: { a: 1 } }, { type: 'finish' }]);
    const results = await lastValueFrom(from([text]).pipe(readToolCalls({ provider: 'ai-sdk-ui' }), toArray()));
    expect(results.map((r) => r.success && r.data.arguments)).toEqual([{ a: 1 }]);
    expect(await lastValueFrom(from([text]).pipe(readToolCalls({ provider: aiSdkUi }), toArray()))).toHaveLength(1);
    // Named wrongly, the stream is not read as the other protocol.
    const wrong = await lastValueFrom(from([text]).pipe(readToolCalls({ provider: agUi }), toArray())).catch((e: unknown) => e);
    expect(isToolStreamError(wrong)).toBe(true);
    expect(PROVIDERS).toEqual(expect.arrayContaining(['ai-sdk-ui', 'ag-ui']));
  });
});

describe('chatState() with results and approvals', () => {
  it('shows the last result and the approval on the latest call with that wire id; one for no call is left out', async () => {
    const events: StreamEvent[] = [
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'x', name: 'a', argumentsDelta: '{}' },
      { type: 'tool-call-end', choice: 0, index: 0 },
      { type: 'tool-result', choice: 0, id: 'x', output: 1 },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'x', name: 'b', argumentsDelta: '{}' },
      { type: 'tool-call-end', choice: 0, index: 1 },
      { type: 'tool-result', choice: 0, id: 'x', output: { step: 1 }, preliminary: true },
      { type: 'tool-result', choice: 0, id: 'x', output: { step: 2 } },
      { type: 'tool-approval-request', choice: 0, id: 'x', approvalId: 'ap' },
      { type: 'tool-result', choice: 0, id: 'nobody', error: 'lost' },
      { type: 'tool-result', choice: 1, id: 'x', error: 'other choice' },
      { type: 'done' },
    ];
    const states = await lastValueFrom(from(events).pipe(chatState(), toArray()));
    const last = states.at(-1);
    expect(last?.calls.map((c) => [c.id, c.name, c.output, c.approval])).toEqual([
      ['x', 'a', { output: 1 }, undefined],
      ['x_2', 'b', { output: { step: 2 } }, { id: 'ap' }],
    ]);
    expect(states.some((s) => s.calls[1]?.output?.preliminary === true)).toBe(true);
  });
});

describe('the CLI', () => {
  async function run(argv: string[], stdin: string): Promise<{ code: number; out: string }> {
    let out = '';
    const io: CliIo = {
      stdout: (t) => (out += t),
      stderr: () => undefined,
      stdin: (async function* () {
        yield stdin;
      })(),
    };
    return { code: await main(argv, io), out };
  }

  it('reads an AI SDK UI stream: the calls, the results, the approvals', async () => {
    const { code, out } = await run(
      ['-'],
      ui([
        { type: 'start', messageId: 'm1' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Checking.' },
        { type: 'tool-input-start', toolCallId: 'c1', toolName: 'get_weather' },
        { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city":"Oslo"}' },
        { type: 'tool-input-available', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool-output-available', toolCallId: 'c1', output: { celsius: 4 }, preliminary: true },
        { type: 'tool-output-available', toolCallId: 'c1', output: { celsius: 5 } },
        { type: 'tool-approval-request', toolCallId: 'c1', approvalId: 'ap-1' },
        { type: 'tool-output-error', toolCallId: 'c1', errorText: 'offline\u001b[2J' },
        { type: 'finish', finishReason: 'tool-calls' },
      ]),
    );
    expect(code).toBe(0);
    expect(out).toContain('✓ get_weather  id=c1 index=0\n  {"city":"Oslo"}\n');
    expect(out).toContain('→ progress of id=c1  {"celsius":4}\n');
    expect(out).toContain('→ result of id=c1  {"celsius":5}\n');
    expect(out).toContain('? approval asked for id=c1  approval=ap-1\n');
    expect(out).toContain('→ result of id=c1  error: offline\\u001b[2J\n');
    expect(out).toContain('finish: tool-calls (tool-calls)\n');
  });

  it('reads an AG-UI stream, --json too', async () => {
    const stream = ag([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'confirm' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_approval', toolCallId: 'c1' }] } },
    ]);
    const readable = await run(['-'], stream);
    expect(readable.out).toContain('? approval asked for id=c1  approval=i1\n');
    const json = await run(['-', '--json'], stream);
    const lines = json.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(['tool-call', 'tool-approval-request', 'finish']);
  });

  it('reads with readStreamEvents() what the CLI reads', async () => {
    const events = await lastValueFrom(
      from([
        ag([
          { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
          { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
        ]),
      ]).pipe(readStreamEvents(), toArray()),
    );
    expect(events.map((e) => e.type)).toEqual(['metadata', 'finish', 'done']);
  });
});
