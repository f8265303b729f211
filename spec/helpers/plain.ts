import { isToolStreamError, type ToolCallResult } from 'rxjs-tool-calls';

/** A result with its error reduced to code + tool-call identity, for readable deep equality. */
export function plain(result: ToolCallResult): unknown {
  if (result.success) {
    const { providerMetadata: _ignored, ...data } = result.data;
    return { ok: data };
  }
  const e = result.error;
  return { err: e.code, id: e.toolCall.id, name: e.toolCall.name, raw: e.toolCall.rawArguments, ...('reason' in e ? { reason: e.reason } : {}) };
}

/** Any value made comparable: typed errors become `{ code, message }`-free plain objects. */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && 'plain' in value) return (value as { plain: unknown }).plain;
  if (isToolStreamError(value)) return { error: value.code };
  if (typeof value === 'object' && value !== null && 'success' in value) return plain(value as ToolCallResult);
  return value;
}
