/**
 * The stage behind `partialToolCalls()`: every call's incremental parser, its partial values, and
 * its last value with the result, in one pass over the events (one object per value, no operator
 * between the tracker and the values).
 *
 * @module
 */
import type { Observer } from 'rxjs';
import type { TrackedCall, TrackerOptions } from '../accumulate/trackedCall';
import { TrackingStage } from '../accumulate/trackingStage';
import { parseArguments } from './arguments';
import { PartialJsonParser, type JsonPath, type PartialJsonOptions } from './partialJson';
import type { PartialToolCall } from './partialToolCalls';
import { resultOf } from './results';

const EMPTY: Readonly<Record<string, never>> = /* @__PURE__ */ Object.freeze({});

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

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

/** Partial values per fragment, and each call's last value with its result. */
export class PartialCallsStage extends TrackingStage<PartialToolCall> {
  private readonly repair: boolean;
  private readonly live: boolean;
  private readonly views = new Map<number, CallView>();

  /**
   * @param out Where the values go.
   * @param options Limits, the id generator and `repairArguments`.
   * @param parserOptions The parsers' options (`snapshots`, `allowPartialLiterals`, `maxPartialDepth`).
   */
  constructor(
    out: Observer<PartialToolCall>,
    options: TrackerOptions & { readonly repairArguments?: boolean },
    private readonly parserOptions: PartialJsonOptions,
  ) {
    super(out, options);
    this.repair = options.repairArguments !== false;
    this.live = parserOptions.snapshots === 'live';
  }

  protected override fragment(call: TrackedCall, argumentsDelta: string, closed: boolean): void {
    if (closed) return this.closed(call);
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
  protected closed(call: TrackedCall): void {
    const view = this.views.get(call.seq);
    this.views.delete(call.seq);
    const result = resultOf(
      call,
      (c) => {
        const parser = view?.parser;
        if (parser !== undefined && view?.consumed === c.rawArguments.length && parser.error === undefined && parser.done) return { ok: true, value: parser.value };
        return parseArguments(c.rawArguments);
      },
      this.repair,
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
}
