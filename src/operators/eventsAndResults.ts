/**
 * Events and results from one subscription: what compositions that show both read (`mergeStreams`,
 * the CLI, `toolLoop`). Runs the reducer and the result builder per event, as `toolCalls()` does.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import { createToolCallsState, reduceToolCalls, resolveLimits, type ToolCallsInput } from '../calls/reducer';
import type { StreamEvent } from '../events';
import { operate } from '../internal/operate';
import { resultOf, type ToolCallsOptions } from '../parse/results';
import type { ToolsInput } from '../parse/validate';
import type { ToolCallResult } from '../result';
import { validating } from './validateResults';

/** An event, or a call's result. */
export type EventOrResult =
  | {
      /** An event, as `readStreamEvents()` emits it. */
      readonly type: 'event';
      /** The event. */
      readonly event: StreamEvent;
    }
  | {
      /** A call's result, as `toolCalls()` emits it. */
      readonly type: 'result';
      /** The result. */
      readonly result: ToolCallResult;
    };

/**
 * Each event, then the results it completes (validated with `tools` when given); on an error, the
 * open calls' `incomplete` results, then the error. `events: false` leaves the events out.
 */
export function eventsAndResults(options: ToolCallsOptions & { readonly tools?: ToolsInput; readonly events?: boolean } = {}): OperatorFunction<StreamEvent, EventOrResult> {
  const limits = resolveLimits(options);
  const repair = options.repairArguments !== false;
  const withEvents = options.events !== false;
  const items = operate<StreamEvent, EventOrResult>((subscriber) => {
    const state = createToolCallsState(limits);
    const step = (input: ToolCallsInput): void => {
      for (const call of reduceToolCalls(state, input).changed) if (call.ending !== undefined) subscriber.next({ type: 'result', result: resultOf(call, undefined, repair) });
    };
    return {
      next: (event) => {
        if (withEvents) subscriber.next({ type: 'event', event });
        try {
          step(event);
        } catch (error) {
          step({ type: 'error', error });
          throw error;
        }
      },
      complete: () => step({ type: 'complete' }),
      error: (error) => step({ type: 'error', error }),
    };
  });
  const tools = options.tools;
  if (tools === undefined) return items;
  const validate = validating<EventOrResult, EventOrResult>(
    tools,
    (item) => (item.type === 'result' ? item.result : undefined),
    (_item, result) => ({ type: 'result', result }),
  );
  return (source) => source.pipe(items, validate);
}
