/**
 * The stage behind `partialObject()`: one JSON document from a choice's text (or one tool call's
 * arguments), its partial values, its complete array elements and its result.
 *
 * @module
 */
import type { Observer } from 'rxjs';
import { ToolStreamError, isToolStreamError, type CallIdentity, type IncompleteReason, type ToolCallContext } from '../errors';
import type { StreamEvent } from '../events';
import { callContext, cutReason, DEFAULT_MAX_ARGUMENTS_SIZE, type TrackedCall, type TrackerOptions } from '../accumulate/trackedCall';
import { incompleteReasonOf, TrackingStage } from '../accumulate/trackingStage';
import { fail, ok, type Result } from '../result';
import { parseArguments } from './arguments';
import { JsonDocument } from './jsonDocument';
import type { JsonPath, PartialJsonOptions } from './partialJson';
import { resultOf } from './results';
import type { StandardSchemaV1 } from './standardSchema';
import { isPromiseLike, validateArguments } from './validate';
import type { Emitted } from './orderedOut';

/** The stage's settings, checked by `partialObject()`. */
export interface ObjectStageConfig extends TrackerOptions {
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

/** One document's reader, from text (`fromTool` unset) or from one tool call's arguments. */
export class ObjectStage extends TrackingStage<Emitted | Promise<Emitted>> {
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
    out: Observer<Emitted | Promise<Emitted>>,
    private readonly config: ObjectStageConfig,
  ) {
    super(out, config);
  }

  protected override onEvent(event: StreamEvent): void {
    this.started = true;
    if (this.finished || this.config.fromTool !== undefined) return;
    switch (event.type) {
      case 'text-delta': {
        if (event.choice !== this.config.choice || event.text === '') return;
        const doc = (this.doc ??= new JsonDocument(this.config.parser, true));
        const limit = this.config.maxArgumentsSize ?? DEFAULT_MAX_ARGUMENTS_SIZE;
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

  protected override fragment(call: TrackedCall, argumentsDelta: string, closed: boolean): void {
    if (!this.reads(call)) return super.fragment(call, argumentsDelta, closed);
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
    if (closed) this.closed(call);
  }

  protected closed(call: TrackedCall): void {
    if (!this.reads(call)) return;
    this.call = call;
    const doc = this.doc;
    const result = resultOf(
      call,
      (c) => {
        const outcome = doc !== undefined && this.consumed === c.rawArguments.length ? doc.finish() : undefined;
        return outcome?.kind === 'ok' ? { ok: true, value: outcome.value } : parseArguments(c.rawArguments);
      },
      this.config.repairArguments !== false,
    );
    if (result.success) this.succeed(result.data.arguments, callContext(call));
    else this.settle(fail(result.error));
  }

  protected override end(): void {
    super.end();
    if (this.config.fromTool === undefined) this.settleText(undefined, true);
    else if (!this.finished && this.started)
      this.settle(fail(new ToolStreamError('malformed-arguments', { toolCall: this.context(), parseError: `no call of the tool ${JSON.stringify(this.config.fromTool)}` })));
  }

  protected override interrupt(error: unknown): boolean {
    super.interrupt(error);
    this.cut(incompleteReasonOf(error));
    return false;
  }

  protected override stop(error: unknown): void {
    this.cut(incompleteReasonOf(error));
    super.stop(error);
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

  /** Emit the elements of the `elements` array that are complete in `value` and not emitted yet. */
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
