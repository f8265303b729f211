/**
 * One error family. Every error the library emits or throws is a {@link ToolStreamError} with a
 * readonly `code` from a fixed set, plus the context that explains it.
 *
 * Narrow with `error.code === '…'` (each code has its own class) or `instanceof`.
 *
 * @module
 */

/** The identity of the tool call an error is about, with the raw argument text received so far. */
export interface ToolCallContext {
  readonly id: string;
  readonly name: string;
  readonly index: number;
  readonly choice: number;
  readonly rawArguments: string;
}

/** Every error code the library uses. The set is fixed; new codes are added, never renamed. */
export const ERROR_CODES = [
  'malformed-arguments',
  'incomplete',
  'invalid-arguments',
  'unknown-tool',
  'arguments-too-large',
  'provider-error',
  'truncated',
  'event-too-large',
  'invalid-event',
  'unknown-format',
  'too-many-tool-calls',
  'idle-timeout',
  'tool-failed',
  'tool-timeout',
  'max-steps',
] as const;

/** One of {@link ERROR_CODES}. */
export type ToolStreamErrorCode = (typeof ERROR_CODES)[number];

/** Cut a long piece of input for an error message; the full text stays on the error's fields. */
export function excerpt(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** The base class of the family. Not constructed directly: use a subclass. */
export abstract class ToolStreamError extends Error {
  abstract readonly code: ToolStreamErrorCode;

  protected constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }

  /** A plain-object view (code, message and context fields) for logs and `--json` output. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    for (const key of Object.keys(this)) {
      if (key === 'name' || key === 'stack' || key === 'message') continue;
      const value = (this as unknown as Record<string, unknown>)[key];
      out[key] = value instanceof Error && 'toJSON' in value ? (value as ToolStreamError).toJSON() : value;
    }
    return out;
  }
}

/** True when `value` is any error of this library's family. */
export function isToolStreamError(value: unknown): value is AnyToolStreamError {
  return value instanceof ToolStreamError;
}

// ---------------------------------------------------------------------------------------------
// Per-call errors: they arrive as `{ success: false, error }` values; siblings are unaffected.
// ---------------------------------------------------------------------------------------------

/** The call completed but its arguments are not valid JSON. */
export class MalformedArgumentsError extends ToolStreamError {
  readonly code = 'malformed-arguments' as const;
  /** The character offset in `toolCall.rawArguments` where parsing failed, when known. */
  readonly position: number | undefined;
  constructor(
    readonly toolCall: ToolCallContext,
    readonly parseError: string,
    position?: number,
  ) {
    super(`Tool call ${toolCall.name} (${toolCall.id}) has malformed JSON arguments: ${parseError} in ${JSON.stringify(excerpt(toolCall.rawArguments))}`);
    this.position = position;
  }
}

/** Why a call is incomplete. */
export type IncompleteReason = 'stream-ended' | 'truncated' | 'provider-error' | 'length' | 'not-closed' | 'idle-timeout' | 'cancelled';

/** The stream ended, was cut or failed before the call was complete. */
export class IncompleteToolCallError extends ToolStreamError {
  readonly code = 'incomplete' as const;
  constructor(
    readonly toolCall: ToolCallContext,
    readonly reason: IncompleteReason,
  ) {
    super(`Tool call ${toolCall.name || '(unnamed)'} (${toolCall.id}) is incomplete (${reason}) after ${toolCall.rawArguments.length} chars of arguments`);
  }
}

/** One problem a schema validator reported. */
export interface ValidationIssue {
  readonly message: string;
  readonly path: ReadonlyArray<PropertyKey>;
}

/** The arguments parsed as JSON but the tool's schema rejected them. */
export class InvalidArgumentsError extends ToolStreamError {
  readonly code = 'invalid-arguments' as const;
  constructor(
    readonly toolCall: ToolCallContext,
    readonly issues: ReadonlyArray<ValidationIssue>,
    readonly value: unknown,
  ) {
    super(
      `Tool call ${toolCall.name} (${toolCall.id}) has invalid arguments: ${issues
        .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`)
        .join('; ')}`,
    );
  }
}

/** The model called a tool that is not in the `tools` map. */
export class UnknownToolError extends ToolStreamError {
  readonly code = 'unknown-tool' as const;
  constructor(
    readonly toolCall: ToolCallContext,
    readonly availableTools: ReadonlyArray<string>,
  ) {
    super(`Unknown tool ${JSON.stringify(toolCall.name)} (${toolCall.id}); available: ${availableTools.join(', ') || '(none)'}`);
  }
}

/** One call's arguments grew past the configured limit. */
export class ArgumentsTooLargeError extends ToolStreamError {
  readonly code = 'arguments-too-large' as const;
  constructor(
    readonly toolCall: ToolCallContext,
    readonly limit: number,
  ) {
    super(`Tool call ${toolCall.name} (${toolCall.id}) arguments exceed the limit of ${limit} chars`);
  }
}

// ---------------------------------------------------------------------------------------------
// Stream-level errors: they end the observable, after complete calls were emitted and open calls
// were reported `incomplete`.
// ---------------------------------------------------------------------------------------------

/** What a provider said when it failed (an error envelope, `event: error`, `response.failed`, …). */
export interface ProviderErrorInfo {
  readonly provider: string;
  /** The provider's error code (`insufficient_quota`, `rate_limit_exceeded`, …), when given. */
  readonly providerCode: string | undefined;
  /** The provider's error type (`overloaded_error`, `invalid_request_error`, …), when given. */
  readonly type: string | undefined;
  readonly message: string;
  /** An HTTP-like status when the provider gave one. */
  readonly status: number | undefined;
  /** Whether sending the same request again may succeed (overloaded, rate limit, 5xx). */
  readonly retryable: boolean;
  /** The provider's error payload, untouched. */
  readonly payload: unknown;
}

/** The provider reported a failure inside the stream. */
export class ProviderError extends ToolStreamError implements ProviderErrorInfo {
  readonly code = 'provider-error' as const;
  readonly provider: string;
  readonly providerCode: string | undefined;
  readonly type: string | undefined;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly payload: unknown;
  constructor(info: ProviderErrorInfo) {
    super(`${info.provider} error${info.providerCode ? ` ${info.providerCode}` : ''}${info.type ? ` (${info.type})` : ''}: ${info.message}`);
    this.provider = info.provider;
    this.providerCode = info.providerCode;
    this.type = info.type;
    this.status = info.status;
    this.retryable = info.retryable;
    this.payload = info.payload;
  }
}

/** The stream ended without its terminator while a choice was still open. */
export class TruncatedStreamError extends ToolStreamError {
  readonly code = 'truncated' as const;
  constructor(
    readonly provider: string,
    readonly detail: string,
  ) {
    super(`The ${provider} stream ended before it was complete: ${detail}`);
  }
}

/** One SSE event (or one line) grew past the size limit. */
export class EventTooLargeError extends ToolStreamError {
  readonly code = 'event-too-large' as const;
  constructor(
    readonly limit: number,
    /** The byte offset in the stream where the oversized event started. */
    readonly byteOffset: number,
    readonly start: string,
  ) {
    super(`An SSE event starting at byte ${byteOffset} exceeds the limit of ${limit} chars: ${JSON.stringify(excerpt(start, 80))}`);
  }
}

/** An SSE event's data could not be read as the format's payload (not JSON, wrong shape). */
export class InvalidEventError extends ToolStreamError {
  readonly code = 'invalid-event' as const;
  constructor(
    readonly provider: string,
    readonly data: string,
    readonly detail: string,
  ) {
    super(`Invalid ${provider} event (${detail}): ${JSON.stringify(excerpt(data))}`);
  }
}

/** No adapter recognised the stream. */
export class UnknownFormatError extends ToolStreamError {
  readonly code = 'unknown-format' as const;
  constructor(
    /** The start of what was received. */
    readonly start: string,
    readonly detail: string,
  ) {
    super(`Unrecognised stream format (${detail}); received: ${JSON.stringify(excerpt(start))}`);
  }
}

/** More tool calls than the configured limit. */
export class TooManyToolCallsError extends ToolStreamError {
  readonly code = 'too-many-tool-calls' as const;
  constructor(readonly limit: number) {
    super(`The stream opened more than ${limit} tool calls`);
  }
}

/** Nothing arrived for longer than the idle timeout. */
export class IdleTimeoutError extends ToolStreamError {
  readonly code = 'idle-timeout' as const;
  constructor(readonly timeoutMs: number) {
    super(`No data arrived for ${timeoutMs} ms`);
  }
}

// ---------------------------------------------------------------------------------------------
// Running tools (`runTools()`, `toolLoop()`).
// ---------------------------------------------------------------------------------------------

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** A tool's `execute` threw, rejected, or its observable errored. The thrown value is the `cause`. */
export class ToolFailedError extends ToolStreamError {
  readonly code = 'tool-failed' as const;
  constructor(
    readonly toolCall: ToolCallContext,
    cause: unknown,
  ) {
    super(`Tool ${toolCall.name} (${toolCall.id}) failed: ${messageOf(cause)}`, { cause });
  }
}

/** A tool ran longer than its `timeoutMs`; its signal was aborted. */
export class ToolTimeoutError extends ToolStreamError {
  readonly code = 'tool-timeout' as const;
  constructor(
    readonly toolCall: ToolCallContext,
    readonly timeoutMs: number,
  ) {
    super(`Tool ${toolCall.name} (${toolCall.id}) did not finish within ${timeoutMs} ms`);
  }
}

/** `toolLoop()` reached `maxSteps` and the model still asked for tools. */
export class MaxStepsError extends ToolStreamError {
  readonly code = 'max-steps' as const;
  constructor(readonly maxSteps: number) {
    super(`The model still called tools after ${maxSteps} step${maxSteps === 1 ? '' : 's'} (maxSteps)`);
  }
}

/** Every concrete error of the family; `switch (error.code)` narrows it. */
export type AnyToolStreamError =
  | MalformedArgumentsError
  | IncompleteToolCallError
  | InvalidArgumentsError
  | UnknownToolError
  | ArgumentsTooLargeError
  | ProviderError
  | TruncatedStreamError
  | EventTooLargeError
  | InvalidEventError
  | UnknownFormatError
  | TooManyToolCallsError
  | IdleTimeoutError
  | ToolFailedError
  | ToolTimeoutError
  | MaxStepsError;

/** The errors one tool call can end with (inside `{ success: false, error }`). */
export type ToolCallError = MalformedArgumentsError | IncompleteToolCallError | InvalidArgumentsError | UnknownToolError | ArgumentsTooLargeError;

/** The errors one tool run can end with: the call's own error, or running it failed (`runTools()`). */
export type ToolRunError = ToolCallError | ToolFailedError | ToolTimeoutError;
