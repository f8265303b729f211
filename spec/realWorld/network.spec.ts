/**
 * Connections cut mid-body: undici's `TypeError: terminated` whose cause is a
 * `SocketError` with `code: 'UND_ERR_SOCKET'`, delivered by a plain observable, by
 * `fromAsyncIterable()` and by `fromReadableStream()`. Each case is our own small stream shaped like
 * the one in the named public report, run under every chunking (see `helpers.ts`).
 */
import { type Observable } from 'rxjs';
import { fromAsyncIterable, fromReadableStream } from 'rxjs-tool-calls';
import { anthropicEvent, openaiChunk } from 'rxjs-tool-calls/marbles';
import { chunksThenError, runSource, undiciTerminated, type CallSummary, type Run } from './helpers';

/** The chunks, then `TypeError: terminated`, from an async generator. */
function asyncIterableCut(chunks: Uint8Array[]): Observable<Uint8Array> {
  return fromAsyncIterable(async function* () {
    for (const chunk of chunks) yield chunk;
    throw undiciTerminated();
  });
}

/** The chunks, then `TypeError: terminated`, from a `ReadableStream` (pulled, so no chunk is discarded by the error). */
function readableStreamCut(chunks: Uint8Array[]): Observable<Uint8Array> {
  return fromReadableStream(() => {
    let next = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk === undefined) controller.error(undiciTerminated());
        else controller.enqueue(chunk);
      },
    });
  });
}

/** The open calls were reported incomplete (reason `truncated` or `connection-lost`), then the stream ended retryable, with the socket error as cause. */
function expectConnectionLost(run: Run, expected: ReadonlyArray<Omit<Extract<CallSummary, { code: string }>, 'reason' | 'code'>>): void {
  expect(run.end).toBe('connection-lost');
  expect(run.results).toEqual(expected.map((call) => expect.objectContaining({ code: 'incomplete', ...call })));
  for (const result of run.results) expect(['truncated', 'connection-lost']).toContain('reason' in result ? result.reason : undefined);
  expect(run.error).toMatchObject({ code: 'connection-lost', retryable: true });
  const cause = (run.error as { cause?: unknown }).cause;
  expect(cause).toBeInstanceOf(TypeError);
  expect(cause).toMatchObject({ message: 'terminated', cause: { code: 'UND_ERR_SOCKET' } });
}

describe('real-world cut connections', () => {
  const content = '# Plan\\n'.repeat(40);
  const chatWire = [
    openaiChunk({ role: 'assistant', content: 'Writing the file.' }),
    openaiChunk({ toolCalls: [{ index: 0, id: 'call_w', name: 'write_file', arguments: '{"path":"PLAN.md","content":"' }] }),
    openaiChunk({ toolCalls: [{ index: 0, arguments: content }] }),
  ];

  it('vercel/ai#9775: the socket closes after a large write_file tool input (plain observable): connection-lost, retryable', async () => {
    const run = await runSource((chunks) => chunksThenError(chunks, undiciTerminated), ...chatWire);
    expect(run.text).toBe('Writing the file.');
    expectConnectionLost(run, [{ id: 'call_w', name: 'write_file', raw: `{"path":"PLAN.md","content":"${content}` }]);
  });

  it('OpenRouterTeam/ai-sdk-provider#412: TLS socket closed mid-SSE, read through fromAsyncIterable()', async () => {
    const run = await runSource(asyncIterableCut, ...chatWire);
    expectConnectionLost(run, [{ id: 'call_w', name: 'write_file', raw: `{"path":"PLAN.md","content":"${content}` }]);
  });

  it('ericc-ch/copilot-api#148: an Anthropic stream relayed by a proxy is cut ("other side closed"), read through fromReadableStream()', async () => {
    const wire = [
      anthropicEvent('message_start', { message: { id: 'msg_c', type: 'message', role: 'assistant', content: [], model: 'claude-test', usage: { input_tokens: 3, output_tokens: 1 } } }),
      anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_e', name: 'edit', input: {} } }),
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"file":"src/app.ts","patch":"@@ -1' } }),
    ];
    const run = await runSource(readableStreamCut, ...wire);
    expectConnectionLost(run, [{ id: 'toolu_e', name: 'edit', raw: '{"file":"src/app.ts","patch":"@@ -1' }]);
  });
});
