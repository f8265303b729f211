/**
 * One error family: every error the library emits or throws is a {@link ToolStreamError} with a
 * readonly `code` from one fixed list ({@link ERROR_CODES}) and the context that explains it as
 * typed fields. `code` narrows the fields: `if (error.code === 'provider-error') error.status`.
 *
 * One table drives it all: {@link ErrorDetails} (the fields of each code), `ERROR_SCOPES` (where
 * each code appears) and `ERROR_MESSAGES` (how each reads). Part of the vocabulary: imports nothing.
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
   * Every tool call that had a fragment delivered, in order of first sight. `id` is the id
   * `toolCalls()` (or any reader) gives the call downstream: the wire's id, de-duplicated, or for a
   * call the wire sent none for, the generated one (the default `generateId` derives it from the
   * stream, so both agree).
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
  /** The provider's error message (e.g. `'Overloaded'`); for an HTTP failure, it follows the status line (`HTTP 401 Unauthorized: Incorrect API key`), or is the status line alone when the body has none. The error's own `message` is built from it. */
  readonly message: string;
  /** An HTTP-like status when the provider gave one. */
  readonly status: number | undefined;
  /** Whether sending the same request again may succeed (overloaded, rate limit, 5xx). */
  readonly retryable: boolean;
  /** The provider's error payload, untouched (for an HTTP error body longer than `maxErrorBodyBytes`: the text of its start, see `payloadTruncated`). */
  readonly payload: unknown;
  /** `true` when `payload` is only the start of an HTTP error body: it went on past `fromResponse`'s `maxErrorBodyBytes` (default 64 KiB), or the connection was cut while it was read. */
  readonly payloadTruncated?: boolean | undefined;
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
  /**
   * The choice finished with `tool-calls` (`finish_reason: "tool_calls"`, `stop_reason:
   * "tool_use"`, Cohere `TOOL_CALL`, …) but no call of it came: the model meant to call tools and
   * the calls were lost on the way. Not an answer: a tool loop should not end its turn on it (ask
   * again, or fail). `toolCall` stands for the calls that never came: a generated id, name `''`, no
   * arguments, the choice that finished.
   */
  'missing-tool-calls': CallDetails & {
    /** The provider's own finish reason (`tool_calls`, `tool_use`, `TOOL_CALL`, …). */
    readonly rawReason: string;
  };
  /** The provider reported a failure (in the stream, or as a non-2xx response). */
  'provider-error': ProviderErrorInfo & StreamDetails;
  /**
   * The stream ended without its terminator while a choice was still open, a framing's input ended
   * inside a frame, or the response was cut and another generation spliced into it (an Anthropic
   * `message_start` of a second message while the first is open).
   */
  truncated: StreamDetails & {
    /** The wire format that was cut (`'openai-chat'`, `'anthropic'`, …), the framing (`'aws-event-stream'`, `'json-array'`), or the byte source (`'http'`). */
    readonly provider: string;
    /** What was missing, e.g. `'no finish_reason and no [DONE]'`. */
    readonly detail: string;
    /** For a framing cut inside a frame or element: the byte offset in the stream where that frame or element started. */
    readonly byteOffset?: number | undefined;
  };
  /** The connection died mid-body (the cause is the runtime's or SDK's error). */
  'connection-lost': StreamDetails & {
    /** The source function that saw the failure: `'fromResponse'`, `'responseBody'`, `'fromReadableStream'`, …, `'readStreamEvents'`. */
    readonly source: string;
    /** Bytes of the body received before the cut, when the source counts them (`undefined` for the SDK adapters). */
    readonly byteOffset: number | undefined;
  };
  /** One SSE event (or one line) grew past `maxEventSize`, or one frame, NDJSON line or JSON-array element past its framing's limit. */
  'event-too-large': StreamDetails & {
    /** The configured limit: `maxEventSize` in characters; for a framing its own limit (`maxFrameSize` in bytes, `maxLineSize` / `maxElementSize` in characters). */
    readonly limit: number;
    /** The byte offset in the stream where the oversized event (frame, line, element) started. */
    readonly byteOffset: number;
    /** The event's first characters of wire text (at most 200); for an AWS event-stream frame, its 12-byte prelude in hex. */
    readonly start: string;
    /** The framing that read it: absent for SSE. */
    readonly framing?: FramingName | undefined;
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
  /** A framing other than SSE met bytes that break its rules: a checksum that does not match, a bad header, an unknown message type, text outside a JSON array, a binary WebSocket message. */
  'invalid-frame': StreamDetails & {
    /** The framing: `'aws-event-stream'`, `'ndjson'`, `'json-array'` or `'websocket'`. */
    readonly framing: FramingName;
    /** The byte offset in the stream of what is wrong: the first byte of the frame (AWS event stream), the unexpected character (JSON array). */
    readonly byteOffset: number;
    /** What was wrong, e.g. `'the message checksum 0x1c2d3e4f does not match the frame (0x99aabbcc)'`. */
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
  /** A call that needed approval was denied (`toolLoop()`'s `approve`); the tool did not run. */
  'tool-denied': CallDetails & {
    /** Why, as the decision gave it (the model reads it in the denial). */
    readonly reason?: string | undefined;
  };
  /** An MCP tool answered its call with `isError: true` (the cause of the call's `tool-failed`; see `mcpTools()`). */
  'mcp-tool-error': {
    /** The MCP tool's name, as the server lists it. */
    readonly tool: string;
    /** The result's content blocks (e.g. `[{ type: 'text', text: 'no such city' }]`). */
    readonly content: ReadonlyArray<unknown>;
    /** The result's structured content, when the server sent one. */
    readonly structuredContent?: unknown;
    /** The content's text blocks, one per line (the content as JSON when it has no text): what the model reads. */
    readonly detail: string;
  };
  /**
   * An MCP request gave no usable answer (the cause of the call's `tool-failed`, or the rejection of
   * `mcpTools()` for `tools/list`): the request failed (the connection closed, the server died, it
   * answered with a JSON-RPC error or a result the client rejected; the client's error is the
   * `cause`), the result exceeded `maxResultBytes`, or the tool list was not one a client can use.
   */
  'mcp-failed': {
    /** The MCP tool's name; absent for `tools/list`. */
    readonly tool?: string | undefined;
    /** What went wrong. */
    readonly failure: 'request-failed' | 'result-too-large' | 'invalid-result' | 'invalid-list';
    /** What was wrong, in words (e.g. `'the cursor "p2" came back a second time'`). */
    readonly detail: string;
    /** The configured `maxResultBytes` (reason `'result-too-large'`). */
    readonly limit?: number | undefined;
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
  /** A function was given an argument or option it cannot take (a typo in a mode, a number out of range, a value of the wrong kind). */
  'invalid-option': {
    /** The function that refused it (`'costOf'`, `'toAnthropicRequest'`, …). */
    readonly function: string;
    /** The path of the bad value among the function's arguments, e.g. `'options.round.mode'`, `'price.input'`. */
    readonly option: string;
    /** What it was given, untouched. */
    readonly value: unknown;
    /** What it takes, e.g. `"one of 'half-even', 'half-up', 'down', 'up'"`. */
    readonly expected: string;
  };
}

/**
 * The framings other than SSE (`rxjs-tool-calls` reads bytes as one of these, or as SSE): AWS's
 * binary event stream (`application/vnd.amazon.eventstream`), newline-delimited JSON, one JSON
 * array streamed element by element, and JSON values one after another (a JSON body, or NDJSON);
 * and a WebSocket's messages (`fromWebSocket()` of `rxjs-tool-calls/websocket`), one record each.
 */
export type FramingName = 'aws-event-stream' | 'ndjson' | 'json-array' | 'json-sequence' | 'websocket';

/** Every error code. */
export type ToolStreamErrorCode = keyof ErrorDetails;

/**
 * Where an error appears: in one call's result, at the end of a stream, in one tool run's result,
 * thrown by a request translator, by the standalone `PartialJsonParser` (`rxjs-tool-calls/advanced`),
 * or thrown by a function given an option it cannot take; `mcp`: the `cause` of an MCP tool's
 * `tool-failed` result, or the rejection of `mcpTools()`.
 */
export type ErrorScope = 'call' | 'stream' | 'run' | 'request' | 'parser' | 'options' | 'mcp';

/** Each code's scope (where errors of that code appear). */
export const ERROR_SCOPES = {
  'malformed-arguments': 'call',
  incomplete: 'call',
  'missing-name': 'call',
  'invalid-arguments': 'call',
  'unknown-tool': 'call',
  'arguments-too-large': 'call',
  'missing-tool-calls': 'call',
  'provider-error': 'stream',
  truncated: 'stream',
  'connection-lost': 'stream',
  'event-too-large': 'stream',
  'invalid-event': 'stream',
  'invalid-frame': 'stream',
  'unknown-format': 'stream',
  'too-many-tool-calls': 'stream',
  'idle-timeout': 'stream',
  'tool-failed': 'run',
  'tool-timeout': 'run',
  'tool-denied': 'run',
  'mcp-tool-error': 'mcp',
  'mcp-failed': 'mcp',
  'max-steps': 'stream',
  'unsupported-request': 'request',
  'malformed-json': 'parser',
  'invalid-option': 'options',
} as const satisfies { readonly [C in ToolStreamErrorCode]: ErrorScope };

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
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A value given as an option, shown short: strings quoted, other values as JSON or their type. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(excerpt(value, 60));
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined || typeof value === 'bigint') return String(value);
  return excerpt(describe(value), 60);
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

/** What one unit of each framing is called in messages. */
const FRAMED: Readonly<Record<FramingName | 'sse', string>> = {
  sse: 'An SSE event',
  'aws-event-stream': 'An AWS event-stream frame',
  ndjson: 'An NDJSON line',
  'json-array': 'A JSON-array element',
  'json-sequence': 'A JSON value',
  websocket: 'A WebSocket message',
};

/** Each code's message. */
export const ERROR_MESSAGES = {
  'malformed-arguments': (d) => `${subject(d)} has malformed JSON ${what(d)}: ${d.parseError} in ${JSON.stringify(excerpt(d.toolCall.rawArguments))}`,
  incomplete: (d) => `${subject(d)} is incomplete (${d.reason}) after ${d.toolCall.rawArguments.length} chars of ${what(d)}`,
  'missing-name': (d) => `Tool call ${d.toolCall.id} (index ${d.toolCall.index}, choice ${d.toolCall.choice}) completed without a tool name; ${d.toolCall.rawArguments.length} chars of arguments`,
  'invalid-arguments': (d) => `${subject(d)} has invalid ${what(d)}: ${d.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`).join('; ')}`,
  'unknown-tool': (d) => `Unknown tool ${JSON.stringify(d.toolCall.name)} (${d.toolCall.id}); available: ${d.availableTools.join(', ') || '(none)'}`,
  'arguments-too-large': (d) => `${d.source === 'text' ? subject(d) : `Tool call ${named(d.toolCall)} arguments`} exceed${d.source === 'text' ? 's' : ''} the limit of ${d.limit} chars`,
  'missing-tool-calls': (d) => `Choice ${d.toolCall.choice} finished with ${JSON.stringify(d.rawReason)} (tool calls) but no tool call came`,
  'provider-error': (d) => `${d.provider} error${d.providerCode ? ` ${d.providerCode}` : ''}${d.type ? ` (${d.type})` : ''}: ${d.message}`,
  truncated: (d) => `The ${d.provider} stream ended before it was complete: ${d.detail}`,
  'connection-lost': (d, cause) => `The connection was lost${d.byteOffset === undefined ? '' : ` after ${d.byteOffset} bytes`} (${d.source}): ${describeChain(cause)}`,
  'event-too-large': (d) =>
    `${FRAMED[d.framing ?? 'sse']} starting at byte ${d.byteOffset} exceeds the limit of ${d.limit} ${d.framing === 'aws-event-stream' ? 'bytes' : 'chars'}: ${JSON.stringify(excerpt(d.start, 80))}`,
  'invalid-event': (d) => `Invalid ${d.provider} event (${d.detail}): ${JSON.stringify(excerpt(d.data))}`,
  'invalid-frame': (d) => `Invalid ${d.framing} input at byte ${d.byteOffset}: ${d.detail}`,
  'unknown-format': (d) => `Unrecognised stream format (${d.detail}); received: ${JSON.stringify(excerpt(d.start))}`,
  'too-many-tool-calls': (d) => `The stream opened more than ${d.limit} tool calls`,
  'idle-timeout': (d) => `No data arrived for ${d.timeoutMs} ms`,
  'tool-failed': (d, cause) => `Tool ${d.toolCall.name} (${d.toolCall.id}) failed: ${describe(cause)}`,
  'tool-timeout': (d) => `Tool ${d.toolCall.name} (${d.toolCall.id}) did not finish within ${d.timeoutMs} ms`,
  'tool-denied': (d) => `Tool ${d.toolCall.name} (${d.toolCall.id}) was not run: the user denied the call${d.reason ? `: ${d.reason}` : ''}`,
  'mcp-tool-error': (d) => `MCP tool ${d.tool} reported an error: ${excerpt(d.detail, 2000)}`,
  'mcp-failed': (d, cause) => `MCP ${d.tool === undefined ? 'tools/list' : `tool ${d.tool}`} failed (${d.failure}): ${d.detail}${cause === undefined ? '' : `: ${describe(cause)}`}`,
  'max-steps': (d) => `The model still called tools after ${d.maxSteps} step${d.maxSteps === 1 ? '' : 's'} (maxSteps)`,
  'unsupported-request': (d) => `Cannot translate ${d.field} to ${d.target}: ${d.detail}`,
  'malformed-json': (d) => `${d.detail} at position ${d.position}`,
  'invalid-option': (d) => `${d.function}: ${d.option} must be ${d.expected}, got ${describeValue(d.value)}`,
} satisfies { readonly [C in ToolStreamErrorCode]: ErrorMessage<C> };

/** The codes of one scope. */
export type CodeOfScope<S extends ErrorScope> = { [C in ToolStreamErrorCode]: (typeof ERROR_SCOPES)[C] extends S ? C : never }[ToolStreamErrorCode];

/** Codes that end a stream (`provider-error`, `truncated`, `connection-lost`, …). */
export type StreamErrorCode = CodeOfScope<'stream'>;

/** Every error code the library uses. The set is fixed; new codes are added, never renamed. */
export const ERROR_CODES = /* @__PURE__ */ Object.keys(ERROR_SCOPES) as ReadonlyArray<ToolStreamErrorCode>;

/**
 * What an error of code `C` is built from: its details, with every field that may be `undefined`
 * optional (`new ToolStreamError('provider-error', { provider, message, retryable })` without
 * `status`, `providerCode`, …). A field left out is absent from the error.
 */
export type ErrorInit<C extends ToolStreamErrorCode> = C extends ToolStreamErrorCode
  ? { [K in keyof ErrorDetails[C] as undefined extends ErrorDetails[C][K] ? never : K]: ErrorDetails[C][K] } & {
      [K in keyof ErrorDetails[C] as undefined extends ErrorDetails[C][K] ? K : never]?: ErrorDetails[C][K];
    }
  : never;

/** Options of an error: the underlying error, kept as `cause`. */
export interface ErrorOptions {
  /** What caused it (a network error, what a tool threw, …). */
  readonly cause?: unknown;
}

/**
 * What marks an error of the family, whichever copy of the library made it: `instanceof
 * ToolStreamError` and `isToolStreamError()` check it, so errors stay recognised across the ESM and
 * CommonJS builds, the entries' bundles and two installed versions (`Symbol.for` is the runtime's
 * own registry, not state of this module).
 */
const BRAND = Symbol.for('rxjs-tool-calls.ToolStreamError');

/**
 * The one class behind {@link ToolStreamError} (exported under that name, whose type is the union
 * by code). Its own name is `ToolStreamError`, taken from the property key: bundlers rename a
 * class's binding when names collide, never a property key, so `console.error(error)` and
 * `util.inspect` print `ToolStreamError` from every build.
 *
 * @internal
 */
const ToolStreamErrorClass = {
  ToolStreamError: class<C extends ToolStreamErrorCode> extends Error {
    readonly code: C;

    /** An error of the family, from any copy of the library. */
    static override [Symbol.hasInstance](value: unknown): boolean {
      return typeof value === 'object' && value !== null && (value as { readonly [BRAND]?: unknown })[BRAND] === true;
    }

    /** The family's mark (on the prototype). */
    get [BRAND](): true {
      return true;
    }

    constructor(code: C, details: ErrorInit<C>, options?: ErrorOptions) {
      const message = ERROR_MESSAGES[code] as (d: ErrorDetails[C], cause: unknown) => string;
      super(message(details as ErrorDetails[C], options?.cause), options?.cause === undefined ? undefined : { cause: options.cause });
      this.code = code;
      this.name = 'ToolStreamError';
      const fields: Record<string, unknown> = { ...(ERROR_DEFAULTS as Partial<Record<ToolStreamErrorCode, object>>)[code], ...details };
      for (const key of Object.keys(fields)) {
        if (key === 'message' || key === 'name' || key === 'stack') continue;
        Object.defineProperty(this, key, { value: fields[key], enumerable: true, writable: false, configurable: true });
      }
    }

    toJSON(): Record<string, unknown> {
      const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
      for (const key of Object.keys(this)) {
        if (key === 'name' || key === 'stack' || key === 'message') continue;
        const value = (this as unknown as Record<string, unknown>)[key];
        out[key] = value instanceof ToolStreamErrorClass ? value.toJSON() : value;
      }
      // `cause` is not enumerable: add it, an Error reduced to its name and message.
      if (this.cause !== undefined) out['cause'] = this.cause instanceof Error ? { name: this.cause.name, message: this.cause.message } : this.cause;
      return out;
    }
  },
}.ToolStreamError;

/** What every error of the family has, whatever its code. */
export interface ToolStreamErrorBase<C extends ToolStreamErrorCode> extends Error {
  /** What kind of error this is: one of {@link ERROR_CODES}. */
  readonly code: C;
  /** `'ToolStreamError'`. */
  readonly name: string;
  /** A plain-object view (name, code, message, context fields and the cause's name and message) for logs and `--json` output. */
  toJSON(): Record<string, unknown>;
}

/**
 * An error of the family, as a union by code: `switch (error.code)` (or `isToolStreamError(error,
 * code)`) narrows it to that code's fields. `ToolStreamError<'provider-error'>` is one code's error.
 */
export type ToolStreamError<C extends ToolStreamErrorCode = ToolStreamErrorCode> = C extends ToolStreamErrorCode ? ToolStreamErrorBase<C> & Readonly<ErrorFields<C>> : never;

/** The constructor of {@link ToolStreamError}. */
export interface ToolStreamErrorConstructor {
  /**
   * An error of code `code`: its message is built from the details, which become its fields
   * (`new ToolStreamError('idle-timeout', { timeoutMs: 5000 })`).
   *
   * @param code What happened.
   * @param details The context of that code (a provider's own `message` is kept in the message, not as a field).
   * @param options `cause`: the underlying error, if any.
   */
  new <C extends ToolStreamErrorCode>(code: C, details: ErrorInit<C>, options?: ErrorOptions): ToolStreamError<C>;
  /** The prototype (so `instanceof ToolStreamError` narrows to the union). */
  readonly prototype: ToolStreamError;
}

/** The one error class: `new ToolStreamError(code, details)`, and `error instanceof ToolStreamError`. */
export const ToolStreamError: ToolStreamErrorConstructor = ToolStreamErrorClass as unknown as ToolStreamErrorConstructor;

/** The errors one tool call can end with (inside `{ success: false, error }`). */
export type ToolCallError = ToolStreamError<CodeOfScope<'call'>>;

/** The errors one tool run can end with: the call's own error, or running it failed (`runTools()`). */
export type ToolRunError = ToolStreamError<CodeOfScope<'call' | 'run'>>;

/**
 * True when `value` is an error of this library's family (with code `code`, when given).
 *
 * @param value Anything caught or received.
 * @param code Only this code.
 */
export function isToolStreamError<C extends ToolStreamErrorCode = ToolStreamErrorCode>(value: unknown, code?: C): value is ToolStreamError<C> {
  return value instanceof ToolStreamErrorClass && (code === undefined || value.code === code);
}

/**
 * A copy of `error` with more detail fields: the same code, message, cause and stack (the original
 * is left as it is).
 *
 * @internal
 */
export function withDetails<E extends ToolStreamError>(error: E, extra: Readonly<Record<string, unknown>>): E {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(error)) if (key !== 'code') fields[key] = (error as unknown as Record<string, unknown>)[key];
  const options = error.cause === undefined ? undefined : { cause: error.cause };
  const copy = new ToolStreamErrorClass(error.code, { ...fields, ...extra } as never, options) as unknown as E;
  // The message was built from details some of which are not kept as fields (a provider's own message).
  for (const key of ['message', 'stack'] as const) Object.defineProperty(copy, key, { value: error[key], writable: true, enumerable: false, configurable: true });
  return copy;
}
