/**
 * Events and results from one subscription: what compositions that show both read (`mergeStreams`,
 * the CLI, `toolLoop`). Runs the reducer and the result builder per event, as `toolCalls()` does.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import type { ToolCallsOptions, TrackedCall } from '../calls/call';
import { CallDriver, callsConfig, type CallSink, type CallsConfig } from '../calls/driver';
import type { StreamEvent } from '../events';
import { operate, type InputHandler } from '../internal/operate';
import { resultOf } from '../parse/results';
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

/** One subscription: each event out, then the results of the calls it closed (the driver's sink). */
class EventsAndResults implements InputHandler<StreamEvent>, CallSink {
  private readonly driver: CallDriver;

  constructor(
    private readonly out: Subscriber<EventOrResult>,
    config: CallsConfig,
    private readonly withEvents: boolean,
  ) {
    this.driver = new CallDriver(config, this);
  }

  next(event: StreamEvent): void {
    if (this.withEvents) this.out.next({ type: 'event', event });
    this.driver.event(event);
  }

  complete(): void {
    this.driver.complete();
  }

  error(error: unknown): void {
    this.driver.error(error);
  }

  callFragment(): void {}

  callClosed(call: TrackedCall): void {
    this.out.next({ type: 'result', result: resultOf(call, undefined, this.driver.config.repair) });
  }
}

/**
 * Each event, then the results it completes (validated with `tools` when given); on an error, the
 * open calls' `incomplete` results, then the error. `events: false` leaves the events out. (Internal:
 * its options are checked by the public function that uses it.)
 */
export function eventsAndResults(options: ToolCallsOptions & { readonly tools?: ToolsInput; readonly events?: boolean } = {}): OperatorFunction<StreamEvent, EventOrResult> {
  const config = callsConfig(options);
  const withEvents = options.events !== false;
  const items = operate<StreamEvent, EventOrResult>((subscriber) => new EventsAndResults(subscriber, config, withEvents));
  const tools = options.tools;
  if (tools === undefined) return items;
  const validate = validating<EventOrResult, EventOrResult>(
    tools,
    (item) => (item.type === 'result' ? item.result : undefined),
    (_item, result) => ({ type: 'result', result }),
  );
  return (source) => source.pipe(items, validate);
}
