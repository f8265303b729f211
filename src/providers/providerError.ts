/**
 * Reading a provider's error payload, in any of the common shapes, as a `provider-error` error.
 *
 * @module
 */
import { asNumber, asRecord, asString } from '../internal/json';
import { parseFailedGeneration } from './failedGeneration';
import { ToolStreamError, type ProviderErrorInfo } from '../errors';

/** Whether a provider error is worth retrying: overloaded, rate limited, timeouts and 5xx. */
export function isRetryable(status: number | undefined, code: string | undefined, type: string | undefined): boolean {
  if (status !== undefined && (status === 408 || status === 409 || status === 429 || status >= 500)) return true;
  const text = `${code ?? ''} ${type ?? ''}`.toLowerCase();
  return /overload|rate_limit|rate-limit|ratelimit|too_many_requests|server_error|internal|unavailable|timeout|temporar|capacity|resource_exhausted|api_error/.test(text);
}

/**
 * The error object of a payload: the payload itself, or the one element of a one-element array
 * (Gemini's streaming endpoint answers a failed request with `[{ "error": { … } }]`).
 */
export function errorRecord(payload: unknown): Record<string, unknown> | undefined {
  return asRecord(payload) ?? (Array.isArray(payload) && payload.length === 1 ? asRecord(payload[0]) : undefined);
}

/** A protobuf JSON duration (`"58s"`, `"1.5s"`, `"0.250s"`) in ms; `Infinity` when too long to represent (400 digits). */
function durationMs(value: unknown): number | undefined {
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(value.trim()) : null;
  return match === null ? undefined : Math.round(Number(match[1]) * 1000);
}

/** A non-negative wait as a payload field holds it: a number ≥ 0, `Infinity` included (`1e400` in JSON); else `undefined`. */
function waitNumber(value: unknown): number | undefined {
  return typeof value === 'number' && value >= 0 ? value : undefined;
}

/**
 * The wait a provider asked for inside its error payload: Google's `google.rpc.RetryInfo` detail
 * (`{ "@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "58s" }`, Gemini's 429
 * and 503), or a `retry_after_ms` (ms) / `retry_after` (seconds) field, as some gateways send.
 * A wait too long to represent (`retry_after: 1e306`, a 400-digit delay) is `Infinity`, never
 * `undefined`: it was asked, and the retry policy refuses it.
 */
export function payloadRetryAfterMs(inner: Record<string, unknown> | undefined, outer: Record<string, unknown> | undefined): number | undefined {
  const details = inner?.['details'];
  if (Array.isArray(details)) {
    for (const detail of details) {
      const record = asRecord(detail);
      const type = asString(record?.['@type']);
      if (type !== undefined && type.endsWith('google.rpc.RetryInfo')) {
        const ms = durationMs(record?.['retryDelay']);
        if (ms !== undefined) return ms;
      }
    }
  }
  for (const record of inner === outer ? [inner] : [inner, outer]) {
    const ms = waitNumber(record?.['retry_after_ms']);
    if (ms !== undefined) return ms;
    const seconds = waitNumber(record?.['retry_after']);
    if (seconds !== undefined) return seconds * 1000;
  }
  return undefined;
}

/**
 * Build a `provider-error` from an error object in any of the common shapes
 * (`{ message, type, code, status }`, possibly nested under `error`). A `failed_generation`
 * (Groq `tool_use_failed`) is kept as `failedGeneration`, and the one call it holds, when it
 * holds one that parses, as `failedCall`.
 *
 * `httpStatus`, when given (an HTTP response's status), is the error's `status` and decides
 * `retryable` together with the payload's code and type; `fallbackMessage` is then the status line
 * (`HTTP 401 Unauthorized`) the message starts with. The provider's message is read from `message`
 * (in `error` or beside it) or from `error` itself when it is text (`{ "error": "model not found" }`).
 * `provider` may be any name (`'http'` for errors read from an HTTP response before any wire format
 * is known). `retryAfterMs`: the delay the response's `Retry-After` asked for; without it, the
 * payload's own hint (see {@link payloadRetryAfterMs}). A one-element array is read as its element.
 */
export function providerError(provider: string, payload: unknown, fallbackMessage = 'provider reported an error', httpStatus?: number, retryAfterHeader?: number): ToolStreamError<'provider-error'> {
  const outer = errorRecord(payload);
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
  const own = asString(inner?.['message']) ?? asString(outer?.['message']) ?? asString(outer?.['error']);
  // An HTTP error's message starts with its status line (`fallbackMessage`): `HTTP 401 Unauthorized: Incorrect API key`.
  const message = httpStatus === undefined ? (own ?? (typeof payload === 'string' ? payload : fallbackMessage)) : own === undefined ? fallbackMessage : `${fallbackMessage}: ${own}`;
  const retryAfterMs = retryAfterHeader ?? payloadRetryAfterMs(inner, outer);
  const info: ProviderErrorInfo = {
    provider,
    providerCode,
    type,
    message,
    status,
    retryable: isRetryable(status, providerCode, type),
    payload,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  // Groq `tool_use_failed`: the rejected generation, and the call it holds (never run).
  const failedGeneration = asString(inner?.['failed_generation']) ?? asString(outer?.['failed_generation']);
  if (failedGeneration === undefined) return new ToolStreamError('provider-error', info);
  return new ToolStreamError('provider-error', { ...info, failedGeneration, failedCall: parseFailedGeneration(failedGeneration) });
}
