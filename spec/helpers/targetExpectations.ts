/**
 * What each target format keeps of a stream, stated once: the expectations of the round-trip specs
 * (calls, their order, finish reasons and usage a reader of the encoded stream gets).
 */
import type { FinishReason } from 'rxjs-tool-calls';
import { parseArguments } from 'rxjs-tool-calls/advanced';
import type { CallView, Target, View } from './reencode';

/** Finish reasons that explain arguments cut short (the readers' rule): `incomplete`, not malformed. */
const CUT: ReadonlyArray<FinishReason | undefined> = ['length', 'content-filter', 'error'];

/**
 * The calls a reader of the encoded stream gets (in the message's order), from the original's:
 * - Gemini carries only runnable calls, and their arguments as a JSON object (re-serialised: the
 *   raw text is not kept, the parsed value is), in the order they closed. Failed and cut calls are
 *   left out; ids the source did not send are not invented.
 * - Anthropic marks a cut call itself (no `content_block_stop`): every outcome is kept. So does the
 *   Interactions API (no `step.stop`, and the interaction then ends `incomplete`).
 * - Responses marks cut calls only with `response.incomplete` (length, content-filter): a call the
 *   source cut under another finish is read as it is; under `response.incomplete`, a call with empty
 *   arguments is read as cut too (a reader holds such a call until the end).
 * - Chat has no end of a call: every call closes with its choice's finish, so a call whose text does
 *   not parse is `incomplete` when that finish explains a cut (length, content-filter, error), else
 *   `malformed-arguments`, whatever the source said; a cut call whose text parses is a success.
 * - A call still open when the stream failed (a provider error) is cut in every format.
 * - A `tool-calls` finish without calls (`missing-tool-calls`) is carried by chat and Anthropic,
 *   whose finish reasons say it; a Responses or Gemini reader takes such a finish as `stop`.
 */
export function expectedCalls(target: Target, original: View): CallView[] {
  if (target === 'gemini') {
    // Written whole when they close: a reader sees them in closing order. Ids the source never sent
    // are not invented (the reader generates its own): compared as `(generated)`.
    const byId = new Map(original.calls.map((c) => [c.id, c]));
    return original.closing
      .map((id) => byId.get(id))
      .filter((c): c is CallView => c !== undefined && c.outcome === 'ok' && isObject(c.arguments))
      .map((c) => ({
        ...c,
        id: original.generated.has(c.id) ? '(generated)' : c.id,
        rawArguments: JSON.stringify(c.arguments),
      }));
  }
  if (target === 'anthropic' || target === 'gemini-interactions') return original.calls;
  if (target === 'openai-responses') {
    const cut = original.finish === 'length' || original.finish === 'content-filter';
    return original.calls
      .filter((c) => c.outcome !== 'missing-tool-calls')
      .map((c) => {
        // A reader holds a call with empty arguments until the end (the real ones may come with
        // `response.completed`): `response.incomplete` then cuts it.
        if (cut && c.rawArguments === '' && c.outcome === 'ok') return { id: c.id, name: c.name, rawArguments: '', outcome: 'incomplete' };
        return c.outcome !== 'incomplete' || cut || original.error !== undefined ? c : readAsItIs(c, undefined);
      });
  }
  // Chat: every call closes with its choice's finish, so the finish decides for every unparseable
  // text — unless the stream failed: the calls still open then are cut by the failure, in any format.
  return original.calls.map((c) => ((c.outcome === 'incomplete' && original.error === undefined) || c.outcome === 'malformed-arguments' ? readAsItIs(c, original.finish) : c));
}

/** A call's text read as it is, closed by `finish`: a success when it parses, cut when the finish explains it, else malformed. */
function readAsItIs(c: CallView, finish: FinishReason | undefined): CallView {
  const parsed = parseArguments(c.rawArguments);
  if (parsed.ok) return { ...c, arguments: parsed.value, outcome: 'ok' };
  return { ...c, outcome: CUT.includes(finish) ? 'incomplete' : 'malformed-arguments' };
}

/**
 * The order in which a reader of the encoded stream gets its results (each when its call closes),
 * cut calls left out (Anthropic and Responses close those at the very end). Chat closes every call
 * at its choice's end, so its results come in order of first sight; Anthropic and Responses close
 * each call as the source did, except that a Responses reader holds a call with empty arguments
 * until `response.completed` (servers send the real ones there); Gemini writes each call when it
 * closes.
 */
export function expectedClosing(target: Target, original: View): string[] {
  const expected = expectedCalls(target, original);
  if (target === 'openai-chat' || target === 'gemini') return expected.filter((c) => c.outcome !== 'incomplete').map((c) => c.id);
  const cut = new Set(expected.filter((c) => c.outcome === 'incomplete').map((c) => c.id));
  const kept = new Set(expected.map((c) => c.id));
  const order = original.closing.filter((id) => !cut.has(id) && kept.has(id));
  if (target === 'anthropic' || target === 'gemini-interactions') return order;
  const empty = new Set(expected.filter((c) => c.rawArguments === '').map((c) => c.id));
  return [...order.filter((id) => !empty.has(id)), ...expected.filter((c) => empty.has(c.id) && !cut.has(c.id)).map((c) => c.id)];
}

/** The closing order of a reader of the encoded stream, as {@link expectedClosing} states it. */
export function actualClosing(target: Target, encoded: View): string[] {
  if (target === 'gemini') return encoded.closing.map((id) => (encoded.generated.has(id) ? '(generated)' : id));
  const cut = new Set(encoded.calls.filter((c) => c.outcome === 'incomplete').map((c) => c.id));
  return encoded.closing.filter((id) => !cut.has(id));
}

/** The calls of a reader of the encoded stream, as {@link expectedCalls} states them (Gemini: generated ids as `(generated)`). */
export function actualCalls(target: Target, encoded: View): CallView[] {
  if (target !== 'gemini') return encoded.calls;
  return encoded.calls.map((c) => (encoded.generated.has(c.id) ? { ...c, id: '(generated)' } : c));
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The finish a reader of the encoded stream gets. A source that never finished gets `tool-calls`
 * (calls) or `stop`. Then per target: Anthropic has no `error` stop reason (the source's string is
 * passed, read as `other`); Responses has only `completed` (read as `tool-calls` when the output has
 * a call, else `stop`) and `incomplete` (length, content-filter); Gemini ends tool calls with `STOP`
 * (read as `stop`; as `tool-calls` by a decoder that normalises `STOP` after function calls) and has no `error`.
 * The Interactions API ends with a status: `requires_action` (tool-calls), `completed` (read as
 * `tool-calls` when the output has a call, else `stop`), `incomplete` (length) for every cut — and
 * for any call the source left cut, whatever its finish.
 */
export function expectedFinish(target: Target, original: View, encodedHasCalls: boolean): ReadonlyArray<FinishReason> {
  const reason: FinishReason = original.finish ?? (original.calls.length > 0 ? 'tool-calls' : 'stop');
  switch (target) {
    case 'openai-chat':
      return [reason];
    case 'anthropic':
      return [reason === 'error' ? 'other' : reason];
    case 'openai-responses':
      return [reason === 'length' || reason === 'content-filter' ? reason : encodedHasCalls ? 'tool-calls' : 'stop'];
    case 'gemini':
      if (reason === 'stop' || reason === 'tool-calls') return encodedHasCalls ? ['stop', 'tool-calls'] : ['stop'];
      return [reason === 'error' ? 'other' : reason];
    case 'gemini-interactions':
      if (original.calls.some((c) => c.outcome === 'incomplete')) return ['length'];
      if (reason === 'tool-calls') return ['tool-calls'];
      if (reason === 'stop' || reason === 'other') return [encodedHasCalls ? 'tool-calls' : 'stop'];
      return ['length'];
  }
}

/**
 * The usage a reader of the encoded stream gets (the last usage event): the same counts; the total
 * computed as input + output where the source sent none (Anthropic has no total field: always
 * computed); Anthropic always writes input and output counts (0 when unknown); only Anthropic
 * carries cache writes.
 */
export function expectedUsage(target: Target, original: View): View['usage'] {
  const u = original.usage;
  if (target === 'anthropic') {
    const { totalTokens: _total, ...rest } = u ?? {};
    const inputTokens = u?.inputTokens ?? 0;
    const outputTokens = u?.outputTokens ?? 0;
    // Anthropic sends no total: the reader computes it.
    return { ...rest, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  }
  if (u === undefined) return undefined;
  // Only Anthropic has a field for cache writes (they stay counted in the input).
  const { cacheWriteInputTokens: _write, ...kept } = u;
  // Gemini writes the thoughts beside the candidates: read back, they are output (reasoning is part of it).
  const carried =
    (target === 'gemini' || target === 'gemini-interactions') && kept.outputTokens === undefined && kept.reasoningTokens !== undefined ? { ...kept, outputTokens: kept.reasoningTokens } : kept;
  const total = carried.totalTokens ?? (carried.inputTokens !== undefined && carried.outputTokens !== undefined ? carried.inputTokens + carried.outputTokens : undefined);
  return total === undefined ? carried : { ...carried, totalTokens: total };
}
