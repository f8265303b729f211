/**
 * The usage of a tool loop's steps: each `step-end` carries its step's usage, `done` the sum.
 *
 * @module
 */
import { defer, map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Usage } from '../events';
import { addUsage, usageCounts } from '../internal/usage';
import type { ToolLoopItem } from './loopItems';

/**
 * Put usage on a tool loop's items, as `totalUsage()` counts it: per step the last `usage` event
 * of its stream (the most complete report), summed over the steps.
 *
 * 1. A `step-end` gets `usage`: its step's last report (counts only), when the step reported any.
 * 2. `done` gets `usage`: the sum over every step that reported usage, when any did.
 * 3. Other items pass unchanged; state is per subscription.
 *
 * @return An operator over the loop's items.
 */
export function withLoopUsage<Run>(): MonoTypeOperatorFunction<ToolLoopItem<Run>> {
  return (items) =>
    defer(() => {
      let step: Usage | undefined;
      let total: Usage | undefined;
      return items.pipe(
        map((item): ToolLoopItem<Run> => {
          switch (item.type) {
            case 'step-start':
              step = undefined;
              return item;
            case 'event':
              if (item.event.type === 'usage') step = usageCounts(item.event);
              return item;
            case 'step-end':
              if (step === undefined) return item;
              total = total === undefined ? step : addUsage(total, step);
              return { ...item, usage: step };
            case 'done':
              return total === undefined ? item : { ...item, usage: total };
            default:
              return item;
          }
        }),
      );
    });
}
