/**
 * `Retry-After`: the header parser, and the two HTTP sources that put it on ``provider-error` error.retryAfterMs`.
 */
import { lastValueFrom, throwError } from 'rxjs';
import { angularTextChunks } from '../../src/angular/angularTextChunks';
import { fromResponse } from '../../src/sources/response';
import { retryAfterMs } from '../../src/sources/retryAfter';

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('retryAfterMs()', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after': '120' }, 120_000],
    [{ 'retry-after': ' 1.5 ' }, 1500],
    [{ 'retry-after': '0' }, 0],
    [{ 'Retry-After': 'Wed, 01 Jan 2025 00:00:30 GMT' }, 30_000],
    [{ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, 0], // already passed
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250], // the finer one wins
    [{ 'retry-after-ms': 'soon', 'retry-after': '2' }, 2000],
    [{ 'retry-after': 'later' }, undefined],
    [{ 'retry-after': '-3' }, undefined],
    [{}, undefined],
  ])('%j → %s', (entries, expected) => {
    expect(retryAfterMs(headers(entries), now)).toBe(expected);
  });

  it('reads any object with get() (Angular HttpHeaders), and nothing from a missing one', () => {
    expect(retryAfterMs({ get: (name) => (name === 'retry-after' ? '7' : null) })).toBe(7000);
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs({} as never)).toBeUndefined();
  });
});

describe('Retry-After on the provider-error of a failed response', () => {
  const body = '{"error":{"message":"slow down","type":"rate_limit_error"}}';

  it('fromResponse: a JSON error body and a plain-text one', async () => {
    const json = await lastValueFrom(fromResponse(new Response(body, { status: 429, headers: { 'retry-after': '3' } }))).catch((e: unknown) => e);
    expect(json).toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
    expect(json).toMatchObject({ status: 429, retryable: true, type: 'rate_limit_error', retryAfterMs: 3000 });
    const text = await lastValueFrom(fromResponse(new Response('busy', { status: 503, headers: { 'retry-after-ms': '40' } }))).catch((e: unknown) => e);
    expect(text).toMatchObject({ status: 503, retryAfterMs: 40, message: 'http error: HTTP 503: busy' });
    const none = await lastValueFrom(fromResponse(new Response(body, { status: 429 }))).catch((e: unknown) => e);
    expect(none).toMatchObject({ status: 429 });
    expect(Object.keys(none as object)).not.toContain('retryAfterMs'); // absent, as on errors from the stream
  });

  it("angularTextChunks: an HttpErrorResponse's headers", async () => {
    const httpError = { name: 'HttpErrorResponse', status: 429, statusText: 'Too Many Requests', error: body, headers: { get: (name: string) => (name === 'retry-after' ? '12' : null) } };
    const error = await lastValueFrom(throwError(() => httpError).pipe(angularTextChunks({ provider: 'anthropic' }))).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
    expect(error).toMatchObject({ provider: 'anthropic', status: 429, retryAfterMs: 12_000, type: 'rate_limit_error' });
  });
});
