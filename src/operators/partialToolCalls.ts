/**
 * `partialToolCalls()`: each tool call's arguments as they grow, parsed incrementally.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import type { ToolCallsOptions, TrackedCall } from '../calls/call';
import { CALLS_OPTION_CHECKS, CallDriver, callsConfig, type CallSink, type CallsConfig } from '../calls/driver';
import type { CallIdentity } from '../errors';
import type { StreamEvent } from '../events';
import { operate, type InputHandler } from '../internal/operate';
import { checkOptions } from '../internal/options';
import { parseArguments } from '../parse/arguments';
import type { DeepPartial } from '../parse/deepPartial';
import { maxPartialDepthOf, PARSER_OPTION_CHECKS, PartialJsonParser, type JsonPath, type PartialJsonOptions } from '../parse/partialJson';
import { resultOf } from '../parse/results';
import type { ToolArguments, ToolName, ToolsByName, ToolsInput } from '../parse/validate';
import type { ToolCall, ToolCallResult } from '../result';
import { checkTools } from '../parse/validate';
import { TOOLS_OPTION, validating } from './validateResults';

/** Options of {@link partialToolCalls}. */
export interface PartialToolCallsOptions extends ToolCallsOptions {
  /** Show numbers and literals before they are complete (`12` of `123`, `tr` as `true`). Default `false`. */
  readonly allowPartialLiterals?: boolean;
  /**
   * `'immutable'` (default): every value is a snapshot that never changes; unchanged parts keep
   * their identity. A new value copies the open containers from the root to what changed, and is
   * made only once the text received since the last one pays for that copy: narrow arguments get
   * a value per change, while an open array of thousands of elements is re-copied once per growth
   * by a fixed fraction (O(n) in total), so a value may lag a few fragments behind the text.
   * `'live'`: one value per call, mutated in place and always current: O(1) per value, for
   * consumers that render each value before the next arrives and keep none. Both are linear in
   * the arguments' size whatever their shape (docs/benchmarks.md, "Partial JSON").
   */
  readonly snapshots?: 'immutable' | 'live';
  /**
   * Containers nested deeper than this (the root is depth 1) show as `[]` / `{}` in partial values
   * until complete, and are then parsed whole by `JSON.parse`: partial values stop growing inside
   * them, the final result is unaffected, and no nesting exhausts the stack or the heap.
   * Default 256; `Infinity` shows every level.
   */
  readonly maxPartialDepth?: number;
}

/** Options of {@link partialToolCalls} with typed tools. */
export interface TypedPartialToolCallsOptions<T extends ToolsInput> extends PartialToolCallsOptions {
  /**
   * The tools: names mapped to their argument schemas (zod, valibot or any Standard Schema) or to
   * `tool()` records, or an array of named `tool()` records. Each call's last value is validated
   * (`unknown-tool`, `invalid-arguments`), and the values are typed by tool name.
   */
  readonly tools: T;
}

/**
 * One call's arguments at one moment. `Name`, `Args` and `Call` are `string`, `unknown` and
 * `ToolCall` unless the tools are typed (see {@link TypedPartialToolCall}).
 */
export interface PartialToolCall<Name extends string = string, Args = unknown, Call extends ToolCall<string, unknown> = ToolCall> extends CallIdentity {
  /** The tool's name (narrowed by tool when the tools are typed; `''` until the wire sent it). */
  readonly name: Name;
  /** Unique within the stream (the same key as `groupToolCalls()`). */
  readonly key: number;
  /**
   * The arguments parsed so far: an immutable snapshot (unchanged parts keep their identity from
   * one value to the next). `{}` until the first member is readable. On the last value of a
   * successful call, exactly the final result's `arguments`.
   */
  readonly arguments: Args;
  /**
   * The path of the value still being received (`[]` while the root is open between members);
   * `undefined` once the arguments are complete. Test a field with {@link isSettled}.
   */
  readonly openPath: JsonPath | undefined;
  /** On the last value of the call only: its result (parsed arguments, validated with `tools`, or a typed error). */
  readonly result?: ToolCallResult<Call>;
  /**
   * `'custom'` for a custom (freeform) tool's call: `arguments` is its input text so far (a string
   * that grows with each fragment; `openPath` is `[]` until the call is complete). Absent for JSON calls.
   */
  readonly kind?: 'custom';
}

/**
 * With `tools`: a union discriminated by `name`, whose `arguments` are a {@link DeepPartial} of that
 * tool's schema output and whose `result` carries the schema's output. The partial values are the
 * JSON the model sent so far: for a schema that transforms its input (not just defaults), they have
 * the input's shape until the last value. A name not in `tools` ends with an `unknown-tool` result;
 * the type lists the declared tools only.
 */
export type TypedPartialToolCall<T extends ToolsInput> = {
  [Name in ToolName<T>]: PartialToolCall<Name, DeepPartial<ToolArguments<ToolsByName<T>[Name]>>, ToolCall<Name, ToolArguments<ToolsByName<T>[Name]>>>;
}[ToolName<T>];

/**
 * Whether the field at `path` of a {@link PartialToolCall} (or of a `partialObject()` update) is
 * finished: it is present and will never change again (it is not the value being received nor one
 * of its containers).
 */
export function isSettled(partial: Pick<PartialToolCall, 'arguments' | 'openPath'> | { readonly value: unknown; readonly openPath: JsonPath | undefined }, path: JsonPath): boolean {
  let node: unknown = 'arguments' in partial ? partial.arguments : partial.value;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, segment)) return false;
    node = (node as Record<string | number, unknown>)[segment];
  }
  const open = partial.openPath;
  if (open === undefined) return true;
  if (path.length > open.length) return true;
  for (let i = 0; i < path.length; i++) if (path[i] !== open[i]) return true;
  return false;
}

/**
 * Each tool call's arguments, parsed as they stream: `{}`, `{ city: "San" }`,
 * `{ city: "San Francisco" }`, …, ending with the call's result.
 *
 * <span class="informal">An incremental JSON parser per call: every fragment is read once, so the
 * work is linear in the arguments' size (re-parsing the text after each fragment is quadratic).</span>
 *
 * ```text
 * --a--b--c--d--F--|          a..d: fragments '{"ci', 'ty": "San', ' Fran', 'cisco"}'; F: finish
 *   partialToolCalls()
 * --p-----q--r--R--|          p: {}  q: { city: 'San' }  r: { city: 'San Fran' }
 *                             R: { city: 'San Francisco' } with result
 *
 * --a--x--F--|                x: a fragment that makes the JSON invalid
 *   partialToolCalls()
 * --p-----E--|                partial values stop; E: the last value, with the malformed-arguments result
 * ```
 *
 * 1. Emits a value after each fragment that changed what is visible; nothing for fragments that
 *    only add whitespace, half an escape or half a number. With immutable snapshots (the default),
 *    a change under a wide open container (thousands of members) waits until the text received
 *    since the last value pays for copying it, so the work stays linear (see `snapshots`).
 * 2. Strings grow (escapes and surrogate pairs split across fragments are decoded whole); a key is
 *    never shown before its name is complete and its value has started; a number or literal that
 *    may still grow (`12` of `123`, `tr`) is not shown unless `allowPartialLiterals` is set.
 * 3. Each value is an immutable snapshot; `openPath` and {@link isSettled} tell which fields are
 *    finished. Containers nested deeper than `maxPartialDepth` (256) show empty until complete.
 * 4. The last value of each call carries `result`; for a success its `arguments` are exactly the
 *    result's. When the JSON turns out malformed, partial values stop and the last value carries
 *    the typed error.
 * 5. Calls are independent (one call's values never wait for another's); stream-level errors
 *    end the output after every open call's last value (`incomplete`).
 *
 * To coalesce for a UI, use ordinary operators on the values, e.g. at most one value per
 * animation frame per call: `groupBy((p) => p.key)` then `throttleTime(0, animationFrameScheduler,
 * { leading: true, trailing: true })` inside `mergeMap` (the last value always comes through).
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { partialToolCalls, type StreamEvent } from 'rxjs-tool-calls';
 *
 * declare const events$: Observable<StreamEvent>;
 * declare function render(id: string, args: unknown): void;
 *
 * events$.pipe(partialToolCalls()).subscribe((p) => render(p.id, p.arguments));
 * // renders: {}, { city: 'San' }, { city: 'San Francisco' }
 * ```
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { z } from 'zod';
 * import { partialToolCalls, type StreamEvent } from 'rxjs-tool-calls';
 *
 * declare const events$: Observable<StreamEvent>;
 *
 * const tools = { get_weather: z.object({ city: z.string(), days: z.number() }) };
 * events$.pipe(partialToolCalls({ tools })).subscribe((p) => {
 *   if (p.name === 'get_weather') console.log(p.arguments.city); // typed: string | undefined
 * });
 * // displays: undefined, San, San Francisco
 * ```
 *
 * @param options The tool-call options, `allowPartialLiterals`, `snapshots`, `maxPartialDepth`,
 *   and `tools` (the last value of each call validated; values typed by tool name).
 * @return An operator from {@link StreamEvent}s to {@link PartialToolCall}s.
 */
export function partialToolCalls<T extends ToolsInput>(options: TypedPartialToolCallsOptions<T>): OperatorFunction<StreamEvent, TypedPartialToolCall<T>>;
export function partialToolCalls(options?: PartialToolCallsOptions): OperatorFunction<StreamEvent, PartialToolCall>;
export function partialToolCalls(options: PartialToolCallsOptions & { readonly tools?: ToolsInput } = {}): OperatorFunction<StreamEvent, PartialToolCall> {
  checkOptions('partialToolCalls', options, CALLS_OPTION_CHECKS, PARSER_OPTION_CHECKS, TOOLS_OPTION);
  const tools = options.tools === undefined ? undefined : checkTools(options.tools, 'partialToolCalls');
  const parserOptions: PartialJsonOptions = {
    allowPartialLiterals: options.allowPartialLiterals === true,
    snapshots: options.snapshots ?? 'immutable',
    maxPartialDepth: maxPartialDepthOf(options.maxPartialDepth),
  };
  const config = callsConfig(options);
  const read = operate<StreamEvent, PartialToolCall>((subscriber) => new PartialCalls(subscriber, config, parserOptions));
  return tools === undefined ? read : (source) => source.pipe(read, validateLast(tools));
}

/** Validate each call's last value: its result against the schema, its arguments the schema's output on success. */
function validateLast(tools: ToolsInput): OperatorFunction<PartialToolCall, PartialToolCall> {
  return validating<PartialToolCall, PartialToolCall>(
    tools,
    (partial) => partial.result,
    (partial, result) => ({ ...partial, arguments: result.success ? result.data.arguments : partial.arguments, result }),
  );
}

const EMPTY: Readonly<Record<string, never>> = /* @__PURE__ */ Object.freeze({});

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** The path a custom call's text is open at while it streams (shared, never changed). */
const OPEN_ROOT: JsonPath = Object.freeze([]) as unknown as JsonPath;

/** What one open call has read and shown so far. */
interface CallView {
  /** The call's incremental parser (a new one when the wire re-sends the whole text). */
  parser: PartialJsonParser;
  /** How much of the call's argument text the parser has read. */
  consumed: number;
  /** The parser's change count at the last value shown. */
  seen: number;
  /** The last value shown, and its open path. */
  last: unknown;
  lastPath: JsonPath | undefined;
}

/**
 * One subscription of `partialToolCalls()`: the driver's sink, every open call's incremental parser,
 * its partial values, and its last value with the result, in one pass over the events.
 */
class PartialCalls implements InputHandler<StreamEvent>, CallSink {
  private readonly driver: CallDriver;
  private readonly live: boolean;
  private readonly views = new Map<number, CallView>();
  /** The text each open custom call last showed. */
  private readonly customs = new Map<number, string>();

  /**
   * @param out Where the values go.
   * @param config The tool-call options.
   * @param parserOptions The parsers' options (`snapshots`, `allowPartialLiterals`, `maxPartialDepth`).
   */
  constructor(
    private readonly out: Subscriber<PartialToolCall>,
    config: CallsConfig,
    private readonly parserOptions: PartialJsonOptions,
  ) {
    this.driver = new CallDriver(config, this);
    this.live = parserOptions.snapshots === 'live';
  }

  next(event: StreamEvent): void {
    this.driver.event(event);
  }

  complete(): void {
    this.driver.complete();
  }

  error(error: unknown): void {
    this.driver.error(error);
  }

  /** A fragment shows the call's new value (a call the fragment closed shows its last value, from {@link callClosed}). */
  callFragment(call: TrackedCall, argumentsDelta: string): void {
    if (call.ending !== undefined) return;
    if (call.kind === 'custom') {
      // A custom tool's input is text: it grows as it comes, nothing to parse (a resend of the same text shows nothing new).
      if (this.customs.get(call.seq) !== call.rawArguments) {
        this.customs.set(call.seq, call.rawArguments);
        this.out.next({ key: call.seq, id: call.id, name: call.name, index: call.index, choice: call.choice, kind: 'custom', arguments: call.rawArguments, openPath: OPEN_ROOT });
      }
      return;
    }
    let view = this.views.get(call.seq);
    if (view === undefined || view.consumed + argumentsDelta.length !== call.rawArguments.length) {
      // the first fragment, or a replace delta (the wire re-sent the whole text): start over
      const parser = new PartialJsonParser(this.parserOptions);
      if (view === undefined) this.views.set(call.seq, (view = { parser, consumed: 0, seen: -1, last: undefined, lastPath: undefined }));
      else {
        view.parser = parser;
        view.seen = -1;
      }
      parser.push(call.rawArguments);
    } else view.parser.push(argumentsDelta);
    view.consumed = call.rawArguments.length;
    const parser = view.parser;
    if (parser.error !== undefined) return; // malformed: partial values stop
    if (parser.changeCount === view.seen && !parser.pending) return; // nothing new (pending: a held-back snapshot)
    view.seen = parser.changeCount;
    const value = parser.value ?? EMPTY;
    if (value === view.last && !this.live) return; // the snapshot waits until the text pays for its copy
    const seenEmpty = view.last === EMPTY && isEmptyObject(value);
    view.last = value;
    view.lastPath = parser.openPath;
    if (!seenEmpty) this.out.next({ key: call.seq, id: call.id, name: call.name, index: call.index, choice: call.choice, arguments: value, openPath: view.lastPath });
  }

  /**
   * The call's last value, with its result. The arguments of a success are the value the
   * incremental parser built when it read the whole text without error (deep-equal to
   * `JSON.parse`, property-tested), else `parseArguments`'s.
   */
  callClosed(call: TrackedCall): void {
    if (call.kind === 'custom') return this.closedCustom(call);
    const view = this.views.get(call.seq);
    this.views.delete(call.seq);
    const result = resultOf(
      call,
      (c) => {
        const parser = view?.parser;
        if (parser !== undefined && view?.consumed === c.rawArguments.length && parser.error === undefined && parser.done) return { ok: true, value: parser.value };
        return parseArguments(c.rawArguments);
      },
      this.driver.config.repair,
    );
    const last = view?.last;
    this.out.next({
      key: call.seq,
      id: call.id,
      name: call.name,
      index: call.index,
      choice: call.choice,
      arguments: result.success ? result.data.arguments : (last ?? EMPTY),
      openPath: result.success ? undefined : last === undefined ? view?.parser.openPath : view?.lastPath,
      result,
    });
  }

  /** A custom tool's call closed: its last value is its whole text, with its result. */
  private closedCustom(call: TrackedCall): void {
    this.customs.delete(call.seq);
    const result = resultOf(call, undefined, this.driver.config.repair);
    this.out.next({
      key: call.seq,
      id: call.id,
      name: call.name,
      index: call.index,
      choice: call.choice,
      kind: 'custom',
      arguments: call.rawArguments,
      openPath: result.success ? undefined : OPEN_ROOT,
      result,
    });
  }
}
