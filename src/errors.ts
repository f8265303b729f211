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
  /** The call's id, as on its result (the wire's id, generated or de-duplicated; see {@link ToolCall.id}). */
  readonly id: string;
  /** The tool name (e.g. `'get_weather'`); `''` when the stream ended before the name arrived. */
  readonly name: string;
  /** The wire's index of the call, or its ordinal position within its choice when the wire has none. */
  readonly index: number;
  /** The choice the call belongs to (0 unless the request asked for several). */
  readonly choice: number;
  /** The argument text received so far, exactly as it arrived (possibly cut mid-JSON, e.g. `'{"city":"Pa'`). */
  readonly rawArguments: string;
}

/** Every error code the library uses. The set is fixed; new codes are added, never renamed. */
export const ERROR_CODES = [
  'malformed-arguments',
  'incomplete',
  'missing-name',
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
  'connection-lost',
  'unsupported-request',
] as const;

/** One of {@link ERROR_CODES}. */
export type ToolStreamErrorCode = (typeof ERROR_CODES)[number];

/** Cut a long piece of input for an error message; the full text stays on the error's fields. */
export function excerpt(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** The base class of the family. Not constructed directly: use a subclass. */
export abstract class ToolStreamError extends Error {
  /** What kind of error this is: one of {@link ERROR_CODES}, fixed per subclass. */
  abstract readonly code: ToolStreamErrorCode;

  /**
   * For subclasses: sets `message`, the optional `cause`, and `name` to the subclass's name.
   *
   * @param message The human-readable message.
   * @param options `cause`: the underlying error, if any.
   */
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
    // `cause` is not enumerable: add it, an Error reduced to its name and message.
    if (this.cause !== undefined) out['cause'] = this.cause instanceof Error ? { name: this.cause.name, message: this.cause.message } : this.cause;
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
  /** Always `'malformed-arguments'`. */
  readonly code = 'malformed-arguments' as const;
  /** The character offset in `toolCall.rawArguments` where parsing failed, when known. */
  readonly position: number | undefined;
  /**
   * Built by the tool-call operators when a completed call's arguments do not parse.
   *
   * @param toolCall The call, with the argument text that failed to parse.
   * @param parseError The JSON parser's message.
   * @param position The character offset where parsing failed, when known.
   */
  constructor(
    /** The call whose arguments failed to parse; its `rawArguments` is the whole text received. */
    readonly toolCall: ToolCallContext,
    /** The JSON parser's message, as the engine wrote it (e.g. `"Unexpected end of JSON input"`). */
    readonly parseError: string,
    position?: number,
  ) {
    super(`Tool call ${toolCall.name} (${toolCall.id}) has malformed JSON arguments: ${parseError} in ${JSON.stringify(excerpt(toolCall.rawArguments))}`);
    this.position = position;
  }
}

/** Why a call is incomplete. */
export type IncompleteReason = 'stream-ended' | 'truncated' | 'provider-error' | 'length' | 'content-filter' | 'error' | 'not-closed' | 'idle-timeout' | 'too-many-tool-calls' | 'connection-lost';

/** The stream ended, was cut or failed before the call was complete. */
export class IncompleteToolCallError extends ToolStreamError {
  /** Always `'incomplete'`. */
  readonly code = 'incomplete' as const;
  /**
   * Built by the tool-call operators for a call that was open when its stream stopped.
   *
   * @param toolCall The call, with the argument text received before it stopped.
   * @param reason Why the call could not be completed.
   */
  constructor(
    /** The call as far as it arrived: its `rawArguments` is whatever text came before the stream stopped. */
    readonly toolCall: ToolCallContext,
    /**
     * Why it is incomplete: the stream ended (`stream-ended`), was cut (`truncated`), failed
     * (`provider-error`), its choice finished with arguments that do not parse because the token
     * limit cut it (`length`), a safety system stopped it (`content-filter`) or the provider reported
     * the finish as a failure (`error`: OpenRouter `finish_reason: "error"`, Gemini
     * `MALFORMED_FUNCTION_CALL`, …), the wire closed the call as unfinished
     * (`not-closed`), nothing arrived in time (`idle-timeout`: the stream failed with {@link IdleTimeoutError}),
     * the stream opened more calls than `maxToolCalls` (`too-many-tool-calls`), or the network
     * connection was cut (`connection-lost`: the stream failed with {@link ConnectionLostError}).
     * Unsubscribing emits nothing, so there is no reason for it.
     */
    readonly reason: IncompleteReason,
  ) {
    super(`Tool call ${toolCall.name || '(unnamed)'} (${toolCall.id}) is incomplete (${reason}) after ${toolCall.rawArguments.length} chars of arguments`);
  }
}

/**
 * The call completed but the wire never named the tool: it cannot be run. Its identity and raw
 * arguments are kept, so the text can be logged or shown.
 */
export class MissingNameError extends ToolStreamError {
  /** Always `'missing-name'`. */
  readonly code = 'missing-name' as const;
  /**
   * Built by the tool-call operators for a closed call whose name never arrived.
   *
   * @param toolCall The call (its `name` is `''`), with the argument text received.
   */
  constructor(
    /** The call: `name` is `''`, `rawArguments` the whole text received. */
    readonly toolCall: ToolCallContext,
  ) {
    super(`Tool call ${toolCall.id} (index ${toolCall.index}, choice ${toolCall.choice}) completed without a tool name; ${toolCall.rawArguments.length} chars of arguments`);
  }
}

/** One problem a schema validator reported. */
export interface ValidationIssue {
  /** The validator's message (e.g. `'Expected string, received number'`). */
  readonly message: string;
  /** The keys from the arguments' root to the offending value (e.g. `['items', 0, 'qty']`); `[]` for the root. */
  readonly path: ReadonlyArray<PropertyKey>;
}

/** The arguments parsed as JSON but the tool's schema rejected them. */
export class InvalidArgumentsError extends ToolStreamError {
  /** Always `'invalid-arguments'`. */
  readonly code = 'invalid-arguments' as const;
  /**
   * Built by schema validation (`toolCalls({ tools })`, `validateToolCall()`, `runTools()`).
   *
   * @param toolCall The call whose arguments were rejected.
   * @param issues What the schema reported.
   * @param value The parsed arguments that were validated.
   */
  constructor(
    /** The call whose arguments were rejected. */
    readonly toolCall: ToolCallContext,
    /** Every problem the schema reported (at least one). */
    readonly issues: ReadonlyArray<ValidationIssue>,
    /** The parsed JSON arguments that failed validation, before any schema transform. */
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
  /** Always `'unknown-tool'`. */
  readonly code = 'unknown-tool' as const;
  /**
   * Built by validation and `runTools()` when the call names no known tool.
   *
   * @param toolCall The call naming a tool that does not exist.
   * @param availableTools The names that were known.
   */
  constructor(
    /** The call; `toolCall.name` is the name the model used. */
    readonly toolCall: ToolCallContext,
    /** The names of the tools that were given (the keys of the `tools` map), e.g. `['get_weather', 'search']`. */
    readonly availableTools: ReadonlyArray<string>,
  ) {
    super(`Unknown tool ${JSON.stringify(toolCall.name)} (${toolCall.id}); available: ${availableTools.join(', ') || '(none)'}`);
  }
}

/** One call's arguments grew past the configured limit. */
export class ArgumentsTooLargeError extends ToolStreamError {
  /** Always `'arguments-too-large'`. */
  readonly code = 'arguments-too-large' as const;
  /**
   * Built by the tracker when a call's argument text passes `maxArgumentsSize`.
   *
   * @param toolCall The call that grew too large.
   * @param limit The configured `maxArgumentsSize`.
   */
  constructor(
    /** The call; its `rawArguments` is the text up to and including the fragment that crossed the limit (later fragments are dropped). */
    readonly toolCall: ToolCallContext,
    /** The configured `maxArgumentsSize`, in characters (UTF-16 code units) of argument text. */
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
  /** Who reported it: a wire format name (`'anthropic'`, `'openai-chat'`, …) or, for a failed HTTP response, the `provider` option (default `'http'`). */
  readonly provider: string;
  /** The provider's error code (`insufficient_quota`, `rate_limit_exceeded`, …), when given. */
  readonly providerCode: string | undefined;
  /** The provider's error type (`overloaded_error`, `invalid_request_error`, …), when given. */
  readonly type: string | undefined;
  /** The provider's error message (e.g. `'Overloaded'`); for an HTTP failure without one, `HTTP <status> <statusText>`. */
  readonly message: string;
  /** An HTTP-like status when the provider gave one. */
  readonly status: number | undefined;
  /** Whether sending the same request again may succeed (overloaded, rate limit, 5xx). */
  readonly retryable: boolean;
  /** The provider's error payload, untouched. */
  readonly payload: unknown;
  /**
   * The text the model generated that the provider refused to turn into a tool call (Groq's
   * `failed_generation` with code `tool_use_failed`, e.g. `'<function=get_weather>{"city": "Paris"}</function>'`);
   * `undefined` when the error carries none.
   */
  readonly failedGeneration?: string | undefined;
  /** The one call {@link failedGeneration} holds, when it holds exactly one that parses; never run, never a result. */
  readonly failedCall?: FailedToolCall | undefined;
}

/** A tool call read from a provider's rejected generation (see {@link ProviderError.failedCall}). */
export interface FailedToolCall {
  /** The tool name the model wrote (e.g. `'get_weather'`). */
  readonly name: string;
  /** The arguments it wrote, parsed (a JSON object, e.g. `{ city: 'Paris' }`). */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** The provider reported a failure inside the stream. */
export class ProviderError extends ToolStreamError implements ProviderErrorInfo {
  /** Always `'provider-error'`. */
  readonly code = 'provider-error' as const;
  readonly provider: string;
  readonly providerCode: string | undefined;
  readonly type: string | undefined;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly payload: unknown;
  /**
   * The rejected model output a provider sent back with the error (Groq `tool_use_failed`'s
   * `failed_generation`), kept as text; `undefined` when there was none.
   */
  readonly failedGeneration: string | undefined;
  /**
   * The call {@link failedGeneration} holds (`<function=name>{…}</function>`, `name{…}</function>`,
   * `{"name": …, "arguments": …}`, …) when it holds exactly one whose arguments parse. Shown so it
   * can be logged or fed back to the model: the provider rejected it, so it is never run and never
   * becomes a tool-call result.
   */
  readonly failedCall: FailedToolCall | undefined;
  /**
   * Built by the wire adapters from a provider's error event, and by `httpProviderError()` from a non-2xx response.
   *
   * @param info What the provider said; every field is copied onto the error, and `message` is
   *   built from the provider, code, type and message.
   */
  constructor(info: ProviderErrorInfo) {
    super(`${info.provider} error${info.providerCode ? ` ${info.providerCode}` : ''}${info.type ? ` (${info.type})` : ''}: ${info.message}`);
    this.provider = info.provider;
    this.providerCode = info.providerCode;
    this.type = info.type;
    this.status = info.status;
    this.retryable = info.retryable;
    this.payload = info.payload;
    this.failedGeneration = info.failedGeneration;
    this.failedCall = info.failedCall;
  }
}

/** The stream ended without its terminator while a choice was still open. */
export class TruncatedStreamError extends ToolStreamError {
  /** Always `'truncated'`. */
  readonly code = 'truncated' as const;
  /**
   * Built by a wire adapter (or a byte source) that ended before the stream was complete.
   *
   * @param provider The wire format, or `'http'` for a source that ended early.
   * @param detail What was missing.
   */
  constructor(
    /** The wire format that was cut (`'openai-chat'`, `'anthropic'`, …), or the byte source (`'http'` by default). */
    readonly provider: string,
    /** What was missing, e.g. `'no finish_reason and no [DONE]'` or `'no message_stop arrived (1 tool_use block still open)'`. */
    readonly detail: string,
  ) {
    super(`The ${provider} stream ended before it was complete: ${detail}`);
  }
}

/** One SSE event (or one line) grew past the size limit. */
export class EventTooLargeError extends ToolStreamError {
  /** Always `'event-too-large'`. */
  readonly code = 'event-too-large' as const;
  /**
   * Built by the SSE parser when one event outgrows `maxEventSize`.
   *
   * @param limit The configured `maxEventSize`.
   * @param byteOffset Where the event started.
   * @param start The event's first characters.
   */
  constructor(
    /** The configured `maxEventSize`, in characters of the pending line plus the event's data so far (default 16 × 1024 × 1024). */
    readonly limit: number,
    /** The byte offset in the stream where the oversized event started. */
    readonly byteOffset: number,
    /** The event's first characters of wire text (at most 200, and at most `limit + 1`), e.g. `'data: {"choices":[…'`. */
    readonly start: string,
  ) {
    super(`An SSE event starting at byte ${byteOffset} exceeds the limit of ${limit} chars: ${JSON.stringify(excerpt(start, 80))}`);
  }
}

/** An SSE event's data could not be read as the format's payload (not JSON, wrong shape). */
export class InvalidEventError extends ToolStreamError {
  /** Always `'invalid-event'`. */
  readonly code = 'invalid-event' as const;
  /**
   * Built by a wire adapter for an event it cannot read.
   *
   * @param provider The wire format being decoded.
   * @param data The event's data.
   * @param detail What was wrong with it.
   */
  constructor(
    /** The wire format being decoded (`'openai-chat'`, `'gemini'`, …). */
    readonly provider: string,
    /** The event's whole `data:` text (or the SDK payload as JSON), untruncated. */
    readonly data: string,
    /** What was wrong, e.g. `'data is not JSON: …'` or ``'`choices` must be an array'``. */
    readonly detail: string,
  ) {
    super(`Invalid ${provider} event (${detail}): ${JSON.stringify(excerpt(data))}`);
  }
}

/** No adapter recognised the stream. */
export class UnknownFormatError extends ToolStreamError {
  /** Always `'unknown-format'`. */
  readonly code = 'unknown-format' as const;
  /**
   * Built by `autoDetect()` when no wire format matches the stream.
   *
   * @param start The start of what was received.
   * @param detail Why no format matched.
   */
  constructor(
    /** The start of what was received. */
    readonly start: string,
    /** Why no format matched, e.g. `'the stream ended before any recognisable event'`. */
    readonly detail: string,
  ) {
    super(`Unrecognised stream format (${detail}); received: ${JSON.stringify(excerpt(start))}`);
  }
}

/** More tool calls than the configured limit. */
export class TooManyToolCallsError extends ToolStreamError {
  /** Always `'too-many-tool-calls'`. */
  readonly code = 'too-many-tool-calls' as const;
  /**
   * Built by the tracker when a stream opens one call more than `maxToolCalls`.
   *
   * @param limit The configured `maxToolCalls`.
   */
  constructor(
    /** The configured `maxToolCalls`: the most calls one stream may open (across all choices). */
    readonly limit: number,
  ) {
    super(`The stream opened more than ${limit} tool calls`);
  }
}

/** Nothing arrived for longer than the idle timeout. */
export class IdleTimeoutError extends ToolStreamError {
  /** Always `'idle-timeout'`. */
  readonly code = 'idle-timeout' as const;
  /**
   * Not built by the library itself (it starts no idle timer): throw it from your own timeout
   * (e.g. rxjs `timeout({ each, with })`) so that open calls are reported `incomplete` with reason
   * `idle-timeout`.
   *
   * @param timeoutMs The configured idle timeout.
   */
  constructor(
    /** The configured idle timeout, in milliseconds. */
    readonly timeoutMs: number,
  ) {
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
  /** Always `'tool-failed'`. */
  readonly code = 'tool-failed' as const;
  /**
   * Built by `runTools()` when a tool's `execute` throws, rejects or errors.
   *
   * @param toolCall The call whose tool failed.
   * @param cause What the tool threw or rejected with; kept as `cause`, and its message goes into `message`.
   */
  constructor(
    /** The call whose tool failed. */
    readonly toolCall: ToolCallContext,
    cause: unknown,
  ) {
    super(`Tool ${toolCall.name} (${toolCall.id}) failed: ${messageOf(cause)}`, { cause });
  }
}

/** A tool ran longer than its `timeoutMs`; its signal was aborted. */
export class ToolTimeoutError extends ToolStreamError {
  /** Always `'tool-timeout'`. */
  readonly code = 'tool-timeout' as const;
  /**
   * Built by `runTools()` when a tool runs past its time limit.
   *
   * @param toolCall The call whose tool timed out.
   * @param timeoutMs The time limit that passed.
   */
  constructor(
    /** The call whose tool timed out. */
    readonly toolCall: ToolCallContext,
    /** The limit that passed, in milliseconds (the tool's own `timeoutMs`, else `RunToolsOptions.timeoutMs`). */
    readonly timeoutMs: number,
  ) {
    super(`Tool ${toolCall.name} (${toolCall.id}) did not finish within ${timeoutMs} ms`);
  }
}

/** `toolLoop()` reached `maxSteps` and the model still asked for tools. */
export class MaxStepsError extends ToolStreamError {
  /** Always `'max-steps'`. */
  readonly code = 'max-steps' as const;
  /**
   * Built by `toolLoop()` after the last allowed step still asked for tools.
   *
   * @param maxSteps The configured limit.
   */
  constructor(
    /** The configured `maxSteps` of `toolLoop()`: the number of model calls made (default 10). */
    readonly maxSteps: number,
  ) {
    super(`The model still called tools after ${maxSteps} step${maxSteps === 1 ? '' : 's'} (maxSteps)`);
  }
}

// ---------------------------------------------------------------------------------------------
// Network failures (the sources).
// ---------------------------------------------------------------------------------------------

/**
 * The network connection failed while the response was being read: the socket was reset or
 * closed mid-body (undici `TypeError: terminated`, Node `ECONNRESET` / `aborted`, a browser's
 * `network error`, …). The original error is the `cause`. Sending the request again may succeed.
 */
export class ConnectionLostError extends ToolStreamError {
  /** Always `'connection-lost'`. */
  readonly code = 'connection-lost' as const;
  /** Always `true`: a dropped connection says nothing about the request; sending it again may succeed. */
  readonly retryable = true as const;
  /**
   * Built by the sources (`fromResponse`, `fromReadableStream`, `fromNodeReadable`,
   * `fromAsyncIterable`, the SDK adapters) when the error that ended their input is a network failure.
   *
   * @param source The source function that saw the failure.
   * @param byteOffset The bytes received before the failure, when the source counts bytes.
   * @param cause The error the runtime or SDK raised; kept as `cause`.
   */
  constructor(
    /** The source function that saw the failure: `'fromResponse'`, `'responseBody'`, `'fromReadableStream'`, `'fromNodeReadable'`, `'fromAsyncIterable'`, `'fromOpenAIChatChunks'`, … */
    readonly source: string,
    /**
     * How many bytes of the body arrived before the cut (text chunks counted as UTF-8); `0` when the
     * connection failed before the body; `undefined` for the SDK adapters, which see parsed payloads, not bytes.
     */
    readonly byteOffset: number | undefined,
    cause: unknown,
  ) {
    super(`The connection was lost${byteOffset === undefined ? '' : ` after ${byteOffset} bytes`} (${source}): ${describeCause(cause)}`, { cause });
  }
}

/** An error's message followed by those of its causes (`terminated ← other side closed (UND_ERR_SOCKET)`). */
function describeCause(cause: unknown): string {
  const parts: string[] = [];
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(`${messageOf(current)}${typeof code === 'string' ? ` (${code})` : ''}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(' ← ');
}

// ---------------------------------------------------------------------------------------------
// Translating requests between wire formats (`toAnthropicRequest()`, `fromAnthropicRequest()`, …).
// ---------------------------------------------------------------------------------------------

/** A request could not be translated into the target format: the field is named, never dropped silently. */
export class UnsupportedRequestError extends ToolStreamError {
  /** Always `'unsupported-request'`. */
  readonly code = 'unsupported-request' as const;
  /**
   * Built by the request translators for a field, part or value the target cannot express.
   *
   * @param target The format being written.
   * @param field Where the field is in the source request.
   * @param detail Why it cannot be translated.
   */
  constructor(
    /** The format the request was being translated into (`'anthropic'`, `'openai-responses'`, `'gemini'`, `'openai-chat'`). */
    readonly target: string,
    /** The JSON path of the field in the source request, e.g. `'messages[2].content[0].type'` or `'tools[0].function.parameters.$ref'`. */
    readonly field: string,
    /** Why it cannot be translated, e.g. `'image_url parts are not supported'`. */
    readonly detail: string,
  ) {
    super(`Cannot translate ${field} to ${target}: ${detail}`);
  }
}

/** Every concrete error of the family; `switch (error.code)` narrows it. */
export type AnyToolStreamError =
  | MalformedArgumentsError
  | IncompleteToolCallError
  | MissingNameError
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
  | MaxStepsError
  | ConnectionLostError
  | UnsupportedRequestError;

/** The errors one tool call can end with (inside `{ success: false, error }`). */
export type ToolCallError = MalformedArgumentsError | IncompleteToolCallError | MissingNameError | InvalidArgumentsError | UnknownToolError | ArgumentsTooLargeError;

/** The errors one tool run can end with: the call's own error, or running it failed (`runTools()`). */
export type ToolRunError = ToolCallError | ToolFailedError | ToolTimeoutError;
