import { firstValueFrom, lastValueFrom, of, switchMap, toArray } from 'rxjs';
import { fromFetch } from 'rxjs/fetch';
import { fromResponse, responseBody } from 'rxjs-tool-calls';
import { httpProviderError } from 'rxjs-tool-calls/advanced';
import { FINITE_SSE, startSourcesServer, type SourcesServer } from '../helpers/sourcesServer';

const decodeAll = (chunks: Uint8Array[]): string => {
  const decoder = new TextDecoder();
  return chunks.map((c) => decoder.decode(c, { stream: true })).join('') + decoder.decode();
};

const rateLimit = JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } });

describe('httpProviderError', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
  ])('status %i is retryable: %s', (status, retryable) => {
    const error = httpProviderError(status, '');
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
    expect(error.code).toBe('provider-error');
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.provider).toBe('http');
  });

  it('reads a JSON error body', () => {
    const error = httpProviderError(429, rateLimit, 'Too Many Requests', 'openai');
    expect(error.toJSON()).toEqual({
      name: 'ToolStreamError',
      code: 'provider-error',
      message: 'openai error rate_limit_exceeded (requests): HTTP 429 Too Many Requests: Rate limit reached',
      provider: 'openai',
      providerCode: 'rate_limit_exceeded',
      type: 'requests',
      status: 429,
      retryable: true,
      payload: JSON.parse(rateLimit),
    });
  });

  it('lets the HTTP status win over a status in the body and keeps a retryable provider code', () => {
    const error = httpProviderError(400, { error: { code: 400, status: 'RESOURCE_EXHAUSTED', message: 'quota' } });
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(true); // RESOURCE_EXHAUSTED
  });

  it('quotes a text body, shortened, and keeps it whole as the payload', () => {
    const html = `<html>${'x'.repeat(500)}</html>`;
    const error = httpProviderError(502, html, 'Bad Gateway');
    expect(error.message).toMatch(/^http error: HTTP 502 Bad Gateway: <html>x+… \(513 chars\)$/);
    expect(error.payload).toBe(html);
    expect(error.retryable).toBe(true);
  });

  it('uses the status line when the body is empty or has no message', () => {
    expect(httpProviderError(503, '', 'Service Unavailable').message).toBe('http error: HTTP 503 Service Unavailable');
    expect(httpProviderError(500, '{}').message).toBe('http error: HTTP 500');
  });
});

describe('fromResponse', () => {
  it('streams the body of a 2xx response', async () => {
    const chunks = await lastValueFrom(fromResponse(new Response('data: {}\n\n')).pipe(toArray()));
    expect(decodeAll(chunks)).toBe('data: {}\n\n');
  });

  it('accepts a promise of a response', async () => {
    const chunks = await lastValueFrom(fromResponse(Promise.resolve(new Response('abc'))).pipe(toArray()));
    expect(decodeAll(chunks)).toBe('abc');
  });

  it('turns a non-2xx response into a provider-error error read from its body', async () => {
    const response = new Response(rateLimit, { status: 429, statusText: 'Too Many Requests' });
    const error = await lastValueFrom(fromResponse(response)).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
    expect(error).toMatchObject({
      code: 'provider-error',
      provider: 'http',
      status: 429,
      retryable: true,
      providerCode: 'rate_limit_exceeded',
      message: 'http error rate_limit_exceeded (requests): HTTP 429 Too Many Requests: Rate limit reached',
    });
  });

  it('names the provider from the options', async () => {
    const error = await lastValueFrom(fromResponse(new Response('nope', { status: 401 }), { provider: 'anthropic' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ provider: 'anthropic', status: 401, retryable: false, message: 'anthropic error: HTTP 401: nope' });
  });

  it('errors with truncated when a 2xx response has no body', async () => {
    const error = await lastValueFrom(fromResponse(new Response(null, { status: 204 }))).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'truncated' });
    expect(error).toMatchObject({ code: 'truncated', provider: 'http', detail: 'the HTTP 204 response has no body' });
  });

  it('passes a rejected fetch through', async () => {
    const failure = new TypeError('fetch failed');
    await expect(lastValueFrom(fromResponse(Promise.reject(failure)))).rejects.toBe(failure);
  });

  it('refuses a response whose body was already read', async () => {
    const response = new Response('abc');
    await response.text();
    await expect(lastValueFrom(fromResponse(response))).rejects.toThrow(/Response body can be read only once/);
  });

  it('cancels the body when unsubscribed before the promise resolved', async () => {
    const cancel = jest.fn();
    const body = new ReadableStream<Uint8Array>({ pull: () => undefined, cancel: () => cancel() });
    let resolve: (r: Response) => void = () => undefined;
    const pending = new Promise<Response>((r) => (resolve = r));
    fromResponse(pending).subscribe().unsubscribe();
    resolve(new Response(body));
    await new Promise((r) => setTimeout(r, 0));
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('ignores the index that switchMap passes', async () => {
    const chunks = await lastValueFrom(of(new Response('abc')).pipe(switchMap(fromResponse), toArray()));
    expect(decodeAll(chunks)).toBe('abc');
  });
});

describe('with rxjs fromFetch', () => {
  let server: SourcesServer;
  beforeAll(async () => {
    server = await startSourcesServer();
  });
  afterAll(() => server.close());

  it('switchMap(fromResponse) reads the whole stream', async () => {
    const chunks = await lastValueFrom(fromFetch(`${server.origin}/finite`).pipe(switchMap(fromResponse), toArray()));
    expect(decodeAll(chunks)).toBe(FINITE_SSE.join(''));
  });

  it('responseBody() reads the whole stream', async () => {
    const chunks = await lastValueFrom(fromFetch(`${server.origin}/finite`).pipe(responseBody(), toArray()));
    expect(decodeAll(chunks)).toBe(FINITE_SSE.join(''));
  });

  it('responseBody() reports an HTTP error as a ProviderError', async () => {
    const url = `${server.origin}/status/503?body=${encodeURIComponent(JSON.stringify({ error: { message: 'overloaded', type: 'overloaded_error' } }))}`;
    const error = await firstValueFrom(fromFetch(url).pipe(responseBody({ provider: 'anthropic' }))).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'provider-error',
      provider: 'anthropic',
      status: 503,
      retryable: true,
      type: 'overloaded_error',
      message: 'anthropic error (overloaded_error): HTTP 503 Service Unavailable: overloaded',
    });
  });
});
