/**
 * Gemini Interactions API streams of our own making, in the shape the API sends (an `event:` line
 * named by the payload's `event_type`, the payload's fields in the wire's order, `event_type` last):
 * one turn described as data, written as SSE text; and a fast-check arbitrary of such turns.
 */
import fc from 'fast-check';
import { geminiInteractionsEvent } from 'rxjs-tool-calls/marbles';

/** One function call of a turn: its arguments in the pieces they stream in. */
export interface InteractionsCall {
  readonly id: string;
  readonly name: string;
  /** The `arguments_delta` pieces (their concatenation is the arguments' JSON). */
  readonly pieces: ReadonlyArray<string>;
  /** The step's `signature` (`''` as the API sends when it has none). */
  readonly signature?: string;
}

/** One interaction, as data. */
export interface InteractionsTurn {
  readonly id?: string;
  readonly model?: string;
  /** A thought step first: its summary pieces and its signature. */
  readonly thought?: { readonly summary: ReadonlyArray<string>; readonly signature?: string | undefined } | undefined;
  /** A `model_output` step's text pieces (before the calls). */
  readonly text?: ReadonlyArray<string>;
  readonly calls?: ReadonlyArray<InteractionsCall>;
  /** The final status. Default: `requires_action` with calls, else `completed`. */
  readonly status?: string;
  /** Also send the final status in an `interaction.status_update` before `interaction.completed`. */
  readonly statusUpdate?: boolean;
  /** Number every event's `event_id` (`evt_1`, `evt_2`, …). */
  readonly eventIds?: boolean;
  readonly usage?: Readonly<Record<string, unknown>>;
}

/** The events of a turn, in order, as `[event_type, payload]` (the payload without `event_type`). */
export function interactionsEvents(turn: InteractionsTurn): Array<[string, Record<string, unknown>]> {
  const id = turn.id ?? 'v1_turn';
  const model = turn.model ?? 'gemini-3-flash-preview';
  const calls = turn.calls ?? [];
  const status = turn.status ?? (calls.length > 0 ? 'requires_action' : 'completed');
  const out: Array<[string, Record<string, unknown>]> = [];
  out.push(['interaction.created', { interaction: { id, status: 'in_progress', object: 'interaction', model } }]);
  out.push(['interaction.status_update', { interaction_id: id, status: 'in_progress' }]);
  let index = 0;
  if (turn.thought !== undefined) {
    out.push(['step.start', { index, step: { type: 'thought' } }]);
    for (const text of turn.thought.summary) out.push(['step.delta', { index, delta: { content: { type: 'text', text }, type: 'thought_summary' } }]);
    if (turn.thought.signature !== undefined) out.push(['step.delta', { index, delta: { signature: turn.thought.signature, type: 'thought_signature' } }]);
    out.push(['step.stop', { index }]);
    index++;
  }
  if (turn.text !== undefined && turn.text.length > 0) {
    out.push(['step.start', { index, step: { type: 'model_output' } }]);
    for (const text of turn.text) out.push(['step.delta', { index, delta: { text, type: 'text' } }]);
    out.push(['step.stop', { index }]);
    index++;
  }
  for (const call of calls) {
    out.push(['step.start', { index, step: { id: call.id, signature: call.signature ?? '', type: 'function_call', name: call.name, arguments: {} } }]);
    for (const piece of call.pieces) out.push(['step.delta', { index, delta: { arguments: piece, type: 'arguments_delta' } }]);
    out.push(['step.stop', { index }]);
    index++;
  }
  const usage = turn.usage === undefined ? {} : { usage: turn.usage };
  if (turn.statusUpdate === true) out.push(['interaction.status_update', { interaction_id: id, status, ...usage }]);
  out.push(['interaction.completed', { interaction: { id, status, ...usage, object: 'interaction', model } }]);
  return turn.eventIds === true ? out.map(([type, payload], i): [string, Record<string, unknown>] => [type, { ...payload, event_id: `evt_${i + 1}` }]) : out;
}

/** A turn as the SSE text the API sends. */
export function interactionsStream(turn: InteractionsTurn): string {
  return interactionsEvents(turn)
    .map(([type, payload]) => geminiInteractionsEvent(type, payload))
    .join('');
}

/** A JSON value's text cut into 1–`max`-character pieces at the points fast-check picks. */
const piecesOf = (json: string): fc.Arbitrary<string[]> =>
  fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 40 }).map((sizes) => {
    const out: string[] = [];
    let at = 0;
    for (const size of sizes) {
      if (at >= json.length) break;
      out.push(json.slice(at, at + size));
      at += size;
    }
    if (at < json.length) out.push(json.slice(at));
    return out;
  });

/** Argument objects with awkward strings: quotes, escapes, multi-byte characters. */
const argumentsArb = fc.dictionary(fc.constantFrom('city', 'units', 'q', 'path', 'note', 'n'), fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.integer(), fc.boolean()), { maxKeys: 4 });

/** An arbitrary turn: a thought, text, 0–3 calls with their arguments in random pieces, its status. */
export const interactionsTurnArb: fc.Arbitrary<InteractionsTurn> = fc
  .record({
    thought: fc.option(
      fc.record({
        summary: fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }), { maxLength: 3 }),
        signature: fc.option(fc.base64String({ minLength: 4, maxLength: 24 }), { nil: undefined }),
      }),
      { nil: undefined },
    ),
    text: fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }), { maxLength: 3 }),
    calls: fc
      .array(fc.tuple(fc.constantFrom('get_weather', 'get_time', 'search'), argumentsArb), { maxLength: 3 })
      .chain((calls) => fc.tuple(...calls.map(([name, args], i) => piecesOf(JSON.stringify(args)).map((pieces): InteractionsCall => ({ id: `call_${i}_${name.length}`, name, pieces }))))),
    statusUpdate: fc.boolean(),
    eventIds: fc.boolean(),
  })
  .map((turn) => ({ ...turn, usage: { total_input_tokens: 11, total_output_tokens: 7, total_thought_tokens: 3, total_tokens: 21 } }));
