/**
 * fast-check generators of {@link StreamEvent} sequences as the decoders produce them: text and
 * reasoning pieces, tool calls in three wire styles (indexed and interleaved like chat, nameless
 * continuations without an index like Mistral, whole replace-and-end like Gemini), arguments split
 * anywhere (sometimes cut short), a finish, usage and the terminator.
 */
import fc from 'fast-check';
import type { FinishReason, StreamEvent } from 'rxjs-tool-calls';

/**
 * How the calls of a stream are identified on the wire: `indexed` (chat, Anthropic, Cohere: an
 * index on every fragment, interleaved), `continuation` (Mistral, legacy `function_call`: nothing on
 * later fragments), `whole` (Gemini parts: one replace and the end), `restated` (Responses: the
 * fragments, then the whole text again as a replace), `prefilled` (Anthropic `input` in the block
 * start, superseded by fragments that follow anyway).
 */
export type CallStyle = 'indexed' | 'continuation' | 'whole' | 'restated' | 'prefilled';

interface CallModel {
  readonly name: string;
  readonly text: string;
  /** Cut points into `text` (sorted, deduplicated). */
  readonly cuts: number[];
}

export interface StreamModel {
  readonly style: CallStyle;
  readonly calls: ReadonlyArray<CallModel>;
  /** Text / reasoning pieces, and where they go among the call fragments. */
  readonly pieces: ReadonlyArray<{ readonly kind: 'text' | 'reasoning'; readonly text: string; readonly at: number }>;
  /** Which call the next fragment comes from (interleaving, indexed style only). */
  readonly order: ReadonlyArray<number>;
  /** Indexed style: end each call with `tool-call-end` (Anthropic, Responses) or not (chat). */
  readonly ends: boolean;
  readonly finish: FinishReason | undefined;
  readonly usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number; reasoningTokens?: number; cachedInputTokens?: number } | undefined;
}

const words = fc.constantFrom('Paris', "it's", 'é', '😀', ' ', '\n', '"q"', '\\', '{', '中文', 'ok');
const piece = fc.array(words, { minLength: 1, maxLength: 4 }).map((w) => w.join(''));
const jsonArgs = fc.dictionary(fc.constantFrom('city', 'q', 'n', 'tags', 'é'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((v) => JSON.stringify(v));

const call: fc.Arbitrary<CallModel> = fc
  .record({
    name: fc.constantFrom('get_weather', 'search', 'run_query'),
    text: fc.oneof({ weight: 6, arbitrary: jsonArgs }, { weight: 1, arbitrary: jsonArgs.map((t) => t.slice(0, Math.max(1, t.length - 2))) }, { weight: 1, arbitrary: fc.constant('') }),
    cuts: fc.array(fc.nat({ max: 400 }), { maxLength: 6 }),
  })
  .map((c) => ({ ...c, cuts: [...new Set(c.cuts.filter((n) => n > 0 && n < c.text.length))].sort((a, b) => a - b) }));

const count = fc.nat({ max: 5000 });

export const streamModel: fc.Arbitrary<StreamModel> = fc.record({
  style: fc.constantFrom<CallStyle>('indexed', 'continuation', 'whole', 'restated', 'prefilled'),
  calls: fc.array(call, { maxLength: 4 }),
  pieces: fc.array(fc.record({ kind: fc.constantFrom<'text' | 'reasoning'>('text', 'reasoning'), text: piece, at: fc.nat({ max: 30 }) }), { maxLength: 5 }),
  order: fc.array(fc.nat({ max: 3 }), { maxLength: 40 }),
  ends: fc.boolean(),
  finish: fc.option(fc.constantFrom<FinishReason>('stop', 'tool-calls', 'length', 'content-filter'), { nil: undefined }),
  // Normalised usage, as every decoder emits it: the cached tokens are part of the input, the
  // reasoning part of the output (so each part comes with its whole), the total is their sum.
  usage: fc.option(
    fc
      .record(
        {
          inputTokens: count,
          outputTokens: count,
          reasoningShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
          cachedShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
          total: fc.boolean(),
        },
        { requiredKeys: [] },
      )
      .map(({ inputTokens, outputTokens, reasoningShare, cachedShare, total }) => ({
        ...(inputTokens === undefined ? {} : { inputTokens }),
        ...(outputTokens === undefined ? {} : { outputTokens }),
        ...(total === true && inputTokens !== undefined && outputTokens !== undefined ? { totalTokens: inputTokens + outputTokens } : {}),
        ...(outputTokens !== undefined && reasoningShare !== undefined ? { reasoningTokens: Math.floor(outputTokens * reasoningShare) } : {}),
        ...(inputTokens !== undefined && cachedShare !== undefined ? { cachedInputTokens: Math.floor(inputTokens * cachedShare) } : {}),
      }))
      // A decoder emits no usage event without a count.
      .filter((usage) => Object.keys(usage).length > 0),
    { nil: undefined },
  ),
});

/** The fragments of one call's text. */
function fragments(c: CallModel): string[] {
  const out: string[] = [];
  let from = 0;
  for (const cut of [...c.cuts, c.text.length]) {
    out.push(c.text.slice(from, cut));
    from = cut;
  }
  return out;
}

/** The events of a model, as a decoder would emit them. */
export function eventsOf(model: StreamModel): StreamEvent[] {
  const fragmentEvents: StreamEvent[] = [];
  const calls = model.calls.map((c, i) => ({ ...c, i, id: `call_${i}`, rest: fragments(c) }));
  if (model.style === 'whole') {
    for (const c of calls) {
      fragmentEvents.push({ type: 'tool-call-delta', choice: 0, index: c.i, name: c.name, argumentsDelta: c.text, replace: true });
      fragmentEvents.push({ type: 'tool-call-end', choice: 0, index: c.i });
    }
  } else if (model.style === 'restated' || model.style === 'prefilled') {
    for (const c of calls) {
      const opening = { type: 'tool-call-delta', choice: 0, index: c.i, id: c.id, name: c.name } as const;
      if (model.style === 'prefilled') fragmentEvents.push({ ...opening, argumentsDelta: '{"prefilled":true}', replace: true });
      c.rest.forEach((argumentsDelta, k) => {
        if (k === 0) fragmentEvents.push(model.style === 'prefilled' && argumentsDelta !== '' ? { ...opening, argumentsDelta, replace: true } : { ...opening, argumentsDelta });
        else fragmentEvents.push({ type: 'tool-call-delta', choice: 0, index: c.i, argumentsDelta });
      });
      if (model.style === 'restated') fragmentEvents.push({ type: 'tool-call-delta', choice: 0, index: c.i, id: c.id, argumentsDelta: c.text, replace: true });
      fragmentEvents.push({ type: 'tool-call-end', choice: 0, index: c.i, id: c.id });
    }
  } else if (model.style === 'continuation') {
    // One call after the other; the first fragment names it, the rest carry neither id nor index.
    for (const c of calls) {
      c.rest.forEach((argumentsDelta, k) =>
        fragmentEvents.push(k === 0 ? { type: 'tool-call-delta', choice: 0, id: c.id, name: c.name, argumentsDelta } : { type: 'tool-call-delta', choice: 0, argumentsDelta }),
      );
    }
  } else {
    const started = new Set<number>();
    const open = calls.filter((c) => c.rest.length > 0);
    let k = 0;
    while (open.length > 0) {
      const at = (model.order[k++] ?? 0) % open.length;
      const c = open[at];
      if (c === undefined) break;
      const argumentsDelta = c.rest.shift() ?? '';
      if (started.has(c.i)) fragmentEvents.push({ type: 'tool-call-delta', choice: 0, index: c.i, argumentsDelta });
      else fragmentEvents.push({ type: 'tool-call-delta', choice: 0, index: c.i, id: c.id, name: c.name, argumentsDelta });
      started.add(c.i);
      if (c.rest.length === 0) {
        open.splice(at, 1);
        if (model.ends) fragmentEvents.push({ type: 'tool-call-end', choice: 0, index: c.i, id: c.id });
      }
    }
  }
  // Text and reasoning go anywhere among the fragments (not inside a nameless continuation run).
  const events: StreamEvent[] = [{ type: 'metadata', provider: 'openai-chat', responseId: 'src_1', model: 'model-x' }];
  const pieces = [...model.pieces].sort((a, b) => a.at - b.at);
  const textFirst = model.style === 'continuation';
  fragmentEvents.forEach((event, position) => {
    while (pieces.length > 0 && (textFirst || (pieces[0]?.at ?? 0) <= position)) {
      const p = pieces.shift();
      if (p !== undefined) events.push(p.kind === 'text' ? { type: 'text-delta', choice: 0, text: p.text } : { type: 'reasoning-delta', choice: 0, text: p.text });
    }
    events.push(event);
  });
  for (const p of pieces) events.push(p.kind === 'text' ? { type: 'text-delta', choice: 0, text: p.text } : { type: 'reasoning-delta', choice: 0, text: p.text });
  if (model.finish !== undefined) events.push({ type: 'finish', choice: 0, reason: model.finish, rawReason: model.finish });
  if (model.usage !== undefined) events.push({ type: 'usage', raw: model.usage, ...model.usage });
  events.push({ type: 'done' });
  return events;
}
