/**
 * `partialObject()`: structured output that streams. The JSON a model writes as its answer (or as
 * one forced tool call's arguments), as typed partial values, complete array elements and one result.
 *
 * @module
 */
import type { Observer, OperatorFunction, Subscriber } from 'rxjs';
import { callContext, cutReason, incompleteReasonOf, type ToolCallsOptions, type TrackedCall } from '../calls/call';
import { CALLS_OPTION_CHECKS, CallDriver, callsConfig, type CallSink, type CallsConfig } from '../calls/driver';
import { isToolStreamError, ToolStreamError, type CallIdentity, type IncompleteReason, type ToolCallContext } from '../errors';
import type { StreamEvent } from '../events';
import { operate, type InputHandler } from '../internal/operate';
import { aCount, anything, checkOptions, type OptionCheck } from '../internal/options';
import { parseArguments } from '../parse/arguments';
import type { DeepPartial } from '../parse/deepPartial';
import { JsonDocument } from '../parse/jsonDocument';
import { maxPartialDepthOf, PARSER_OPTION_CHECKS, type JsonPath, type PartialJsonOptions } from '../parse/partialJson';
import { resultOf } from '../parse/results';
import type { StandardSchemaV1 } from '../parse/standardSchema';
import { isPromiseLike, isStandardSchema, validateArguments } from '../parse/validate';
import { fail, ok, type Result } from '../result';

/** A Standard Schema (zod, valibot, …). */
const aSchema: OptionCheck = (value) => (isStandardSchema(value) ? undefined : 'a Standard Schema (zod, valibot, …)');

/** The keys only `partialObject()` takes (`fromTool` is checked in detail by the operator). */
const OBJECT_OPTION_CHECKS = {
  schema: aSchema,
  choice: /* @__PURE__ */ aCount(0, false),
  fromTool: anything,
  elements: (value: unknown) => (value === true || Array.isArray(value) ? undefined : 'true or the path of an array'),
  elementSchema: aSchema,
};

/** Options of {@link partialObject}. */
export interface PartialObjectOptions<S extends StandardSchemaV1 = StandardSchemaV1<unknown>, E extends StandardSchemaV1 = StandardSchemaV1<unknown>> extends ToolCallsOptions {
  /**
   * The document's schema (zod, valibot or any Standard Schema): types the partial values as a
   * deep partial of its output, and validates the complete document (`invalid-arguments` with the
   * issues' paths). Without it, values are `unknown` and the document is not checked.
   */
  readonly schema?: S;
  /**
   * The choice whose text is read (0 unless the request asked for several). Default 0. Its text
   * may be at most `maxArgumentsSize` characters (64 MiB); past it the result is
   * `arguments-too-large`.
   */
  readonly choice?: number;
  /**
   * Read the arguments of the first call of this tool in the choice instead of the text (the
   * Anthropic pattern: structured output through one forced tool). No fence is stripped there.
   * The tool's name, or the tool itself (`tool({ name, schema })`, the one sent with
   * `toolSpecs()`): its `schema` is then the document's schema unless `schema` is given.
   */
  readonly fromTool?:
    | string
    | {
        /** The tool's name: its first call in the choice is read. */
        readonly name: string;
        /** The tool's schema: the document's schema when `schema` is not given. */
        readonly schema?: S | undefined;
      };
  /**
   * EventSink each element of an array once it is complete: `true` for an array at the root, or the
   * path of the array (`['items']`). Elements are validated with `elementSchema` when given.
   */
  readonly elements?: true | JsonPath;
  /** The schema of one element of the `elements` array: types and validates each element. */
  readonly elementSchema?: E;
  /** Show numbers and literals before they are complete (`12` of `123`, `tr` as `true`). Default `false`. */
  readonly allowPartialLiterals?: boolean;
  /**
   * `'immutable'` (default): every value is a snapshot that never changes, unchanged parts keep
   * their identity (a new value may wait until the text pays for its copy; see
   * `partialToolCalls()`). `'live'`: one value mutated in place, always current.
   */
  readonly snapshots?: 'immutable' | 'live';
  /** Containers nested deeper than this show as `[]` / `{}` until complete. Default 256. */
  readonly maxPartialDepth?: number;
}

/** The errors a document can end with. */
export type PartialObjectError = ToolStreamError<'malformed-arguments' | 'invalid-arguments' | 'incomplete' | 'arguments-too-large'>;

/** What every update carries: where the document comes from and what of it is visible now. */
export interface PartialObjectView<T> {
  /** The choice read. */
  readonly choice: number;
  /** With `fromTool`: the call whose arguments are read (absent for text and before the call starts). */
  readonly toolCall?: CallIdentity;
  /**
   * The document so far (`undefined` until its root value starts): an immutable snapshot unless
   * `snapshots: 'live'`. On a successful result, the whole parsed JSON (before schema transforms).
   */
  readonly value: DeepPartial<T> | undefined;
  /** The path of the value being received (see `isSettled`); `undefined` once the document is complete. */
  readonly openPath: JsonPath | undefined;
}

/**
 * One update of {@link partialObject}, by `type`: `'partial'` (the value grew), `'element'` (an
 * element of the `elements` array is complete), `'result'` (the last update: the document's result).
 * Every update carries the latest `value` and `openPath`, so the last update is the whole view.
 */
export type PartialObjectUpdate<T = unknown, E = unknown> =
  | (PartialObjectView<T> & {
      /** The value grew. */
      readonly type: 'partial';
    })
  | (PartialObjectView<T> & {
      /** An element of the `elements` array is complete. */
      readonly type: 'element';
      /** Its index in the array. */
      readonly index: number;
      /** The element, validated by `elementSchema` (issue paths relative to the element). */
      readonly result: Result<E, ToolStreamError<'invalid-arguments'>>;
    })
  | (PartialObjectView<T> & {
      /** The last update. */
      readonly type: 'result';
      /** The schema's output, or why there is none. */
      readonly result: Result<T, PartialObjectError>;
    });

/**
 * The JSON document a model writes as its answer, as it streams: typed partial values, each
 * complete array element, then `{ success: true, data }` or a typed error.
 *
 * <span class="informal">Structured output: the incremental JSON parser of `partialToolCalls()`
 * applied to one choice's text (or one forced tool call's arguments), read once, linearly.</span>
 *
 * ```text
 * --a--b--c--d--F--|          a..d: text '{"ci', 'ty": "San', ' Fran', 'cisco"}'; F: finish (stop)
 *   partialObject({ schema })
 * --p--q--r--s--R--|          p: {}  q: { city: 'San' }  r: { city: 'San Fran' }
 *                             s: { city: 'San Francisco' }  R: result { success: true, data }
 *
 * --a--b--L--|                a, b: text '{"city": "Pa', 'ris", "da'; L: finish (length)
 *   partialObject()
 * --p--q--I--|                p: { city: 'Pa' }  q: { city: 'Paris' }
 *                             I: result { success: false, error: incomplete (length) }
 * ```
 *
 * 1. Reads the `text-delta`s of `choice` (0) as one JSON document; leading whitespace and one
 *    ```` ```json ```` fence around it are stripped. Any other text before or after the document
 *    (prose, a second document) is `malformed-arguments` with the whole text as `rawArguments`;
 *    nothing is guessed. With `fromTool`, reads the first call of that tool instead (`fromTool`
 *    may be the `tool()` itself: its schema then validates the document).
 * 2. Emits a `'partial'` update after each delta that changed what is visible, with the rules of
 *    `partialToolCalls()`: strings grow, a key appears once its value starts, numbers and
 *    literals only when complete (unless `allowPartialLiterals`); `openPath` and `isSettled()`
 *    tell which fields are final; immutable snapshots unless `snapshots: 'live'`.
 * 3. With `elements`, emits an `'element'` update for each element of that array as soon as it is
 *    complete (once each, in order), validated by `elementSchema`.
 * 4. Ends with one `'result'` update, when the choice finishes, the terminator arrives or the
 *    input ends: the schema's output; `malformed-arguments` (not one JSON document, or the model
 *    stopped inside it); `invalid-arguments` (the schema's issues, with paths); `incomplete` (the
 *    choice stopped at `length` / `content-filter`, or the stream was cut or failed). Errors about
 *    the text carry `source: 'text'` and `toolCall.id` `'text'`. Never an untyped error.
 * 5. A stream error ends the output after the `incomplete` result; a source that emits nothing
 *    gives nothing. A `restart` event (`retryStream()`) starts the document over (a `'partial'`
 *    with `value: undefined` clears what was shown). Asynchronous validators delay later updates,
 *    never reorder them.
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { z } from 'zod';
 * import { partialObject, type StreamEvent } from 'rxjs-tool-calls';
 *
 * declare const events$: Observable<StreamEvent>;
 *
 * const schema = z.object({ city: z.string(), days: z.array(z.number()) });
 * events$.pipe(partialObject({ schema })).subscribe((u) => {
 *   if (u.type === 'partial') console.log(u.value); // typed: DeepPartial<{ city: string; days: number[] }>
 *   if (u.type === 'result' && u.result.success) console.log(u.result.data.city);
 * });
 * // displays: {}, { city: 'San' }, { city: 'San Francisco' }, …, San Francisco
 * ```
 *
 * @param options The `schema`, the `choice` or `fromTool` to read, `elements` and
 *   `elementSchema`, and the parser's `allowPartialLiterals`, `snapshots` and `maxPartialDepth`.
 * @return An operator from {@link StreamEvent}s to {@link PartialObjectUpdate}s.
 */
export function partialObject<S extends StandardSchemaV1 = StandardSchemaV1<unknown>, E extends StandardSchemaV1 = StandardSchemaV1<unknown>>(
  options: PartialObjectOptions<S, E> = {},
): OperatorFunction<StreamEvent, PartialObjectUpdate<StandardSchemaV1.InferOutput<S>, StandardSchemaV1.InferOutput<E>>> {
  checkOptions('partialObject', options, CALLS_OPTION_CHECKS, PARSER_OPTION_CHECKS, OBJECT_OPTION_CHECKS);
  const elements = options.elements;
  const fromTool = options.fromTool;
  if (fromTool !== undefined && typeof fromTool !== 'string') {
    const expected = (option: string, value: unknown, what: string): never => {
      throw new ToolStreamError('invalid-option', { function: 'partialObject', option, value, expected: what });
    };
    if (typeof fromTool !== 'object' || fromTool === null) expected('options.fromTool', fromTool, 'a tool name or a tool (tool({ name, schema }))');
    if (typeof fromTool.name !== 'string' || fromTool.name === '') expected('options.fromTool.name', fromTool.name, 'a tool name');
    if (fromTool.schema !== undefined && !isStandardSchema(fromTool.schema)) expected('options.fromTool.schema', fromTool.schema, 'a Standard Schema (zod, valibot, …)');
  }
  const config: ObjectReaderConfig = {
    calls: callsConfig(options),
    parser: { allowPartialLiterals: options.allowPartialLiterals === true, snapshots: options.snapshots ?? 'immutable', maxPartialDepth: maxPartialDepthOf(options.maxPartialDepth) },
    choice: options.choice ?? 0,
    fromTool: typeof fromTool === 'object' ? fromTool.name : fromTool,
    schema: options.schema ?? (typeof fromTool === 'object' ? fromTool.schema : undefined),
    elements: elements === true ? [] : elements,
    elementSchema: options.elementSchema,
  };
  const read = operate<StreamEvent, Emitted>((subscriber) => new ObjectReader(new OrderedOut(subscriber), config));
  return read as unknown as OperatorFunction<StreamEvent, PartialObjectUpdate<StandardSchemaV1.InferOutput<S>, StandardSchemaV1.InferOutput<E>>>;
}

/** The options of `partialObject()`, resolved once. */
interface ObjectReaderConfig {
  readonly calls: CallsConfig;
  readonly parser: PartialJsonOptions;
  readonly choice: number;
  readonly fromTool: string | undefined;
  readonly schema: StandardSchemaV1 | undefined;
  readonly elements: JsonPath | undefined;
  readonly elementSchema: StandardSchemaV1 | undefined;
}

/** The value at `path` of `root`, or `undefined`. */
function at(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** How many elements of the array at `path` are complete, given the open path of the same moment. */
function completeCount(array: readonly unknown[], path: JsonPath, open: JsonPath | undefined): number {
  if (open === undefined || open.length <= path.length) return array.length;
  for (let i = 0; i < path.length; i++) if (open[i] !== path[i]) return array.length;
  return open[path.length] as number;
}

/** One subscription of `partialObject()`: one document's reader, from text (`fromTool` unset) or from one tool call's arguments. */
class ObjectReader implements InputHandler<StreamEvent>, CallSink {
  readonly endsItself = true;
  private readonly driver: CallDriver;
  private doc: JsonDocument | undefined;
  private consumed = 0;
  private seenCount = -1;
  private shown: unknown = undefined;
  private shownPath: JsonPath | undefined = [];
  private emittedElements = 0;
  private started = false;
  private finished = false;
  /** The tool call read (`fromTool`): the first one of the choice with that name. */
  private call: TrackedCall | undefined;

  constructor(
    private readonly out: Observer<Emitted | Promise<Emitted>>,
    private readonly config: ObjectReaderConfig,
  ) {
    this.driver = new CallDriver(config.calls, this);
  }

  next(event: StreamEvent): void {
    if (this.driver.done) return;
    this.onEvent(event);
    try {
      this.driver.event(event);
    } catch (error) {
      this.cut(incompleteReasonOf(error));
      this.out.error(error);
    }
  }

  complete(): void {
    if (this.driver.done) return;
    this.driver.complete();
    if (this.config.fromTool === undefined) this.settleText(undefined, true);
    else if (!this.finished && this.started)
      this.settle(fail(new ToolStreamError('malformed-arguments', { toolCall: this.context(), parseError: `no call of the tool ${JSON.stringify(this.config.fromTool)}` })));
    this.out.complete();
  }

  error(error: unknown): void {
    if (this.driver.done) return;
    this.driver.error(error);
    this.cut(incompleteReasonOf(error));
    this.out.error(error);
  }

  private onEvent(event: StreamEvent): void {
    this.started = true;
    if (this.finished || this.config.fromTool !== undefined) return;
    switch (event.type) {
      case 'text-delta': {
        if (event.choice !== this.config.choice || event.text === '') return;
        const doc = (this.doc ??= new JsonDocument(this.config.parser, true));
        const limit = this.config.calls.limits.maxArgumentsSize;
        if (doc.text.length + event.text.length > limit) return this.settle(fail(new ToolStreamError('arguments-too-large', { toolCall: this.context(), limit, source: 'text' })));
        doc.push(event.text);
        this.changed();
        return;
      }
      case 'finish':
        if (event.choice === this.config.choice) this.settleText(cutReason(event.reason), false);
        return;
      case 'done':
        this.settleText(undefined, false);
        return;
      case 'restart':
        this.restart();
        return;
      default:
        return;
    }
  }

  /** A fragment of the read call grows the document (its close, when the fragment closed it, follows in {@link callClosed}). */
  callFragment(call: TrackedCall, argumentsDelta: string): void {
    if (!this.reads(call)) return;
    this.call = call;
    if (this.doc === undefined || this.consumed + argumentsDelta.length !== call.rawArguments.length) {
      // the first fragment read, or a replace delta (the wire re-sent the whole text): start over
      this.doc = new JsonDocument(this.config.parser, false);
      this.seenCount = -1;
      this.doc.push(call.rawArguments);
    } else {
      this.doc.push(argumentsDelta);
    }
    this.consumed = call.rawArguments.length;
    this.changed();
  }

  /** The read call closed: its result. */
  callClosed(call: TrackedCall): void {
    if (!this.reads(call)) return;
    this.call = call;
    const doc = this.doc;
    const result = resultOf(
      call,
      (c) => {
        const outcome = doc !== undefined && this.consumed === c.rawArguments.length ? doc.finish() : undefined;
        return outcome?.kind === 'ok' ? { ok: true, value: outcome.value } : parseArguments(c.rawArguments);
      },
      this.config.calls.repair,
    );
    if (result.success) this.succeed(result.data.arguments, callContext(call));
    else this.settle(fail(result.error));
  }

  /** The stream failed: the document is incomplete (when anything was received). */
  private cut(reason: IncompleteReason): void {
    if (!this.finished && this.started) this.settle(fail(new ToolStreamError('incomplete', { toolCall: this.context(), reason, ...this.source() })));
  }

  /** Whether this stage reads `call` (`fromTool`: the first call of the choice with that name). */
  private reads(call: TrackedCall): boolean {
    if (this.config.fromTool === undefined || this.finished) return false;
    if (this.call !== undefined) return this.call.seq === call.seq;
    return call.choice === this.config.choice && call.name === this.config.fromTool;
  }

  private restart(): void {
    if (this.doc === undefined) return;
    this.doc = undefined;
    this.seenCount = -1;
    this.emittedElements = 0;
    const shown = this.shown;
    this.shown = undefined;
    this.shownPath = [];
    if (shown !== undefined) this.out.next(this.partial());
  }

  /** `source: 'text'` on errors about the text. */
  private source(): { readonly source?: 'text' } {
    return this.config.fromTool === undefined ? { source: 'text' } : {};
  }

  private context(): ToolCallContext {
    if (this.call !== undefined) return callContext(this.call);
    const text = this.doc?.text ?? '';
    return this.config.fromTool === undefined
      ? { id: 'text', name: '', index: 0, choice: this.config.choice, rawArguments: text }
      : { id: '', name: this.config.fromTool, index: 0, choice: this.config.choice, rawArguments: text };
  }

  /** An update with the identity and the last value shown, and `fields`. */
  private update(type: 'element' | 'result', fields: Readonly<Record<string, unknown>>): Emitted {
    return { ...this.partial(), type, ...fields };
  }

  /** A `'partial'` update of the value shown: one per visible change, so built without spreads. */
  private partial(): Emitted {
    const call = this.call;
    const choice = this.config.choice;
    if (call === undefined) return { type: 'partial', choice, value: this.shown, openPath: this.shownPath };
    const toolCall: CallIdentity = { id: call.id, name: call.name, index: call.index, choice: call.choice };
    return { type: 'partial', choice, toolCall, value: this.shown, openPath: this.shownPath };
  }

  /** After a push: a partial value when something visible changed, then the elements it completed. */
  private changed(): void {
    const doc = this.doc as JsonDocument;
    if (doc.malformed) return; // partial values stop
    const parser = doc.parser;
    if (parser.changeCount === this.seenCount && !parser.pending) return;
    this.seenCount = parser.changeCount;
    const value = doc.value;
    if (value === undefined || (value === this.shown && this.config.parser.snapshots !== 'live')) return;
    this.shown = value;
    this.shownPath = doc.openPath;
    this.out.next(this.partial());
    this.elements(value, this.shownPath);
  }

  /** EventSink the elements of the `elements` array that are complete in `value` and not emitted yet. */
  private elements(value: unknown, open: JsonPath | undefined): void {
    const path = this.config.elements;
    if (path === undefined) return;
    const array = at(value, path);
    if (!Array.isArray(array)) return;
    const count = completeCount(array, path, open);
    const schema = this.config.elementSchema;
    for (let index = this.emittedElements; index < count; index++) {
      const element: unknown = array[index];
      const checked = schema === undefined ? ok(element) : validateArguments(schema, element, this.context());
      const make = (result: Result<unknown, unknown>): Emitted => this.update('element', { index, result: withSource(result, this.source()) });
      this.out.next(isPromiseLike(checked) ? Promise.resolve(checked).then(make) : make(checked));
    }
    if (count > this.emittedElements) this.emittedElements = count;
  }

  /** The text's document ends: at the choice's finish (`cut`: a finish that cut it), the terminator or the end of the input (`ended`). */
  private settleText(cut: IncompleteReason | undefined, ended: boolean): void {
    if (this.finished || !this.started) return;
    const doc = this.doc;
    const outcome = doc === undefined ? ({ kind: 'cut', message: 'no JSON document in the text', position: 0 } as const) : doc.finish();
    const toolCall = this.context();
    if (outcome.kind === 'ok') return this.succeed(outcome.value, toolCall);
    if (outcome.kind === 'cut' && (cut !== undefined || ended)) return this.settle(fail(new ToolStreamError('incomplete', { toolCall, reason: cut ?? 'stream-ended', source: 'text' })));
    this.settle(fail(new ToolStreamError('malformed-arguments', { toolCall, parseError: outcome.message, position: outcome.position, source: 'text' })));
  }

  /** The document parsed: its last elements, then its result (validated by the schema). */
  private succeed(value: unknown, toolCall: ToolCallContext): void {
    this.shown = value;
    this.shownPath = undefined;
    this.elements(value, undefined);
    const schema = this.config.schema;
    if (schema === undefined) return this.settle(ok(value));
    const checked = validateArguments(schema, value, toolCall);
    const source = this.source();
    this.settle(isPromiseLike(checked) ? Promise.resolve(checked).then((r) => withSource(r, source)) : withSource(checked, source));
  }

  private settle(result: Result<unknown, unknown> | Promise<Result<unknown, unknown>>): void {
    this.finished = true;
    this.out.next(isPromiseLike(result) ? result.then((r) => this.update('result', { result: r })) : this.update('result', { result }));
  }
}

/** A validation failure about the text carries `source: 'text'` (a new error: its message names the text). */
function withSource<R extends Result<unknown, unknown>>(result: R, source: { readonly source?: 'text' }): R {
  if (result.success || source.source === undefined || !isToolStreamError(result.error, 'invalid-arguments')) return result;
  const error = result.error;
  return fail(new ToolStreamError('invalid-arguments', { toolCall: error.toolCall, issues: error.issues, value: error.value, source: 'text' })) as R;
}

/** What the reader emits: one update (typed by `partialObject()`). */
type Emitted = Readonly<Record<string, unknown>>;

/**
 * Emits values in order, holding later ones while an earlier one is a pending Promise; completion
 * and errors wait for what is pending.
 */
class OrderedOut implements Observer<Emitted | Promise<Emitted>> {
  private readonly queue: Array<Emitted | Promise<Emitted>> = [];
  private waiting = false;
  private ending: { readonly error: boolean; readonly value: unknown } | undefined;

  constructor(private readonly subscriber: Subscriber<Emitted>) {}

  next(value: Emitted | Promise<Emitted>): void {
    if (this.queue.length === 0 && !isPromiseLike(value)) this.subscriber.next(value);
    else {
      this.queue.push(value);
      this.drain();
    }
  }

  error(error: unknown): void {
    this.ending = { error: true, value: error };
    this.drain();
  }

  complete(): void {
    this.ending = { error: false, value: undefined };
    this.drain();
  }

  private drain(): void {
    const subscriber = this.subscriber;
    while (this.queue.length > 0 && !subscriber.closed) {
      const head = this.queue[0] as Emitted | Promise<Emitted>;
      if (isPromiseLike(head)) {
        if (this.waiting) return;
        this.waiting = true;
        head.then(
          (value) => {
            this.waiting = false;
            this.queue[0] = value;
            this.drain();
          },
          (error: unknown) => subscriber.error(error),
        );
        return;
      }
      this.queue.shift();
      subscriber.next(head);
    }
    if (this.queue.length > 0 || this.ending === undefined) return;
    if (this.ending.error) subscriber.error(this.ending.value);
    else subscriber.complete();
  }
}
