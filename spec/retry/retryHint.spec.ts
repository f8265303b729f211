/**
 * The wait a provider asks for inside its error payload becomes ``provider-error` error.retryAfterMs`:
 * Google's `RetryInfo` detail (Gemini 429 / 503, in the stream or as the HTTP body, which Gemini's
 * streaming endpoint sends as a one-element array), and `retry_after_ms` / `retry_after` fields.
 * A `Retry-After` header wins over the payload.
 */
import { from, lastValueFrom } from 'rxjs';
import { readStreamEvents } from 'rxjs-tool-calls';
import { httpProviderError } from 'rxjs-tool-calls/advanced';
import { sseEvent } from 'rxjs-tool-calls/marbles';

const geminiError = {
  error: {
    code: 429,
    message: 'Resource exhausted. Please retry in 58.93s.',
    status: 'RESOURCE_EXHAUSTED',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '58s' },
    ],
  },
};

describe('retryAfterMs from the error payload', () => {
  it('a Gemini error chunk in the stream', async () => {
    const error = await lastValueFrom(from([sseEvent({ data: JSON.stringify(geminiError) })]).pipe(readStreamEvents({ provider: 'gemini' }))).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
    expect(error).toMatchObject({ status: 429, retryable: true, type: 'RESOURCE_EXHAUSTED', retryAfterMs: 58_000 });
  });

  it("Gemini's HTTP error body, a one-element array; a fractional delay", () => {
    const body = JSON.stringify([{ error: { ...geminiError.error, details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }] } }]);
    expect(httpProviderError(429, body, 'Too Many Requests', 'gemini')).toMatchObject({
      status: 429,
      type: 'RESOURCE_EXHAUSTED',
      message: 'gemini error 429 (RESOURCE_EXHAUSTED): HTTP 429 Too Many Requests: Resource exhausted. Please retry in 58.93s.',
      retryAfterMs: 1500,
    });
  });

  it('retry_after_ms and retry_after (seconds) fields; the header wins', () => {
    expect(httpProviderError(503, '{"error":{"message":"busy","retry_after_ms":250}}')).toMatchObject({ retryAfterMs: 250 });
    expect(httpProviderError(503, '{"error":{"message":"busy"},"retry_after":2}')).toMatchObject({ retryAfterMs: 2000 });
    expect(httpProviderError(503, '{"error":{"message":"busy","retry_after":2}}', '', 'http', 40)).toMatchObject({ retryAfterMs: 40 });
  });

  it('no hint: the field is absent; a malformed hint is ignored', () => {
    expect(Object.keys(httpProviderError(503, '{"error":{"message":"busy"}}'))).not.toContain('retryAfterMs');
    const odd = JSON.stringify({ error: { message: 'x', retry_after: -1, details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: 'soon' }] } });
    expect(Object.keys(httpProviderError(429, odd))).not.toContain('retryAfterMs');
  });
});
