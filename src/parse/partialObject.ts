/**
 * `partialObject()`: structured output that streams. The JSON a model writes as its answer (or as
 * one forced tool call's arguments), as typed partial values, complete array elements and one result.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import { type CallIdentity, type ToolStreamError } from '../errors';
import type { StreamEvent } from '../events';
import type { TrackerOptions } from '../accumulate/trackedCall';
import type { Result } from '../result';
import type { DeepPartial } from './deepPartial';
import { maxPartialDepthOf, type JsonPath } from './partialJson';
import { keepResident } from '../internal/resident';
import { selfEndingStageOperator } from '../internal/stage';
import { OrderedOut, type Emitted } from './orderedOut';
import { ObjectStage } from './partialObjectStage';
import type { StandardSchemaV1 } from './standardSchema';

/** Options of {@link partialObject}. */
export interface PartialObjectOptions<S extends StandardSchemaV1 = StandardSchemaV1<unknown>, E extends StandardSchemaV1 = StandardSchemaV1<unknown>> extends TrackerOptions {
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
   */
  readonly fromTool?: string;
  /**
   * Emit each element of an array once it is complete: `true` for an array at the root, or the
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
 *    nothing is guessed. With `fromTool`, reads the first call of that tool instead.
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
 * import { z } from 'zod';
 * import { partialObject } from 'rxjs-tool-calls';
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
  const elements = options.elements;
  const config = {
    ...options,
    parser: { allowPartialLiterals: options.allowPartialLiterals === true, snapshots: options.snapshots ?? 'immutable', maxPartialDepth: maxPartialDepthOf(options.maxPartialDepth) },
    choice: options.choice ?? 0,
    fromTool: options.fromTool,
    schema: options.schema,
    elements: elements === true ? [] : elements,
    elementSchema: options.elementSchema,
  } as const;
  const read = selfEndingStageOperator<StreamEvent, Emitted>((subscriber) => {
    keepResident(partialObject, 'text', partialObject, residentText, wholeText);
    return new ObjectStage(new OrderedOut(subscriber), config);
  });
  return read as unknown as OperatorFunction<StreamEvent, PartialObjectUpdate<StandardSchemaV1.InferOutput<S>, StandardSchemaV1.InferOutput<E>>>;
}

/** What the resident stream of `partialObject()` reads (`internal/resident.ts`): a document left open inside a string. */
function residentText(): readonly StreamEvent[] {
  return [
    { type: 'text-delta', choice: 0, text: '{"a":"x' },
    { type: 'text-delta', choice: 0, text: 'y","n":[1,2.5,true,null],"s":"' },
  ];
}

/** The warm-up of `partialObject()` (`internal/resident.ts`): the resident's document, completed. */
function wholeText(): readonly StreamEvent[] {
  return [...residentText(), { type: 'text-delta', choice: 0, text: 'z","o":{}}' }, { type: 'finish', choice: 0, reason: 'stop', rawReason: 'stop' }, { type: 'done' }];
}
