import type { StreamErrorCode } from './table';

/**
 * The context each error code carries: one interface per code, all in {@link ErrorDetails}. The
 * runtime table (`table.ts`) and the classes (`index.ts`) derive from it; adding a code is one
 * entry here and one row there.
 *
 * @module
 */

/**
 * Who a tool call is: the identity every view of a call shares (its result, its errors, its
 * updates, partial values, snapshots and view state), decided once by the tracker.
 */
export interface CallIdentity {
  /** The call's id: the wire's, de-duplicated (`id_2`) when the wire repeated one, or generated (`call_…`) when it sent none; the same in every view of the call. */
  readonly id: string;
  /** The tool name (e.g. `'get_weather'`); `''` until (or when never) the wire sends it. */
  readonly name: string;
  /** The wire's index of the call, or its ordinal position within its choice when the wire has none. */
  readonly index: number;
  /** The choice the call belongs to (0 unless the request asked for several). */
  readonly choice: number;
}

/** The identity of the tool call an error is about, with the raw argument text received so far. */
export interface ToolCallContext extends CallIdentity {
  /** The argument text received so far, exactly as it arrived (possibly cut mid-JSON, e.g. `'{"city":"Pa'`). */
  readonly rawArguments: string;
}

/** Details every per-call error carries. */
export interface CallDetails {
  /** The call the error is about: identity and the raw argument text. */
  readonly toolCall: ToolCallContext;
  /**
   * `'text'` when the JSON was a choice's text, not a tool call's arguments (`partialObject()`):
   * `toolCall` then names no tool (`id` `'text'`, `name` `''`, `index` 0) and its `rawArguments` is
   * the whole text. Absent for tool calls.
   */
  readonly source?: 'text' | undefined;
}

/** One problem a schema validator reported. */
export interface ValidationIssue {
  /** The validator's message (e.g. `'Expected string, received number'`). */
  readonly message: string;
  /** The keys from the arguments' root to the offending value (e.g. `['items', 0, 'qty']`); `[]` for the root. */
  readonly path: ReadonlyArray<PropertyKey>;
}

/** A tool call found inside a provider's rejected generation (never run). */
export interface FailedToolCall {
  /** The tool name the model wrote (e.g. `'get_weather'`). */
  readonly name: string;
  /** The arguments it wrote, parsed (a JSON object, e.g. `{ city: 'Paris' }`). */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A tool call as far as it had been delivered when a stream failed (see {@link DeliveredOutput}). */
export interface DeliveredToolCall extends ToolCallContext {
  /** Whether the call's end had been delivered (its end event, its choice's finish or the terminator): its arguments are all there. */
  readonly complete: boolean;
}

/**
 * What `retryStream()` had already emitted when it ended with an error after output: the text and
 * the calls, so nothing received is lost with the error. Since the last `restart` event, when there
 * was one.
 */
export interface DeliveredOutput {
  /** The visible text delivered, by choice (`text[0]` for the usual single choice; `''` for a choice without text). */
  readonly text: ReadonlyArray<string>;
  /** The reasoning text delivered, by choice. */
  readonly reasoning: ReadonlyArray<string>;
  /**
   * Every tool call that had a fragment delivered, in order of first sight. `id` is the wire's id
   * (de-duplicated as `toolCalls()` does); a call the wire sent no id for has a generated one that
   * is not the one `toolCalls()` gave it.
   */
  readonly toolCalls: ReadonlyArray<DeliveredToolCall>;
}

/** Details every stream error may carry. */
export interface StreamDetails {
  /**
   * Set by `retryStream()` when the stream ended with this error after some output had been
   * emitted (it could not be resumed, or attempts ran out): what had been delivered. Absent
   * otherwise.
   */
  readonly delivered?: DeliveredOutput | undefined;
}

/** What a provider said when it failed (an error envelope, `event: error`, `response.failed`, a non-2xx response). */
export interface ProviderErrorInfo {
  /** Who reported it: a wire format name (`'anthropic'`, `'openai-chat'`, …) or, for a failed HTTP response, the `provider` option (default `'http'`). */
  readonly provider: string;
  /** The provider's error code (`insufficient_quota`, `rate_limit_exceeded`, …), when given. */
  readonly providerCode: string | undefined;
  /** The provider's error type (`overloaded_error`, `invalid_request_error`, …), when given. */
  readonly type: string | undefined;
  /** The provider's error message (e.g. `'Overloaded'`); for an HTTP failure without one, `HTTP <status> <statusText>`. The error's own `message` is built from it. */
  readonly message: string;
  /** An HTTP-like status when the provider gave one. */
  readonly status: number | undefined;
  /** Whether sending the same request again may succeed (overloaded, rate limit, 5xx). */
  readonly retryable: boolean;
  /** The provider's error payload, untouched. */
  readonly payload: unknown;
  /**
   * The rejected model output a provider sent back with the error (Groq `tool_use_failed`'s
   * `failed_generation`), kept as text; `undefined` when there was none.
   */
  readonly failedGeneration?: string | undefined;
  /**
   * The call `failedGeneration` holds (`<function=name>{…}</function>`, `{"name": …, "arguments": …}`,
   * …) when it holds exactly one whose arguments parse: for logs or to show the model; the provider
   * rejected it, so it is never run and never becomes a tool-call result.
   */
  readonly failedCall?: FailedToolCall | undefined;
  /** How long the provider asked to wait before retrying (`Retry-After`, `retry-after-ms`, the payload's own hint), in ms, when it said. */
  readonly retryAfterMs?: number | undefined;
}

/**
 * Why a call is incomplete: the stream ended (`stream-ended`) or the wire closed the call unfinished
 * (`not-closed`); a finish cut it (`length`, `content-filter`, `error`); or the stream-level error
 * that ended the stream (its code: `provider-error`, `truncated`, `connection-lost`, `idle-timeout`,
 * `too-many-tool-calls`, `event-too-large`, `invalid-event`, …).
 */
export type IncompleteReason = 'stream-ended' | 'not-closed' | 'length' | 'content-filter' | 'error' | StreamErrorCode;

/** The context of every error code. */
export interface ErrorDetails {
  /** The call completed but its arguments are not valid JSON. */
  'malformed-arguments': CallDetails & {
    /** The JSON parser's message, as the engine wrote it (e.g. `"Unexpected end of JSON input"`). */
    readonly parseError: string;
    /** The character offset in `toolCall.rawArguments` where parsing failed, when known. */
    readonly position?: number | undefined;
  };
  /** The stream ended, was cut or failed before the call was complete. */
  incomplete: CallDetails & {
    /** Why (see {@link IncompleteReason}). Unsubscribing emits nothing, so there is no reason for it. */
    readonly reason: IncompleteReason;
  };
  /** The call completed but the wire never named the tool: it cannot be run. */
  'missing-name': CallDetails;
  /** The arguments parsed as JSON but the tool's schema rejected them. */
  'invalid-arguments': CallDetails & {
    /** Every problem the schema reported (at least one). */
    readonly issues: ReadonlyArray<ValidationIssue>;
    /** The parsed JSON arguments that failed validation, before any schema transform. */
    readonly value: unknown;
  };
  /** The model called a tool that is not in the `tools` map. */
  'unknown-tool': CallDetails & {
    /** The names of the tools that were given, e.g. `['get_weather', 'search']`. */
    readonly availableTools: ReadonlyArray<string>;
  };
  /** One call's arguments grew past `maxArgumentsSize`. */
  'arguments-too-large': CallDetails & {
    /** The configured `maxArgumentsSize`, in characters of argument text (later fragments were dropped). */
    readonly limit: number;
  };
  /** The provider reported a failure (in the stream, or as a non-2xx response). */
  'provider-error': ProviderErrorInfo & StreamDetails;
  /** The stream ended without its terminator while a choice was still open. */
  truncated: StreamDetails & {
    /** The wire format that was cut (`'openai-chat'`, `'anthropic'`, …), or the byte source (`'http'`). */
    readonly provider: string;
    /** What was missing, e.g. `'no finish_reason and no [DONE]'`. */
    readonly detail: string;
  };
  /** The connection died mid-body (the cause is the runtime's or SDK's error). */
  'connection-lost': StreamDetails & {
    /** The source function that saw the failure: `'fromResponse'`, `'responseBody'`, `'fromReadableStream'`, …, `'readStreamEvents'`. */
    readonly source: string;
    /** Bytes of the body received before the cut, when the source counts them (`undefined` for the SDK adapters). */
    readonly byteOffset: number | undefined;
  };
  /** One SSE event (or one line) grew past `maxEventSize`. */
  'event-too-large': StreamDetails & {
    /** The configured `maxEventSize`, in characters. */
    readonly limit: number;
    /** The byte offset in the stream where the oversized event started. */
    readonly byteOffset: number;
    /** The event's first characters of wire text (at most 200). */
    readonly start: string;
  };
  /** An SSE event's data could not be read as the format's payload (not JSON, wrong shape). */
  'invalid-event': StreamDetails & {
    /** The wire format being decoded. */
    readonly provider: string;
    /** The event's whole `data:` text (or the SDK payload as JSON), untruncated. */
    readonly data: string;
    /** What was wrong, e.g. `'data is not JSON: …'`. */
    readonly detail: string;
  };
  /** No wire format recognised the stream. */
  'unknown-format': StreamDetails & {
    /** The start of what was received. */
    readonly start: string;
    /** Why no format matched. */
    readonly detail: string;
  };
  /** The stream opened more calls than `maxToolCalls`. */
  'too-many-tool-calls': StreamDetails & {
    /** The configured `maxToolCalls`. */
    readonly limit: number;
  };
  /** Nothing arrived for longer than the idle timeout. */
  'idle-timeout': StreamDetails & {
    /** The configured idle timeout, in milliseconds. */
    readonly timeoutMs: number;
  };
  /** A tool's `execute` threw, rejected or errored (the thrown value is the `cause`). */
  'tool-failed': CallDetails;
  /** A tool ran longer than its time limit; its signal was aborted. */
  'tool-timeout': CallDetails & {
    /** The limit that passed, in milliseconds. */
    readonly timeoutMs: number;
  };
  /** `toolLoop()` reached `maxSteps` and the model still asked for tools. */
  'max-steps': {
    /** The configured `maxSteps`. */
    readonly maxSteps: number;
  };
  /** The text pushed into a `PartialJsonParser` (`rxjs-tool-calls/advanced`) is not JSON, or stopped before its value was complete. */
  'malformed-json': {
    /** What was wrong, without the position (e.g. `'Unexpected character "}", expected a property name'`). */
    readonly detail: string;
    /** Where, in UTF-16 code units (like `String#length`) of everything pushed into the parser. */
    readonly position: number;
  };
  /** A request could not be translated into another format: the field is named, never dropped silently. */
  'unsupported-request': {
    /** The format the request was being translated into (`'anthropic'`, `'openai-responses'`, `'gemini'`, `'openai-chat'`). */
    readonly target: string;
    /** The JSON path of the field in the source request, e.g. `'messages[2].content[0].type'`. */
    readonly field: string;
    /** Why it cannot be translated, e.g. `'image_url parts are not supported'`. */
    readonly detail: string;
  };
}

/** Every error code. */
export type ToolStreamErrorCode = keyof ErrorDetails;
