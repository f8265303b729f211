/**
 * `scanToolCalls()`: the reducer as an rxjs `scan`, with the stream's end read as its last input.
 *
 * @module
 */
import { catchError, concat, defer, of, scan, throwError, type OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import { createToolCallsState, reduceToolCalls, type ResolvedLimits, type StreamEnd, type ToolCallsInput, type ToolCallsState } from './reducer';

const COMPLETE: StreamEnd = { type: 'complete' };

/**
 * The accumulator after each event, then after the stream's end: `scan(reduceToolCalls, state)` over
 * the events followed by `{ type: 'complete' }`; a failure (of the source, or the reducer's own
 * `too-many-tool-calls`) is reduced as `{ type: 'error', error }`, emitted, then passed on. One
 * accumulator per subscription; each emission is that same object, to be read before the next.
 *
 * @param limits The reducer's limits, resolved once by the operator.
 */
export function scanToolCalls(limits: ResolvedLimits): OperatorFunction<StreamEvent, ToolCallsState> {
  return (source) =>
    defer(() => {
      const state = createToolCallsState(limits);
      return concat(source, of(COMPLETE)).pipe(
        scan<ToolCallsInput, ToolCallsState>(reduceToolCalls, state),
        catchError((error: unknown) =>
          concat(
            of(reduceToolCalls(state, { type: 'error', error })),
            throwError(() => error),
          ),
        ),
      );
    });
}
