/**
 * `loopEvents()`: a tool loop's items as stream events, for the encoders (a UI backend that runs the
 * loop and answers `useChat` or an AG-UI client).
 *
 * @module
 */
import { concat, defer, from, mergeMap, type OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import type { ToolLoopItem } from './loopItems';

/**
 * The events of a tool loop's items: each step's stream events as they are, a `tool-approval` as
 * a `tool-approval-request` (its `approvalId` is the call's id), a `tool-result` as a `tool-result`
 * event (the output; a failure's message as `error`; a `tool-denied` one as `denied: true`), a
 * `tool-progress` as a `tool-result` event with `preliminary: true`. A step's `done` event is held until
 * the step's end (its tools' results come before the encoded stream's end). The
 * other items carry no event. Piped into `encodeAiSdkUi()` they become `tool-approval-request`,
 * `tool-output-available`, `tool-output-error` and `tool-output-denied` chunks; into `encodeAgUi()`,
 * `TOOL_CALL_RESULT` events and the run's interrupt outcome.
 *
 * ```text
 * --e--A--p--r--|   e: event item, A: tool-approval, p: tool-progress, r: tool-result
 *   loopEvents()
 * --e--a--q--t--|   e: its event, a: tool-approval-request, q: tool-result (preliminary), t: tool-result
 * ```
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { encodeAiSdkUi } from 'rxjs-tool-calls/gateway';
 * import { loopEvents, type ToolLoopItem } from 'rxjs-tool-calls/tools';
 *
 * declare const loop$: Observable<ToolLoopItem>;
 * loop$.pipe(loopEvents(), encodeAiSdkUi()).subscribe((sse) => process.stdout.write(sse));
 * ```
 *
 * @return An operator from {@link ToolLoopItem}s to `StreamEvent`s.
 */
export function loopEvents(): OperatorFunction<ToolLoopItem<unknown>, StreamEvent> {
  return (items) =>
    defer(() => {
      // A step's `done` waits for its tools: the results of a step belong before the stream's end.
      let ends: StreamEvent[] = [];
      const flush = (): StreamEvent[] => {
        const out = ends;
        ends = [];
        return out;
      };
      return items.pipe(
        mergeMap((item): StreamEvent[] => {
          if (item.type === 'event' && item.event.type === 'done') {
            ends.push(item.event);
            return [];
          }
          if (item.type === 'step-end' || item.type === 'paused' || item.type === 'done') return flush();
          return eventsOf(item);
        }),
        // An output that ends without a step's end (an error, a `takeWhile`) still closes its step.
        (source) =>
          concat(
            source,
            defer(() => from(flush())),
          ),
      );
    });
}

/** The events of one item (a step's `done` aside). */
function eventsOf(item: ToolLoopItem<unknown>): StreamEvent[] {
  {
    switch (item.type) {
      case 'event':
        return [item.event];
      case 'tool-approval':
        return [{ type: 'tool-approval-request', choice: 0, id: item.request.call.id, approvalId: item.request.call.id }];
      case 'tool-progress':
      case 'tool-result': {
        const result = item.result;
        if (result.success) {
          const data = result.data as { readonly call: { readonly id: string }; readonly output?: unknown };
          return [{ type: 'tool-result', choice: 0, id: data.call.id, output: data.output ?? null, ...(item.type === 'tool-progress' ? { preliminary: true } : {}) }];
        }
        const id = result.error.toolCall.id;
        return [result.error.code === 'tool-denied' ? { type: 'tool-result', choice: 0, id, denied: true } : { type: 'tool-result', choice: 0, id, error: result.error.message }];
      }
      default:
        return [];
    }
  }
}
