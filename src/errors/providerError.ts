/**
 * Reading a provider's error payload, in any of the common shapes, as a {@link ProviderError}.
 *
 * @module
 */
import { asNumber, asRecord, asString } from '../internal/json';
import { parseFailedGeneration } from './failedGeneration';
import { ProviderError, type ProviderErrorInfo } from './index';

/** Whether a provider error is worth retrying: overloaded, rate limited, timeouts and 5xx. */
export function isRetryable(status: number | undefined, code: string | undefined, type: string | undefined): boolean {
  if (status !== undefined && (status === 408 || status === 409 || status === 429 || status >= 500)) return true;
  const text = `${code ?? ''} ${type ?? ''}`.toLowerCase();
  return /overload|rate_limit|rate-limit|ratelimit|too_many_requests|server_error|internal|unavailable|timeout|temporar|capacity|resource_exhausted|api_error/.test(text);
}

/**
 * Build a `provider-error` from an error object in any of the common shapes
 * (`{ message, type, code, status }`, possibly nested under `error`). A `failed_generation`
 * (Groq `tool_use_failed`) is kept as `failedGeneration`, and the one call it holds, when it
 * holds one that parses, as `failedCall`.
 *
 * `httpStatus`, when given (an HTTP response's status), is the error's `status` and decides
 * `retryable` together with the payload's code and type. `provider` may be any name (`'http'` for
 * errors read from an HTTP response before any wire format is known). `retryAfterMs`: the delay the
 * response's `Retry-After` asked for.
 */
export function providerError(provider: string, payload: unknown, fallbackMessage = 'provider reported an error', httpStatus?: number, retryAfterMs?: number): ProviderError {
  const outer = asRecord(payload);
  const inner = asRecord(outer?.['error']) ?? outer;
  const rawCode = inner?.['code'] ?? outer?.['code'];
  const providerCode = typeof rawCode === 'number' ? String(rawCode) : asString(rawCode) || undefined;
  // A flat envelope's `type` may be the event tag itself (`{"type":"error","code":…}`, Responses): not an error type.
  const rawType = asString(inner?.['type']);
  const type = (rawType === 'error' && inner === outer ? undefined : rawType) ?? asString(inner?.['status']) ?? undefined;
  const status =
    httpStatus ??
    asNumber(inner?.['status']) ??
    asNumber(outer?.['status']) ??
    asNumber(inner?.['status_code']) ?? // Groq's in-stream errors
    (typeof rawCode === 'number' && rawCode >= 100 && rawCode < 600 ? rawCode : undefined);
  const message = asString(inner?.['message']) ?? asString(outer?.['message']) ?? (typeof payload === 'string' ? payload : fallbackMessage);
  const info: ProviderErrorInfo = { provider, providerCode, type, message, status, retryable: isRetryable(status, providerCode, type), payload, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  // Groq `tool_use_failed`: the rejected generation, and the call it holds (never run).
  const failedGeneration = asString(inner?.['failed_generation']) ?? asString(outer?.['failed_generation']);
  if (failedGeneration === undefined) return new ProviderError(info);
  return new ProviderError({ ...info, failedGeneration, failedCall: parseFailedGeneration(failedGeneration) });
}
