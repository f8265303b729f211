/**
 * `readToolCalls()`: the composition most users want, bytes → one result per tool call.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import { createToolCallsState, reduceToolCalls, resolveLimits, type ResolvedLimits, type ToolCallsInput, type ToolCallsState } from '../calls/reducer';
import type { StreamEvent } from '../events';
import { operateWith } from '../internal/operate';
import { validateResults } from '../operators/validateResults';
import { resultOf, type ToolCallsOptions } from '../parse/results';
import { checkTools, type ToolsInput, type TypedToolCallResult } from '../parse/validate';
import type { ToolCallResult } from '../result';
import { idleWatch, type ReadStreamEventsOptions } from './readStreamEvents';
import { readerConfig, StreamReader, type ReaderConfig } from './streamReader';

/** One subscription of `readToolCalls()`: the fused reader, its own sink (the reducer and the result builder). */
class ResultsReader extends StreamReader<ToolCallResult> {
  /** The reducer's accumulator, made at the first event. */
  private state: ToolCallsState | undefined;

  constructor(
    config: ReaderConfig,
    subscriber: Subscriber<ToolCallResult>,
    private readonly callLimits: ResolvedLimits,
    private readonly repair: boolean,
  ) {
    super(config, subscriber);
  }

  event(event: StreamEvent): void {
    this.step(event);
  }

  eventsEnded(): void {
    this.step({ type: 'complete' });
  }

  eventsFailed(error: unknown): void {
    this.step({ type: 'error', error });
  }

  private step(input: ToolCallsInput): void {
    const changed = reduceToolCalls((this.state ??= createToolCallsState(this.callLimits)), input).changed;
    for (let i = 0; i < changed.length; i++) {
      const call = changed[i]!;
      if (call.ending !== undefined) this.destination.next(resultOf(call, undefined, this.repair));
    }
  }
}

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
 *
 * @example
 * ```ts
 * import { fromResponse, readToolCalls } from 'rxjs-tool-calls';
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
 * @return An operator from byte (or text) chunks to {@link ToolCallResult}s.
 */
export function readToolCalls(options?: ReadToolCallsOptions): OperatorFunction<Uint8Array | string, ToolCallResult>;
export function readToolCalls<T extends ToolsInput>(options: ReadToolCallsOptions & { readonly tools: T }): OperatorFunction<Uint8Array | string, TypedToolCallResult<T>>;
export function readToolCalls(options: ReadToolCallsOptions & { readonly tools?: ToolsInput } = {}): OperatorFunction<Uint8Array | string, ToolCallResult> {
  const config = readerConfig(options);
  const limits = resolveLimits(options);
  const repair = options.repairArguments !== false;
  const read = operateWith<Uint8Array | string, ToolCallResult>((subscriber) => new ResultsReader(config, subscriber, limits, repair));
  const tools = options.tools === undefined ? undefined : checkTools(options.tools, 'readToolCalls');
  const watch = idleWatch(options);
  if (tools === undefined) return watch === undefined ? read : (source) => source.pipe(watch, read);
  const validate = validateResults(tools);
  return watch === undefined ? (source) => source.pipe(read, validate) : (source) => source.pipe(watch, read, validate);
}
