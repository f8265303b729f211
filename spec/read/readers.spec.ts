/**
 * The fused readers (`readToolCalls()`, `readStreamEvents()`): built at the first notification, so
 * an open stream that received nothing holds almost nothing; an unsupported provider still fails at
 * subscription; a decoder that cannot be built ends the stream and lets go of the source.
 */
import { Subject, lastValueFrom, of, toArray } from 'rxjs';
import { openaiChat, readStreamEvents, readToolCalls } from 'rxjs-tool-calls';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

describe('the fused readers, built at the first chunk', () => {
  it('refuses an unsupported provider when the operator is made, naming the valid ones', () => {
    for (const make of [() => readToolCalls({ provider: 'no-such-format' as never }), () => readStreamEvents({ provider: 'openai' as never })]) {
      expect(make).toThrow(expect.objectContaining({ code: 'invalid-option', option: 'options.provider' }));
      expect(make).toThrow(/'openai-chat'/);
    }
  });

  it('reads a stream whose chunks arrive after subscription, named or auto-detected', async () => {
    const wire = [
      openaiChunk({ toolCalls: [{ index: 0, id: 'call_1', name: 'f', arguments: '{"a"' }] }),
      openaiChunk({ toolCalls: [{ index: 0, arguments: ':1}' }] }),
      openaiChunk({ finishReason: 'tool_calls' }),
      openaiDone(),
    ];
    for (const provider of ['openai-chat', 'auto'] as const) {
      const source = new Subject<string>();
      const results = lastValueFrom(source.pipe(readToolCalls({ provider }), toArray()));
      for (const chunk of wire) source.next(chunk);
      source.complete();
      expect(await results).toEqual([{ success: true, data: expect.objectContaining({ id: 'call_1', name: 'f', arguments: { a: 1 } }) }]);
    }
  });

  it('ends with the error of a chain that fails to build at the first chunk, and unsubscribes the source', () => {
    const failing = {
      ...openaiChat,
      format: 'failing-chat',
      decoder: () => {
        throw new RangeError('no decoder');
      },
    };
    for (const end of ['chunk', 'complete', 'error'] as const) {
      const source = new Subject<string>();
      const seen: unknown[] = [];
      source.pipe(readToolCalls({ provider: failing as never })).subscribe({ next: (v) => seen.push(v), error: (e: unknown) => seen.push(e), complete: () => seen.push('complete') });
      expect(source.observed).toBe(true); // nothing is built before the first notification
      if (end === 'chunk') source.next(openaiChunk({ content: 'x' }));
      else if (end === 'complete') source.complete();
      else source.error(new Error('cut'));
      expect(seen).toEqual([expect.objectContaining({ message: 'no decoder' })]);
      expect(source.observed).toBe(false);
      source.next(openaiDone()); // ignored
      expect(seen).toHaveLength(1);
    }
  });

  it('completes an empty source with the same errors as before (auto: unknown-format)', async () => {
    await expect(lastValueFrom(of<string>().pipe(readToolCalls(), toArray()))).rejects.toMatchObject({ code: 'unknown-format' });
  });
});
