/**
 * One error family. Every error the library emits or throws is a {@link ToolStreamError} with a
 * readonly `code` from a fixed set and the context that explains it, as typed fields (see
 * {@link ErrorDetails}). Narrow with `error.code === '…'` (or `isToolStreamError(error, '…')`);
 * every code also has its own class (in `rxjs-tool-calls/advanced`) for `instanceof`.
 *
 * Built from one table (`table.ts`): the classes, `ERROR_CODES` and the unions derive from it.
 *
 * @module
 */
import type { ErrorDetails, ToolStreamErrorCode } from './details';
import { ERROR_DEFAULTS, ERROR_KINDS, ERROR_MESSAGES, type CodeOfScope, type ErrorFields } from './table';

export type {
  CallDetails,
  CallIdentity,
  DeliveredOutput,
  DeliveredToolCall,
  ErrorDetails,
  FailedToolCall,
  IncompleteReason,
  ProviderErrorInfo,
  StreamDetails,
  ToolCallContext,
  ToolStreamErrorCode,
  ValidationIssue,
} from './details';
export { ERROR_CODES, excerpt, type CodeOfScope, type ErrorFields, type ErrorScope, type StreamErrorCode } from './table';

/**
 * What an error of code `C` is built from: its details, with every field that may be `undefined`
 * optional (`new ProviderError({ provider, message, retryable })` without `status`, `providerCode`, …).
 * A field left out is absent from the error (reading it gives `undefined`, as its type says).
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
 * The error class of the family. `code` says what happened; the fields of {@link ErrorDetails} for
 * that code say where and why (`new ToolStreamError('idle-timeout', { timeoutMs: 5000 })`).
 */
export class ToolStreamError<C extends ToolStreamErrorCode = ToolStreamErrorCode> extends Error {
  /** What kind of error this is: one of `ERROR_CODES`. */
  readonly code: C;

  /**
   * An error of the family: its message is built from the code's details (see the table).
   *
   * @param code What happened.
   * @param details The context of that code (copied onto the error as fields; a provider's own
   *   `message` is not: the error's `message` is built from the details).
   * @param options `cause`: the underlying error, if any.
   */
  constructor(code: C, details: ErrorInit<C>, options?: ErrorOptions) {
    const message = ERROR_MESSAGES[code] as (d: ErrorDetails[C], cause: unknown) => string;
    super(message(details as ErrorDetails[C], options?.cause), options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = ERROR_KINDS[code].name;
    const fields: Record<string, unknown> = { ...(ERROR_DEFAULTS as Partial<Record<ToolStreamErrorCode, object>>)[code], ...details };
    for (const key of Object.keys(fields)) {
      if (key === 'message' || key === 'name' || key === 'stack') continue;
      Object.defineProperty(this, key, { value: fields[key], enumerable: true, writable: false, configurable: true });
    }
  }

  /** A plain-object view (code, message and context fields) for logs and `--json` output. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    for (const key of Object.keys(this)) {
      if (key === 'name' || key === 'stack' || key === 'message') continue;
      const value = (this as unknown as Record<string, unknown>)[key];
      out[key] = value instanceof ToolStreamError ? value.toJSON() : value;
    }
    // `cause` is not enumerable: add it, an Error reduced to its name and message.
    if (this.cause !== undefined) out['cause'] = this.cause instanceof Error ? { name: this.cause.name, message: this.cause.message } : this.cause;
    return out;
  }
}

/** The error of one code, with that code's fields. */
export type ToolStreamErrorOf<C extends ToolStreamErrorCode> = C extends ToolStreamErrorCode ? ToolStreamError<C> & Readonly<ErrorFields<C>> : never;

/** Every error of the family, as a union by code: `switch (error.code)` narrows it. */
export type AnyToolStreamError = ToolStreamErrorOf<ToolStreamErrorCode>;

/** The errors one tool call can end with (inside `{ success: false, error }`). */
export type ToolCallError = ToolStreamErrorOf<CodeOfScope<'call'>>;

/** The errors one tool run can end with: the call's own error, or running it failed (`runTools()`). */
export type ToolRunError = ToolStreamErrorOf<CodeOfScope<'call' | 'run'>>;

/** Errors that end a stream. */
export type StreamError = ToolStreamErrorOf<CodeOfScope<'stream'>>;

/**
 * True when `value` is an error of this library's family.
 *
 * @param value Anything caught or received.
 */
export function isToolStreamError(value: unknown): value is AnyToolStreamError;
/**
 * True when `value` is an error of this library's family with code `code`.
 *
 * @param value Anything caught or received.
 * @param code Only this code.
 */
export function isToolStreamError<C extends ToolStreamErrorCode>(value: unknown, code: C): value is ToolStreamErrorOf<C>;
export function isToolStreamError(value: unknown, code?: ToolStreamErrorCode): boolean {
  return value instanceof ToolStreamError && (code === undefined || value.code === code);
}

/** The class of one code: `new ProviderError(details)`, and `instanceof ProviderError`. */
export interface ErrorClass<C extends ToolStreamErrorCode> {
  /** Build the error from its details (and `cause`). */
  new (details: ErrorInit<C>, options?: ErrorOptions): ToolStreamErrorOf<C>;
  /** The prototype (for `instanceof`). */
  readonly prototype: ToolStreamErrorOf<C>;
}

function errorClass<C extends ToolStreamErrorCode>(code: C): ErrorClass<C> {
  const Class = class extends ToolStreamError<C> {
    constructor(details: ErrorInit<C>, options?: ErrorOptions) {
      super(code, details, options);
    }
  };
  Object.defineProperty(Class, 'name', { value: ERROR_KINDS[code].name });
  return Class as unknown as ErrorClass<C>;
}

/**
 * A copy of `error` with more detail fields: the same class, message, cause and stack (the original
 * is left as it is).
 *
 * @internal
 */
export function withDetails<E extends ToolStreamError>(error: E, extra: Readonly<Record<string, unknown>>): E {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(error)) if (key !== 'code') fields[key] = (error as unknown as Record<string, unknown>)[key];
  const options = error.cause === undefined ? undefined : { cause: error.cause };
  const details = { ...fields, ...extra } as never;
  // The class of one code (`ProviderError`, …) takes the details; the family's class, the code first.
  const Class = error.constructor as new (details: never, options?: ErrorOptions) => E;
  const copy = Class === (ToolStreamError as unknown) ? (new ToolStreamError(error.code, details, options) as E) : new Class(details, options);
  // The message was built from details some of which are not kept as fields (a provider's own message).
  for (const key of ['message', 'stack'] as const) Object.defineProperty(copy, key, { value: error[key], writable: true, enumerable: false, configurable: true });
  return copy;
}

/** `malformed-arguments`: the call completed but its arguments are not valid JSON. */
export const MalformedArgumentsError = /* @__PURE__ */ errorClass('malformed-arguments');
/** `incomplete`: the stream ended, was cut or failed before the call was complete. */
export const IncompleteToolCallError = /* @__PURE__ */ errorClass('incomplete');
/** `missing-name`: the call completed but the wire never named the tool. */
export const MissingNameError = /* @__PURE__ */ errorClass('missing-name');
/** `invalid-arguments`: the arguments parsed but the tool's schema rejected them. */
export const InvalidArgumentsError = /* @__PURE__ */ errorClass('invalid-arguments');
/** `unknown-tool`: the model called a tool that is not in the `tools` map. */
export const UnknownToolError = /* @__PURE__ */ errorClass('unknown-tool');
/** `arguments-too-large`: one call's arguments grew past `maxArgumentsSize`. */
export const ArgumentsTooLargeError = /* @__PURE__ */ errorClass('arguments-too-large');
/** `provider-error`: the provider reported a failure. */
export const ProviderError = /* @__PURE__ */ errorClass('provider-error');
/** `truncated`: the stream ended without its terminator. */
export const TruncatedStreamError = /* @__PURE__ */ errorClass('truncated');
/** `connection-lost`: the connection died mid-body. */
export const ConnectionLostError = /* @__PURE__ */ errorClass('connection-lost');
/** `event-too-large`: one SSE event grew past `maxEventSize`. */
export const EventTooLargeError = /* @__PURE__ */ errorClass('event-too-large');
/** `invalid-event`: an event's data is not the format's payload. */
export const InvalidEventError = /* @__PURE__ */ errorClass('invalid-event');
/** `unknown-format`: no wire format recognised the stream. */
export const UnknownFormatError = /* @__PURE__ */ errorClass('unknown-format');
/** `too-many-tool-calls`: the stream opened more calls than `maxToolCalls`. */
export const TooManyToolCallsError = /* @__PURE__ */ errorClass('too-many-tool-calls');
/** `idle-timeout`: nothing arrived for longer than the idle timeout. */
export const IdleTimeoutError = /* @__PURE__ */ errorClass('idle-timeout');
/** `tool-failed`: a tool's `execute` threw, rejected or errored (the `cause`). */
export const ToolFailedError = /* @__PURE__ */ errorClass('tool-failed');
/** `tool-timeout`: a tool ran past its time limit. */
export const ToolTimeoutError = /* @__PURE__ */ errorClass('tool-timeout');
/** `max-steps`: `toolLoop()` reached `maxSteps` and the model still asked for tools. */
export const MaxStepsError = /* @__PURE__ */ errorClass('max-steps');
/** `unsupported-request`: a request field cannot be translated into the target format. */
export const UnsupportedRequestError = /* @__PURE__ */ errorClass('unsupported-request');
/** `malformed-json`: the text pushed into a `PartialJsonParser` is not JSON (`detail`, `position`). */
export const PartialJsonError = /* @__PURE__ */ errorClass('malformed-json');

/** A `malformed-arguments` error. */
export type MalformedArgumentsError = ToolStreamErrorOf<'malformed-arguments'>;
/** An `incomplete` error. */
export type IncompleteToolCallError = ToolStreamErrorOf<'incomplete'>;
/** A `missing-name` error. */
export type MissingNameError = ToolStreamErrorOf<'missing-name'>;
/** An `invalid-arguments` error. */
export type InvalidArgumentsError = ToolStreamErrorOf<'invalid-arguments'>;
/** An `unknown-tool` error. */
export type UnknownToolError = ToolStreamErrorOf<'unknown-tool'>;
/** An `arguments-too-large` error. */
export type ArgumentsTooLargeError = ToolStreamErrorOf<'arguments-too-large'>;
/** A `provider-error`. */
export type ProviderError = ToolStreamErrorOf<'provider-error'>;
/** A `truncated` error. */
export type TruncatedStreamError = ToolStreamErrorOf<'truncated'>;
/** A `connection-lost` error. */
export type ConnectionLostError = ToolStreamErrorOf<'connection-lost'>;
/** An `event-too-large` error. */
export type EventTooLargeError = ToolStreamErrorOf<'event-too-large'>;
/** An `invalid-event` error. */
export type InvalidEventError = ToolStreamErrorOf<'invalid-event'>;
/** An `unknown-format` error. */
export type UnknownFormatError = ToolStreamErrorOf<'unknown-format'>;
/** A `too-many-tool-calls` error. */
export type TooManyToolCallsError = ToolStreamErrorOf<'too-many-tool-calls'>;
/** An `idle-timeout` error. */
export type IdleTimeoutError = ToolStreamErrorOf<'idle-timeout'>;
/** A `tool-failed` error. */
export type ToolFailedError = ToolStreamErrorOf<'tool-failed'>;
/** A `tool-timeout` error. */
export type ToolTimeoutError = ToolStreamErrorOf<'tool-timeout'>;
/** A `max-steps` error. */
export type MaxStepsError = ToolStreamErrorOf<'max-steps'>;
/** An `unsupported-request` error. */
export type UnsupportedRequestError = ToolStreamErrorOf<'unsupported-request'>;
/** A `malformed-json` error (from `PartialJsonParser`). */
export type PartialJsonError = ToolStreamErrorOf<'malformed-json'>;
