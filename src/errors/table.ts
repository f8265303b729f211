/**
 * The one table of error codes: for each code, where it appears, its class name and how its message
 * reads. `ERROR_CODES`, the classes, the unions (`ToolCallError`, `StreamErrorCode`, …) and the
 * README's errors table derive from it.
 *
 * @module
 */
import type { ErrorDetails, ToolCallContext, ToolStreamErrorCode } from './details';
import { safeStringify } from '../internal/json';

/**
 * Where an error appears: in one call's result, at the end of a stream, in one tool run's result,
 * thrown by a request translator, or by the standalone `PartialJsonParser` (`rxjs-tool-calls/advanced`).
 */
export type ErrorScope = 'call' | 'stream' | 'run' | 'request' | 'parser';

/**
 * Each code's scope and class name (`error.name`). Kept apart from the messages so the unions by
 * scope ({@link StreamErrorCode}, …) can be computed without the details they describe.
 */
export const ERROR_KINDS = {
  'malformed-arguments': { scope: 'call', name: 'MalformedArgumentsError' },
  incomplete: { scope: 'call', name: 'IncompleteToolCallError' },
  'missing-name': { scope: 'call', name: 'MissingNameError' },
  'invalid-arguments': { scope: 'call', name: 'InvalidArgumentsError' },
  'unknown-tool': { scope: 'call', name: 'UnknownToolError' },
  'arguments-too-large': { scope: 'call', name: 'ArgumentsTooLargeError' },
  'provider-error': { scope: 'stream', name: 'ProviderError' },
  truncated: { scope: 'stream', name: 'TruncatedStreamError' },
  'connection-lost': { scope: 'stream', name: 'ConnectionLostError' },
  'event-too-large': { scope: 'stream', name: 'EventTooLargeError' },
  'invalid-event': { scope: 'stream', name: 'InvalidEventError' },
  'unknown-format': { scope: 'stream', name: 'UnknownFormatError' },
  'too-many-tool-calls': { scope: 'stream', name: 'TooManyToolCallsError' },
  'idle-timeout': { scope: 'stream', name: 'IdleTimeoutError' },
  'tool-failed': { scope: 'run', name: 'ToolFailedError' },
  'tool-timeout': { scope: 'run', name: 'ToolTimeoutError' },
  'max-steps': { scope: 'stream', name: 'MaxStepsError' },
  'unsupported-request': { scope: 'request', name: 'UnsupportedRequestError' },
  'malformed-json': { scope: 'parser', name: 'PartialJsonError' },
} as const satisfies { readonly [C in ToolStreamErrorCode]: { readonly scope: ErrorScope; readonly name: string } };

/** Fields some codes always have, whatever the details (a dropped connection is always worth retrying). */
export const ERROR_DEFAULTS = {
  'connection-lost': { retryable: true },
} as const satisfies { readonly [C in ToolStreamErrorCode]?: Readonly<Record<string, unknown>> };

/** The fields an error of code `C` has: its details and its defaults. */
export type ErrorFields<C extends ToolStreamErrorCode> = ErrorDetails[C] & (C extends keyof typeof ERROR_DEFAULTS ? (typeof ERROR_DEFAULTS)[C] : unknown);

/** How one code's message reads, from its details (and the cause, for errors that wrap one). */
export type ErrorMessage<C extends ToolStreamErrorCode> = (details: ErrorDetails[C], cause: unknown) => string;

/** Cut a long piece of input for an error message; the full text stays on the error's fields. */
export function excerpt(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** A thrown value as text, without throwing. */
export function describe(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  return typeof value === 'string' ? value : safeStringify(value);
}

/** A cause and the causes it wraps (4 deep), with their codes: `terminated ← other side closed (UND_ERR_SOCKET)`. */
function describeChain(cause: unknown): string {
  const parts: string[] = [];
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(`${describe(current)}${typeof code === 'string' ? ` (${code})` : ''}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(' ← ');
}

const named = (call: ToolCallContext): string => `${call.name || '(unnamed)'} (${call.id})`;

/** What a per-call error is about: a tool call, or a choice's text read as JSON (`source: 'text'`). */
const subject = (d: { readonly toolCall: ToolCallContext; readonly source?: 'text' | undefined }): string =>
  d.source === 'text' ? `The JSON text of choice ${d.toolCall.choice}` : `Tool call ${named(d.toolCall)}`;
const what = (d: { readonly source?: 'text' | undefined }): string => (d.source === 'text' ? 'text' : 'arguments');

/** Each code's message. */
export const ERROR_MESSAGES = {
  'malformed-arguments': (d) => `${subject(d)} has malformed JSON ${what(d)}: ${d.parseError} in ${JSON.stringify(excerpt(d.toolCall.rawArguments))}`,
  incomplete: (d) => `${subject(d)} is incomplete (${d.reason}) after ${d.toolCall.rawArguments.length} chars of ${what(d)}`,
  'missing-name': (d) => `Tool call ${d.toolCall.id} (index ${d.toolCall.index}, choice ${d.toolCall.choice}) completed without a tool name; ${d.toolCall.rawArguments.length} chars of arguments`,
  'invalid-arguments': (d) => `${subject(d)} has invalid ${what(d)}: ${d.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`).join('; ')}`,
  'unknown-tool': (d) => `Unknown tool ${JSON.stringify(d.toolCall.name)} (${d.toolCall.id}); available: ${d.availableTools.join(', ') || '(none)'}`,
  'arguments-too-large': (d) => `${d.source === 'text' ? subject(d) : `Tool call ${named(d.toolCall)} arguments`} exceed${d.source === 'text' ? 's' : ''} the limit of ${d.limit} chars`,
  'provider-error': (d) => `${d.provider} error${d.providerCode ? ` ${d.providerCode}` : ''}${d.type ? ` (${d.type})` : ''}: ${d.message}`,
  truncated: (d) => `The ${d.provider} stream ended before it was complete: ${d.detail}`,
  'connection-lost': (d, cause) => `The connection was lost${d.byteOffset === undefined ? '' : ` after ${d.byteOffset} bytes`} (${d.source}): ${describeChain(cause)}`,
  'event-too-large': (d) => `An SSE event starting at byte ${d.byteOffset} exceeds the limit of ${d.limit} chars: ${JSON.stringify(excerpt(d.start, 80))}`,
  'invalid-event': (d) => `Invalid ${d.provider} event (${d.detail}): ${JSON.stringify(excerpt(d.data))}`,
  'unknown-format': (d) => `Unrecognised stream format (${d.detail}); received: ${JSON.stringify(excerpt(d.start))}`,
  'too-many-tool-calls': (d) => `The stream opened more than ${d.limit} tool calls`,
  'idle-timeout': (d) => `No data arrived for ${d.timeoutMs} ms`,
  'tool-failed': (d, cause) => `Tool ${d.toolCall.name} (${d.toolCall.id}) failed: ${describe(cause)}`,
  'tool-timeout': (d) => `Tool ${d.toolCall.name} (${d.toolCall.id}) did not finish within ${d.timeoutMs} ms`,
  'max-steps': (d) => `The model still called tools after ${d.maxSteps} step${d.maxSteps === 1 ? '' : 's'} (maxSteps)`,
  'unsupported-request': (d) => `Cannot translate ${d.field} to ${d.target}: ${d.detail}`,
  'malformed-json': (d) => `${d.detail} at position ${d.position}`,
} satisfies { readonly [C in ToolStreamErrorCode]: ErrorMessage<C> };

/** The codes of one scope. */
export type CodeOfScope<S extends ErrorScope> = { [C in ToolStreamErrorCode]: (typeof ERROR_KINDS)[C]['scope'] extends S ? C : never }[ToolStreamErrorCode];

/** Codes that end a stream (`provider-error`, `truncated`, `connection-lost`, …). */
export type StreamErrorCode = CodeOfScope<'stream'>;

/** Every error code the library uses. The set is fixed; new codes are added, never renamed. */
export const ERROR_CODES = /* @__PURE__ */ Object.keys(ERROR_KINDS) as ReadonlyArray<ToolStreamErrorCode>;
