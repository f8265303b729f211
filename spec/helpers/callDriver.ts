/**
 * The reducer, driven as every operator drives it (`src/calls/driver.ts`), for specs of the identity
 * rules: feed inputs, read which calls each changed and every call so far.
 */
import type { ToolCallsOptions, TrackedCall } from '../../src/calls/call';
import { CallDriver, callsConfig } from '../../src/calls/driver';
import type { StreamEvent } from '../../src/events';

/** What a driver reads: an event, or the stream's end. */
export type DriverInput = StreamEvent | { readonly type: 'complete' } | { readonly type: 'error'; readonly error: unknown };

/** A driven reducer: `step` applies one input and returns the calls it changed, in the order the driver told them. */
export interface Tracker {
  /** Apply one input; the calls it grew or closed, each once, in order (throws what the reducer throws, after closing the open calls). */
  step(input: DriverInput): TrackedCall[];
  /** The fragment the last input added to a call (`''` when none). */
  readonly delta: string;
  /** Every call so far. */
  readonly calls: ReadonlyArray<TrackedCall>;
  /** How many calls are open. */
  readonly openCount: number;
}

export function tracker(options: ToolCallsOptions = {}): Tracker {
  let changed: TrackedCall[] = [];
  let delta = '';
  const add = (call: TrackedCall): void => {
    if (changed[changed.length - 1] !== call) changed.push(call);
  };
  const driver = new CallDriver(callsConfig(options), {
    callFragment: (call, fragment) => {
      delta = fragment;
      add(call);
    },
    callClosed: add,
  });
  return {
    step(input) {
      changed = [];
      delta = '';
      if (input.type === 'complete') driver.complete();
      else if (input.type === 'error') driver.error(input.error);
      else driver.event(input);
      return changed;
    },
    get delta() {
      return delta;
    },
    get calls() {
      return driver.tracked;
    },
    get openCount() {
      return driver.openCount;
    },
  };
}
