/**
 * Ids agree everywhere: a call the wire sent no id for gets its id from the stream itself (rule
 * `unique-ids`), so every reader of the same events names it alike — `retryStream()`'s `delivered`,
 * `toolCalls()` downstream of it, `chatState()`, `partialToolCalls()`, `readToolCalls()` — across
 * subscriptions and across a `restart`.
 */
import { concat, from, lastValueFrom, of, toArray, throwError, type Observable } from 'rxjs';
import { chatState, partialToolCalls, readStreamEvents, readToolCalls, retryStream, type ToolCallResult, toolCalls, ToolStreamError } from 'rxjs-tool-calls';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { cut } from '../helpers/retryWire';

/** An OpenAI-compatible server that sends no call ids (Ollama's /v1, some gateways): two calls, cut after output when `cutAt` is given. */
function idless(response: string, cutAt?: number): Observable<string> {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: response, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const wire = [
    chunk({ role: 'assistant', content: 'Checking. ' }),
    chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Pa' } }] }),
    chunk({ tool_calls: [{ index: 1, type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'ris"}' } }] }),
    chunk({}, 'tool_calls'),
    'data: [DONE]\n\n',
  ];
  return cutAt === undefined
    ? from(wire)
    : concat(
        from(wire.slice(0, cutAt)),
        throwError(() => cut()),
      );
}

const idsOf = (results: ReadonlyArray<ToolCallResult>): string[] => results.map((r) => (r.success ? r.data.id : r.error.toolCall.id));

describe('generated ids agree between the readers of one stream', () => {
  it("retryStream()'s delivered output names a call without a wire id as toolCalls() downstream does", async () => {
    const results: ToolCallResult[] = [];
    const error = await new Promise<unknown>((resolve) =>
      retryStream(() => idless('chatcmpl-a', 4), { maxAttempts: 1 })
        .pipe(toolCalls())
        .subscribe({ next: (r) => results.push(r), error: resolve, complete: () => resolve(undefined) }),
    );
    expect(error).toBeInstanceOf(ToolStreamError);
    const delivered = (error as ToolStreamError<'connection-lost'>).delivered;
    expect(delivered?.toolCalls.map((c) => c.id)).toEqual(idsOf(results));
    expect(new Set(idsOf(results)).size).toBe(2);
    expect(results.every((r) => !r.success && r.error.code === 'incomplete')).toBe(true);
  });

  it('after a restart, delivered covers the new response, with the ids toolCalls() gives its calls', async () => {
    const attempts = [idless('chatcmpl-1', 3), idless('chatcmpl-2', 4)];
    const results: ToolCallResult[] = [];
    let failure: unknown;
    await new Promise<void>((resolve) =>
      retryStream((ctx) => attempts[ctx.attempt - 1] ?? throwError(() => cut()), { restart: true, maxAttempts: 2, backoff: () => 0 })
        .pipe(toolCalls())
        .subscribe({ next: (r) => results.push(r), error: (e: unknown) => ((failure = e), resolve()), complete: resolve }),
    );
    const delivered = (failure as ToolStreamError<'connection-lost'>).delivered;
    // The first response's two calls were closed incomplete by the restart; the second's two by the failure.
    expect(results).toHaveLength(4);
    expect(new Set(idsOf(results)).size).toBe(4);
    expect(delivered?.toolCalls.map((c) => c.id)).toEqual(idsOf(results.slice(2)));
  });

  it('toolCalls(), readToolCalls(), partialToolCalls() and chatState() give the same ids, in any subscription', async () => {
    const events = await lastValueFrom(idless('chatcmpl-x').pipe(readStreamEvents(), toArray()));
    const fromToolCalls = idsOf(await lastValueFrom(from(events).pipe(toolCalls(), toArray())));
    const again = idsOf(await lastValueFrom(from(events).pipe(toolCalls(), toArray())));
    const fused = idsOf(await lastValueFrom(idless('chatcmpl-x').pipe(readToolCalls(), toArray())));
    const partial = (await lastValueFrom(from(events).pipe(partialToolCalls(), toArray()))).filter((p) => p.result !== undefined).map((p) => p.id);
    const chat = (await lastValueFrom(from(events).pipe(chatState()))).calls.map((c) => c.id);
    expect(new Set(fromToolCalls).size).toBe(2);
    expect({ again, fused, partial, chat }).toEqual({ again: fromToolCalls, fused: fromToolCalls, partial: fromToolCalls, chat: fromToolCalls });
  });

  it('two responses with different ids never share generated ids', async () => {
    const a = idsOf(await lastValueFrom(idless('chatcmpl-a').pipe(readToolCalls(), toArray())));
    const b = idsOf(await lastValueFrom(idless('chatcmpl-b').pipe(readToolCalls(), toArray())));
    expect(a.filter((id) => b.includes(id))).toEqual([]);
  });

  it('a stream that sends ids keeps them (nothing is generated)', async () => {
    const wire = [openaiChunk({ toolCalls: [{ index: 0, id: 'call_1', name: 'f', arguments: '{}' }] }), openaiDone()];
    expect(idsOf(await lastValueFrom(of(...wire).pipe(readToolCalls(), toArray())))).toEqual(['call_1']);
  });
});
