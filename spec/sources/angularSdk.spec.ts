import { lastValueFrom, of, throwError, toArray } from 'rxjs';
import { type StreamEvent, ToolStreamError, openaiChat } from 'rxjs-tool-calls';
import { fromOpenAIChatChunks, fromSdkEvents } from 'rxjs-tool-calls/sdk';
import { openaiChunkObject } from 'rxjs-tool-calls/marbles';
import { type AngularHttpEventLike, angularTextChunks } from '../../src/angular/angularTextChunks';
import { testScheduler } from '../helpers/marbles';

describe('angularTextChunks', () => {
  const progress = (partialText: string | undefined): AngularHttpEventLike => ({ type: 3, partialText, loaded: partialText?.length ?? 0 });
  const response = (body: string | null): AngularHttpEventLike => ({ type: 4, body, status: 200 });

  it('emits the new text of each progress event and the rest of the final body', async () => {
    const events: AngularHttpEventLike[] = [
      { type: 0 },
      { type: 2 },
      progress('da'),
      progress('data: {'),
      progress('data: {'),
      progress(undefined),
      progress('data: {}\n\n'),
      response('data: {}\n\ndata: [DONE]\n\n'),
    ];
    expect(await lastValueFrom(of(...events).pipe(angularTextChunks(), toArray()))).toEqual(['da', 'ta: {', '}\n\n', 'data: [DONE]\n\n']);
  });

  it('emits the whole body when progress was not reported, and nothing for a null body', async () => {
    expect(await lastValueFrom(of(response('abc')).pipe(angularTextChunks(), toArray()))).toEqual(['abc']);
    expect(await lastValueFrom(of(response(null)).pipe(angularTextChunks(), toArray()))).toEqual([]);
  });

  it('keeps separate state per subscription', async () => {
    const chunks$ = of(progress('ab'), response('abc')).pipe(angularTextChunks());
    expect(await lastValueFrom(chunks$.pipe(toArray()))).toEqual(['ab', 'c']);
    expect(await lastValueFrom(chunks$.pipe(toArray()))).toEqual(['ab', 'c']);
  });

  it('maps an HttpErrorResponse to a provider-error error (marble test with the typed-error matcher)', () => {
    const scheduler = testScheduler();
    const httpError = { name: 'HttpErrorResponse', status: 429, statusText: 'Too Many Requests', ok: false, error: '{"error":{"message":"slow down","code":"rate_limit_exceeded"}}' };
    scheduler.run(({ cold, expectObservable }) => {
      const events$ = cold<AngularHttpEventLike>('-s-p-#', { s: { type: 0 }, p: progress('data: ') }, httpError);
      const expected = new ToolStreamError('provider-error', {
        provider: 'openai',
        providerCode: 'rate_limit_exceeded',
        type: undefined,
        message: 'slow down',
        status: 429,
        retryable: true,
        payload: JSON.parse(httpError.error) as unknown,
      });
      expectObservable(events$.pipe(angularTextChunks({ provider: 'openai' }))).toBe('---a-#', { a: 'data: ' }, expected);
    });
  });

  it('passes a network failure (status 0) and other errors through', async () => {
    const network = { name: 'HttpErrorResponse', status: 0, error: new Error('offline') };
    await expect(lastValueFrom(throwError(() => network).pipe(angularTextChunks()))).rejects.toBe(network);
  });
});

async function* chunks(...values: unknown[]): AsyncGenerator<unknown> {
  for (const value of values) yield value;
}

describe('fromOpenAIChatChunks / fromSdkEvents', () => {
  it('decodes parsed chunks without re-encoding them', async () => {
    const stream = chunks(
      openaiChunkObject({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '' }] }),
      openaiChunkObject({ toolCalls: [{ arguments: '{"city":"Paris"}' }] }),
      openaiChunkObject({ finishReason: 'tool_calls' }),
      openaiChunkObject({ usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }),
    );
    const events = await lastValueFrom(fromOpenAIChatChunks(stream).pipe(toArray()));
    expect(events).toEqual<StreamEvent[]>([
      { type: 'metadata', provider: 'openai-chat', responseId: 'chatcmpl-test', model: 'gpt-test' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"city":"Paris"}' },
      { type: 'usage', inputTokens: 3, outputTokens: 4, totalTokens: 7, raw: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } },
      // held until the end (rule `when-complete`); the SDK consumed [DONE], so `done` comes at the end of the stream
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
      { type: 'done' },
    ]);
  });

  it("reports the decoder's end-of-stream check (no finish_reason → truncated)", async () => {
    await expect(lastValueFrom(fromOpenAIChatChunks(chunks(openaiChunkObject({ content: 'hi' }))))).rejects.toMatchObject({ name: 'ToolStreamError', code: 'truncated' });
  });

  it('reports decoder errors as typed errors', async () => {
    await expect(lastValueFrom(fromOpenAIChatChunks(chunks({ error: { message: 'quota', code: 'insufficient_quota' } })))).rejects.toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
    await expect(lastValueFrom(fromOpenAIChatChunks(chunks('not an object')))).rejects.toMatchObject({ name: 'ToolStreamError', code: 'invalid-event' });
  });

  it('passes errors of the SDK iterator through', async () => {
    async function* failing(): AsyncGenerator<unknown> {
      yield openaiChunkObject({ content: 'a' });
      throw new Error('APIError: 500');
    }
    await expect(lastValueFrom(fromOpenAIChatChunks(failing()))).rejects.toThrow('APIError: 500');
  });

  it('gives each payload the event name (fixed or read from the payload)', async () => {
    const seen: string[] = [];
    const factory = () => {
      const inner = openaiChat.decoder();
      return {
        provider: inner.provider,
        sse: inner.sse.bind(inner),
        end: () => undefined,
        payload(name: string, payload: unknown, emit: (e: StreamEvent) => void) {
          seen.push(name);
          inner.payload(name, payload, emit);
        },
      };
    };
    const payloads = [
      { type: 'a', ...openaiChunkObject({ content: 'x' }) },
      { type: 'b', ...openaiChunkObject({ content: 'y' }) },
    ];
    await lastValueFrom(fromSdkEvents(factory, () => chunks(...payloads)).pipe(toArray()));
    await lastValueFrom(
      fromSdkEvents(
        factory,
        () => chunks(...payloads),
        (p) => (p as { type: string }).type,
      ).pipe(toArray()),
    );
    await lastValueFrom(fromSdkEvents(factory, () => chunks(...payloads), 'chunk').pipe(toArray()));
    expect(seen).toEqual(['message', 'message', 'a', 'b', 'chunk', 'chunk']);
  });

  it('creates one decoder per subscription', async () => {
    const stream$ = fromOpenAIChatChunks(() => chunks(openaiChunkObject({ content: 'x', finishReason: 'stop' })));
    const once = await lastValueFrom(stream$.pipe(toArray()));
    expect(await lastValueFrom(stream$.pipe(toArray()))).toEqual(once);
    expect(once.filter((e) => e.type === 'metadata')).toHaveLength(1);
  });
});
