/**
 * Every call's updates in one stream, in wire order: `groupToolCalls()` with the groups merged (what
 * the specs compare against other views of the same calls).
 */
import { mergeAll, type OperatorFunction } from 'rxjs';
import { groupToolCalls, type StreamEvent, type ToolCallsOptions, type ToolCallUpdate } from 'rxjs-tool-calls';

export function toolCallUpdates(options: ToolCallsOptions = {}): OperatorFunction<StreamEvent, ToolCallUpdate> {
  return (events) => events.pipe(groupToolCalls(options), mergeAll());
}
