/**
 * Turn a closed call into its {@link ToolCallResult}.
 *
 * @module
 */
import { ArgumentsTooLargeError, IncompleteToolCallError, MalformedArgumentsError } from '../errors';
import { parseArguments, type ParsedArguments } from '../parse/arguments';
import { fail, ok, type ToolCall, type ToolCallResult } from '../result';
import { callContext, type TrackedCall } from './tracker';

/** Provider metadata of a call, plus the wire id when the call's id differs from it. */
function metadataOf(call: TrackedCall): ToolCall['providerMetadata'] {
  if (call.wireId !== undefined && call.wireId !== call.id) return { ...call.metadata, wireId: call.wireId };
  if (call.wireId === undefined) return { ...call.metadata, idGenerated: true };
  return call.metadata;
}

/**
 * The result of a closed call: its parsed arguments, or the typed reason it failed. A call that
 * does not parse is `malformed-arguments`, unless its choice finished with `length`: then the
 * token limit cut it, and it is `incomplete`.
 */
/** Parses a closed call's argument text (the default: `parseArguments(call.rawArguments)`). */
export type ArgumentsParser = (call: TrackedCall) => ParsedArguments;

const defaultParser: ArgumentsParser = (call) => parseArguments(call.rawArguments);

export function resultOf(call: TrackedCall, parse: ArgumentsParser = defaultParser): ToolCallResult {
  const ending = call.ending;
  if (ending === undefined) return fail(new IncompleteToolCallError(callContext(call), 'stream-ended'));
  if (ending.kind === 'incomplete') return fail(new IncompleteToolCallError(callContext(call), ending.reason));
  if (ending.kind === 'too-large') return fail(new ArgumentsTooLargeError(callContext(call), ending.limit));
  const parsed = parse(call);
  if (!parsed.ok) {
    if (ending.finishReason === 'length') return fail(new IncompleteToolCallError(callContext(call), 'length'));
    return fail(new MalformedArgumentsError(callContext(call), parsed.message, parsed.position));
  }
  const metadata = metadataOf(call);
  const data: ToolCall = {
    id: call.id,
    name: call.name,
    index: call.index,
    choice: call.choice,
    arguments: parsed.value,
    rawArguments: call.rawArguments,
    ...(metadata === undefined ? {} : { providerMetadata: metadata }),
  };
  return ok(data);
}
