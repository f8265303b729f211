/**
 * `readToolCalls()`: the composition most users want, bytes → one result per tool call.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import type { ToolCallsOptions, TrackedCall } from '../calls/call';
import { CALLS_OPTION_CHECKS, CallDriver, callsConfig, type CallSink, type CallsConfig } from '../calls/driver';
import type { FramedRecord, StreamEvent } from '../events';
import { operateWith } from '../internal/operate';
import { checkOptions } from '../internal/options';
import { TOOLS_OPTION, validateResults } from '../operators/validateResults';
import { resultOf } from '../parse/results';
import { checkTools, type ToolsInput, type TypedToolCallResult } from '../parse/validate';
import type { ToolCallResult } from '../result';
import { idleWatch, READ_OPTION_CHECKS, type ReadStreamEventsOptions } from './readStreamEvents';
import { readerConfig, StreamReader, type ReaderConfig, type ReaderInput } from './streamReader';

/** One subscription of `readToolCalls()`: the fused reader, the driver's sink (a closed call's result goes out). */
class ResultsReader extends StreamReader<ToolCallResult> implements CallSink {
  /** The driver, made at the first event. */
  private driver: CallDriver | undefined;

  constructor(
    config: ReaderConfig,
    subscriber: Subscriber<ToolCallResult>,
    private readonly calls: CallsConfig,
  ) {
    super(config, subscriber);
  }

  event(event: StreamEvent): void {
    (this.driver ??= new CallDriver(this.calls, this)).event(event);
  }

  eventsEnded(): void {
    (this.driver ??= new CallDriver(this.calls, this)).complete();
  }

  eventsFailed(error: unknown): void {
    (this.driver ??= new CallDriver(this.calls, this)).error(error);
  }

  callFragment(): void {}

  callClosed(call: TrackedCall): void {
    this.destination.next(resultOf(call, undefined, this.calls.repair));
  }
}

/** Options of {@link readToolCalls}: the reading options of `readStreamEvents()` and the tool-call options of `toolCalls()`. */
export interface ReadToolCallsOptions extends ToolCallsOptions, ReadStreamEventsOptions {}

/**
 * Read the tool calls of a streamed response, straight from its bytes.
 *
 * <span class="informal">`decodeSse()` → the wire adapter (auto-detected by default) → `toolCalls()`,
 * in one operator: the same framing, decoder, reducer and result builder, called in one
 * subscription (property-tested to equal the composed operators under any chunking).</span>
 *
 * ```text
 * --c1--c2------c3-----|           c: network chunks (Uint8Array or string), split anywhere
 *   readToolCalls()
 * --------------(AB)---|           A, B: ToolCallResult, each the moment its call completes
 * ```
 *
 * 1. Chunk boundaries never matter: bytes may be split anywhere, even inside a UTF-8 character.
 * 2. Emits one `{ success: true, data }` or `{ success: false, error }` per tool call.
 * 3. Ends with a typed error (`provider-error`, `truncated`, `event-too-large`, `invalid-event`, …)
 *    after every complete call was emitted and every open call was emitted as `incomplete`.
 * 4. `idleTimeoutMs`: a connection silent for that long ends with `idle-timeout`; open calls are
 *    reported `incomplete` with reason `idle-timeout` (the same as `bytes$.pipe(idleTimeout(ms), readToolCalls())`).
 * 5. A stream of records framed already (a WebSocket's messages, `fromWebSocket()` of
 *    `rxjs-tool-calls/websocket`) is read the same way without a framing: the same format
 *    detection, results, limits and errors.
 *
 * @example
 * ```ts
 * import { fromResponse, readToolCalls } from 'rxjs-tool-calls';
 *
 * declare const url: string;
 * declare const init: RequestInit;
 *
 * fromResponse(fetch(url, init)).pipe(readToolCalls()).subscribe((result) => {
 *   if (result.success) console.log(result.data.name, result.data.arguments);
 *   else console.error(result.error.code, result.error.message);
 * });
 * // displays: get_weather { city: 'Paris' }
 * ```
 *
 * @param options The wire format (`provider`, default `auto`), SSE limits, `idleTimeoutMs`, tool-call
 *   limits, the id generator, and typed `tools` (see `toolCalls()`).
 * @return An operator from byte (or text) chunks, or framed records, to {@link ToolCallResult}s.
 */
export function readToolCalls(options?: ReadToolCallsOptions): OperatorFunction<Uint8Array | string | FramedRecord, ToolCallResult>;
export function readToolCalls<T extends ToolsInput>(options: ReadToolCallsOptions & { readonly tools: T }): OperatorFunction<Uint8Array | string | FramedRecord, TypedToolCallResult<T>>;
export function readToolCalls(options: ReadToolCallsOptions & { readonly tools?: ToolsInput } = {}): OperatorFunction<ReaderInput, ToolCallResult> {
  checkOptions('readToolCalls', options, READ_OPTION_CHECKS, CALLS_OPTION_CHECKS, TOOLS_OPTION);
  const config = readerConfig(options);
  const calls = callsConfig(options);
  const read = operateWith<ReaderInput, ToolCallResult>((subscriber) => new ResultsReader(config, subscriber, calls));
  const tools = options.tools === undefined ? undefined : checkTools(options.tools, 'readToolCalls');
  const watch = idleWatch<ReaderInput>(options);
  if (tools === undefined) return watch === undefined ? read : (source) => source.pipe(watch, read);
  const validate = validateResults(tools);
  return watch === undefined ? (source) => source.pipe(read, validate) : (source) => source.pipe(watch, read, validate);
}
