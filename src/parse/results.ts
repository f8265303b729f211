/**
 * The result step: a closed call becomes its {@link ToolCallResult} (parsed arguments or a typed
 * error), the one result builder every reader uses.
 *
 * @module
 */
import { ToolStreamError } from '../errors';
import { parseArguments, type ParsedArguments } from './arguments';
import { repairArguments } from './repair';
import type { FinishReason } from '../events';
import { fail, ok, type ToolCall, type ToolCallResult } from '../result';
import { callContext, cutReason, type TrackedCall } from '../calls/call';

/** Provider metadata of a call, plus the wire id when the call's id differs from it, and ids and indices that were folded into it. */
function metadataOf(call: TrackedCall): ToolCall['providerMetadata'] {
  let metadata = call.metadata;
  if (call.wireId !== undefined && call.wireId !== call.id) metadata = { ...metadata, wireId: call.wireId };
  else if (call.wireId === undefined) metadata = { ...metadata, idGenerated: true };
  if (call.otherWireIds !== undefined) metadata = { ...metadata, otherWireIds: [...call.otherWireIds] };
  if (call.otherIndices !== undefined) metadata = { ...metadata, otherIndices: [...call.otherIndices] };
  return metadata;
}

/** Parses a closed call's argument text (the default: `parseArguments(call.rawArguments)`). */
export type ArgumentsParser = (call: TrackedCall) => ParsedArguments;

const defaultParser: ArgumentsParser = (call) => parseArguments(call.rawArguments);

/**
 * The result of a closed call: its parsed arguments, or the typed reason it failed.
 *
 * 1. Closed incomplete or too large → `incomplete` / `arguments-too-large`; the `missing` call of a
 *    choice that finished with `tool-calls` and sent none → `missing-tool-calls`.
 * 2. A custom tool's call (`kind: 'custom'`): its text is its input, never parsed (`arguments` and
 *    `input` are the text); `incomplete` when the choice finished with `length`, `content-filter` or
 *    `error` (the text may be cut).
 * 3. Arguments that do not parse → a repair when the text is one of the unambiguous resend
 *    shapes (`repaired: 'repeated' | 'cumulative'`, unless `repair` is false); else `incomplete`
 *    when the choice finished with `length`, `content-filter` or `error`; else `malformed-arguments`.
 *    A call the reducer split from glued text is `repaired: 'split'`.
 * 4. No name → `missing-name` (a call that cannot be run is never a success).
 */
export function resultOf(call: TrackedCall, parse: ArgumentsParser = defaultParser, repair = true): ToolCallResult {
  const ending = call.ending;
  if (ending === undefined) return fail(new ToolStreamError('incomplete', { toolCall: callContext(call), reason: 'stream-ended' }));
  if (ending.kind === 'incomplete') return fail(new ToolStreamError('incomplete', { toolCall: callContext(call), reason: ending.reason }));
  if (ending.kind === 'too-large') return fail(new ToolStreamError('arguments-too-large', { toolCall: callContext(call), limit: ending.limit }));
  if (ending.kind === 'missing') return fail(new ToolStreamError('missing-tool-calls', { toolCall: callContext(call), rawReason: ending.rawReason }));
  if (call.kind === 'custom') return customResultOf(call, ending.finishReason);
  const parsed = parse(call);
  let value: unknown;
  let repaired: 'repeated' | 'cumulative' | 'split' | undefined = call.split === undefined ? undefined : 'split';
  if (parsed.ok) {
    value = parsed.value;
  } else {
    const fixed = repair ? repairArguments(call.rawArguments, call.fragments >= 2 && call.cumulative ? call.lastFragment : undefined) : undefined;
    if (fixed === undefined) {
      const cut = cutReason(ending.finishReason);
      if (cut !== undefined) return fail(new ToolStreamError('incomplete', { toolCall: callContext(call), reason: cut }));
      return fail(new ToolStreamError('malformed-arguments', { toolCall: callContext(call), parseError: parsed.message, position: parsed.position }));
    }
    value = fixed.value;
    repaired = fixed.repaired;
  }
  if (call.name === '') return fail(new ToolStreamError('missing-name', { toolCall: callContext(call) }));
  const metadata = metadataOf(call);
  const data: ToolCall = {
    id: call.id,
    name: call.name,
    index: call.index,
    choice: call.choice,
    arguments: value,
    rawArguments: call.rawArguments,
    ...(metadata === undefined ? {} : { providerMetadata: metadata }),
    ...(repaired === undefined ? {} : { repaired }),
  };
  return ok(data);
}

/** The result of a custom tool's closed call: its text, whole, as its input. */
function customResultOf(call: TrackedCall, finishReason: FinishReason | undefined): ToolCallResult {
  const cut = cutReason(finishReason);
  if (cut !== undefined) return fail(new ToolStreamError('incomplete', { toolCall: callContext(call), reason: cut }));
  if (call.name === '') return fail(new ToolStreamError('missing-name', { toolCall: callContext(call) }));
  const metadata = metadataOf(call);
  const input = call.rawArguments;
  const data: ToolCall = {
    id: call.id,
    name: call.name,
    index: call.index,
    choice: call.choice,
    kind: 'custom',
    input,
    arguments: input,
    rawArguments: input,
    ...(metadata === undefined ? {} : { providerMetadata: metadata }),
  };
  return ok(data);
}
